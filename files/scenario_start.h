// Scenario keys about the start and the later arrivals: whether the starting placement must
// fit (`allow-overcommitted-start`), and `arrival-order`, read against the nodes and pods
// already loaded, with every problem positioned; and both keys written back.
#pragma once

#include <string>
#include <vector>

#include "files/strict_yaml.h"
#include "impl/cluster.h"
#include "impl/scenario.h"

namespace preemptcheck {

/// The names in `arrival-order` (field `f`) of scenario `s`, whose nodes and pods are loaded:
/// a sequence of distinct names, each of a node or a pod declared `arrives: later`. Throws
/// FileError through `y` at the offending item: not a name, unknown, named twice, not a later
/// arrival, or the name of both a node and a pod.
std::vector<std::string> read_arrival_order(const StrictYaml& y, const Field& f, const Scenario& s);

/// The starting placement must be one the kubelet admitted: adds running pod p's requests to
/// `used` (its node's running pods so far) and throws FileError at `node_field` when they
/// exceed the node's capacity ("node 'N' is overfilled at the start: …").
void check_admitted(const StrictYaml& y, const Field& node_field, const PodSpec& p,
                    const std::vector<NodeSpec>& nodes, Resources& used);

/// `arrival-order: [a, b]` and `allow-overcommitted-start: true`, each on its own line, and
/// each only when set, so that a file written before the keys existed keeps its text and its
/// scenario digest.
std::string start_keys_yaml(const Scenario& s);

}  // namespace preemptcheck
