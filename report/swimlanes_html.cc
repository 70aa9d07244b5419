// Swimlanes: renders a Timeline as one self-contained HTML page (see swimlanes_html.h).
#include "report/swimlanes_html.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>

#include "report/swimlanes_assets.h"

namespace preemptcheck::report {
namespace {

void append_list(std::string& out, const std::vector<std::string>& lines) {
  out += "<ul>";
  for (const std::string& line : lines)
    out += fmt::format("<li>{}</li>", html_escape(line));
  out += "</ul>";
}

// What changed between two states given as lines: each line that differs by position, as
// the old line struck out and the new one.
void append_changes(std::string& out, const std::vector<std::string>& before,
                    const std::vector<std::string>& after) {
  out += "<div class=\"changes\"><h3>Changed by this step</h3><ul>";
  bool any = false;
  const std::size_t n = std::max(before.size(), after.size());
  for (std::size_t i = 0; i < n; ++i) {
    const bool has_old = i < before.size();
    const bool has_new = i < after.size();
    if (has_old && has_new && before[i] == after[i])
      continue;
    if (has_old)
      out += fmt::format("<li class=\"old\">{}</li>", html_escape(before[i]));
    if (has_new)
      out += fmt::format("<li class=\"new\">{}</li>", html_escape(after[i]));
    any = true;
  }
  if (!any)
    out += "<li class=\"none\">no visible change</li>";
  out += "</ul></div>";
}

void append_state(std::string& out, std::string_view summary,
                  const std::vector<std::string>& lines) {
  out += fmt::format("<details class=\"state\"><summary>{}</summary><pre>", summary);
  for (const std::string& line : lines)
    out += html_escape(line) + "\n";
  out += "</pre></details>";
}

std::string_view plural(std::size_t n) { return n == 1 ? "" : "s"; }

const TimelineStep* breaking_step(const Timeline& t) {
  for (const TimelineStep& s : t.steps) {
    if (s.breaks)
      return &s;
  }
  return nullptr;
}

void append_header(std::string& out, const Timeline& t) {
  const TimelineStep* brk = breaking_step(t);
  out += "<header class=\"summary\">";
  out += "<div class=\"kicker\">preemptcheck counterexample &middot; swimlanes</div>";
  if (t.loop) {
    const std::size_t n = t.steps.size();
    const std::string what = *t.loop == n ? fmt::format("the run stops after step {}", n)
                             : *t.loop + 1 == n
                                 ? fmt::format("after step {}, step {} repeats forever", *t.loop, n)
                                 : fmt::format("after step {}, steps {}&ndash;{} repeat forever",
                                               *t.loop, *t.loop + 1, n);
    out += fmt::format("<h1 id=\"verdict\"><span class=\"property\">{}</span>: {}</h1>",
                       html_escape(t.property), what);
  } else if (brk != nullptr) {
    out += fmt::format(
        "<h1 id=\"verdict\"><span class=\"property\">{}</span> breaks at step {} of {}</h1>",
        html_escape(t.property), brk->number, t.steps.size());
  } else {
    out += fmt::format(
        "<h1 id=\"verdict\" class=\"holds\"><span class=\"property\">{}</span> did not break in "
        "these {} step{}</h1>",
        html_escape(t.property), t.steps.size(), plural(t.steps.size()));
  }
  if (!t.diverged.empty()) {
    out += fmt::format(
        "<p class=\"diverged\" id=\"diverged\"><strong>Diverged:</strong> this replay is not "
        "what the file records: {}</p>",
        html_escape(t.diverged));
  }
  out += fmt::format("<p class=\"message\">{}</p>", html_escape(t.message));
  out += "<dl class=\"meta\">";
  out += fmt::format("<dt>Scenario</dt><dd>{}</dd>", html_escape(t.scenario));
  out += fmt::format("<dt>Switches</dt><dd><code>{}</code></dd>", html_escape(t.switches));
  if (!t.found_by.empty()) {
    out += fmt::format("<dt>Found by</dt><dd>{}</dd>", html_escape(t.found_by));
  }
  out += fmt::format("<dt>Reproduce</dt><dd><code class=\"reproduce\">{}</code></dd>",
                     html_escape(t.reproduce));
  out += "</dl><dl class=\"meta\"><dt>Cluster</dt><dd>";
  append_list(out, t.cluster);
  out += "</dd></dl></header>";
}

void append_legend(std::string& out) {
  out += "<section class=\"legend\" aria-label=\"legend\">";
  for (Lane lane : all_lanes()) {
    out += fmt::format("<span class=\"key\"><span class=\"swatch lane-{}\"></span>{}</span>",
                       lane_id(lane), lane_title(lane));
  }
  out +=
      "<span class=\"key\"><span class=\"swatch write\"></span>API write (watch event)</span>"
      "<span class=\"key\"><span class=\"swatch arrow\"></span>write &rarr; the step it "
      "causes</span>"
      "<span class=\"key\"><span class=\"swatch breaks\"></span>the property breaks</span>"
      "<span class=\"hint toolbar\">click a step for its state &nbsp;"
      "<button type=\"button\" id=\"open-all\">open all</button> "
      "<button type=\"button\" id=\"close-all\">close all</button></span>";
  out += "</section>";
}

void append_head_row(std::string& out) {
  out += "<colgroup><col class=\"c-step\">";
  for (Lane lane : all_lanes()) {
    out +=
        lane == Lane::kApiServer ? "<col class=\"c-lane c-api-server\">" : "<col class=\"c-lane\">";
  }
  out += "<col class=\"c-what\"></colgroup><thead><tr><th>Step</th>";
  for (Lane lane : all_lanes()) {
    out += fmt::format(
        "<th class=\"lane-head lane-{0}\" data-lane=\"{0}\" scope=\"col\">{1}"
        "<span class=\"blurb\">{2}</span></th>",
        lane_id(lane), lane_title(lane), lane_blurb(lane));
  }
  out += "<th>What happened</th></tr></thead>";
}

void append_step(std::string& out, const TimelineStep& s, const std::vector<std::string>& before,
                 std::size_t columns) {
  out += fmt::format("<tbody class=\"step{}{}\" id=\"step-{}\" data-step=\"{}\" tabindex=\"0\">",
                     s.breaks ? " breaks" : "", s.breaks ? " open" : "", s.number, s.number);
  out += fmt::format("<tr class=\"main\"><td class=\"num\"><span class=\"dot\">{}</span></td>",
                     s.number);
  for (Lane lane : all_lanes()) {
    out += fmt::format("<td class=\"lane lane-{}\">", lane_id(lane));
    if (lane == s.lane) {
      out += "<div class=\"act\">";
      if (!s.actor.empty()) {
        out += fmt::format("<span class=\"actor\">{}</span>", html_escape(s.actor));
      }
      out += fmt::format("<span class=\"verb\">{}</span>", html_escape(s.action));
      for (const TimelineCause& c : s.causes) {
        out += fmt::format(
            "<span class=\"cause\" data-cause=\"{0}-{1}\" data-step=\"{2}\">&larr; write of step "
            "{0}</span>",
            c.step, c.write, s.number);
      }
      out += "</div>";
    }
    if (lane == Lane::kApiServer) {
      for (std::size_t i = 0; i < s.writes.size(); ++i) {
        out += fmt::format("<div class=\"write\" id=\"w{0}-{1}\" data-step=\"{0}\">{2}</div>",
                           s.number, i, html_escape(s.writes[i]));
      }
    }
    out += "</td>";
  }
  out +=
      fmt::format("<td class=\"what\"><span class=\"comment\">{}</span>", html_escape(s.comment));
  for (const std::string& v : s.violations) {
    out += fmt::format("<span class=\"badge{}\">&#x2716; {}</span> ", s.breaks ? "" : " also",
                       html_escape(v));
  }
  out += "</td></tr>";
  out += fmt::format("<tr class=\"detail\"><td colspan=\"{}\">", columns);
  append_changes(out, before, s.state);
  append_state(out, fmt::format("The whole state after step {}", s.number), s.state);
  out += "</td></tr></tbody>";
}

}  // namespace

const std::array<Lane, kLaneCount>& all_lanes() {
  static const std::array<Lane, kLaneCount> lanes = {
      Lane::kUser,     Lane::kQueueFlush, Lane::kSchedulingThread, Lane::kBinding,
      Lane::kExecutor, Lane::kApiServer,  Lane::kInformer,         Lane::kKubelet};
  return lanes;
}

std::string_view lane_title(Lane lane) {
  switch (lane) {
    case Lane::kUser:
      return "Users";
    case Lane::kQueueFlush:
      return "Queue flush";
    case Lane::kSchedulingThread:
      return "Scheduling thread";
    case Lane::kBinding:
      return "Binding";
    case Lane::kExecutor:
      return "Executor jobs";
    case Lane::kApiServer:
      return "API server";
    case Lane::kInformer:
      return "Informer";
    case Lane::kKubelet:
      return "Kubelet";
  }
  return "?";
}

std::string_view lane_id(Lane lane) {
  switch (lane) {
    case Lane::kUser:
      return "user";
    case Lane::kQueueFlush:
      return "flush";
    case Lane::kSchedulingThread:
      return "scheduling";
    case Lane::kBinding:
      return "binding";
    case Lane::kExecutor:
      return "executor";
    case Lane::kApiServer:
      return "api-server";
    case Lane::kInformer:
      return "informer";
    case Lane::kKubelet:
      return "kubelet";
  }
  return "?";
}

std::string_view lane_blurb(Lane lane) {
  switch (lane) {
    case Lane::kUser:
      return "pods created later";
    case Lane::kQueueFlush:
      return "periodic move out of the unschedulable pool";
    case Lane::kSchedulingThread:
      return "one whole cycle per step";
    case Lane::kBinding:
      return "binding cycles, off the scheduling thread";
    case Lane::kExecutor:
      return "preemption jobs, one per preemptor";
    case Lane::kApiServer:
      return "ground truth: each write is a watch event";
    case Lane::kInformer:
      return "delivers events in order";
    case Lane::kKubelet:
      return "finishes terminating pods";
  }
  return "?";
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string render_swimlanes_html(const Timeline& t) {
  std::string out;
  out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">";
  out += fmt::format("<title>{}</title>", html_escape(t.title));
  out += fmt::format("<style>{}</style></head>\n", swimlanes_style());
  out += "<body><div class=\"page\">";
  append_header(out, t);
  append_legend(out);
  out += "<div class=\"timeline\" id=\"timeline\">";
  out +=
      "<svg class=\"arrows\" id=\"arrows\" aria-hidden=\"true\"><defs><marker id=\"head\" "
      "viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" "
      "orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#52606d\"/>"
      "</marker></defs></svg>";
  out += "<table class=\"lanes\">";
  append_head_row(out);
  const std::size_t columns = kLaneCount + 2;
  out += "<tbody class=\"step initial\" id=\"step-0\" data-step=\"0\" tabindex=\"0\">";
  out += "<tr class=\"main\"><td class=\"num\"><span class=\"dot\">0</span></td>";
  for (Lane lane : all_lanes()) {
    out += fmt::format("<td class=\"lane lane-{}\"></td>", lane_id(lane));
  }
  out += "<td class=\"what\"><span class=\"comment\">initial state</span></td></tr>";
  out += fmt::format("<tr class=\"detail\"><td colspan=\"{}\">", columns);
  append_state(out, "The whole initial state", t.initial_state);
  out += "</td></tr></tbody>\n";
  const std::vector<std::string>* before = &t.initial_state;
  for (const TimelineStep& s : t.steps) {
    if (t.loop && *t.loop + 1 == static_cast<std::size_t>(s.number)) {
      out += fmt::format(
          "<tbody class=\"loop-start\" id=\"loop\"><tr><td colspan=\"{}\">&#x21bb; the loop: "
          "the steps below repeat forever, back to the state after step {}</td></tr></tbody>\n",
          columns, *t.loop);
    }
    append_step(out, s, *before, columns);
    out += "\n";
    before = &s.state;
  }
  out += "</table></div>";
  out += fmt::format(
      "<footer>{} step{}. Each row is one atomic step of the model; a step's API-server writes "
      "are the watch events it appended. Written by preemptcheck; this page loads nothing from "
      "the network.</footer>",
      t.steps.size(), plural(t.steps.size()));
  out += fmt::format("</div><script>{}</script></body></html>\n", swimlanes_script());
  return out;
}

}  // namespace preemptcheck::report
