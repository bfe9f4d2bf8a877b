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
// of (seed, site_choice, 0, t), walker w's acceptance word of (seed, acceptance, w, t).
// Acceptance compares that word with a host-computed integer threshold, so every
// backend produces bitwise the same trajectories.
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <cstdint>
#include <vector>

#include "portamc/histogram.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/muca/parameters.hpp"
#include "portamc/rng.hpp"

namespace portamc::muca {

/// Everything needed to continue a run bit for bit (host copies).
struct ModelState {
  int L = 0;
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
  int team_size = 1;
  int walkers_per_thread = 1;  ///< walkers one thread updates in lockstep
  std::size_t scratch_bytes = 0;
};

// Kernel functor; public so nvcc can compile its device code (no private lambdas).
template <class ExecutionSpace>
struct MucaSweepKernel {
  using memory_space = typename ExecutionSpace::memory_space;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scatter_type = decltype(Kokkos::Experimental::create_scatter_view(
      std::declval<Kokkos::View<count_type*, memory_space>>()));

  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> spins;
  Kokkos::View<std::int32_t*, memory_space> bins;
  Kokkos::View<const std::uint32_t*, memory_space, Kokkos::MemoryTraits<Kokkos::RandomAccess>>
      sites;
  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, memory_space,
               Kokkos::MemoryTraits<Kokkos::RandomAccess>>
      neighbours;
  Kokkos::View<const std::uint64_t*, memory_space, Kokkos::MemoryTraits<Kokkos::RandomAccess>>
      thresholds;  // (bin * 5 + aligned neighbours): accept iff random word < threshold
  Kokkos::View<count_type*, memory_space> histogram;
  scatter_type scatter;
  std::uint64_t seed = 0;
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

    std::uint32_t* lattice = nullptr;
    int stride = walkers;
    std::uint32_t* team_hist = nullptr;
    if (plan.scratch_lattice) {
      lattice = static_cast<std::uint32_t*>(
          team.team_shmem().get_shmem(sizeof(std::uint32_t) * words * width));
    }
    if (plan.team_histogram && record) {
      team_hist =
          static_cast<std::uint32_t*>(team.team_shmem().get_shmem(sizeof(std::uint32_t) * nbins));
      for (int b = lane; b < nbins; b += team_size) team_hist[b] = 0;
    }
    if (plan.scratch_lattice) {
      lattice += lane * per_thread;
      stride = width;
      for (int v = 0; v < count; ++v)
        for (int k = 0; k < words; ++k) lattice[k * width + v] = spins(k, first + v);
    } else if (count > 0) {
      lattice = &spins(0, first);
    }
    team.team_barrier();

    if (count > 0) {
      if (!record) {
        run_group(first, count, lattice, stride, [](int) {});
      } else if (team_hist != nullptr) {
        run_group(first, count, lattice, stride,
                  [team_hist](int bin) { Kokkos::atomic_add(&team_hist[bin], 1u); });
      } else {
        auto access = scatter.access();
        run_group(first, count, lattice, stride,
                  [&access](int bin) { access(bin) += count_type(1); });
      }
    }

    team.team_barrier();
    if (plan.scratch_lattice) {
      for (int v = 0; v < count; ++v)
        for (int k = 0; k < words; ++k) spins(k, first + v) = lattice[k * width + v];
    }
    if (team_hist != nullptr) {
      for (int b = lane; b < nbins; b += team_size)
        if (team_hist[b] != 0) Kokkos::atomic_add(&histogram(b), count_type(team_hist[b]));
    }
  }

  static constexpr int cpu_group = 8;

  template <class Recorder>
  KOKKOS_INLINE_FUNCTION void run_group(int first, int count, std::uint32_t* lattice, int stride,
                                        const Recorder& record_bin) const {
    if constexpr (is_device_space_v<ExecutionSpace>) {
      // One walker per GPU thread: keep the device loop free of the group dispatch.
      run_walkers<1>(first, lattice, stride, record_bin);
      return;
    }
    if (count == cpu_group) {
      run_walkers<cpu_group>(first, lattice, stride, record_bin);
    } else {
      for (int v = 0; v < count; ++v) run_walkers<1>(first + v, lattice + v, stride, record_bin);
    }
  }

  // Runs walkers first .. first+V-1, whose word k lives at lattice[k * stride + v], through
  // `steps` attempts. `record_bin(bin)` is called after every attempt; a template so the
  // no-record case compiles to nothing. V is a compile-time constant so the per-walker
  // state stays in registers.
  template <int V, class Recorder>
  KOKKOS_INLINE_FUNCTION void run_walkers(int first, std::uint32_t* lattice, int stride,
                                          const Recorder& record_bin) const {
    int bin[V];
    // Four acceptance words per Philox call; r0 is the current step's word.
    std::uint32_t r0[V], r1[V], r2[V], r3[V];
    PORTAMC_UNROLL
    for (int v = 0; v < V; ++v) bin[v] = bins(first + v);
    for (int t = 0; t < steps; ++t) {
      const std::uint64_t step = step0 + t;
      const int slot = static_cast<int>(step & 3);
      if (t == 0 || slot == 0) {
        PORTAMC_UNROLL
        for (int v = 0; v < V; ++v) {
          const rng::Block b = rng::draw(seed, rng::purpose_acceptance, first + v, step >> 2);
          r0[v] = b[0], r1[v] = b[1], r2[v] = b[2], r3[v] = b[3];
          for (int s = 0; s < slot; ++s) r0[v] = r1[v], r1[v] = r2[v], r2[v] = r3[v];
        }
      }
      const std::uint32_t site = sites(t);
      const int at = static_cast<int>(site >> 5) * stride;
      const std::uint32_t shift = site & 31;
      int nat[4];
      std::uint32_t nshift[4];
      PORTAMC_UNROLL
      for (int n = 0; n < 4; ++n) {
        const std::uint32_t other = neighbours(site, n);
        nat[n] = static_cast<int>(other >> 5) * stride;
        nshift[n] = other & 31;
      }
      PORTAMC_UNROLL
      for (int v = 0; v < V; ++v) {
        const std::uint32_t word = lattice[at + v];
        const std::uint32_t spin = (word >> shift) & 1u;
        int aligned = 0;
        PORTAMC_UNROLL
        for (int n = 0; n < 4; ++n) aligned += ((lattice[nat[n] + v] >> nshift[n]) & 1u) == spin;
        // Flipping changes E by 4*aligned - 8, i.e. the bin by aligned - 2. Branch-free: the
        // outcome is a coin flip no predictor learns, and on GPUs the warp stays converged.
        const std::uint32_t accept = r0[v] < thresholds(bin[v] * 5 + aligned) ? 1u : 0u;
        lattice[at + v] = word ^ (accept << shift);
        bin[v] += (aligned - 2) & -static_cast<int>(accept);
        r0[v] = r1[v], r1[v] = r2[v], r2[v] = r3[v];
        record_bin(bin[v]);
      }
    }
    PORTAMC_UNROLL
    for (int v = 0; v < V; ++v) bins(first + v) = bin[v];
  }
};

template <class ExecutionSpace = Kokkos::DefaultExecutionSpace>
class IsingMuca {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;

  /// Allocates W lattices with random spins. Throws std::invalid_argument for bad
  /// parameters and std::runtime_error if the lattices do not fit in device memory.
  explicit IsingMuca(const Parameters& params, const ExecutionSpace& space = ExecutionSpace());

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
           Kokkos::View<count_type*, memory_space> histogram);
  void choose_launch_plan();

  Parameters params_;
  ExecutionSpace space_;
  EnergyBins bins_;
  long long walkers_ = 0;
  int words_ = 0;
  std::uint64_t step_ = 0;
  LaunchPlan plan_;
  std::vector<double> log_weights_;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> spins_;
  Kokkos::View<std::int32_t*, memory_space> walker_bins_;
  Kokkos::View<std::uint32_t**, Kokkos::LayoutRight, memory_space> neighbours_;
  Kokkos::View<std::uint64_t*, memory_space> thresholds_;
  Kokkos::View<std::uint32_t*, memory_space> sites_;
};

/// Walkers that fill the default device: SMs x resident threads on a GPU, eight per
/// thread on a CPU (one lockstep group per thread).
long long default_walkers();

/// Acceptance threshold for a move between bins with weights ln W(from), ln W(to):
/// floor(min(1, W(to)/W(from)) * 2^32), compared with a uniform 32-bit word.
std::uint64_t acceptance_threshold(double log_weight_from, double log_weight_to);

extern template class IsingMuca<Kokkos::DefaultExecutionSpace>;
#ifdef PORTAMC_HAVE_DEVICE_BACKEND
extern template class IsingMuca<Kokkos::DefaultHostExecutionSpace>;
#endif

}  // namespace portamc::muca
