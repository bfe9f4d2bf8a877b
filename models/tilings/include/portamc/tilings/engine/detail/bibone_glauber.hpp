#pragma once
// Glauber dynamics for uniform bibone tilings on one Kokkos execution space. Step t:
//   pair p = step_class(order, seed, t, pairs) (class_order.hpp) picks a move family and one of its
//   colour classes (bibone_moves.hpp; all pairs equally likely, so each candidate cycle is tried
//   once per pairs() steps on average: 50 with the periodic colouring whatever the region, the
//   number of conflict-graph colours summed over the families with kokkos_kernels);
//   every cycle of p that alternates draws u = draw(seed, purpose_tiling_update, f *
//   box_sites + anchor, t)[0] and ends in state A or B with probability 1/2 each.
// Each step is a product of commuting symmetric kernels, so the uniform measure is invariant;
// the moves connect all matchings of a simply connected region and a cycle keeps its state
// with probability 1/2, so the chain is irreducible and aperiodic and converges to uniform.
// Forward runs use t = 1, 2, ... (steps_done() + 1 next).
//
// The chain is the row-slab chain of anchor_slab_families.hpp, on one rank or over the
// ranks of a Communicator; this class adds the bibone checks and the matching type.
//
// No coupling from the past: the triangular lattice is not bipartite, bibone tilings have no
// height function and no partial order that the moves respect, so there is no monotone
// coupling with two extremal states; exact_sample() refuses.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/parallel.hpp"
#include "portamc/tilings/bibone/bibone_domain.hpp"
#include "portamc/tilings/bibone/bibone_tileability.hpp"
#include "portamc/tilings/engine/detail/anchor_slab_families.hpp"

namespace portamc::tilings {

template <class Space>
class BiboneGlauber : public AnchorSlabChain<BiboneSlabModel, Space> {
  using Chain = AnchorSlabChain<BiboneSlabModel, Space>;

 public:
  using State = typename Chain::State;

  /// Starts from the matching that bibone_initial_matching finds (throws
  /// std::invalid_argument with the reason if the region is not tileable). `colouring`: how the
  /// colour classes are found (move_colouring.hpp).
  /// All kernels run on `space` (an instance of Space).
  BiboneGlauber(const Space& space, const BiboneDomain& domain, std::uint64_t seed,
                MoveColouring colouring = default_move_colouring)
      : BiboneGlauber(space, domain, seed, bibone_initial_matching(domain), colouring) {}
  /// Collective. Starts from a given matching (validated), on one rank or in row slabs over
  /// `comm` (throws std::invalid_argument, naming `what`, when the ranks cannot split the rows).
  BiboneGlauber(const Space& space, const BiboneDomain& domain, std::uint64_t seed,
                const BiboneMatching& initial, MoveColouring colouring = default_move_colouring,
                const parallel::Communicator& comm = parallel::Communicator(),
                const std::string& what = "bibone tiling")
      : Chain(space, BiboneSlabModel(fits(domain), colouring), seed, comm,
              checked(domain, initial).bytes(), what),
        domain_(domain) {
    if (move_set().anchors.size() >
        static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
      throw std::invalid_argument("bibone tiling: the region is too large for 32-bit indices");
  }

  const BiboneDomain& domain() const { return domain_; }
  const BiboneMoveSet& move_set() const { return this->model().moves; }
  const State& state() const { return this->local_state(); }

  void set_matching(const BiboneMatching& matching) {
    this->set_bytes(checked(domain_, matching).bytes());
  }
  /// Collective: the whole matching on every rank.
  BiboneMatching matching() const { return BiboneMatching(this->bytes()); }

  /// Refuses: there is no monotone coupling for bibone tilings (see above).
  [[noreturn]] void exact_sample(std::uint64_t /*cftp_seed*/) const {
    throw std::invalid_argument(
        "bibone tilings: coupling from the past is not available: dimers on the triangular "
        "lattice have no height function and no monotone coupling of the moves; use forward "
        "Glauber runs");
  }

 private:
  /// Sites and anchors are 32-bit indices in the kernels and the move lists; these bounds (box
  /// sites times 6, and the anchor count) are the first bibone chain's, kept.
  static const BiboneDomain& fits(const BiboneDomain& domain) {
    if (static_cast<std::int64_t>(domain.box_sites()) * 6 >
        std::numeric_limits<std::int32_t>::max())
      throw std::invalid_argument("bibone tiling: the region is too large for 32-bit indices");
    return domain;
  }
  static const BiboneMatching& checked(const BiboneDomain& domain, const BiboneMatching& m) {
    validate_matching(domain, m);
    return m;
  }

  BiboneDomain domain_;
};

}  // namespace portamc::tilings
