// Explore JSON: the documents of `preemptcheck explore`'s page (explore_json.h).
#include "report/explore_json.h"

#include <fmt/format.h>

#include "files/counterexample_yaml.h"
#include "impl/show.h"
#include "properties/explore_path.h"
#include "spec/property.h"

namespace preemptcheck::report {
namespace {

bool ends_with(std::string_view s, std::string_view tail) { return s.ends_with(tail); }

// The state lines after step k, with the monitors' memory, as the state dump prints them.
StateLines lines_at(const Schedule& s, std::size_t k) {
  return state_lines(s.world_at(k), s.ledger_at(k).lines(*s.cluster));
}

Json state_groups(const Schedule& s) {
  const std::size_t k = s.steps.size();
  const StateLines now = lines_at(s, k);
  StateLines before;
  if (k > 0)
    before = lines_at(s, k - 1);
  Json groups = Json::array();
  for (const auto& [key, value] : now) {
    // Each component once, where its first line stands: a pod's lines go to four groups.
    const std::string_view component = state_component(key);
    Json* group = nullptr;
    for (Json& g : groups) {
      if (g["component"] == component)
        group = &g;
    }
    if (group == nullptr) {
      groups.push_back({{"component", component}, {"lines", Json::array()}});
      group = &groups.back();
    }
    Json line = {{"key", key}, {"value", value}, {"before", nullptr}, {"changed", false}};
    if (k > 0) {
      std::string old = "-";
      for (const auto& [bkey, bvalue] : before) {
        if (bkey == key)
          old = bvalue;
      }
      line["before"] = old;
      line["changed"] = old != value;
    }
    (*group)["lines"].push_back(std::move(line));
  }
  return groups;
}

Json properties_json(const Schedule& s) {
  Json out = Json::array();
  for (const spec::PropertyDef& d : spec::property_table()) {
    Json p = {{"name", d.name},
              {"kind", d.is_witness ? "sometimes" : "always"},
              {"status", d.is_witness ? "not reached" : "holds"},
              {"step", nullptr},
              {"message", nullptr},
              {"statement", d.statement}};
    for (std::size_t k = 0; k <= s.steps.size() && p["step"].is_null(); ++k) {
      const spec::Findings& f = k == 0 ? s.initial_findings : s.steps[k - 1].findings;
      if (d.is_witness) {
        for (spec::Property r : f.reached) {
          if (r == d.id && p["step"].is_null()) {
            p["status"] = "reached";
            p["step"] = k;
          }
        }
        continue;
      }
      for (const auto& [property, message] : f.violated) {
        if (property == d.id && p["step"].is_null()) {
          p["status"] = "broken";
          p["step"] = k;
          p["message"] = message;
        }
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

std::string_view state_component(std::string_view key) {
  if (ends_with(key, " api") || key.starts_with("PDB status"))
    return "API server";
  if (ends_with(key, " informer") || key == "pending events")
    return "informer";
  if (ends_with(key, " nominator"))
    return "nominator";
  if (ends_with(key, " binding") || key == "evictions sent before the restart")
    return "binding and API calls";
  if (key == "activeQ" || key == "backoffQ" || key == "unschedulable pool" ||
      key.starts_with("gated"))
    return "queues";
  if (key == "scheduling cycle" || key.starts_with("in-flight") || key == "awaiting own victims" ||
      key == "last victims")
    return "scheduler";
  if (key == "jobs")
    return "executor jobs";
  if (key == "API dispatcher")
    return "dispatcher";
  if (key.find("left") != std::string_view::npos || key == "nodes not yet created")
    return "faults and arrivals";
  return "monitors' memory";
}

Json explore_state_json(const Scenario& scenario, const Schedule& s) {
  const Cluster& cluster = *s.cluster;
  std::vector<Action> path;
  for (const ScheduleStep& step : s.steps)
    path.push_back(step.action);
  Json doc = {
      {"scenario", scenario.name},          {"description", scenario.description},
      {"profile", scenario.profile},        {"mechanisms", mechanisms_json(scenario.mechanisms)},
      {"path", format_path(path, cluster)}, {"steps", Json::array()}};
  for (std::size_t i = 0; i < s.steps.size(); ++i) {
    Json breaks = Json::array();
    for (const spec::PropertyMessage& m : s.steps[i].violated)
      breaks.push_back(m.name);
    doc["steps"].push_back({{"number", i + 1},
                            {"text", s.steps[i].text},
                            {"comment", s.steps[i].comment},
                            {"fingerprint", format_fingerprint(s.steps[i].fingerprint)},
                            {"breaks", std::move(breaks)}});
  }
  doc["state"] = state_groups(s);
  const World& here = s.world_at(s.steps.size());
  std::vector<Action> enabled;
  here.enabled_actions(enabled);
  doc["enabled"] = Json::array();
  for (const Action& a : enabled) {
    World after = here;
    const StepReport report = after.apply(a);
    std::vector<Action> next = path;
    next.push_back(a);
    doc["enabled"].push_back({{"text", format_action(a, cluster)},
                              {"effect", describe_step(here, report, after)},
                              {"path", format_path(next, cluster)}});
  }
  doc["disabled"] = Json::array();
  for (const Action& a : askable_actions(cluster)) {
    if (!here.is_enabled(a))
      doc["disabled"].push_back(
          {{"text", format_action(a, cluster)}, {"why", here.why_not_enabled(a)}});
  }
  doc["properties"] = properties_json(s);
  return doc;
}

Json explore_blocked_json(const Schedule& s) {
  const BlockedStep& b = *s.blocked;
  std::vector<Action> valid;
  for (const ScheduleStep& step : s.steps)
    valid.push_back(step.action);
  return {{"error", fmt::format("step {} '{}' is not enabled", b.number, b.text)},
          {"why", b.why},
          {"enabled", b.enabled},
          {"valid_path", format_path(valid, *s.cluster)}};
}

Json explore_error_json(std::string_view message) { return {{"error", message}}; }

}  // namespace preemptcheck::report
