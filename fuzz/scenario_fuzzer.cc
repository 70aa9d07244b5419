// libFuzzer target: the scenario reader under its round-trip oracle (fuzz/round_trip.h). Built
// only by the `fuzz` preset; fuzz/run runs it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  preemptcheck::fuzz::run_or_abort("scenario",
                                   std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
