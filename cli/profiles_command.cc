// The `profiles` command (profiles_command.h). The words come from the README's profile table
// and SPEC §3; the switches are computed from impl/'s profiles, never written here.
#include "cli/profiles_command.h"

#include <array>
#include <ostream>
#include <string>
#include <string_view>

#include "impl/mechanisms.h"
#include "report/print.h"

namespace preemptcheck::cli {
namespace {

struct ProfileWords {
  std::string_view name;
  std::string_view what;
  std::string_view versions;
};

constexpr std::array kProfileWords = {
    ProfileWords{"reference", "the default: every mechanism at its safe (first) value",
                 "none: a reference, not a release (it adds guards of this project's own, "
                 "SPEC §3)"},
    ProfileWords{"kubernetes",
                 "kube-scheduler today: SchedulerAsyncPreemption, its backoff queue with "
                 "SchedulerPopFromBackoffQ, and status patches computed against its own, "
                 "possibly stale, copy of the pod",
                 "1.33 and later (SchedulerAsyncPreemption and SchedulerPopFromBackoffQ on by "
                 "default since 1.33); 1.35.0 with SchedulerAsyncAPICalls on is kubernetes-1.35"},
    ProfileWords{"kubernetes-1.32",
                 "kubernetes with the 1.32 gate (the preemptor let back before the last "
                 "victim's delete) and without SchedulerPopFromBackoffQ",
                 "1.32 (the 1.32 code is not citable here; whether 1.32 differs in other ways "
                 "that matter to this phase was not checked)"},
    ProfileWords{"sync", "reference with the victims deleted inside the scheduling cycle",
                 "none: reference's guards with deletion as before KEP-4832"},
    ProfileWords{"kubernetes-1.35", "kubernetes with SchedulerAsyncAPICalls on",
                 "1.35.0 (on in 1.35.0, PR #135059; off again in later 1.35 patches, "
                 "PR #135903; FIDELITY §1.3)"},
    ProfileWords{"kubernetes-prebind",
                 "the same kube-scheduler as kubernetes, for pods whose binding waits at Permit "
                 "or in PreBind: their victims are preempted in memory, and the binding cycle "
                 "writes the chosen node as the pod's nominatedNodeName first. It differs from "
                 "kubernetes only where a pod binds to a node it is not nominated to, or a "
                 "victim's own binding is in flight; elsewhere both give the same states",
                 "as kubernetes (SPEC §2.7, §3)"},
};

}  // namespace

int run_profiles(std::ostream& out) {
  const Mechanisms reference = *profile("reference");
  bool first = true;
  for (std::string_view name : profile_names()) {
    const ProfileWords* words = nullptr;
    for (const ProfileWords& w : kProfileWords) {
      if (w.name == name)
        words = &w;
    }
    std::string switches;
    for (const std::string& d : differences(*profile(name), reference))
      switches += (switches.empty() ? "" : " ") + (d.starts_with("--") ? d.substr(2) : d);
    report::print(out, "{}profile    {}\n", first ? "" : "\n", name);
    report::print(out, "what       {}\n", words ? words->what : "not described");
    report::print(out, "versions   {}\n", words ? words->versions : "not described");
    report::print(out, "switches   {}\n",
                  switches.empty() ? "none: every mechanism at its safe (first) value" : switches);
    first = false;
  }
  for (const ProfileAlias& a : profile_aliases())
    report::print(out, "\nalias      {} = {}\nwhy        {}\n", a.name, a.profile, a.reason);
  return 0;
}

}  // namespace preemptcheck::cli
