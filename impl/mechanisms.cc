// Mechanisms and profiles: parsing, printing and the profile table.
#include "impl/mechanisms.h"

#include <fmt/format.h>

#include <array>

namespace preemptcheck {
namespace {

struct Switch {
  std::string_view name;
  std::vector<std::string_view> values;
  // Reads and writes the switch as an index into `values`.
  int (*get)(const Mechanisms&);
  void (*set)(Mechanisms&, int);
};

int timing_index(Timing t) { return t == Timing::kSync ? 0 : 1; }
Timing timing_of(int i) { return i == 0 ? Timing::kSync : Timing::kAsync; }

const std::vector<Switch>& switches() {
  static const std::vector<Switch> kSwitches = {
      {"inflight",
       {"on", "preemptor-only", "off"},
       [](const Mechanisms& m) { return static_cast<int>(m.inflight); },
       [](Mechanisms& m, int i) { m.inflight = static_cast<Inflight>(i); }},
      {"gate",
       {"last-victim", "release-before-last", "hold-until-done"},
       [](const Mechanisms& m) { return static_cast<int>(m.gate); },
       [](Mechanisms& m, int i) { m.gate = static_cast<Gate>(i); }},
      {"activate-on-finish",
       {"on", "off"},
       [](const Mechanisms& m) { return m.activate_on_finish ? 0 : 1; },
       [](Mechanisms& m, int i) { m.activate_on_finish = i == 0; }},
      {"wake-on-release",
       {"on", "off"},
       [](const Mechanisms& m) { return m.wake_on_release ? 0 : 1; },
       [](Mechanisms& m, int i) { m.wake_on_release = i == 0; }},
      {"nomination",
       {"sync", "async"},
       [](const Mechanisms& m) { return timing_index(m.nomination); },
       [](Mechanisms& m, int i) { m.nomination = timing_of(i); }},
      {"stale-nomination",
       {"ignore", "apply"},
       [](const Mechanisms& m) { return m.stale_nominations_ignored ? 0 : 1; },
       [](Mechanisms& m, int i) { m.stale_nominations_ignored = i == 0; }},
      {"clear-lower",
       {"sync", "async"},
       [](const Mechanisms& m) { return timing_index(m.clear_lower); },
       [](Mechanisms& m, int i) { m.clear_lower = timing_of(i); }},
      {"assume",
       {"on", "off"},
       [](const Mechanisms& m) { return m.assume ? 0 : 1; },
       [](Mechanisms& m, int i) { m.assume = i == 0; }},
      {"deletion",
       {"async", "sync"},
       [](const Mechanisms& m) { return m.deletion == Timing::kAsync ? 0 : 1; },
       [](Mechanisms& m, int i) { m.deletion = i == 0 ? Timing::kAsync : Timing::kSync; }},
      {"cycle",
       {"atomic", "split"},
       [](const Mechanisms& m) { return static_cast<int>(m.cycle); },
       [](Mechanisms& m, int i) { m.cycle = static_cast<Cycle>(i); }},
      {"backoff",
       {"none", "pop-when-idle", "expiry-only"},
       [](const Mechanisms& m) { return static_cast<int>(m.backoff); },
       [](Mechanisms& m, int i) { m.backoff = static_cast<Backoff>(i); }},
      {"patch-diff",
       {"truth", "view"},
       [](const Mechanisms& m) { return m.patch_diff_view ? 1 : 0; },
       [](Mechanisms& m, int i) { m.patch_diff_view = i == 1; }},
      {"api-calls",
       {"direct", "dispatched"},
       [](const Mechanisms& m) { return m.dispatched_calls ? 1 : 0; },
       [](Mechanisms& m, int i) { m.dispatched_calls = i == 1; }},
      {"pdb-status",
       {"live", "lagged"},
       [](const Mechanisms& m) { return m.pdb_status_lagged ? 1 : 0; },
       [](Mechanisms& m, int i) { m.pdb_status_lagged = i == 1; }},
      {"binding-victims",
       {"delete", "in-memory"},
       [](const Mechanisms& m) { return m.binding_victims_in_memory ? 1 : 0; },
       [](Mechanisms& m, int i) { m.binding_victims_in_memory = i == 1; }},
      {"activate-in-memory",
       {"on", "off"},
       [](const Mechanisms& m) { return m.activate_in_memory ? 0 : 1; },
       [](Mechanisms& m, int i) { m.activate_in_memory = i == 0; }},
      {"binding-nomination",
       {"off", "on"},
       [](const Mechanisms& m) { return m.binding_nomination ? 1 : 0; },
       [](Mechanisms& m, int i) { m.binding_nomination = i == 1; }},
      {"informer-fifo",
       {"in-order", "per-key"},
       [](const Mechanisms& m) { return m.informer_per_key ? 1 : 0; },
       [](Mechanisms& m, int i) { m.informer_per_key = i == 1; }},
      {"forget-deleted",
       {"on", "off"},
       [](const Mechanisms& m) { return m.forget_deleted ? 0 : 1; },
       [](Mechanisms& m, int i) { m.forget_deleted = i == 0; }},
  };
  return kSwitches;
}

const Switch* find_switch(std::string_view name) {
  for (const Switch& s : switches()) {
    if (s.name == name)
      return &s;
  }
  return nullptr;
}

std::string join(const std::vector<std::string_view>& words, std::string_view sep) {
  std::string out;
  for (std::string_view w : words) {
    if (!out.empty())
      out += sep;
    out += w;
  }
  return out;
}

}  // namespace

const std::vector<std::string_view>& mechanism_names() {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names;
    for (const Switch& s : switches())
      names.push_back(s.name);
    return names;
  }();
  return kNames;
}

std::vector<std::string_view> mechanism_values(std::string_view name) {
  const Switch* s = find_switch(name);
  return s ? s->values : std::vector<std::string_view>{};
}

std::optional<std::string> set_mechanism(Mechanisms& m, std::string_view name,
                                         std::string_view value) {
  const Switch* s = find_switch(name);
  if (s == nullptr) {
    return fmt::format("unknown mechanism '{}'; expected one of: {}", name,
                       join(mechanism_names(), ", "));
  }
  for (size_t i = 0; i < s->values.size(); ++i) {
    if (s->values[i] == value) {
      s->set(m, static_cast<int>(i));
      return std::nullopt;
    }
  }
  return fmt::format("unknown value '{}' for mechanism '{}'; expected one of: {}", value, name,
                     join(s->values, ", "));
}

std::string mechanism_value(const Mechanisms& m, std::string_view name) {
  const Switch* s = find_switch(name);
  if (s == nullptr)
    return {};
  return std::string(s->values[static_cast<size_t>(s->get(m))]);
}

namespace {

// Whether `name` is written out for `m` whatever the profile: always, or (for the switches
// added later) when it is not at the reference's value.
bool printed_under_reference(const Mechanisms& m, std::string_view name) {
  if (name == "cycle")
    return m.cycle != Cycle::kAtomic;
  if (name == "backoff")
    return m.backoff != Backoff::kNone;
  if (name == "patch-diff")
    return m.patch_diff_view;
  if (name == "api-calls")
    return m.dispatched_calls;
  if (name == "pdb-status")
    return m.pdb_status_lagged;
  if (name == "binding-victims")
    return m.binding_victims_in_memory;
  if (name == "activate-in-memory")
    return !m.activate_in_memory;
  if (name == "binding-nomination")
    return m.binding_nomination;
  if (name == "informer-fifo")
    return m.informer_per_key;
  if (name == "forget-deleted")
    return !m.forget_deleted;
  return true;
}

}  // namespace

bool mechanism_printed(const Mechanisms& m, std::string_view name, std::string_view profile_name) {
  if (printed_under_reference(m, name))
    return true;
  const std::optional<Mechanisms> base = profile(profile_name);
  return base && mechanism_value(*base, name) != mechanism_value(m, name);
}

const std::vector<std::string_view>& profile_names() {
  static const std::vector<std::string_view> kNames = {"reference",          "kubernetes",
                                                       "kubernetes-1.32",    "kubernetes-1.35",
                                                       "kubernetes-prebind", "sync"};
  return kNames;
}

const std::vector<ProfileAlias>& profile_aliases() {
  // SchedulerAsyncPreemption and SchedulerPopFromBackoffQ are beta and on by default from 1.33
  // (pkg/features/kube_features.go@b0b89d3bd251db932ed5a7bef66039fb88acab64 L1672,
  // L1675-1676), the switches `kubernetes` sets; SPEC §2.5 and FIDELITY §4 say what it leaves out.
  // The two pod listeners: pkg/scheduler/eventhandlers.go@533140f065d7cfe8db68998dff46352551c5505d
  // registers two FilteringResourceEventHandlers, the cache's and the queue's (read, lines not
  // counted); @00cd67b7742e5af43e2eb841fde28de797344ed0 one handler (L516-519), the change of
  // PR #134157, which also forgets a deleted assumed pod at once.
  static const std::vector<ProfileAlias> kAliases = {
      {"kubernetes-1.33", "kubernetes",
       "SchedulerAsyncPreemption and SchedulerPopFromBackoffQ are on by default from 1.33; not "
       "modelled: the cache and the queue as two listeners of the pod informer, until PR "
       "#134157 (1.35); its other change, forgetting an assumed pod at its delete event, is "
       "not in this alias either: add --forget-deleted=off for 1.33"},
      {"kubernetes-1.34", "kubernetes",
       "as kubernetes-1.33, the two listeners not modelled and --forget-deleted=off to add; "
       "SchedulerAsyncAPICalls, beta "
       "in 1.34, has a default this project cannot settle (FIDELITY §1.3): with it on, "
       "kubernetes-1.35's switches apply"},
  };
  return kAliases;
}

std::optional<Mechanisms> profile(std::string_view name) {
  Mechanisms m;  // reference: every mechanism at its safe value
  if (name == "reference")
    return m;
  // kube-scheduler today (SchedulerAsyncPreemption, beta and on by default since 1.33):
  // only the preemptor is gated, nothing activates it when its job succeeds (#141694),
  // lower-priority nominees lose their claim only when the executor's patches are observed,
  // and the nominator follows every informer update, however old. Its queue moves on a
  // nomination change are those of every profile (PR #129058, impl/informer.cc); the
  // project's wider wake-on-release moves are off (the five-minute flush is the fail-safe).
  m.inflight = Inflight::kPreemptorOnly;
  m.activate_on_finish = false;
  m.wake_on_release = false;
  m.clear_lower = Timing::kAsync;
  m.stale_nominations_ignored = false;
  // A pod that just failed backs off, and SchedulerPopFromBackoffQ (beta, on since 1.33)
  // runs PreEnqueue as it enters backoffQ and pops it when activeQ is empty; status patches
  // are diffed against the scheduler's own copy of the pod (impl/api_server.cc).
  m.backoff = Backoff::kPopWhenIdle;
  m.patch_diff_view = true;
  if (name == "kubernetes")
    return m;
  // kube-scheduler with SchedulerAsyncAPICalls on: status patches and bindings are queued
  // calls of the API dispatcher (impl/dispatcher.cc). The gate's default differs between
  // sources (FIDELITY §1.3): this profile is "the gate on", as 1.35.0 shipped it.
  if (name == "kubernetes-1.35") {
    m.dispatched_calls = true;
    return m;
  }
  // kube-scheduler as `kubernetes`, for pods whose binding cycle waits at Permit or in
  // PreBind (a waiting Permit plugin, volume binding, DRA): a victim there is preempted in
  // memory, and the job's end activates the preemptor when that victim was its last (PR
  // #140054). `kubernetes` keeps pods whose binding cycle is the Bind call alone, which the
  // executor deletes through the API (SPEC §2.7). For the same pods the binding cycle writes
  // the chosen node as their nominatedNodeName first (NominatedNodeNameForExpectation, beta
  // and on by default, SPEC §2.7).
  if (name == "kubernetes-prebind") {
    m.binding_victims_in_memory = true;
    m.binding_nomination = true;
    return m;
  }
  // The first asynchronous version (#128170) opened the gate before the last victim's
  // delete call, which let the preemptor delete it again (#134249). SchedulerPopFromBackoffQ
  // did not exist yet: a backing-off pod waited for its backoff to expire.
  m.gate = Gate::kReleaseBeforeLast;
  m.backoff = Backoff::kExpiryOnly;
  if (name == "kubernetes-1.32")
    return m;
  if (name == "sync") {
    Mechanisms s;
    s.deletion = Timing::kSync;
    return s;
  }
  return std::nullopt;
}

std::string describe(const Mechanisms& m) {
  std::string out;
  for (const Switch& s : switches()) {
    if (!out.empty())
      out += ' ';
    out += fmt::format("{}={}", s.name, s.values[static_cast<size_t>(s.get(m))]);
  }
  return out;
}

std::vector<std::string> differences(const Mechanisms& m, const Mechanisms& base) {
  std::vector<std::string> out;
  for (const Switch& s : switches()) {
    if (s.get(m) != s.get(base)) {
      out.push_back(fmt::format("--{}={}", s.name, s.values[static_cast<size_t>(s.get(m))]));
    }
  }
  return out;
}

}  // namespace preemptcheck
