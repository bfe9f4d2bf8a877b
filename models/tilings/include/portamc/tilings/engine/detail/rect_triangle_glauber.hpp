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
// The chain is the row-slab chain of anchor_slab_families.hpp, on one rank or over the
// ranks of a Communicator; this class adds the rectangle-triangle checks and the tiling type.
//
// No coupling from the past: not required for this model. Its vertex heights
// (rect_triangle_heights.hpp) give only a preorder on tilings (the three rectangle states of a
// hexagon share them); the half-cube order is not implemented, nor checked to be monotone
// under the open-ear moves.
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/detail/anchor_slab_families.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"

namespace portamc::tilings {

template <class Space>
class RectTriangleGlauber : public AnchorSlabChain<RectTriangleSlabModel, Space> {
  using Chain = AnchorSlabChain<RectTriangleSlabModel, Space>;

 public:
  using State = typename Chain::State;

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
  /// Collective with `comm` (row slabs over its ranks; throws std::invalid_argument, naming
  /// `what`, when the ranks cannot split the rows).
  RectTriangleGlauber(const Space& space, const TriangularDomain& domain,
                      const RectTriangleWeights& weights, std::uint64_t seed,
                      const RectTriangleTiling& initial,
                      MoveColouring colouring = default_move_colouring,
                      const parallel::Communicator& comm = parallel::Communicator(),
                      const std::string& what = "rect_triangle tiling")
      : Chain(space, RectTriangleSlabModel(fits(domain), weights, colouring), seed, comm,
              checked(domain, initial).codes(), what),
        domain_(domain),
        weights_(weights) {}

  const TriangularDomain& domain() const { return domain_; }
  const RectTriangleWeights& weights() const { return weights_; }
  const RectTriangleMoveSet& move_set() const { return this->model().moves; }
  const State& state() const { return this->local_state(); }

  void set_tiling(const RectTriangleTiling& tiling) {
    this->set_bytes(checked(domain_, tiling).codes());
  }
  /// Collective: the whole tiling on every rank.
  RectTriangleTiling tiling() const {
    return RectTriangleTiling(domain_.width(), domain_.height(), this->bytes());
  }

  /// Runs steps steps_done()+1 .. steps_done()+n; returns the anchors tried.
  std::uint64_t run(std::uint64_t n) { return this->run_steps(n); }

 private:
  static RectTriangleTiling checked_initial(const TriangularDomain& domain,
                                            const RectTriangleWeights& weights) {
    validate(weights);  // bad weights are reported before any tiling search
    return rect_triangle_initial_tiling(domain);
  }
  /// Faces and the RNG entities (family * vertices + vertex) are 32-bit indices in the kernels.
  static const TriangularDomain& fits(const TriangularDomain& domain) {
    if (2 * static_cast<std::int64_t>(domain.width() + 1) * (domain.height() + 1) >
        std::numeric_limits<std::int32_t>::max())
      throw std::invalid_argument(
          "rect-triangle tiling: the domain is too large for 32-bit indices");
    return domain;
  }
  static const RectTriangleTiling& checked(const TriangularDomain& domain,
                                           const RectTriangleTiling& tiling) {
    validate_tiling(domain, tiling);
    return tiling;
  }

  TriangularDomain domain_;
  RectTriangleWeights weights_;
};

}  // namespace portamc::tilings
