#pragma once
// W independent multicanonical walkers of the L x L periodic Ising model (Gross,
// Zierenberg, Weigel, Janke, CPC 224 (2018) 387), written once for every Kokkos backend.
//
// Layout: spins are bit-packed, 32 sites per word, walker-interleaved by word:
// spins(word, walker). A warp of consecutive walkers therefore reads one contiguous
// line per site, and a team of walkers can copy its lattices into scratch (GPU shared)
// memory, where the random single-site accesses of Metropolis updates are cheap.
// All walkers visit the same site at the same step (one shared site sequence, as in
// the paper) and draw their own acceptance random numbers.
//
// Random numbers follow the project convention: the site of step t is a pure function
// of (seed, site_choice, 0, t), walker w's acceptance word of (seed, acceptance, w, t), with
// w the global walker index (Parameters::first_walker + the local index).
// Acceptance compares that word with a host-computed integer threshold, so every
// backend produces bitwise the same trajectories.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/histogram.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/muca/detail/order_parameter.hpp"
#include "portamc/muca/hamiltonian.hpp"
#include "portamc/muca/parameters.hpp"
#include "portamc/rng.hpp"

namespace portamc::muca {

/// Everything needed to continue a run bit for bit (host copies).
struct ModelState {
  int L = 0;
  /// The model of the states, with L above (IsingMuca: the 2D Ising model).
  HamiltonianKind kind = HamiltonianKind::ising;
  int dimension = 2;
  int q = 2;         ///< Potts states
  double beta = 0.;  ///< Blume-Capel's inverse temperature
  Hamiltonian hamiltonian() const { return make_hamiltonian(kind, dimension, L, q, beta); }
  long long walkers = 0;
  std::uint64_t seed = 0;
  std::uint64_t step = 0;            ///< attempts per walker done so far
  std::vector<std::uint32_t> spins;  ///< (word, walker), row-major
  std::vector<std::int32_t> bins;    ///< energy bin per walker
  std::vector<double> log_weights;   ///< per energy bin
};

/// How the sweep kernel is launched; chosen from the device and the parameters.
struct LaunchPlan {
  bool scratch_lattice = false;  ///< lattices live in team scratch during a kernel
  bool team_histogram = false;   ///< histogram accumulated in team scratch, flushed once
  /// Rows of bins the team histogram holds in a grouped recording (team_group_rows): the
  /// team's first groups; walkers of later groups add to the global histogram directly.
  int group_slots = 1;
  bool team_group_histogram = false;      ///< group_slots rows of bins fit in team scratch too
  std::size_t grouped_scratch_bytes = 0;  ///< scratch per team of a grouped recording
  int team_size = 1;
  int walkers_per_thread = 1;  ///< walkers one thread updates in lockstep
  std::size_t scratch_bytes = 0;
  int occupancy = 0;  ///< percent of a multiprocessor's threads kept resident; 0: no limit
};

/// Percent of resident threads the automatic plan asks for when the lattices live in global
/// memory on a GPU (Parameters::occupancy = 0). Not to run fewer blocks: the sweep kernels'
/// 80 registers per thread already allow only 3 teams of 256 per H200 multiprocessor (37.5 %).
/// With a limit, Kokkos sizes the shared-memory carve-out for the teams that fit (ncu: 65.5 KB,
/// against the driver's 135 KB), and the rest is L1 for the lattice words, which the walkers
/// wait on most (58 % of their stall cycles): L1 hits 82 % instead of 75 %. H200, IsingMuca at
/// L = 64: 4-6 % fewer ps per attempt; 25 % or less: no better, 13 %: 70 % slower
/// (docs/performance.md, 2026-11-29).
inline constexpr int global_lattice_occupancy = 50;

/// The plan's occupancy: the user's percent, else global_lattice_occupancy for lattices in
/// global memory and no limit (0) for lattices in team scratch.
inline int planned_occupancy(int requested, bool scratch_lattice) {
  if (requested > 0) return requested;
  return scratch_lattice ? 0 : global_lattice_occupancy;
}

/// Rows of bins a team's histogram holds in a recording by `groups` walker groups of `total`
/// walkers, for teams of `width` walkers. When groups are at least eight times wider than
/// teams, one row: then at most one team in eight straddles a group boundary, and the walkers
/// of its second group add their dwell counts to the global histogram (one atomic per bin
/// change, as in the team). One row costs the scratch of a plain recording, so as many teams
/// stay resident; two rows cost IsingMuca at L = 32 a sixth team per multiprocessor (H200).
/// Narrower groups: every group a team can span.
inline int team_group_rows(long long groups, long long total, long long width) {
  if (groups <= 1) return 1;
  if (8 * width * groups <= total) return 1;
  const long long spanned = (width - 1) * groups / total + 2;
  return static_cast<int>(spanned < groups ? spanned : groups);
}

/// A team's recorder of dwell counts (both engines): index = group * nbins + bin goes to the
/// team's histogram rows in scratch, which start at team_offset; walkers of groups past them
/// (team_group_rows) add to the global histogram directly.
template <class HistogramView>
struct TeamRowsRecorder {
  std::uint32_t* team_hist;
  int team_offset;
  int rows;  ///< entries in scratch: nbins * rows of bins
  HistogramView global;
  KOKKOS_INLINE_FUNCTION void operator()(int index, std::uint32_t n) const {
    const int local = index - team_offset;
    if (local < rows)
      atomic_add_team_scratch(&team_hist[local], n);
    else
      Kokkos::atomic_add(&global(index), count_type(n));
  }
};

/// Acceptance thresholds of one energy bin for the four bin-changing moves: flipping a spin
/// with 0, 1, 3 or 4 aligned neighbours moves the walker to bin - 2, bin - 1, bin + 1,
/// bin + 2 (2 aligned neighbours leave the energy unchanged: always accepted). A move is
/// accepted iff (random word >> 1) < threshold, with threshold = floor(p * 2^31) in
/// [0, 2^31]: exact integer arithmetic on every backend, and 16 bytes so a GPU thread
/// can keep its bin's row in registers and reload it with one load when the bin changes.
struct alignas(16) ThresholdRow {
  std::uint32_t to[4];
};

/// The shared site of one step, precomputed once for all walkers: element offsets (word
/// index times the lattice stride of the launch) and bit positions of the site and of its
/// neighbours +x, +y, -x, -y. Shifts 0..3 are the bytes of `shifts`, shift 4 is `shift4`.
struct alignas(16) StepSites {
  std::uint32_t offset[5];
  std::uint32_t shifts;
  std::uint32_t shift4;
  std::uint32_t unused;
};

// Kernel functor; public so nvcc can compile its device code (no private lambdas).
template <class ExecutionSpace>
struct MucaSweepKernel {
  using memory_space = typename ExecutionSpace::memory_space;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scatter_type = decltype(Kokkos::Experimental::create_scatter_view(
      std::declval<Kokkos::View<count_type*, memory_space>>()));

  /// Device threads keep their bin's thresholds in registers (the table does not stay in
  /// L1 next to the shared-memory lattices, and a warp's walkers sit at unrelated
  /// energies, so a lookup per attempt is a scattered L2 gather). CPU cores look the row up
  /// every attempt from L1, which keeps register pressure of the lockstep group low.
  static constexpr bool cache_thresholds = is_device_space_v<ExecutionSpace>;

  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> spins;
  Kokkos::View<std::int32_t*, memory_space> bins;
  Kokkos::View<const StepSites*, memory_space> sites;
  Kokkos::View<const ThresholdRow*, memory_space> thresholds;  // per energy bin
  /// (group, bin) flattened: group * nbins + bin; one group unless recording by groups.
  Kokkos::View<count_type*, memory_space> histogram;
  scatter_type scatter;
  std::uint64_t seed = 0;
  std::uint64_t first_walker = 0;   ///< global index of walker 0 (the RNG entity offset)
  std::uint64_t total_walkers = 1;  ///< over all ranks, for the group of a global index
  int groups = 1;
  int slots = 1;  ///< rows of the team histogram (team_group_rows); later groups: global
  std::uint64_t step0 = 0;
  int steps = 0;
  int words = 0;
  int walkers = 0;
  int nbins = 0;
  bool record = false;
  LaunchPlan plan;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    // A team owns `width` consecutive walkers; each thread runs `per_thread` of them in
    // lockstep (1 on GPUs, a small group on CPUs for instruction-level parallelism).
    const int lane = team.team_rank();
    const int team_size = team.team_size();
    const int per_thread = plan.walkers_per_thread;
    const int width = team_size * per_thread;
    const int first = team.league_rank() * width + lane * per_thread;
    const int left = walkers - first;
    const int count = left < 0 ? 0 : (left < per_thread ? left : per_thread);

    std::uint32_t* team_hist = nullptr;
    std::uint32_t* shared_lattice = nullptr;
    if (plan.scratch_lattice) {
      shared_lattice = assume_team_scratch(static_cast<std::uint32_t*>(
          team.team_shmem().get_shmem(sizeof(std::uint32_t) * words * width)));
    }
    // The team's first group; its histogram rows are groups base_group .. + slots - 1.
    const int base_group = group_of(team.league_rank() * width);
    if (plan.team_histogram && record) {
      team_hist = assume_team_scratch(static_cast<std::uint32_t*>(
          team.team_shmem().get_shmem(sizeof(std::uint32_t) * nbins * slots)));
      for (int b = lane; b < nbins * slots; b += team_size) team_hist[b] = 0;
    }
    // The step offsets were computed for this stride: `width` in scratch, W in global memory.
    if (plan.scratch_lattice) {
      std::uint32_t* const mine = shared_lattice + lane * per_thread;
      for (int v = 0; v < count; ++v)
        for (int k = 0; k < words; ++k) mine[k * width + v] = spins(k, first + v);
      team.team_barrier();
      // Separate call sites so the compiler knows which memory each lattice pointer is in.
      if (count > 0)
        run_recorded(first, count, assume_team_scratch(mine), team_hist, base_group * nbins);
      team.team_barrier();
      for (int v = 0; v < count; ++v)
        for (int k = 0; k < words; ++k) spins(k, first + v) = mine[k * width + v];
    } else {
      team.team_barrier();
      if (count > 0) run_recorded(first, count, &spins(0, first), team_hist, base_group * nbins);
      team.team_barrier();
    }
    if (team_hist != nullptr) {
      const int rows = groups - base_group < slots ? groups - base_group : slots;
      for (int b = lane; b < nbins * rows; b += team_size)
        if (team_hist[b] != 0)
          Kokkos::atomic_add(&histogram(base_group * nbins + b), count_type(team_hist[b]));
    }
  }

  /// Group of local walker w: floor(global index * G / W), 0 when not recording by groups.
  KOKKOS_INLINE_FUNCTION int group_of(int w) const {
    if (groups == 1) return 0;
    return static_cast<int>((first_walker + static_cast<std::uint64_t>(w)) *
                            static_cast<std::uint64_t>(groups) / total_walkers);
  }

  // Recorders take index = group * nbins + bin (run_walkers adds each walker's group offset).
  KOKKOS_INLINE_FUNCTION void run_recorded(int first, int count, std::uint32_t* lattice,
                                           std::uint32_t* team_hist, int team_offset) const {
    if (!record) {
      run_group(first, count, lattice, [](int, std::uint32_t) {});
    } else if (team_hist != nullptr) {
      run_group(
          first, count, lattice,
          TeamRowsRecorder<decltype(histogram)>{team_hist, team_offset, nbins * slots, histogram});
    } else {
      auto access = scatter.access();
      run_group(first, count, lattice,
                [&access](int bin, std::uint32_t n) { access(bin) += count_type(n); });
    }
  }

  static constexpr int cpu_group = 8;

  template <class Recorder>
  KOKKOS_INLINE_FUNCTION void run_group(int first, int count, std::uint32_t* lattice,
                                        const Recorder& record_bin) const {
    if constexpr (is_device_space_v<ExecutionSpace>) {
      // GPU: one walker per thread by default, or a pair; nothing larger is compiled, to
      // keep the device loop free of a wide dispatch.
      if (count == 2) {
        run_walkers<2>(first, lattice, record_bin);
      } else {
        for (int v = 0; v < count; ++v) run_walkers<1>(first + v, lattice + v, record_bin);
      }
      return;
    }
    if (count == cpu_group) {
      run_walkers<cpu_group>(first, lattice, record_bin);
    } else {
      for (int v = 0; v < count; ++v) run_walkers<1>(first + v, lattice + v, record_bin);
    }
  }

  /// Per-walker registers of a lockstep group of V walkers.
  template <int V>
  struct GroupState {
    int bin[V];
    int offset[V];           ///< group * nbins of the walker: added to `bin` when recording
    std::uint32_t dwell[V];  ///< device: attempts ending in `bin` not yet recorded
    ThresholdRow row[V];     ///< device: thresholds of `bin`
  };

  // Runs walkers first .. first+V-1, whose word k lives at lattice[offset_k + v], through
  // `steps` attempts. The histogram counts the bin after every attempt through
  // `record_bin(bin, n)`: on GPUs run-length encoded, once per bin change, so the shared-
  // memory atomics are a few times rarer than attempts; on CPUs once per attempt. V is a
  // compile-time constant so the per-walker state stays in registers.
  template <int V, class Recorder>
  KOKKOS_INLINE_FUNCTION void run_walkers(int first, std::uint32_t* lattice,
                                          const Recorder& record_bin) const {
    GroupState<V> g;
    PORTAMC_UNROLL
    for (int v = 0; v < V; ++v) {
      g.bin[v] = bins(first + v);
      g.offset[v] = group_of(first + v) * nbins;
      g.dwell[v] = 0;
      if (cache_thresholds) g.row[v] = thresholds(g.bin[v]);
    }
    // Step t uses word (step0 + t) & 3 of walker w's Philox block (step0 + t) >> 2. Steps
    // before the first and after the last full block of four draw a block each (at most
    // six per launch); the steady state draws one block per four steps.
    int t = 0;
    for (; t < steps && ((step0 + t) & 3) != 0; ++t)
      single_step<V>(g, first, lattice, t, record_bin);
    for (; t + 4 <= steps; t += 4) {
      std::uint32_t r[V][4];
      PORTAMC_UNROLL
      for (int v = 0; v < V; ++v) {
        const rng::Block b =
            rng::draw(seed, rng::purpose_acceptance, first_walker + first + v, (step0 + t) >> 2);
        r[v][0] = b[0], r[v][1] = b[1], r[v][2] = b[2], r[v][3] = b[3];
      }
      PORTAMC_UNROLL
      for (int j = 0; j < 4; ++j) {
        const StepSites s = sites(t + j);
        PORTAMC_UNROLL
        for (int v = 0; v < V; ++v) attempt<V>(g, v, lattice, s, r[v][j], record_bin);
      }
    }
    for (; t < steps; ++t) single_step<V>(g, first, lattice, t, record_bin);
    PORTAMC_UNROLL
    for (int v = 0; v < V; ++v) {
      if (g.dwell[v] != 0) record_bin(g.offset[v] + g.bin[v], g.dwell[v]);
      bins(first + v) = g.bin[v];
    }
  }

  template <int V, class Recorder>
  KOKKOS_INLINE_FUNCTION void single_step(GroupState<V>& g, int first, std::uint32_t* lattice,
                                          int t, const Recorder& record_bin) const {
    const std::uint64_t step = step0 + t;
    const StepSites s = sites(t);
    PORTAMC_UNROLL
    for (int v = 0; v < V; ++v) {
      const rng::Block b =
          rng::draw(seed, rng::purpose_acceptance, first_walker + first + v, step >> 2);
      const int slot = static_cast<int>(step & 3);  // selects, not a dynamic index (stack)
      const std::uint32_t r = slot < 2 ? (slot == 0 ? b[0] : b[1]) : (slot == 2 ? b[2] : b[3]);
      attempt<V>(g, v, lattice, s, r, record_bin);
    }
  }

  // One Metropolis attempt of walker v at the step's site with acceptance word r.
  template <int V, class Recorder>
  KOKKOS_FORCEINLINE_FUNCTION void attempt(GroupState<V>& g, int v, std::uint32_t* lattice,
                                           const StepSites& s, std::uint32_t r,
                                           const Recorder& record_bin) const {
    std::uint32_t* const at = lattice + s.offset[0] + v;
    const std::uint32_t word = *at;
    const std::uint32_t shift = s.shifts & 0xffu;
    const std::uint32_t spin = (word >> shift) & 1u;
    int differ = 0;
    PORTAMC_UNROLL
    for (int n = 1; n < 4; ++n)
      differ += ((lattice[s.offset[n] + v] >> ((s.shifts >> (8 * n)) & 0xffu)) ^ spin) & 1u;
    differ += ((lattice[s.offset[4] + v] >> s.shift4) ^ spin) & 1u;
    const int aligned = 4 - differ;
    // Flipping changes E by 4*aligned - 8, i.e. the bin by aligned - 2. Branch-free
    // selection and update: the outcome is a coin flip no predictor learns, and on GPUs
    // the warp stays converged.
    // Two aligned neighbours leave the energy unchanged: always accepted (no lookup).
    std::uint32_t threshold;
    if constexpr (cache_thresholds) {
      // Selects from registers (a dynamic index would put the row in local memory).
      const ThresholdRow& row = g.row[v];
      const std::uint32_t down = (aligned & 1) ? row.to[1] : row.to[0];
      const std::uint32_t up = (aligned & 1) ? row.to[2] : row.to[3];
      threshold = aligned < 2 ? down : up;
    } else {
      // One indexed load from L1; arithmetic, not ternaries, which GCC turns into branches
      // that mispredict half the time. aligned = 2 reads a neighbour entry, unused.
      threshold = thresholds(g.bin[v]).to[aligned - static_cast<int>(aligned > 2)];
    }
    const std::uint32_t accept =
        static_cast<std::uint32_t>((r >> 1) < threshold) | static_cast<std::uint32_t>(aligned == 2);
    *at = word ^ (accept << shift);
    const int delta = (aligned - 2) & -static_cast<int>(accept);
    if constexpr (cache_thresholds) {
      // GPU: a bin change (a minority of attempts) flushes the dwell count and reloads
      // the row; the rest of the warp idles through it instead of issuing a gather.
      if (delta != 0) {
        record_bin(g.offset[v] + g.bin[v], g.dwell[v]);
        g.dwell[v] = 0;
        g.bin[v] += delta;
        g.row[v] = thresholds(g.bin[v]);
      }
      ++g.dwell[v];
    } else {
      // CPU: the change is a coin flip no branch predictor learns; stay branch-free.
      g.bin[v] += delta;
      record_bin(g.offset[v] + g.bin[v], 1u);
    }
  }
};

/// The walkers on execution space `ExecutionSpace` (any backend of the build,
/// portamc/backends.hpp): every kernel runs on the instance the model was made with, and the
/// lattices and tables live in its memory space.
template <class ExecutionSpace>
class IsingMuca {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  /// Allocates W lattices with random spins on `space`. Throws std::invalid_argument for bad
  /// parameters and if the lattices do not fit in the memory of `space`.
  IsingMuca(const ExecutionSpace& space, const Parameters& params);

  /// The execution-space instance every kernel of this model runs on.
  const ExecutionSpace& space() const { return space_; }

  int L() const { return params_.L; }
  int sites() const { return params_.L * params_.L; }
  long long walkers() const { return walkers_; }
  const EnergyBins& energy_bins() const { return bins_; }
  const LaunchPlan& plan() const { return plan_; }
  std::uint64_t step() const { return step_; }

  /// Weights per energy bin (natural log); rebuilds the integer acceptance table.
  void set_log_weights(const std::vector<double>& log_weights);
  const std::vector<double>& log_weights() const { return log_weights_; }

  /// Metropolis attempts per walker without recording.
  void thermalise(std::uint64_t attempts_per_walker);
  /// Metropolis attempts per walker; returns the histogram of the energy after every attempt,
  /// summed over walkers.
  std::vector<count_type> sample(std::uint64_t attempts_per_walker);
  /// The same, recorded per walker group: row g (of walker_groups()) holds the histogram of
  /// the walkers w of this rank with floor(global w * G / W) = g, flattened g * bins + bin.
  /// Rows of groups without walkers on this rank are zero; sums over ranks are the run's.
  /// With `recorder`, the order parameter is measured into it at its steps.
  std::vector<count_type> sample_by_group(
      std::uint64_t attempts_per_walker,
      const OrderParameterRecorder<ExecutionSpace>* recorder = nullptr);
  /// G = min(Parameters::walker_groups, W over all ranks).
  int walker_groups() const { return groups_; }

  /// Energy bin of each walker as tracked by the updates.
  std::vector<std::int32_t> walker_bins() const;
  /// Energy bin of each walker recomputed from its spins (for consistency checks).
  std::vector<std::int32_t> recomputed_bins() const;

  ModelState state() const;
  /// Continue from a saved state. Throws std::invalid_argument if it does not match the
  /// parameters (L, W, seed).
  void restore(const ModelState& state);

  /// Device bytes the lattices and tables of a run with these parameters need.
  static std::size_t device_bytes(int L, long long walkers);

 private:
  void run(std::uint64_t attempts_per_walker, bool record,
           Kokkos::View<count_type*, memory_space> histogram, bool by_group = false,
           const OrderParameterRecorder<ExecutionSpace>* recorder = nullptr);
  void choose_launch_plan();

  Parameters params_;
  ExecutionSpace space_;
  EnergyBins bins_;
  long long walkers_ = 0;
  long long total_walkers_ = 0;
  int groups_ = 1;
  int words_ = 0;
  std::uint64_t step_ = 0;
  LaunchPlan plan_;
  std::vector<double> log_weights_;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> spins_;
  Kokkos::View<std::int32_t*, memory_space> walker_bins_;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> neighbours_;
  Kokkos::View<ThresholdRow*, memory_space> thresholds_;
  Kokkos::View<StepSites*, memory_space> sites_;
};

/// Walkers that fill the device of the backend called `backend` (portamc/backends.hpp): SMs x
/// resident threads on a GPU, eight per thread on a CPU (one lockstep group per thread).
long long default_walkers(const std::string& backend);

/// default_walkers for execution space `Space`.
template <class Space>
long long default_walkers() {
  return default_walkers(backend_name<Space>());
}

/// Acceptance threshold for a move between bins with weights ln W(from), ln W(to):
/// floor(min(1, W(to)/W(from)) * 2^31), compared with the top 31 bits of a uniform word.
std::uint32_t acceptance_threshold(double log_weight_from, double log_weight_to);

// Instantiated once per backend of the build (ising_muca.cpp).
#define PORTAMC_MUCA_EXTERN_(Space) extern template class IsingMuca<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_MUCA_EXTERN_)
#undef PORTAMC_MUCA_EXTERN_

}  // namespace portamc::muca
