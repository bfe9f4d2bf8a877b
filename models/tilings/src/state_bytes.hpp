#pragma once
// Internal to the run code: a chain's byte state as the 32-bit integers a checkpoint stores
// (one layout for every family: bytes, or six-vertex heights), and back.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace portamc::tilings::detail {

inline std::vector<std::int32_t> ints_of_bytes(const std::vector<std::uint8_t>& bytes) {
  return {bytes.begin(), bytes.end()};
}

/// Throws std::invalid_argument for a value that is no byte (a damaged checkpoint).
inline std::vector<std::uint8_t> bytes_of_ints(const std::vector<std::int32_t>& ints) {
  std::vector<std::uint8_t> bytes(ints.size());
  for (std::size_t i = 0; i < ints.size(); ++i) {
    if (ints[i] < 0 || ints[i] > 255)
      throw std::invalid_argument("chain state [" + std::to_string(i) +
                                  "] = " + std::to_string(ints[i]) + " is not a byte");
    bytes[i] = static_cast<std::uint8_t>(ints[i]);
  }
  return bytes;
}

}  // namespace portamc::tilings::detail
