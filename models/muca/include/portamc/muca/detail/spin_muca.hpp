#pragma once
// W independent multicanonical walkers of a discrete spin model on the periodic L^d lattice
// (issue #26): the Ising model and the q-state Potts model in 2 and 3 dimensions, and the
// Blume-Capel model at a fixed inverse temperature (hamiltonian.hpp), written once for every
// Kokkos backend. The generic form of IsingMuca (ising_muca.hpp), with the same conventions, so
// that it can replace it once it is as fast:
//
// - Layout: site states packed in b = ceil(log2 states) bits, 32 / b sites per 32-bit word,
//   walker-interleaved by word: spins(word, walker).
// - One shared site sequence (the site of step t is a pure function of (seed, site_choice,
//   0, t), the same stream as IsingMuca's), every walker drawing its own random words.
// - Acceptance compares a random word with a host-computed integer threshold per (bin, move
//   class): bitwise the same trajectories on every backend. The class is the bin change for
//   Ising and Potts; for Blume-Capel it is (change of n, change of the bond energy), the
//   threshold holding min(1, exp(-beta dbond) W(n') / W(n)).
// - Random words per step: the Ising model uses one, word t & 3 of walker w's acceptance block
//   t >> 2, exactly as IsingMuca, so the Ising model in 2D runs bit for bit IsingMuca's chain
//   (tested). Potts and Blume-Capel use two, words 2 (t & 1) and 2 (t & 1) + 1 of block
//   t >> 1: the proposal, new state = old + 1 + floor(r (S - 1) / 2^32) mod S for S states
//   (uniform over the other S - 1 states up to a bias of (S - 1) / 2^32, the order of the
//   threshold's own rounding, 2^-31), then the acceptance word.
//
// GPUs: teams of consecutive walkers, one per thread, with their lattices in team scratch
// (shared) memory when they fit and their histogram rows there too, counted as dwell counts
// (choose_launch_plan); a thread keeps its bin's thresholds in registers (Ising model). CPUs:
// one walker per team, the histogram a per-thread ScatterView.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <cstdint>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/histogram.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/muca/detail/order_parameter.hpp"
#include "portamc/muca/hamiltonian.hpp"
#include "portamc/muca/parameters.hpp"
#include "portamc/muca/spin_bins.hpp"
#include "portamc/rng.hpp"

namespace portamc::muca {

/// The shared site of one step for a launch: word offsets (word index times the lattice
/// stride) and bit positions of the site (entry 0) and of its 2d neighbours.
struct alignas(16) SpinStepSites {
  std::uint32_t offset[7];
  std::uint8_t shift[7];
};

/// The model a sweep kernel runs (a template argument of its walk).
enum class SpinKind { ising, potts, blume_capel };

/// How the sweep kernel is launched; chosen from the device and the model (spin_muca_impl.hpp).
struct SpinLaunchPlan {
  int team_size = 1;             ///< walkers per team, one per thread
  bool scratch_lattice = false;  ///< a team's lattices live in team scratch during a kernel
  bool team_histogram = false;   ///< the team's histogram in team scratch, flushed once
  int group_slots = 1;  ///< histogram rows in team scratch (grouped recording, team_group_rows)
  bool team_group_histogram = false;      ///< group_slots rows of bins fit in team scratch too
  std::size_t scratch_bytes = 0;          ///< per team
  std::size_t grouped_scratch_bytes = 0;  ///< per team, grouped recording
  int occupancy = 0;  ///< percent of a multiprocessor's threads kept resident; 0: no limit
};

// Kernel functor; public so nvcc can compile its device code (no private lambdas).
template <class ExecutionSpace>
struct SpinMucaKernel {
  using memory_space = typename ExecutionSpace::memory_space;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scatter_type = decltype(Kokkos::Experimental::create_scatter_view(
      std::declval<Kokkos::View<count_type*, memory_space>>()));

  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> spins;
  Kokkos::View<std::int32_t*, memory_space> bins;
  /// Offsets for the lattice stride of the launch: the team width with lattices in scratch,
  /// W in global memory.
  Kokkos::View<const SpinStepSites*, memory_space> sites;
  /// thresholds(bin, class): accept iff (word >> 1) < threshold; 0 for a move out of the
  /// range. Ising and Potts: class jump + max_jump for a move changing the bin by `jump`
  /// (2^31 for jump 0). Blume-Capel: class (dn + 1) (8d + 1) + dbond + 4d.
  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, memory_space> thresholds;
  /// (group, bin) flattened: group * nbins + bin.
  Kokkos::View<count_type*, memory_space> histogram;
  scatter_type scatter;  ///< the histogram without a team histogram
  std::uint64_t seed = 0;
  std::uint64_t first_walker = 0;
  std::uint64_t total_walkers = 1;
  std::uint64_t step0 = 0;
  int groups = 1;
  int slots = 1;  ///< rows of the team histogram
  int steps = 0;
  int nbins = 0;
  int walkers = 0;
  int words = 0;
  int neighbours = 4;  ///< 2d
  int max_jump = 1;
  int states = 2;  ///< 2 for Ising, q for Potts, 3 for Blume-Capel
  std::uint32_t mask = 1;
  SpinKind kind = SpinKind::ising;
  bool record = false;
  bool team_histogram = false;
  bool scratch_lattice = false;

  KOKKOS_INLINE_FUNCTION int group_of(std::int64_t w) const {
    if (groups == 1) return 0;
    return static_cast<int>((first_walker + static_cast<std::uint64_t>(w)) *
                            static_cast<std::uint64_t>(groups) / total_walkers);
  }

  // A team owns team_size consecutive walkers, one per thread. Its lattices are copied into
  // team scratch when they fit, and its histogram rows (the groups its walkers span) are
  // counted there and flushed once per launch.
  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int lane = team.team_rank();
    const int width = team.team_size();
    const int w = team.league_rank() * width + lane;
    const bool active = w < walkers;
    const int base_group = group_of(team.league_rank() * width);
    // The lattices first (a multiple of 4 width bytes), then the histogram rows.
    std::uint32_t* shared = nullptr;
    if (scratch_lattice)
      shared = assume_team_scratch(static_cast<std::uint32_t*>(
          team.team_shmem().get_shmem(sizeof(std::uint32_t) * words * width)));
    std::uint32_t* team_hist = nullptr;
    if (record && team_histogram) {
      team_hist = assume_team_scratch(static_cast<std::uint32_t*>(
          team.team_shmem().get_shmem(sizeof(std::uint32_t) * nbins * slots)));
      for (int b = lane; b < nbins * slots; b += width) team_hist[b] = 0;
    }
    if (scratch_lattice) {
      std::uint32_t* const mine = shared + lane;
      if (active)
        for (int k = 0; k < words; ++k) mine[k * width] = spins(k, w);
      team.team_barrier();
      if (active) walk_recorded(w, assume_team_scratch(mine), team_hist, base_group * nbins);
      team.team_barrier();
      if (active)
        for (int k = 0; k < words; ++k) spins(k, w) = mine[k * width];
    } else {
      team.team_barrier();
      if (active) walk_recorded(w, &spins(0, w), team_hist, base_group * nbins);
      team.team_barrier();
    }
    if (team_hist != nullptr) {
      const int rows = groups - base_group < slots ? groups - base_group : slots;
      for (int b = lane; b < nbins * rows; b += width)
        if (team_hist[b] != 0)
          Kokkos::atomic_add(&histogram(base_group * nbins + b), count_type(team_hist[b]));
    }
  }

  // Recorders take (group * nbins + bin, attempts spent there).
  KOKKOS_INLINE_FUNCTION void walk_recorded(std::int64_t w, std::uint32_t* lattice,
                                            std::uint32_t* team_hist, int team_offset) const {
    if (!record) {
      walk(w, lattice, [](int, std::uint32_t) {});
    } else if (team_hist != nullptr) {
      walk(w, lattice,
           TeamRowsRecorder<decltype(histogram)>{team_hist, team_offset, nbins * slots, histogram});
    } else {
      auto access = scatter.access();
      walk(w, lattice, [&access](int index, std::uint32_t n) { access(index) += count_type(n); });
    }
  }

  // Walker w through `steps` attempts on its lattice (word k at lattice[offset of k]); the bin
  // after every attempt is recorded, as a dwell count: record_bin(group * nbins + bin, n)
  // when the walker leaves a bin it stayed in for n attempts (a fraction of the attempts
  // change the bin, so a fraction of them cost a counter update). The model's shape is a
  // template argument, so the neighbour loops unroll and a step's sites stay in registers.
  template <class Recorder>
  KOKKOS_INLINE_FUNCTION void walk(const std::int64_t w, std::uint32_t* const lattice,
                                   const Recorder& record_bin) const {
    if (kind == SpinKind::ising) {
      if (neighbours == 4)
        walk_model<4, SpinKind::ising>(w, lattice, record_bin);
      else
        walk_model<6, SpinKind::ising>(w, lattice, record_bin);
    } else if (kind == SpinKind::potts) {
      if (neighbours == 4)
        walk_model<4, SpinKind::potts>(w, lattice, record_bin);
      else
        walk_model<6, SpinKind::potts>(w, lattice, record_bin);
    } else {
      if (neighbours == 4)
        walk_model<4, SpinKind::blume_capel>(w, lattice, record_bin);
      else
        walk_model<6, SpinKind::blume_capel>(w, lattice, record_bin);
    }
  }

  /// Device threads running the Ising model keep the thresholds of their bin (2d + 1
  /// columns) in registers, as IsingMuca does: the table does not stay in L1 beside the
  /// shared-memory lattices, and a warp's walkers sit at unrelated bins, so a lookup per
  /// attempt is a scattered L2 gather. The row is reloaded when the bin changes, which for
  /// the Ising model is a minority of attempts. Potts walkers change bin on most accepted
  /// moves and would reload 4d + 1 columns each time: on an H200 that cost q = 10 at L = 32
  /// 9 % over a lookup per attempt (docs/performance.md), so Potts and Blume-Capel look up,
  /// as CPUs do (from L1).
  template <SpinKind Kind>
  static constexpr bool cached_row = (Kind == SpinKind::ising) && is_device_space_v<ExecutionSpace>;
  template <int Neighbours, SpinKind Kind>
  static constexpr int row_columns = cached_row<Kind> ? Neighbours + 1 : 1;

  /// A walker's registers during a walk.
  template <int Columns>
  struct WalkerRegisters {
    int bin;
    std::uint32_t dwell;  ///< attempts ending in `bin` not yet recorded
    std::uint32_t row[Columns];
  };

  template <int Columns>
  KOKKOS_FORCEINLINE_FUNCTION void load_row(WalkerRegisters<Columns>& g) const {
    PORTAMC_UNROLL
    for (int c = 0; c < Columns; ++c) g.row[c] = thresholds(g.bin, c);
  }

  // Selects from registers: a dynamic index would put the row in local memory.
  template <int Columns>
  KOKKOS_FORCEINLINE_FUNCTION static std::uint32_t pick(const WalkerRegisters<Columns>& g,
                                                        int column) {
    std::uint32_t v = g.row[0];
    PORTAMC_UNROLL
    for (int c = 1; c < Columns; ++c) v = column == c ? g.row[c] : v;
    return v;
  }

  // Walker w through `steps` attempts. Step t uses walker w's acceptance block (step0 + t) /
  // P, P = 4 steps per block for the Ising model (one word each) and 2 otherwise (proposal
  // and acceptance words): one draw per P steps, and one more for a launch that starts
  // inside a block.
  template <int Neighbours, SpinKind Kind, class Recorder>
  KOKKOS_INLINE_FUNCTION void walk_model(const std::int64_t w, std::uint32_t* const lattice,
                                         const Recorder& record_bin) const {
    constexpr int per_block = Kind == SpinKind::ising ? 4 : 2;
    constexpr int columns = row_columns<Neighbours, Kind>;
    const std::uint64_t entity = first_walker + static_cast<std::uint64_t>(w);
    const int offset = group_of(w) * nbins;
    WalkerRegisters<columns> g;
    g.bin = bins(w);
    g.dwell = 0;
    if constexpr (cached_row<Kind>) load_row(g);
    // One call site of the attempt keeps the kernel small enough to inline whole (a walk
    // that is not inlined takes the functor's address, which copies it to local memory).
    // Every walker of a launch is at the same step, so the draw's branch never diverges.
    rng::Block block{};
    for (int t = 0; t < steps; ++t) {
      const std::uint64_t step = step0 + static_cast<std::uint64_t>(t);
      const int slot = static_cast<int>(step % per_block);
      if (slot == 0 || t == 0)
        block = rng::draw(seed, rng::purpose_acceptance, entity, step / per_block);
      std::uint32_t proposal, r;
      words_of<Kind>(block, slot, proposal, r);
      attempt<Neighbours, Kind>(g, lattice, sites(t), proposal, r, offset, record_bin);
    }
    if (g.dwell > 0) record_bin(offset + g.bin, g.dwell);
    bins(w) = g.bin;
  }

  // The words of step `slot` of a block: Ising, word slot (0..3); otherwise the proposal
  // word 2 slot and the acceptance word 2 slot + 1 (slot 0..1). Selects, not a dynamic index
  // (which would put the block on the stack).
  template <SpinKind Kind>
  KOKKOS_FORCEINLINE_FUNCTION static void words_of(const rng::Block& b, int slot,
                                                   std::uint32_t& proposal, std::uint32_t& r) {
    if constexpr (Kind == SpinKind::ising) {
      proposal = 0;
      r = slot < 2 ? (slot == 0 ? b[0] : b[1]) : (slot == 2 ? b[2] : b[3]);
    } else {
      proposal = slot == 0 ? b[0] : b[2];
      r = slot == 0 ? b[1] : b[3];
    }
  }

  // One Metropolis attempt at the step's site s with proposal word `proposal` (Potts and
  // Blume-Capel) and acceptance word r; a bin change records the dwell count of the bin
  // left. GPUs store branch-free, so the warp stays converged. CPUs store only an accepted
  // move: an unconditional store makes the next attempt's loads wait on it, while at low
  // acceptance (Blume-Capel near its transition) the branch predicts well
  // (docs/performance.md).
  template <int Neighbours, SpinKind Kind, int Columns, class Recorder>
  KOKKOS_FORCEINLINE_FUNCTION void attempt(WalkerRegisters<Columns>& g,
                                           std::uint32_t* const lattice, const SpinStepSites& s,
                                           std::uint32_t proposal, std::uint32_t r, int offset,
                                           const Recorder& record_bin) const {
    std::uint32_t* const at = lattice + s.offset[0];
    const std::uint32_t word = *at;
    const std::uint32_t old_state = (word >> s.shift[0]) & mask;
    std::uint32_t new_state;
    int jump, move;
    if constexpr (Kind == SpinKind::ising) {
      // Flipping with a aligned neighbours of 2d moves the bin by a - d.
      new_state = old_state ^ 1u;
      int aligned = 0;
      PORTAMC_UNROLL
      for (int n = 1; n <= Neighbours; ++n)
        aligned += ((lattice[s.offset[n]] >> s.shift[n]) & mask) == old_state;
      jump = aligned - Neighbours / 2;
      move = jump + max_jump;
    } else {
      new_state = old_state + 1u +
                  static_cast<std::uint32_t>((static_cast<std::uint64_t>(proposal) *
                                              static_cast<std::uint64_t>(states - 1)) >>
                                             32);
      if (new_state >= static_cast<std::uint32_t>(states))
        new_state -= static_cast<std::uint32_t>(states);
      if constexpr (Kind == SpinKind::potts) {
        int old_count = 0, new_count = 0;  // neighbours in the old and in the new state
        PORTAMC_UNROLL
        for (int n = 1; n <= Neighbours; ++n) {
          const std::uint32_t other = (lattice[s.offset[n]] >> s.shift[n]) & mask;
          old_count += other == old_state;
          new_count += other == new_state;
        }
        jump = old_count - new_count;
        move = jump + max_jump;
      } else {
        // Spin s = state - 1: the bonds change by -(s' - s) (sum of the neighbours' spins),
        // the field part n by whether s' and s are non-zero.
        int field = 0;
        PORTAMC_UNROLL
        for (int n = 1; n <= Neighbours; ++n)
          field += static_cast<int>((lattice[s.offset[n]] >> s.shift[n]) & mask) - 1;
        const int bond_change =
            -(static_cast<int>(new_state) - static_cast<int>(old_state)) * field;
        jump = static_cast<int>(new_state != 1u) - static_cast<int>(old_state != 1u);
        move = (jump + 1) * (4 * Neighbours + 1) + bond_change + 2 * Neighbours;
      }
    }
    std::uint32_t threshold;
    if constexpr (cached_row<Kind>)
      threshold = pick(g, move);
    else
      threshold = thresholds(g.bin, move);
    const std::uint32_t accept = static_cast<std::uint32_t>((r >> 1) < threshold);
    if constexpr (is_device_space_v<ExecutionSpace>)
      *at = word ^ (((old_state ^ new_state) & (0u - accept)) << s.shift[0]);
    else if (accept != 0u)
      *at = word ^ ((old_state ^ new_state) << s.shift[0]);
    const int delta = jump & -static_cast<int>(accept);
    if (delta != 0) {
      record_bin(offset + g.bin, g.dwell);
      g.dwell = 0;
      g.bin += delta;
      if constexpr (cached_row<Kind>) load_row(g);
    }
    ++g.dwell;
  }
};

/// The walkers on execution space `ExecutionSpace` (any backend of the build): every kernel
/// runs on the instance the model was made with. Parameters::L is ignored in favour of the
/// Hamiltonian's; seed, walkers, first_walker, total_walkers and walker_groups are used as
/// IsingMuca uses them.
template <class ExecutionSpace>
class SpinMuca {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  /// Random site states on `space`. std::invalid_argument for bad parameters or lattices that
  /// do not fit its memory.
  SpinMuca(const ExecutionSpace& space, const Parameters& params, const Hamiltonian& h);

  const ExecutionSpace& space() const { return space_; }
  const Hamiltonian& hamiltonian() const { return h_; }
  const SpinBins& energy_bins() const { return bins_; }
  /// The bins a run (Simulation) iterates over: energies bins_.energy(k), and which of them
  /// the weight iteration must visit. Every bin until set_accessible or discover_accessible
  /// says otherwise: bins next to the extremes of the range can be unreachable (which ones
  /// depends on the model, d and q).
  const EnergyBins& run_bins() const { return run_bins_; }
  /// The accessible bins, known (from exact counts): std::invalid_argument unless one flag per
  /// bin with at least two set.
  void set_accessible(const std::vector<unsigned char>& accessible);
  /// The accessible bins, found by the run: the anchors (anchor_bins: the ground states and
  /// the highest energy) and every bin mark_visited is shown a visit of.
  void discover_accessible();
  /// With discover_accessible: marks the bins `histogram` visited as accessible.
  void mark_visited(const std::vector<count_type>& histogram);
  long long walkers() const { return walkers_; }
  std::uint64_t step() const { return step_; }
  int bits_per_site() const { return bits_; }
  const SpinLaunchPlan& plan() const { return plan_; }

  /// Weights per energy bin (natural log); rebuilds the integer acceptance table.
  void set_log_weights(const std::vector<double>& log_weights);
  const std::vector<double>& log_weights() const { return log_weights_; }

  void thermalise(std::uint64_t attempts_per_walker);
  /// The histogram of the bin after every attempt, summed over walkers.
  std::vector<count_type> sample(std::uint64_t attempts_per_walker);
  /// The same per walker group (IsingMuca::sample_by_group), measuring the order parameter
  /// into `recorder` at its steps when given.
  std::vector<count_type> sample_by_group(
      std::uint64_t attempts_per_walker,
      const OrderParameterRecorder<ExecutionSpace>* recorder = nullptr);
  int walker_groups() const { return groups_; }

  std::vector<std::int32_t> walker_bins() const;
  /// Bins recomputed from the site states.
  std::vector<std::int32_t> recomputed_bins() const;
  /// Site states of walker w, one per site (host copy, for checks).
  std::vector<int> site_states(long long w) const;

  ModelState state() const;
  /// Continue from a saved state (std::invalid_argument if it does not match).
  void restore(const ModelState& state);

  static std::size_t device_bytes(const Hamiltonian& h, long long walkers);

 private:
  void run(std::uint64_t attempts, bool record, Kokkos::View<count_type*, memory_space> histogram,
           bool by_group, const OrderParameterRecorder<ExecutionSpace>* recorder = nullptr);
  /// The bin of every walker from its states, into `out`.
  void compute_bins(const Kokkos::View<std::int32_t*, memory_space>& out) const;
  void choose_launch_plan();

  Parameters params_;
  Hamiltonian h_;
  ExecutionSpace space_;
  SpinBins bins_;
  EnergyBins run_bins_;
  bool discovering_ = false;  ///< accessible bins found by visits (discover_accessible)
  long long walkers_ = 0;
  long long total_walkers_ = 0;
  int groups_ = 1;
  int bits_ = 1;
  int per_word_ = 32;
  int words_ = 0;
  std::uint64_t step_ = 0;
  SpinLaunchPlan plan_;
  std::vector<double> log_weights_;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> spins_;
  Kokkos::View<std::int32_t*, memory_space> walker_bins_;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> neighbours_;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> thresholds_;
  Kokkos::View<SpinStepSites*, memory_space> sites_;
};

/// Columns of SpinMuca's threshold table for h: the move classes of SpinMucaKernel.
int threshold_columns(const Hamiltonian& h);

#define PORTAMC_SPIN_MUCA_EXTERN_(Space) extern template class SpinMuca<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_SPIN_MUCA_EXTERN_)
#undef PORTAMC_SPIN_MUCA_EXTERN_

}  // namespace portamc::muca
