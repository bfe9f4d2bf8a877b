#pragma once
// The slab chain: a family's forward Glauber chain over the ranks of a Communicator, one rank
// included, bitwise the one-rank chain whatever the number of ranks.
//
// The state is rows of elements (bytes of a tiling, int16 heights of the six-vertex model).
// Each rank holds its owned rows plus the family's halo of h rows on each side
// (slab_decomposition.hpp). Step t picks class c = step_class(order, seed, t, classes), as
// on one rank. Each rank then runs the moves of c that touch its owned rows, with the random
// word keyed by the global site and t. Then, if c has moves anywhere, the ranks exchange their
// h boundary rows (halo_rows.hpp).
//
// Why that is the one-rank chain: the moves of one class touch pairwise disjoint sites, so a
// move's outcome depends only on its random word and the pre-step values of its own sites.
// Before every step all local rows (owned and halo) hold the one-rank state (induction: the
// halos were just exchanged). A rank runs each of its moves with those values and that word,
// so it writes the one-rank values. Every owned site that the one-rank step writes belongs to
// a move touching an owned row, which this rank ran. A move near a slab boundary is run by
// both neighbours from the same values, and the copies agree. Halo rows may be left partly
// updated, and the exchange restores them.
//
// Tiled domino steps are the same chain with launches of K steps inside tiles and a halo
// that depends on each launch (distributed_tiled_domino.hpp says why that is the one-rank
// chain); so the chain runs launches, and a family whose launch is one step of one class
// derives from ClassStepFamily below.
//
// Family (VertexSlabFamily in distributed_glauber.hpp, BiboneSlabModel and
// RectTriangleSlabModel in anchor_slab_families.hpp, SixVertexSlabFamily in
// six_vertex_slab_family.hpp, TiledDominoSlabFamily in distributed_tiled_domino.hpp) provides:
//   using Element                        the state's element type
//   int rows(), row_length()             the whole state
//   int classes()                        colour classes (or (family, class) pairs) per sweep
//   RowSlab slab(rank, ranks, what)      this rank's rows (throws std::invalid_argument)
//   Moves<Space> slab_moves(space, slab) what this rank runs
//   std::uint64_t steps_per_launch()     steps of one launch
//   SlabLaunch launch(space, state, moves, slab, seed, first step, class order)
//                                        runs this slab's part of one launch
//   std::vector<HaloRows> halo_rows(slab, launch)   what the ranks exchange after it
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/engine/detail/halo_rows.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"

namespace portamc::tilings {

/// What a launch did: the moves it tried in the whole domain (the one-rank count), whether the
/// ranks exchange halos after it (alike on every rank), and the tiles' row shift (tiled
/// launches).
struct SlabLaunch {
  std::uint64_t attempts = 0;
  bool exchange = false;
  std::int32_t row_shift = 0;
};

/// The slab chain's launch for families whose launch is one step t of one colour class
/// c = step_class(order, seed, t, classes), with `halo()` rows on each side and symmetric halo
/// exchanges. Derived provides rows(), row_length(), halo(), classes(), Moves with size(c) (the
/// class's moves in the whole domain) and launch_class(space, state, moves, c, slab, seed, t).
template <class Derived>
struct ClassStepFamily {
  RowSlab slab(int rank, int ranks, const std::string& what) const {
    return row_slab(self().rows(), self().row_length(), rank, ranks, what, self().halo());
  }
  std::uint64_t steps_per_launch() const { return 1; }
  template <class Space, class State, class Moves>
  SlabLaunch launch(const Space& space, const State& state, const Moves& moves, const RowSlab& slab,
                    std::uint64_t seed, std::uint64_t t, ClassOrder order) const {
    const int c = step_class(order, seed, t, self().classes());
    // Every rank knows the global class size: an empty class wrote nothing anywhere, any
    // other one is exchanged even where this slab had nothing to do.
    const std::int64_t size = moves.size(c);
    if (size == 0) return {};
    self().launch_class(space, state, moves, c, slab, seed, t);
    return {static_cast<std::uint64_t>(size), true, 0};
  }
  std::vector<HaloRows> halo_rows(const RowSlab& slab, const SlabLaunch& /*launch*/) const {
    return symmetric_halo_rows(slab);
  }

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

template <class Family, class Space>
class RowSlabChain {
 public:
  using Element = typename Family::Element;
  using State = Kokkos::View<Element*, Space>;
  using memory_space = typename Space::memory_space;

  /// Collective. The state is zero until set_whole_state(). Throws std::invalid_argument, on
  /// every rank alike and naming `what`, when the ranks cannot split the rows (fewer than h
  /// rows per rank) or the state passes the kernels' 32-bit indices. All kernels run on `space`.
  RowSlabChain(const Space& space, Family family, std::uint64_t seed,
               const parallel::Communicator& comm, const std::string& what)
      : space_(space),
        family_(std::move(family)),
        seed_(seed),
        comm_(comm),
        slab_(family_.slab(comm.rank(), comm.size(), what)),
        moves_(fits(family_, what).template slab_moves<Space>(space, slab_)) {
    require_memory<Space>(static_cast<std::size_t>(slab_.local_cells()) * sizeof(Element),
                          what + " (the state of one slab)");
    state_ = State("portamc::tilings::slab_state", static_cast<std::size_t>(slab_.local_cells()));
    halo_ = RowHaloExchange<memory_space, Element>(comm_, slab_);
  }

  const Space& space() const { return space_; }
  const Family& family() const { return family_; }
  const RowSlab& slab() const { return slab_; }
  const parallel::Communicator& communicator() const { return comm_; }
  std::uint64_t seed() const { return seed_; }
  std::uint64_t steps_done() const { return steps_done_; }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_steps_done(std::uint64_t steps) { steps_done_ = steps; }
  /// "one rank", "nccl", "mpi_direct" or "mpi_staged".
  std::string transport() const { return halo_.transport(); }
  /// Collective: halos travel as `transport` says from now on (parallel.halo_transport).
  void set_halo_transport(parallel::HaloTransport transport) {
    halo_ = RowHaloExchange<memory_space, Element>(comm_, slab_, transport);
  }
  /// Wall time spent in halo exchanges so far (this rank; 0 on one rank).
  double halo_seconds() const { return halo_seconds_; }
  /// Order of the classes over the steps (class_order.hpp), as on one rank.
  void set_class_order(ClassOrder order) { class_order_ = order; }
  ClassOrder class_order() const { return class_order_; }
  /// The slab's local rows (owned rows and halos).
  const State& local_state() const { return state_; }

  /// Replaces the state by the local rows of `whole` (rows x row_length elements, the same on
  /// every rank; the family has validated it).
  void set_whole_state(const std::vector<Element>& whole) {
    const auto total = static_cast<std::size_t>(slab_.rows) * slab_.row_length;
    if (whole.size() != total)
      throw std::invalid_argument("a slab chain's state of " + std::to_string(whole.size()) +
                                  " values, expected " + std::to_string(total));
    const auto first = static_cast<std::size_t>(slab_.local_begin) * slab_.row_length;
    Kokkos::deep_copy(
        state_,
        Kokkos::View<const Element*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            whole.data() + first, state_.extent(0)));
  }

  /// Runs steps steps_done()+1 .. steps_done()+n in whole launches (n rounded up to a
  /// multiple of steps_per_launch(); collective); returns the moves tried in the whole domain
  /// (the one-rank count).
  std::uint64_t run_steps(std::uint64_t n) {
    const std::uint64_t k = family_.steps_per_launch();
    std::uint64_t attempts = 0;
    for (std::uint64_t s = 0; s < n; s += k) {
      attempts += launch_at(steps_done_ + 1).attempts;
      steps_done_ += k;
    }
    return attempts;
  }
  /// The launch from global step `first` and its halo exchange, leaving steps_done() alone
  /// (coupling from the past runs steps in its own order). Collective.
  SlabLaunch launch_at(std::uint64_t first) {
    const SlabLaunch l = family_.launch(space_, state_, moves_, slab_, seed_, first, class_order_);
    if (l.exchange && comm_.size() > 1) {
      // The exchange waits for the kernel anyway; fencing first times the exchange alone.
      Kokkos::fence();
      const auto start = std::chrono::steady_clock::now();
      halo_.run(state_, family_.halo_rows(slab_, l));
      halo_seconds_ +=
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    return l;
  }
  /// One sweep = `classes` steps (each move is tried once per sweep on average).
  std::uint64_t run_sweeps(std::uint64_t sweeps) {
    return run_steps(sweeps * static_cast<std::uint64_t>(family_.classes()));
  }

  /// Collective: the whole state on rank 0 (rows in order), empty on the other ranks.
  std::vector<Element> state_on_root() const {
    std::vector<Element> own(static_cast<std::size_t>(slab_.own_cells()));
    const auto first = static_cast<std::size_t>(slab_.local_offset(slab_.own_begin));
    Kokkos::deep_copy(
        Kokkos::View<Element*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            own.data(), own.size()),
        Kokkos::subview(state_, std::make_pair(first, first + own.size())));
    if constexpr (std::is_same_v<Element, std::uint8_t>) {
      return comm_.gather(own);
    } else {  // the communicator gathers ints
      const std::vector<int> all = comm_.gather(std::vector<int>(own.begin(), own.end()));
      return std::vector<Element>(all.begin(), all.end());
    }
  }
  /// Collective: the whole state on every rank.
  std::vector<Element> whole_state() const {
    std::vector<Element> all = state_on_root();
    if constexpr (std::is_same_v<Element, std::uint8_t>) {
      comm_.broadcast(all);
    } else if (comm_.size() > 1) {
      throw std::logic_error("a slab chain broadcasts byte states only");
    }
    return all;
  }

 private:
  /// The move lists hold 32-bit global indices, and the kernels index sites with 32 bits, as
  /// on one rank.
  static const Family& fits(const Family& family, const std::string& what) {
    if (std::int64_t{family.rows()} * family.row_length() >
        std::numeric_limits<std::int32_t>::max())
      throw std::invalid_argument(what + ": the domain is too large for 32-bit indices");
    return family;
  }

  Space space_;
  Family family_;
  std::uint64_t seed_;
  ClassOrder class_order_ = ClassOrder::random;
  parallel::Communicator comm_;
  RowSlab slab_;
  typename Family::template Moves<Space> moves_;
  State state_;
  RowHaloExchange<memory_space, Element> halo_;
  std::uint64_t steps_done_ = 0;
  double halo_seconds_ = 0;
};

}  // namespace portamc::tilings
