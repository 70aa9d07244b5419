// libFuzzer target: the kubectl importer (files/kubectl_import.h) under its oracle
// (fuzz/round_trip.h: a refusal or a scenario that loads back and round-trips). Built only by
// the `fuzz` preset; fuzz/run runs it.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/round_trip.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  preemptcheck::fuzz::run_or_abort("import",
                                   std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
