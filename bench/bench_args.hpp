#pragma once
// Command-line helpers shared by the benchmarks.
#include <sstream>
#include <string>
#include <vector>

namespace portamc::bench {

/// "32,64,128" -> {32, 64, 128}; "none" -> {} (skip those rows). A malformed item throws
/// std::invalid_argument or std::out_of_range (std::stoll), which the benchmarks report as a
/// usage error or let abort.
template <class T = int>
std::vector<T> parse_list(const char* text) {
  std::vector<T> out;
  if (std::string(text) == "none") return out;
  std::stringstream s(text);
  std::string item;
  while (std::getline(s, item, ',')) out.push_back(static_cast<T>(std::stoll(item)));
  return out;
}

}  // namespace portamc::bench
