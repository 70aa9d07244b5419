// Show: the small words every line uses (pod lists, "none"), and the disruption
// controller's published PDB status (pdb-status=lagged).
#include <fmt/format.h>

#include "impl/show.h"

namespace preemptcheck {

std::string pod_names(const Cluster& cluster, PodSet pods, std::string_view separator) {
  std::string out;
  for (PodId p : pods_in(pods)) {
    if (!out.empty())
      out += separator;
    out += cluster.pod_name(p);
  }
  return out;
}

std::string or_none(std::string text, std::string_view none) {
  return text.empty() ? std::string(none) : text;
}

std::string per_pod(const Cluster& c, const std::function<std::string(PodId)>& of) {
  std::string out;
  for (PodId p = 0; p < c.pod_count(); ++p) {
    const std::string value = of(p);
    if (value.empty())
      continue;
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", c.pod_name(p), value);
  }
  return or_none(out);
}

std::string pdb_sync_text(const World& before, const World& after, std::size_t b) {
  const Cluster& c = after.cluster();
  return fmt::format(
      "the disruption controller recounts {}: {} healthy, DisruptionsAllowed {} (was {})",
      c.scenario().pdbs[b].name, or_none(pod_names(c, after.healthy_members(b))),
      after.published_disruptions_allowed(b), before.published_disruptions_allowed(b));
}

std::string pdb_status_text(const World& w) {
  const Cluster& c = w.cluster();
  std::string status;
  for (std::size_t b = 0; b < c.scenario().pdbs.size(); ++b) {
    status += fmt::format("{}{}: {} healthy, DisruptionsAllowed {}", status.empty() ? "" : "; ",
                          c.scenario().pdbs[b].name,
                          or_none(pod_names(c, w.pdb_counted() & c.pdb_members()[b])),
                          w.published_disruptions_allowed(b));
  }
  return or_none(status);
}

}  // namespace preemptcheck
