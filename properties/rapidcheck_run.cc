// RapidCheck with explicit parameters, through its checkProperty entry point.
#include "properties/rapidcheck_run.h"

#include <rapidcheck.h>
#include <rapidcheck/detail/TestListenerAdapter.h>

#include <optional>
#include <random>
#include <sstream>
#include <unordered_map>

namespace preemptcheck {
namespace {

// Thrown by the listener when RapidCheckRun::stop says so: it leaves checkProperty between
// two cases (or two shrinks), outside the property, so RapidCheck does not take it for a
// failure.
struct Stopped {};

class Listener : public rc::detail::TestListenerAdapter {
 public:
  explicit Listener(const RapidCheckRun& run) : run_(run) {}

  void onTestCaseFinished(const rc::detail::CaseDescription&) override {
    if (run_.on_case)
      run_.on_case();
    if (run_.stop && run_.stop())
      throw Stopped{};
  }
  void onShrinkTried(const rc::detail::CaseDescription&, bool accepted) override {
    if (run_.on_shrink)
      run_.on_shrink(accepted);
    if (run_.stop && run_.stop())
      throw Stopped{};
  }

 private:
  const RapidCheckRun& run_;
};

}  // namespace

RapidCheckOutcome run_rapidcheck(const std::function<void()>& property, const RapidCheckRun& run) {
  rc::detail::TestParams params;
  params.seed = run.seed;
  params.maxSuccess = run.max_success;
  params.maxSize = run.max_size;
  params.maxDiscardRatio = run.max_discard_ratio;
  params.disableShrinking = false;
  rc::detail::TestMetadata metadata;
  metadata.id = "preemptcheck";
  metadata.description = "preemptcheck";
  Listener listener(run);
  // An empty reproduce map: RapidCheck neither reads RC_PARAMS nor prints its configuration.
  const std::unordered_map<std::string, rc::detail::Reproduce> no_reproduce;
  RapidCheckOutcome out;
  std::optional<rc::detail::TestResult> checked;
  try {
    checked.emplace(rc::detail::checkProperty(rc::detail::toProperty(property), metadata, params,
                                              listener, no_reproduce));
  } catch (const Stopped&) {
    out.kind = RapidCheckOutcome::Kind::kStopped;
    return out;
  }
  const rc::detail::TestResult& result = *checked;

  std::ostringstream text;
  if (result.is<rc::detail::SuccessResult>()) {
    out.kind = RapidCheckOutcome::Kind::kSuccess;
    out.successes = result.get<rc::detail::SuccessResult>().numSuccess;
    return out;
  }
  rc::detail::printResultMessage(result, text);
  out.message = text.str();
  if (result.is<rc::detail::FailureResult>()) {
    out.kind = RapidCheckOutcome::Kind::kFailure;
    out.successes = result.get<rc::detail::FailureResult>().numSuccess;
  } else if (result.is<rc::detail::GaveUpResult>()) {
    out.kind = RapidCheckOutcome::Kind::kGaveUp;
    out.successes = result.get<rc::detail::GaveUpResult>().numSuccess;
  } else {
    out.kind = RapidCheckOutcome::Kind::kError;
  }
  return out;
}

std::uint64_t random_seed() {
  std::random_device device;  // 32 bits: short enough to type back in
  return device();
}

}  // namespace preemptcheck
