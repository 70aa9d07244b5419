// Action names and their one-line form.
#include "impl/action.h"

#include <fmt/format.h>

#include <array>
#include <vector>

namespace preemptcheck {
namespace {

struct KindInfo {
  ActionKind kind;
  std::string_view keyword;
  int arguments;  // pods named after the keyword (create-node: one node; external-bind: a
                  // pod and a node)
};

constexpr std::array<KindInfo, 23> kKinds = {{
    {ActionKind::kSchedule, "schedule", 1},
    {ActionKind::kBind, "bind", 1},
    {ActionKind::kBindFails, "bind-fails", 1},
    {ActionKind::kClearNominations, "clear-nominations", 1},
    {ActionKind::kEvict, "evict", 2},
    {ActionKind::kEvictFails, "evict-fails", 2},
    {ActionKind::kFinish, "finish", 1},
    {ActionKind::kObserve, "observe", 0},
    {ActionKind::kTerminate, "terminate", 1},
    {ActionKind::kFlush, "flush", 0},
    {ActionKind::kCreate, "create", 1},
    {ActionKind::kDelete, "delete", 1},
    {ActionKind::kRestart, "restart", 0},
    {ActionKind::kCreateNode, "create-node", 1},
    {ActionKind::kCycleEnd, "cycle-end", 1},
    {ActionKind::kExternalBind, "external-bind", 2},
    {ActionKind::kBackoffExpires, "backoff-expires", 1},
    {ActionKind::kLateBind, "late-bind", 1},
    {ActionKind::kLateEvict, "late-evict", 1},
    {ActionKind::kStatusPatch, "status-patch", 1},
    {ActionKind::kRecreate, "recreate", 1},
    {ActionKind::kPdbSync, "pdb-sync", 1},
    {ActionKind::kBindingPreempted, "binding-preempted", 1},
}};

const KindInfo& info(ActionKind kind) { return kKinds[static_cast<size_t>(kind)]; }

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t'))
      ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t')
      ++j;
    if (j > i)
      out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

}  // namespace

std::string_view action_keyword(ActionKind kind) { return info(kind).keyword; }

std::string format_action(const Action& a, const Cluster& cluster) {
  // Under the causal watch order `observe` names the pod whose oldest pending event it
  // delivers (impl/watch_order.cc); a schedule of the FIFO model never does.
  if (a.kind == ActionKind::kObserve && a.pod != kNoPod)
    return fmt::format("{} {}", action_keyword(a.kind), cluster.pod_name(a.pod));
  switch (info(a.kind).arguments) {
    case 0:
      return std::string(action_keyword(a.kind));
    case 1:
      if (a.kind == ActionKind::kCreateNode) {
        return fmt::format("{} {}", action_keyword(a.kind), cluster.node_name(a.node));
      }
      if (a.kind == ActionKind::kPdbSync) {
        return fmt::format("{} {}", action_keyword(a.kind), cluster.scenario().pdbs[a.node].name);
      }
      return fmt::format("{} {}", action_keyword(a.kind), cluster.pod_name(a.pod));
    default:
      if (a.kind == ActionKind::kExternalBind) {
        return fmt::format("{} {} {}", action_keyword(a.kind), cluster.pod_name(a.pod),
                           cluster.node_name(a.node));
      }
      return fmt::format("{} {} {}", action_keyword(a.kind), cluster.pod_name(a.pod),
                         cluster.pod_name(a.victim));
  }
}

std::optional<Action> parse_action(std::string_view line, const Cluster& cluster,
                                   std::string* error) {
  auto fail = [&](std::string message) -> std::optional<Action> {
    if (error != nullptr)
      *error = std::move(message);
    return std::nullopt;
  };
  std::vector<std::string_view> w = words(line);
  if (w.empty())
    return fail("expected an action, got an empty line");
  for (const KindInfo& k : kKinds) {
    if (k.keyword != w[0])
      continue;
    if (k.kind == ActionKind::kCreateNode) {
      if (w.size() != 2)
        return fail(fmt::format("expected '{}' followed by a node name", k.keyword));
      auto node = cluster.find_node(w[1]);
      if (!node)
        return fail(fmt::format("unknown node '{}'", w[1]));
      return Action{k.kind, kNoPod, kNoPod, *node};
    }
    if (k.kind == ActionKind::kPdbSync) {
      if (w.size() != 2)
        return fail(fmt::format("expected '{}' followed by a PDB name", k.keyword));
      const auto& pdbs = cluster.scenario().pdbs;
      for (std::size_t b = 0; b < pdbs.size(); ++b) {
        if (pdbs[b].name == w[1])
          return Action{k.kind, kNoPod, kNoPod, static_cast<NodeId>(b)};
      }
      return fail(fmt::format("unknown PDB '{}'", w[1]));
    }
    if (k.kind == ActionKind::kObserve && w.size() == 2) {
      auto pod = cluster.find_pod(w[1]);
      if (!pod)
        return fail(fmt::format("unknown pod '{}'", w[1]));
      return Action{k.kind, *pod, kNoPod, kNoNode};
    }
    if (k.kind == ActionKind::kExternalBind) {
      if (w.size() != 3) {
        return fail(fmt::format("expected '{}' followed by a pod name and a node name", k.keyword));
      }
      auto pod = cluster.find_pod(w[1]);
      if (!pod)
        return fail(fmt::format("unknown pod '{}'", w[1]));
      auto node = cluster.find_node(w[2]);
      if (!node)
        return fail(fmt::format("unknown node '{}'", w[2]));
      return Action{k.kind, *pod, kNoPod, *node};
    }
    if (static_cast<int>(w.size()) != 1 + k.arguments) {
      return fail(fmt::format("expected '{}' followed by {} pod name{}", k.keyword, k.arguments,
                              k.arguments == 1 ? "" : "s"));
    }
    Action a{k.kind, kNoPod, kNoPod, kNoNode};
    for (int i = 0; i < k.arguments; ++i) {
      auto pod = cluster.find_pod(w[static_cast<size_t>(i) + 1]);
      if (!pod)
        return fail(fmt::format("unknown pod '{}'", w[static_cast<size_t>(i) + 1]));
      (i == 0 ? a.pod : a.victim) = *pod;
    }
    return a;
  }
  std::string known;
  for (const KindInfo& k : kKinds) {
    if (!known.empty())
      known += ", ";
    known += k.keyword;
  }
  return fail(fmt::format("unknown action '{}'; expected one of: {}", w[0], known));
}

}  // namespace preemptcheck
