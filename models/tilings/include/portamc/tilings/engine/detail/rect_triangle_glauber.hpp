#pragma once
// Glauber dynamics of rectangle-triangle tilings weighted t^#A c^#B r^#C, on one Kokkos
// execution space. Step t:
//   pair p = step_class(order, seed, t, pairs) (class_order.hpp) picks a move family and a colour
//   class (rect_triangle_moves.hpp, all equally likely: 7 families x 3 classes with the periodic
//   colouring, the conflict-graph colours of each family with kokkos_kernels);
//   every anchor of p whose region is tiled on its own is re-tiled by heat bath with the face
//   weights (rect_triangle_glauber_kernel.hpp).
// Each step is a product of commuting heat-bath kernels, each reversible for the weighted
// measure, so that measure is invariant; the moves connect the tilings (checked by breadth-first
// search on the test domains; the paper states it for its moves) and heat bath keeps the
// current state with positive probability, so the chain converges to it. Forward runs use
// t = 1, 2, ... (steps_done() + 1 next). The face codes (rect_triangle_geometry.hpp) are the
// state: one byte per face of the box, 2 * width * height bytes.
//
// No coupling from the past: not required for this model. Its vertex heights
// (rect_triangle_heights.hpp) give only a preorder on tilings (the three rectangle states of a
// hexagon share them); the half-cube order is not implemented, nor checked to be monotone
// under the open-ear moves.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/rect_triangle/detail/rect_triangle_glauber_kernel.hpp"
#include "portamc/tilings/rect_triangle/detail/rect_triangle_moves.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"

namespace portamc::tilings {

template <class Space>
class RectTriangleGlauber {
 public:
  using State = Kokkos::View<std::uint8_t*, Space>;

  /// Starts from rect_triangle_initial_tiling (throws std::invalid_argument with the reason if
  /// the domain is not tileable), or from a given tiling (validated). Throws
  /// std::invalid_argument for weights that are not finite and positive and for a domain
  /// without an interior vertex (no move could ever apply). `colouring`: how the colour
  /// classes are found (move_colouring.hpp).
  /// All kernels run on `space` (an instance of Space).
  RectTriangleGlauber(const Space& space, const TriangularDomain& domain,
                      const RectTriangleWeights& weights, std::uint64_t seed,
                      MoveColouring colouring = default_move_colouring)
      : RectTriangleGlauber(space, domain, weights, seed, checked_initial(domain, weights),
                            colouring) {}
  RectTriangleGlauber(const Space& space, const TriangularDomain& domain,
                      const RectTriangleWeights& weights, std::uint64_t seed,
                      const RectTriangleTiling& initial,
                      MoveColouring colouring = default_move_colouring)
      : space_(space),
        domain_(domain),
        weights_(weights),
        moves_(rect_triangle_move_set(domain, weights, RectTriangleMoves::vertex_and_open_ear,
                                      colouring)),
        seed_(seed) {
    if (2 * static_cast<std::int64_t>(domain.width() + 1) * (domain.height() + 1) >
        std::numeric_limits<std::int32_t>::max()) {
      throw std::invalid_argument(
          "rect-triangle tiling: the domain is too large for 32-bit indices");
    }
    Kokkos::View<std::int32_t*, Space> anchors("portamc::tilings::rect_triangle_anchors",
                                               moves_.anchors.size());
    Kokkos::deep_copy(anchors, Kokkos::View<const std::int32_t*, Kokkos::HostSpace,
                                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                   moves_.anchors.data(), moves_.anchors.size()));
    anchors_ = anchors;
    state_ = State("portamc::tilings::rect_triangle_state",
                   2 * static_cast<std::size_t>(domain.width()) * domain.height());
    set_tiling(initial);
  }

  const Space& space() const { return space_; }
  const TriangularDomain& domain() const { return domain_; }
  const RectTriangleWeights& weights() const { return weights_; }
  const RectTriangleMoveSet& move_set() const { return moves_; }
  std::uint64_t seed() const { return seed_; }
  /// Order of the (family, class) pairs over the steps (class_order.hpp); random unless set.
  void set_class_order(ClassOrder order) { class_order_ = order; }
  std::uint64_t steps_done() const { return steps_done_; }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_steps_done(std::uint64_t steps) { steps_done_ = steps; }
  const State& state() const { return state_; }

  void set_tiling(const RectTriangleTiling& tiling) {
    validate_tiling(domain_, tiling);
    const auto& bytes = tiling.codes();
    Kokkos::deep_copy(
        state_, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>(bytes.data(), bytes.size()));
  }
  RectTriangleTiling tiling() const {
    std::vector<std::uint8_t> bytes(state_.extent(0));
    Kokkos::deep_copy(
        Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            bytes.data(), bytes.size()),
        state_);
    return RectTriangleTiling(domain_.width(), domain_.height(), std::move(bytes));
  }

  /// Runs steps steps_done()+1 .. steps_done()+n; returns the anchors tried.
  std::uint64_t run(std::uint64_t n) {
    std::uint64_t attempts = 0;
    const std::uint64_t vertex_count = static_cast<std::uint64_t>(domain_.vertex_count());
    for (std::uint64_t s = 0; s < n; ++s) {
      const std::uint64_t t = ++steps_done_;
      const int p = step_class(class_order_, seed_, t, moves_.pairs());
      const std::int32_t first = moves_.pair_offset[static_cast<std::size_t>(p)];
      const std::int32_t count = moves_.pair_offset[static_cast<std::size_t>(p) + 1] - first;
      if (count == 0) continue;
      const int family = moves_.pair_family[static_cast<std::size_t>(p)];
      RectTriangleGlauberStep<Space> kernel{state_,
                                            anchors_,
                                            first,
                                            moves_.width,
                                            moves_.shapes[static_cast<std::size_t>(family)],
                                            static_cast<std::uint64_t>(family) * vertex_count,
                                            seed_,
                                            t};
      Kokkos::parallel_for(
          "portamc::tilings::rect_triangle_glauber_step",
          Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space_, 0, count), kernel);
      attempts += static_cast<std::uint64_t>(count);
    }
    return attempts;
  }
  /// One sweep = one step per (family, class) pair on average.
  std::uint64_t run_sweeps(std::uint64_t sweeps) {
    return run(sweeps * static_cast<std::uint64_t>(moves_.pairs()));
  }

 private:
  static RectTriangleTiling checked_initial(const TriangularDomain& domain,
                                            const RectTriangleWeights& weights) {
    validate(weights);  // bad weights are reported before any tiling search
    return rect_triangle_initial_tiling(domain);
  }

  Space space_;
  TriangularDomain domain_;
  RectTriangleWeights weights_;
  RectTriangleMoveSet moves_;
  std::uint64_t seed_;
  ClassOrder class_order_ = ClassOrder::random;
  Kokkos::View<const std::int32_t*, Space> anchors_;
  State state_;
  std::uint64_t steps_done_ = 0;
};

}  // namespace portamc::tilings
