// kubectl import, inside: the objects read from kubectl's YAML before they become a scenario.
// files/kubectl_read.cc fills them, walking the documents; files/kubectl_import.cc builds the
// Scenario from them. Not a public header: only those two files include it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "files/kubectl_import.h"

namespace preemptcheck::kubectl {

/// cpu in millicores and memory in bytes, as kube-scheduler sums a pod's requests.
struct Requests {
  std::int64_t cpu = 0;
  std::int64_t memory = 0;
};

/// A Node: its name and status.allocatable.
struct RawNode {
  std::string name;
  Requests allocatable;
};

/// A Pod as read; placement, priority and requests are resolved when the scenario is built.
struct RawPod {
  std::string ns;
  std::string name;
  std::map<std::string, std::string> labels;
  std::string node;
  std::string phase;
  std::string start_time;
  std::string created;
  std::optional<std::int64_t> priority;
  std::string class_name;
  std::optional<bool> preempt_never;
  Requests requests;
  bool terminating = false;
  std::string scheduler = "default-scheduler";  ///< spec.schedulerName, defaulted as the API does

  std::string id() const { return ns + "/" + name; }
};

/// A PodDisruptionBudget as read.
struct RawPdb {
  std::string ns;
  std::string name;
  std::map<std::string, std::string> match_labels;
  bool has_expressions = false;
  bool empty_selects_all = true;  ///< policy/v1; policy/v1beta1's empty selector selects none
  // minAvailable or maxUnavailable: a count, or a percentage when `percent`.
  std::optional<std::int64_t> min_available;
  bool min_percent = false;
  std::optional<std::int64_t> max_unavailable;
  bool max_percent = false;

  std::string id() const { return ns + "/" + name; }
};

/// A PriorityClass as read.
struct RawClass {
  std::int64_t value = 0;
  bool global_default = false;
  std::optional<bool> preempt_never;
};

/// Everything read from every input, and what was left out on the way.
struct Collected {
  std::vector<RawNode> nodes;
  std::vector<RawPod> pods;
  std::vector<RawPdb> pdbs;
  std::map<std::string, RawClass> classes;
  std::map<std::string, std::vector<std::string>> dropped;  // why → which objects
  // Where each node (by name), pod (by namespace/name) and pod UID was first read, as
  // "FILE:LINE:COLUMN": an object read twice, from overlapping inputs, is refused.
  std::map<std::string, std::string> node_at;
  std::map<std::string, std::string> pod_at;
  std::map<std::string, std::string> uid_at;

  void drop(const std::string& why, std::string what) { dropped[why].push_back(std::move(what)); }
};

/// Reads one input — a `v1 List`, one object, or several YAML documents of either — into
/// `into`, adding what it leaves out to `into.dropped`. Throws FileError at the offending text
/// (see import_kubectl() for what is malformed).
void read_objects(const KubectlInput& input, Collected& into);

}  // namespace preemptcheck::kubectl
