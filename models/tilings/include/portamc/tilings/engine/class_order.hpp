#pragma once
// The order in which a Glauber chain visits its colour classes (move pairs for bibone and
// rectangle-triangle tilings).
//   random  step t updates class bounded(draw(seed, purpose_tiling_class, 0, t), classes): the
//           paper's chain, a random admissible cluster per step (reversible).
//   cyclic  step t updates class t mod classes: the systematic scan.
// Why cyclic: under the heat-bath rule a class updated twice in a row is redrawn from the same
// conditional law, so the second update does nothing the first did not. With two classes
// (dominoes) random order repeats the class on half of its steps, and the chain needs about
// twice the steps of cyclic order to mix or to coalesce (three classes: 1.5 times).
// Both orders are exact for coupling from the past: each step keeps the measure invariant and
// is a fixed function of (seed, t), so a pass from -2T reuses the maps of the pass from -T, and
// monotone steps stay monotone. Cyclic order is not reversible, which nothing here relies on.
#include <cstdint>
#include <string>

#include "portamc/rng.hpp"

namespace portamc::tilings {

enum class ClassOrder { random, cyclic };

/// The names of class_order_names() (names.hpp), which also parses them.
const char* to_string(ClassOrder order);

/// Class (0 .. classes - 1) of step t of the chain keyed by seed.
inline int step_class(ClassOrder order, std::uint64_t seed, std::uint64_t t, int classes) {
  if (order == ClassOrder::cyclic) {
    return static_cast<int>(t % static_cast<std::uint64_t>(classes));
  }
  const rng::Block b = rng::draw(seed, rng::purpose_tiling_class, 0, t);
  return static_cast<int>(rng::bounded(b[0], b[1], static_cast<std::uint32_t>(classes)));
}

/// Two-class chains launched K steps at a time (domino_tiled_kernel.hpp): bit s is the class of
/// step first + s. random: the launch's random word `random_bits`; cyclic: (first + s) mod 2.
inline std::uint64_t two_class_bits(ClassOrder order, std::uint64_t random_bits,
                                    std::uint64_t first) {
  if (order == ClassOrder::random) return random_bits;
  return (first & 1u) != 0 ? 0x5555555555555555ull : 0xAAAAAAAAAAAAAAAAull;
}

}  // namespace portamc::tilings
