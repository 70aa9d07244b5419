// Explore page: the explorer's HTML, style and script (explore_page.h). The colours and fonts
// are the swimlane page's (report/swimlanes_assets.cc); every text from the server is set as
// text, never parsed as HTML.
#include "report/explore_page.h"

namespace preemptcheck::report {
namespace {

constexpr std::string_view kPage = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>preemptcheck explore</title>
<style>
:root {
  --ink: #1f2933; --muted: #616e7c; --rule: #d9e2ec; --paper: #ffffff; --wash: #f5f7fa;
  --breaks: #c81e1e; --breaks-wash: #fdecec; --holds: #166534; --holds-wash: #ecf7ef;
  --changed: #fff4c2; --accent: #1d4ed8;
  --mono: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--wash); color: var(--ink);
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", Roboto, sans-serif; }
.page { max-width: 1480px; margin: 0 auto; padding: 20px 24px 40px; }
header { background: var(--paper); border: 1px solid var(--rule); border-radius: 10px;
  padding: 14px 20px; margin-bottom: 14px; }
.kicker { font-size: 12px; letter-spacing: .08em; text-transform: uppercase; color: var(--muted); }
h1 { margin: 2px 0 4px; font-size: 21px; font-weight: 650; }
h2 { margin: 0 0 8px; font-size: 13px; letter-spacing: .06em; text-transform: uppercase;
  color: var(--muted); }
h3 { margin: 10px 0 4px; font-size: 13px; font-weight: 650; }
.muted { color: var(--muted); }
code, .mono { font-family: var(--mono); font-size: 12.5px; }
.grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.35fr) minmax(0, 1fr);
  gap: 14px; align-items: start; }
section.card { background: var(--paper); border: 1px solid var(--rule); border-radius: 10px;
  padding: 12px 16px; margin-bottom: 14px; }
#error { display: none; border: 2px solid var(--breaks); background: var(--breaks-wash); }
#error.shown { display: block; }
ol.path { margin: 0; padding: 0; list-style: none; }
ol.path li { padding: 5px 6px; border-bottom: 1px solid #eef2f6; display: grid;
  grid-template-columns: 28px minmax(0, 1fr) auto; gap: 2px 8px; }
ol.path li.current { background: #f0f4ff; }
ol.path li.breaks .text { color: var(--breaks); font-weight: 650; }
ol.path .num { color: var(--muted); text-align: right; }
ol.path .comment { grid-column: 2 / 4; color: var(--muted); font-size: 12.5px; }
a, button.link { color: var(--accent); }
button { font: inherit; font-size: 12.5px; padding: 3px 10px; border: 1px solid var(--rule);
  background: var(--paper); border-radius: 6px; cursor: pointer; color: var(--ink); }
button:hover { border-color: var(--muted); }
button.step { font-family: var(--mono); font-weight: 600; }
table { border-collapse: collapse; width: 100%; }
td, th { text-align: left; vertical-align: top; padding: 3px 6px; border-bottom: 1px solid #eef2f6; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.key { width: 34%; color: var(--muted); }
td.value { font-family: var(--mono); font-size: 12.5px; word-break: break-word; }
tr.changed td { background: var(--changed); }
tr.changed td.value::after { content: attr(data-before); display: block; color: var(--muted);
  text-decoration: line-through; font-size: 11.5px; }
ul.steps { margin: 0; padding: 0; list-style: none; }
ul.steps li { padding: 5px 0; border-bottom: 1px solid #eef2f6; }
ul.steps .effect { display: block; color: var(--muted); font-size: 12.5px; margin-top: 2px; }
ul.disabled li { font-size: 12.5px; }
ul.disabled .why { color: var(--muted); }
tr.broken td.status { color: var(--breaks); font-weight: 650; }
tr.holds td.status { color: var(--holds); }
tr.reached td.status { color: var(--holds); font-weight: 650; }
tr.not-reached td.status { color: var(--muted); }
.tools { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 8px; }
select { font: inherit; font-size: 12.5px; }
#search-result { margin-top: 6px; font-size: 12.5px; }
</style>
</head>
<body>
<div class="page">
<header>
  <div class="kicker">preemptcheck explore</div>
  <h1 id="title">loading…</h1>
  <div id="scenario" class="muted"></div>
  <div id="switches" class="mono muted"></div>
</header>
<section class="card" id="error"><h2>This path cannot be walked</h2><div id="error-text"></div>
  <div id="error-detail" class="muted"></div><div class="tools"><a id="error-back" href="?">back</a></div></section>
<div class="grid">
<div>
  <section class="card"><h2>Path</h2>
    <ol class="path" id="path"></ol>
    <div class="tools"><a id="download" href="#" hidden>download this path as a counterexample file</a>
      <a id="swimlanes" href="#" target="_blank" rel="noopener" hidden>its swimlane page</a></div>
  </section>
  <section class="card"><h2>Properties on this path</h2>
    <table id="properties"><thead><tr><th>property</th><th>status</th></tr></thead><tbody></tbody></table>
    <div class="tools"><select id="search-property"></select>
      <button id="search" type="button">shortest violation from here</button>
      <button id="walk" type="button">a random walk from here</button>
      <button id="cancel" type="button" hidden>cancel the search</button></div>
    <div id="search-result" class="muted"></div>
  </section>
</div>
<section class="card"><h2>State after step <span id="step-number">0</span></h2><div id="state"></div></section>
<div>
  <section class="card"><h2>Enabled steps</h2><ul class="steps" id="enabled"></ul></section>
  <section class="card"><h2>Not enabled here</h2>
    <details><summary id="disabled-count"></summary><ul class="steps disabled" id="disabled"></ul></details>
  </section>
</div>
</div>
</div>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}
// The path in the URL: step words joined by commas, spaces as %20, commas kept readable.
function pathUrl(path) {
  return "?path=" + encodeURIComponent(path).replace(/%2C/g, ",");
}
function currentPath() { return new URLSearchParams(location.search).get("path") || ""; }
function go(path) { location.href = pathUrl(path); }
function stepsOf(path) { return path === "" ? [] : path.split(","); }
function ready() { document.body.dataset.ready = "1"; }

function showError(doc, path) {
  $("error").classList.add("shown");
  $("error-text").textContent = doc.error || "the server refused the request";
  let detail = "";
  if (doc.why) detail += "why: " + doc.why + ". ";
  if (doc.enabled) detail += "enabled here: " + doc.enabled;
  $("error-detail").textContent = detail;
  const back = doc.valid_path !== undefined ? doc.valid_path : "";
  $("error-back").href = pathUrl(back);
  $("error-back").textContent = "back to step " + stepsOf(back).length;
  $("title").textContent = "not enabled";
}

function render(doc) {
  const path = doc.path;
  const steps = stepsOf(path);
  $("title").textContent = doc.scenario + " — " +
      (steps.length === 0 ? "initial state" : "after step " + steps.length);
  $("scenario").textContent = doc.description;
  const sw = [];
  for (const [k, v] of Object.entries(doc.mechanisms)) sw.push(k + "=" + v);
  $("switches").textContent = "profile " + doc.profile + ": " + sw.join("  ");
  $("step-number").textContent = steps.length;

  const ol = $("path");
  const initial = el("li", steps.length === 0 ? "current" : "");
  initial.append(el("span", "num", "0"), el("span", "text", "initial state"));
  if (steps.length > 0) {
    const a = el("a", "back", "back to step 0"); a.href = pathUrl(""); a.dataset.to = "0";
    initial.append(a);
  } else initial.append(el("span"));
  ol.append(initial);
  for (const s of doc.steps) {
    const li = el("li", (s.breaks.length ? "breaks " : "") + (s.number === steps.length ? "current" : ""));
    li.dataset.step = s.number;
    li.append(el("span", "num", s.number), el("span", "text mono", s.text));
    if (s.number < steps.length) {
      const a = el("a", "back", "back to step " + s.number);
      a.href = pathUrl(steps.slice(0, s.number).join(",")); a.dataset.to = String(s.number);
      li.append(a);
    } else li.append(el("span"));
    li.append(el("span", "comment", s.comment + (s.breaks.length ? " — breaks " + s.breaks.join(", ") : "")));
    ol.append(li);
  }

  const state = $("state");
  for (const g of doc.state) {
    state.append(el("h3", "", g.component));
    const table = el("table", "component"); table.dataset.component = g.component;
    for (const line of g.lines) {
      const tr = el("tr", line.changed ? "changed" : "");
      tr.dataset.key = line.key;
      const value = el("td", "value", line.value);
      if (line.changed) value.dataset.before = line.before;
      tr.append(el("td", "key", line.key), value);
      table.append(tr);
    }
    state.append(table);
  }

  for (const s of doc.enabled) {
    const li = el("li");
    const b = el("button", "step", s.text); b.type = "button"; b.dataset.step = s.text;
    b.addEventListener("click", () => go(s.path));
    li.append(b, el("span", "effect", s.effect));
    $("enabled").append(li);
  }
  if (doc.enabled.length === 0) $("enabled").append(el("li", "muted", "nothing: the run has ended"));
  $("disabled-count").textContent = doc.disabled.length + " steps, each with why";
  for (const s of doc.disabled) {
    const li = el("li"); li.dataset.step = s.text;
    li.append(el("code", "", s.text), document.createTextNode(" — "), el("span", "why", s.why));
    $("disabled").append(li);
  }

  const tbody = $("properties").tBodies[0];
  let downloadable = null;
  for (const p of doc.properties) {
    const cls = p.status.replace(" ", "-");
    const tr = el("tr", cls); tr.dataset.property = p.name; tr.dataset.status = p.status;
    if (p.step !== null) tr.dataset.step = p.step;
    tr.title = p.statement;
    let status = p.status;
    if (p.status === "broken") status = "broken at step " + p.step;
    if (p.status === "reached") status = "reached at step " + p.step;
    if (p.kind === "always" && p.status === "holds") status = "holds so far";
    const name = el("td", "mono", p.name + (p.kind === "sometimes" ? " (witness)" : ""));
    const st = el("td", "status", status);
    if (p.message) st.append(el("div", "muted", p.message));
    tr.append(name, st);
    tbody.append(tr);
    if (p.status === "broken" && p.step === steps.length && downloadable === null) downloadable = p.name;
    if (p.kind === "always") {
      const o = el("option", "", p.name); o.value = p.name;
      if (p.status === "broken") o.disabled = true;
      $("search-property").append(o);
    }
  }
  if (downloadable !== null) {
    const a = $("download");
    a.hidden = false;
    a.href = "/counterexample.yaml" + pathUrl(path) + "&property=" + encodeURIComponent(downloadable);
    a.textContent = "download this path as a counterexample file of " + downloadable;
    a.setAttribute("download", "");
    const s = $("swimlanes");
    s.hidden = false;
    s.href = "/swimlanes.html" + pathUrl(path) + "&property=" + encodeURIComponent(downloadable);
  }
}

// A random walk from here, its seed drawn here and shown with why it ended, after the page
// loads its new path (the seed and path reproduce it: /api/walk?path=…&seed=…).
async function walk() {
  const seed = Math.floor(Math.random() * 4294967296);
  const out = $("search-result");
  out.textContent = "walking from here with seed " + seed + "…";
  try {
    const r = await fetch("/api/walk" + pathUrl(currentPath()) + "&seed=" + seed);
    const doc = await r.json();
    if (!r.ok) { out.textContent = doc.error; return; }
    sessionStorage.setItem("walk", "random walk, seed " + doc.seed + ": " + doc.steps +
                           " steps; " + doc.stopped);
    go(doc.path);
  } catch (e) {
    out.textContent = "the walk failed: " + e;
  }
}

// The search runs in the background on the server (/api/search/start); the page shows its
// progress every 400 ms and can cancel it; its path becomes the page's when it finds one.
async function search() {
  const property = $("search-property").value;
  const out = $("search-result");
  out.textContent = "searching breadth-first from here for " + property + "…";
  $("search").disabled = true;
  try {
    const r = await fetch("/api/search/start" + pathUrl(currentPath()) + "&property=" + encodeURIComponent(property));
    const started = await r.json();
    if (!r.ok) { out.textContent = started.error; return; }
    $("cancel").hidden = false;
    for (;;) {
      await new Promise(done => setTimeout(done, 400));
      const s = await (await fetch("/api/search/status")).json();
      if (s.id !== started.id) { out.textContent = "another search replaced this one"; return; }
      if (s.running) {
        out.textContent = "searching breadth-first from here for " + property + ": " +
            s.states + " states, depth " + s.depth + "…";
        continue;
      }
      const doc = s.result;
      if (doc.error) { out.textContent = doc.error; return; }
      if (doc.found) { go(doc.path); return; }
      out.textContent = property + " does not break from here" +
          (doc.limit === "interrupted" ? " in the " + doc.states + " states searched before it was cancelled"
           : doc.limit ? " within the search's limit (" + doc.limit + ", " + doc.states + " states)"
           : " (all " + doc.states + " states reachable from here searched)");
      return;
    }
  } catch (e) {
    out.textContent = "the search failed: " + e;
  } finally {
    $("search").disabled = false;
    $("cancel").hidden = true;
  }
}

async function load() {
  const path = currentPath();
  try {
    const r = await fetch("/api/state" + pathUrl(path));
    const doc = await r.json();
    if (!r.ok) showError(doc, path); else render(doc);
  } catch (e) {
    showError({error: "the server did not answer: " + e}, path);
  }
  ready();
}
$("search").addEventListener("click", search);
$("walk").addEventListener("click", walk);
$("cancel").addEventListener("click", () => fetch("/api/search/cancel"));
if (sessionStorage.getItem("walk")) {
  $("search-result").textContent = sessionStorage.getItem("walk");
  sessionStorage.removeItem("walk");
}
load();
</script>
</body>
</html>
)html";

}  // namespace

std::string_view explore_page_html() { return kPage; }

}  // namespace preemptcheck::report
