// The causal watch order's schedules (impl/watch_order.cc): a schedule found under
// `--reduce watch-order` written as one of the FIFO model, which needs no reduction to replay.
#pragma once

#include <vector>

#include "impl/action.h"
#include "impl/cluster.h"

namespace preemptcheck {

/// A schedule of the FIFO model with the same steps as `path`, a schedule of `causal` (a
/// cluster whose watch order is causal; `path` itself is returned under kFifo): the steps
/// that commute are reordered so that the API server serializes the writes in the order the
/// informer delivers them, and each `observe P` becomes `observe`. Its length is the path's.
/// Every step of the result is checked enabled in the FIFO model, each delivery the event
/// `path` delivered. Throws std::invalid_argument when `path` is not a schedule of `causal`,
/// std::logic_error when no serialization exists (a defect of the reduction).
std::vector<Action> serialize_schedule(const Cluster& causal, const std::vector<Action>& path);

}  // namespace preemptcheck
