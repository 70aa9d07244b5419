// Swimlane assets: the swimlane page's style sheet and script, kept apart from the code that
// writes the page (swimlanes_assets.h).
#include "report/swimlanes_assets.h"

namespace preemptcheck::report {
namespace {

// The page's style sheet. System fonts only; colours per lane are CSS variables so the
// legend, the headings and the chips agree. Printing drops the interactive parts, keeps
// the colours, repeats the lane headings on every page and shows what each step changed.
constexpr std::string_view kStyle = R"css(
:root {
  --ink: #1f2933; --muted: #616e7c; --rule: #d9e2ec; --paper: #ffffff; --wash: #f5f7fa;
  --breaks: #c81e1e; --breaks-wash: #fdecec;
  --user: #52606d; --flush: #b7791f; --scheduling: #1d4ed8; --binding: #0f766e;
  --executor: #6d28d9; --api-server: #166534; --informer: #0e7490; --kubelet: #c2410c;
  --mono: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--wash); color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Roboto, sans-serif; }
.page { max-width: 1480px; margin: 0 auto; padding: 24px 28px 40px; }
header.summary { background: var(--paper); border: 1px solid var(--rule); border-radius: 10px;
  padding: 18px 22px; display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr);
  gap: 8px 32px; }
.kicker { grid-column: 1 / -1; font-size: 12px; letter-spacing: .08em; text-transform: uppercase;
  color: var(--muted); }
h1 { grid-column: 1 / -1; margin: 0; font-size: 22px; font-weight: 650; }
h1 .property { font-family: var(--mono); color: var(--breaks); }
h1.holds .property { color: var(--api-server); }
.message { grid-column: 1 / -1; margin: 4px 0 8px; padding: 10px 14px; border-left: 4px solid var(--breaks);
  background: var(--breaks-wash); border-radius: 0 6px 6px 0; font-size: 15px; }
.loop-start td { padding: 6px 10px; border-top: 2px dashed var(--breaks); font-weight: 600; }
.diverged { grid-column: 1 / -1; margin: 4px 0; padding: 10px 14px; border: 2px solid var(--breaks);
  border-radius: 6px; font-size: 15px; }
h1.holds ~ .message { border-left-color: var(--api-server); background: #ecf7ef; }
dl.meta { margin: 0; display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 6px 14px;
  align-content: start; }
dl.meta dt { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .05em;
  padding-top: 2px; }
dl.meta dd { margin: 0; }
dl.meta ul { margin: 0; padding: 0; list-style: none; font-family: var(--mono); font-size: 12.5px; }
code, .mono { font-family: var(--mono); font-size: 12.5px; }
code.reproduce { display: block; padding: 6px 10px; background: #1f2933; color: #f5f7fa;
  border-radius: 6px; user-select: all; white-space: pre-wrap; word-break: break-all; }
.legend { margin: 16px 0 10px; display: flex; flex-wrap: wrap; gap: 8px 18px; align-items: center;
  font-size: 12.5px; color: var(--muted); }
.legend .key { display: inline-flex; align-items: center; gap: 6px; }
.swatch { width: 12px; height: 12px; border-radius: 3px; display: inline-block; }
.legend .hint { margin-left: auto; }
.toolbar button { font: inherit; font-size: 12.5px; padding: 3px 10px; border: 1px solid var(--rule);
  background: var(--paper); border-radius: 6px; cursor: pointer; color: var(--ink); }
.toolbar button:hover { border-color: var(--muted); }
.timeline { position: relative; overflow-x: auto; background: var(--paper);
  border: 1px solid var(--rule); border-radius: 10px; }
svg.arrows { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
svg.arrows path.arrow { fill: none; stroke: #7b8794; stroke-width: 1.4; stroke-dasharray: 4 3;
  opacity: .75; }
svg.arrows path.arrow.lit { stroke: var(--ink); stroke-width: 2; opacity: 1; stroke-dasharray: none; }
table.lanes { border-collapse: separate; border-spacing: 0; table-layout: fixed; width: 100%;
  min-width: 1320px; }
col.c-step { width: 56px; } col.c-lane { width: 128px; } col.c-api-server { width: 176px; }
col.c-what { width: auto; }
thead th { position: sticky; top: 0; z-index: 2; background: var(--paper); text-align: left;
  vertical-align: bottom; padding: 10px 8px 8px; border-bottom: 2px solid var(--rule);
  font-size: 12.5px; font-weight: 650; }
thead th.lane-head { border-top: 4px solid var(--lane); color: var(--lane); }
thead th .blurb { display: block; font-weight: 400; color: var(--muted); font-size: 11px;
  line-height: 1.3; margin-top: 2px; }
td { vertical-align: top; padding: 7px 8px; border-bottom: 1px solid #eef2f6; }
td.lane { border-left: 1px solid #eef2f6; background: linear-gradient(var(--lane-wash), var(--lane-wash)); }
tbody.step { cursor: pointer; }
tbody.step:hover td, tbody.step:focus-within td { background-color: #f0f4ff; }
tbody.step:focus { outline: none; }
tbody.step:focus-visible tr.main td:first-child { box-shadow: inset 3px 0 0 var(--scheduling); }
td.num { text-align: center; position: relative; }
td.num .dot { display: inline-flex; width: 28px; height: 28px; border-radius: 50%;
  align-items: center; justify-content: center; background: var(--paper); border: 2px solid #9aa5b1;
  font-weight: 650; font-size: 12.5px; position: relative; z-index: 1; }
td.num::before { content: ""; position: absolute; left: 50%; top: 0; bottom: 0; width: 2px;
  margin-left: -1px; background: #cbd2d9; }
tbody.initial td.num .dot { border-style: dashed; }
.act { border-radius: 6px; padding: 4px 7px; background: var(--paper); border: 1px solid var(--lane);
  border-left: 4px solid var(--lane); box-shadow: 0 1px 2px rgba(31, 41, 51, .08); }
.act .actor { display: block; font-size: 10.5px; color: var(--lane); text-transform: uppercase;
  letter-spacing: .04em; font-weight: 650; }
.act .verb { font-family: var(--mono); font-size: 11.5px; overflow-wrap: anywhere; }
.write { font-family: var(--mono); font-size: 11px; line-height: 1.3; padding: 3px 6px; margin: 0 0 4px;
  border-radius: 4px; background: #e8f5ec; border: 1px solid #b7dfc4; word-break: break-word; }
.write::before { content: "\270E  "; color: var(--api-server); }
.cause { display: inline-block; margin-top: 4px; font-size: 10.5px; color: var(--muted);
  font-family: var(--mono); }
td.what { color: var(--ink); }
td.what .comment { display: block; }
.badge { display: inline-block; margin-top: 4px; padding: 1px 8px; border-radius: 10px;
  font-size: 11.5px; font-weight: 650; background: var(--breaks); color: #fff; }
.badge.also { background: #fff; color: var(--breaks); border: 1px solid var(--breaks); }
tbody.breaks td { background-color: var(--breaks-wash); }
tbody.breaks tr.main td { border-top: 2px solid var(--breaks); }
tbody.breaks td.num .dot { background: var(--breaks); border-color: var(--breaks); color: #fff; }
tbody.breaks .act { box-shadow: 0 0 0 2px var(--breaks-wash), 0 0 0 3px var(--breaks); }
tr.detail { display: none; }
tbody.open tr.detail { display: table-row; }
tr.detail td { background: #fafbfc; cursor: default; padding: 10px 14px 14px 72px; }
tbody.breaks tr.detail td { background: #fff7f7; }
.changes h3, .state h3 { margin: 0 0 4px; font-size: 11.5px; text-transform: uppercase;
  letter-spacing: .05em; color: var(--muted); font-weight: 650; }
.changes ul { margin: 0 0 8px; padding: 0; list-style: none; font-family: var(--mono); font-size: 12px; }
.changes li { padding: 1px 6px; border-radius: 3px; white-space: pre-wrap; }
.changes li.old { color: #8a1c1c; background: #fdecec; text-decoration: line-through;
  text-decoration-color: rgba(138, 28, 28, .45); }
.changes li.new { color: #14532d; background: #e8f5ec; }
.changes li.none { color: var(--muted); }
details.state summary { cursor: pointer; color: var(--muted); font-size: 12px; }
details.state pre { margin: 6px 0 0; font-family: var(--mono); font-size: 12px; white-space: pre-wrap;
  background: var(--paper); border: 1px solid var(--rule); border-radius: 6px; padding: 8px 10px; }
footer { margin-top: 14px; color: var(--muted); font-size: 12px; }
.lane-user { --lane: var(--user); --lane-wash: transparent; }
.lane-flush { --lane: var(--flush); --lane-wash: transparent; }
.lane-scheduling { --lane: var(--scheduling); --lane-wash: rgba(29, 78, 216, .025); }
.lane-binding { --lane: var(--binding); --lane-wash: transparent; }
.lane-executor { --lane: var(--executor); --lane-wash: rgba(109, 40, 217, .025); }
.lane-api-server { --lane: var(--api-server); --lane-wash: rgba(22, 101, 52, .03); }
.lane-informer { --lane: var(--informer); --lane-wash: rgba(14, 116, 144, .025); }
.lane-kubelet { --lane: var(--kubelet); --lane-wash: transparent; }
.swatch.lane-user, .swatch.lane-flush, .swatch.lane-scheduling, .swatch.lane-binding,
.swatch.lane-executor, .swatch.lane-api-server, .swatch.lane-informer, .swatch.lane-kubelet {
  background: var(--lane); }
.swatch.breaks { background: var(--breaks); border-radius: 50%; }
.swatch.write { background: #e8f5ec; border: 1px solid #b7dfc4; }
.swatch.arrow { width: 22px; height: 0; border-top: 2px dashed #7b8794; border-radius: 0; }
@media print {
  @page { size: A4 landscape; margin: 10mm; }
  body { background: #fff; font-size: 10.5px; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .page { padding: 0; max-width: none; }
  .toolbar, .legend .hint, svg.arrows, details.state { display: none; }
  .timeline { overflow: visible; border: none; }
  table.lanes { min-width: 0; }
  thead { display: table-header-group; }
  thead th { position: static; }
  tbody.step { break-inside: avoid; }
  tr.detail { display: table-row; }
  tr.detail td { padding: 4px 8px 6px 72px; }
  tbody.initial tr.detail { display: none; }
}
)css";

// Draws the cause arrows between the API-server writes and the steps that react to them,
// opens a step's state on click (or Enter), highlights a step's arrows on hover, and marks
// the document ready so a test can tell the script ran.
constexpr std::string_view kScript = R"js(
(function () {
  "use strict";
  var box = document.getElementById("timeline");
  var svg = document.getElementById("arrows");
  var NS = svg.namespaceURI;
  function point(el, side) {
    var b = box.getBoundingClientRect(), r = el.getBoundingClientRect();
    var x = (side === "right" ? r.right : r.left) - b.left + box.scrollLeft;
    return { x: x, y: r.top + r.height / 2 - b.top + box.scrollTop };
  }
  function draw() {
    while (svg.lastChild && svg.lastChild.nodeName !== "defs") svg.removeChild(svg.lastChild);
    svg.setAttribute("width", box.scrollWidth);
    svg.setAttribute("height", box.scrollHeight);
    var targets = document.querySelectorAll("[data-cause]");
    for (var i = 0; i < targets.length; i++) {
      var to = targets[i], from = document.getElementById("w" + to.getAttribute("data-cause"));
      if (!from || !to.offsetParent || !from.offsetParent) continue;
      var a = point(from, "right"), z = point(to.closest(".act") || to, "left");
      var dx = Math.max(28, (z.x - a.x) / 2);
      var p = document.createElementNS(NS, "path");
      p.setAttribute("class", "arrow");
      p.setAttribute("data-from", from.getAttribute("data-step"));
      p.setAttribute("data-to", to.getAttribute("data-step"));
      p.setAttribute("marker-end", "url(#head)");
      p.setAttribute("d", "M" + a.x + "," + a.y + " C" + (a.x + dx) + "," + a.y + " " +
                          (z.x - dx) + "," + z.y + " " + (z.x - 2) + "," + z.y);
      svg.appendChild(p);
    }
  }
  function light(step, on) {
    var paths = svg.querySelectorAll("path.arrow");
    for (var i = 0; i < paths.length; i++) {
      var p = paths[i];
      var hit = p.getAttribute("data-from") === step || p.getAttribute("data-to") === step;
      p.classList.toggle("lit", on && hit);
    }
  }
  var steps = document.querySelectorAll("tbody.step");
  for (var i = 0; i < steps.length; i++) {
    (function (tb) {
      var main = tb.querySelector("tr.main");
      main.addEventListener("click", function () { tb.classList.toggle("open"); draw(); });
      tb.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); tb.classList.toggle("open"); draw(); }
        if (e.key === "ArrowDown" && tb.nextElementSibling) tb.nextElementSibling.focus();
        if (e.key === "ArrowUp" && tb.previousElementSibling && tb.previousElementSibling.tabIndex >= 0)
          tb.previousElementSibling.focus();
      });
      tb.addEventListener("mouseenter", function () { light(tb.getAttribute("data-step"), true); });
      tb.addEventListener("mouseleave", function () { light(tb.getAttribute("data-step"), false); });
    })(steps[i]);
  }
  function all(open) {
    for (var i = 0; i < steps.length; i++) steps[i].classList.toggle("open", open);
    draw();
  }
  document.getElementById("open-all").addEventListener("click", function () { all(true); });
  document.getElementById("close-all").addEventListener("click", function () { all(false); });
  window.addEventListener("resize", draw);
  window.addEventListener("beforeprint", draw);
  draw();
  document.body.setAttribute("data-ready", "1");
  // Whether the lanes are wider than the window shows (a test reads it at 1400 px).
  document.body.setAttribute("data-clipped", box.scrollWidth > box.clientWidth + 1 ? "1" : "0");
})();
)js";

}  // namespace

std::string_view swimlanes_style() { return kStyle; }
std::string_view swimlanes_script() { return kScript; }

}  // namespace preemptcheck::report
