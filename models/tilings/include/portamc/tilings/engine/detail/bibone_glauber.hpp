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
// No coupling from the past: the triangular lattice is not bipartite, bibone tilings have no
// height function and no partial order that the moves respect, so there is no monotone
// coupling with two extremal states; exact_sample() refuses.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/tilings/bibone/bibone_domain.hpp"
#include "portamc/tilings/bibone/bibone_tileability.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/bibone/detail/bibone_glauber_kernel.hpp"
#include "portamc/tilings/bibone/detail/bibone_moves.hpp"

namespace portamc::tilings {

template <class Space>
class BiboneGlauber {
 public:
  using State = Kokkos::View<std::uint8_t*, Space>;

  /// Starts from the matching that bibone_initial_matching finds (throws
  /// std::invalid_argument with the reason if the region is not tileable). `colouring`: how the
  /// colour classes are found (move_colouring.hpp).
  /// All kernels run on `space` (an instance of Space).
  BiboneGlauber(const Space& space, const BiboneDomain& domain, std::uint64_t seed,
                MoveColouring colouring = default_move_colouring)
      : BiboneGlauber(space, domain, seed, bibone_initial_matching(domain), colouring) {}
  /// Starts from a given matching (validated).
  BiboneGlauber(const Space& space, const BiboneDomain& domain, std::uint64_t seed,
                const BiboneMatching& initial, MoveColouring colouring = default_move_colouring)
      : space_(space), domain_(domain), moves_(bibone_move_set(domain, colouring)), seed_(seed) {
    if (moves_.anchors.size() >
            static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) ||
        static_cast<std::int64_t>(domain.box_sites()) * 6 >
            std::numeric_limits<std::int32_t>::max()) {
      throw std::invalid_argument("bibone tiling: the region is too large for 32-bit indices");
    }
    Kokkos::View<std::int32_t*, Space> anchors("portamc::tilings::bibone_anchors",
                                               moves_.anchors.size());
    Kokkos::deep_copy(anchors, Kokkos::View<const std::int32_t*, Kokkos::HostSpace,
                                            Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
                                   moves_.anchors.data(), moves_.anchors.size()));
    anchors_ = anchors;
    state_ = State("portamc::tilings::bibone_state", static_cast<std::size_t>(domain.box_sites()));
    set_matching(initial);
  }

  const Space& space() const { return space_; }
  const BiboneDomain& domain() const { return domain_; }
  const BiboneMoveSet& move_set() const { return moves_; }
  std::uint64_t seed() const { return seed_; }
  /// Order of the (family, class) pairs over the steps (class_order.hpp); random unless set.
  void set_class_order(ClassOrder order) { class_order_ = order; }
  std::uint64_t steps_done() const { return steps_done_; }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_steps_done(std::uint64_t steps) { steps_done_ = steps; }
  const State& state() const { return state_; }

  void set_matching(const BiboneMatching& matching) {
    validate_matching(domain_, matching);
    const auto& bytes = matching.bytes();
    Kokkos::deep_copy(
        state_, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>(bytes.data(), bytes.size()));
  }
  BiboneMatching matching() const {
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(domain_.box_sites()));
    Kokkos::deep_copy(
        Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            bytes.data(), bytes.size()),
        state_);
    return BiboneMatching(std::move(bytes));
  }

  /// Runs steps steps_done()+1 .. steps_done()+n; returns the candidate cycles tried.
  std::uint64_t run_steps(std::uint64_t n) {
    std::uint64_t attempts = 0;
    for (std::uint64_t s = 0; s < n; ++s) {
      const std::uint64_t t = ++steps_done_;
      const int p = step_class(class_order_, seed_, t, moves_.pairs());
      const std::int32_t first = moves_.pair_offset[p];
      const std::int32_t count = moves_.pair_offset[p + 1] - first;
      if (count == 0) continue;
      const int family = moves_.pair_family[p];
      BiboneGlauberStep<Space> kernel{
          state_,
          anchors_,
          first,
          moves_.shapes[family],
          static_cast<std::uint64_t>(family) * static_cast<std::uint64_t>(moves_.box_sites),
          seed_,
          t};
      Kokkos::parallel_for(
          "portamc::tilings::bibone_glauber_step",
          Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space_, 0, count), kernel);
      attempts += static_cast<std::uint64_t>(count);
    }
    return attempts;
  }
  /// One sweep = one step per (family, class) pair on average.
  std::uint64_t run_sweeps(std::uint64_t sweeps) {
    return run_steps(sweeps * static_cast<std::uint64_t>(moves_.pairs()));
  }

  /// Refuses: there is no monotone coupling for bibone tilings (see above).
  [[noreturn]] void exact_sample(std::uint64_t /*cftp_seed*/) const {
    throw std::invalid_argument(
        "bibone tilings: coupling from the past is not available: dimers on the triangular "
        "lattice have no height function and no monotone coupling of the moves; use forward "
        "Glauber runs");
  }

 private:
  Space space_;
  BiboneDomain domain_;
  BiboneMoveSet moves_;
  std::uint64_t seed_;
  ClassOrder class_order_ = ClassOrder::random;
  Kokkos::View<const std::int32_t*, Space> anchors_;
  State state_;
  std::uint64_t steps_done_ = 0;
};

}  // namespace portamc::tilings
