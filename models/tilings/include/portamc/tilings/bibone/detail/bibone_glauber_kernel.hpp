#pragma once
// One Glauber step of bibone tilings on the device: every candidate cycle of the chosen
// (family, class) pair that alternates is re-set by heat bath, state A or B with probability
// 1/2 each (u < 2^31: A), which leaves the uniform measure invariant. The cycles of one class
// touch pairwise disjoint sites (bibone_moves.hpp), and a cycle reads and writes only its own
// sites' bytes, so threads never touch the same byte and the result does not depend on thread
// order: all backends agree bit for bit.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/rng.hpp"
#include "portamc/tilings/bibone/detail/bibone_moves.hpp"

namespace portamc::tilings {

template <class Space>
struct BiboneGlauberStep {
  Kokkos::View<std::uint8_t*, Space> state;
  Kokkos::View<const std::int32_t*, Space> anchors;  ///< all pairs' anchors (BiboneMoveSet)
  std::int32_t first = 0;                            ///< the chosen pair's first anchor
  BiboneCycleShape shape;
  std::uint64_t entity_base = 0;  ///< family * box_sites
  std::uint64_t seed = 0;
  std::uint64_t step = 0;

  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t k) const {
    const std::int32_t a = anchors(first + k);
    // A matched site determines its partner's byte, so state A is fixed by the even sites'
    // bytes and state B by the odd sites'.
    bool in_a = true, in_b = true;
    for (std::int32_t i = 0; i < shape.length; i += 2) {
      in_a = in_a && state(a + shape.offset[i]) == shape.direction[i];
      in_b = in_b && state(a + shape.offset[i + 1]) == shape.direction[i + 1];
    }
    if (!in_a && !in_b) return;
    const std::uint32_t u = rng::draw(seed, rng::purpose_tiling_update,
                                      entity_base + static_cast<std::uint64_t>(a), step)[0];
    const bool to_b = (u >> 31) != 0;
    if (to_b == in_b) return;
    for (std::int32_t i = to_b ? 1 : 0; i < shape.length; i += 2) {
      const std::int32_t j = i + 1 == shape.length ? 0 : i + 1;
      state(a + shape.offset[i]) = shape.direction[i];
      state(a + shape.offset[j]) = static_cast<std::uint8_t>((shape.direction[i] + 3) % 6);
    }
  }
};

}  // namespace portamc::tilings
