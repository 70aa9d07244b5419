// print(): formatted text to a std::ostream, formatted by the fmt library's compiled code.
#pragma once

#include <fmt/format.h>

#include <ostream>
#include <string>

namespace preemptcheck::report {

/// Writes fmt::format(format, args...) to `out`, as fmt::print(out, format, args...) does.
/// fmt 9's fmt::print for streams (fmt/ostream.h) instantiates fmt's whole formatting engine in
/// every translation unit that calls it — about 70 KB of code and 3.5 s of compile time at -O2
/// each; fmt::vformat here is compiled once, in the fmt library.
template <class... T>
void print(std::ostream& out, fmt::format_string<T...> format, T&&... args) {
  const std::string text = fmt::vformat(format, fmt::make_format_args(args...));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace preemptcheck::report
