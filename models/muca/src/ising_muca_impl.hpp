#pragma once
// Definitions of IsingMuca's members; included once by ising_muca.cpp, which
// instantiates the class for every execution space of the build.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/device_info.hpp"
#include "portamc/lattice.hpp"
#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/occupancy.hpp"

#include "walker_arrays.hpp"

namespace portamc::muca {

namespace detail {

// Kernels are named functors, not KOKKOS_LAMBDA (docs/design.md, "Kernels in headers are
// functors").

// Random initial spins: word k of walker w is a pure function of (seed, first_walker + w, k).
template <class SpinView>
struct RandomSpins {
  SpinView spins;
  std::uint64_t seed, first_walker;
  int sites, words;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t w) const {
    for (int k = 0; k < words; ++k) {
      const rng::Block b = rng::draw(seed, rng::purpose_initial_state, first_walker + w, k);
      const int used = sites - 32 * k < 32 ? sites - 32 * k : 32;
      spins(k, w) = used == 32 ? b[0] : (b[0] & ((1u << used) - 1u));
    }
  }
};

template <class ExecutionSpace, class SpinView>
void randomise_spins(const ExecutionSpace& space, const SpinView& spins, std::uint64_t seed,
                     std::uint64_t first_walker, int sites) {
  const int words = static_cast<int>(spins.extent(0));
  const auto walkers = static_cast<std::int64_t>(spins.extent(1));
  Kokkos::parallel_for("portamc::muca::randomise_spins",
                       Kokkos::RangePolicy<ExecutionSpace>(space, 0, walkers),
                       RandomSpins<SpinView>{spins, seed, first_walker, sites, words});
}

// Energy bin k = (E + 2N) / 4 of every walker, E = -sum over bonds of s_i s_j.
template <class SpinView, class NeighbourView, class BinView>
struct EnergyBins {
  SpinView spins;
  NeighbourView neighbours;
  BinView bins;
  int sites;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t w) const {
    int aligned = 0;  // bonds with equal spins, counting the +x and +y bond of each site
    for (int s = 0; s < sites; ++s) {
      const std::uint32_t spin = (spins(s >> 5, w) >> (s & 31)) & 1u;
      for (int n = 0; n < 2; ++n) {
        const std::uint32_t o = neighbours(s, n);
        aligned += ((spins(o >> 5, w) >> (o & 31)) & 1u) == spin;
      }
    }
    // E = -(aligned - (2N - aligned)) = 2N - 2 aligned, so k = (4N - 2 aligned) / 4.
    bins(w) = (4 * sites - 2 * aligned) / 4;
  }
};

template <class ExecutionSpace, class SpinView, class NeighbourView, class BinView>
void compute_bins(const ExecutionSpace& space, const SpinView& spins,
                  const NeighbourView& neighbours, const BinView& bins, int sites) {
  const auto walkers = static_cast<std::int64_t>(spins.extent(1));
  Kokkos::parallel_for(
      "portamc::muca::compute_bins", Kokkos::RangePolicy<ExecutionSpace>(space, 0, walkers),
      EnergyBins<SpinView, NeighbourView, BinView>{spins, neighbours, bins, sites});
}

// The shared site sequence for steps step0 .. step0 + n - 1 (two sites per Philox call),
// expanded to the word offsets and bit positions of each site and its four neighbours for
// a launch whose lattices have word stride `stride`.
template <class StepView, class NeighbourView>
struct SiteSequence {
  StepView steps_out;
  NeighbourView neighbours;
  std::uint64_t seed, step0;
  std::uint32_t sites, stride;
  KOKKOS_INLINE_FUNCTION void operator()(const int t) const {
    const std::uint64_t step = step0 + t;
    const rng::Block b = rng::draw(seed, rng::purpose_site_choice, 0, step >> 1);
    const std::uint32_t site =
        (step & 1) ? rng::bounded(b[2], b[3], sites) : rng::bounded(b[0], b[1], sites);
    StepSites out{};
    out.offset[0] = (site >> 5) * stride;
    out.shifts = site & 31u;
    for (int k = 0; k < 4; ++k) {
      const std::uint32_t other = neighbours(site, k);
      out.offset[k + 1] = (other >> 5) * stride;
      if (k < 3)
        out.shifts |= (other & 31u) << (8 * (k + 1));
      else
        out.shift4 = other & 31u;
    }
    steps_out(t) = out;
  }
};

template <class ExecutionSpace, class StepView, class NeighbourView>
void generate_sites(const ExecutionSpace& space, const StepView& steps_out,
                    const NeighbourView& neighbours, std::uint64_t seed, std::uint64_t step0, int n,
                    std::uint32_t sites, std::uint32_t stride) {
  Kokkos::parallel_for(
      "portamc::muca::generate_sites", Kokkos::RangePolicy<ExecutionSpace>(space, 0, n),
      SiteSequence<StepView, NeighbourView>{steps_out, neighbours, seed, step0, sites, stride});
}

}  // namespace detail

template <class ExecutionSpace>
std::size_t IsingMuca<ExecutionSpace>::device_bytes(int L, long long walkers) {
  const std::size_t words = (static_cast<std::size_t>(L) * L + 31) / 32;
  const std::size_t bins = static_cast<std::size_t>(L) * L + 1;
  return words * walkers * sizeof(std::uint32_t) + walkers * sizeof(std::int32_t) +
         bins * sizeof(ThresholdRow) + static_cast<std::size_t>(L) * L * 4 * 4 +
         (std::size_t{1} << 20) * sizeof(StepSites);  // step-site buffer
}

namespace {

// L before the bins are made of it.
int checked_lattice_size(int L) {
  if (L < 4 || L > 256 || L % 2 != 0)
    throw std::invalid_argument("model.L = " + std::to_string(L) +
                                ": expected an even lattice size in [4, 256]");
  return L;
}

}  // namespace

template <class ExecutionSpace>
IsingMuca<ExecutionSpace>::IsingMuca(const ExecutionSpace& space, const Parameters& params)
    : params_(params), space_(space), bins_(checked_lattice_size(params.L)) {
  params_.validate();
  walkers_ = params_.walkers > 0 ? params_.walkers : default_walkers<ExecutionSpace>();
  total_walkers_ =
      params_.total_walkers > 0 ? params_.total_walkers : params_.first_walker + walkers_;
  if (params_.first_walker + walkers_ > total_walkers_)
    throw std::invalid_argument("muca: walkers " + std::to_string(params_.first_walker) + " .. " +
                                std::to_string(params_.first_walker + walkers_ - 1) +
                                " are not among the run's " + std::to_string(total_walkers_));
  groups_ = static_cast<int>(std::min<long long>(params_.walker_groups, total_walkers_));
  if (walkers_ > std::numeric_limits<int>::max() / 2)
    throw std::invalid_argument("model.walkers = " + std::to_string(walkers_) + " is too large");
  const int n = sites();
  words_ = (n + 31) / 32;
  // Word offsets into the global lattice array are 32-bit.
  if (static_cast<long long>(words_) * walkers_ > std::numeric_limits<std::int32_t>::max())
    throw std::invalid_argument("model.walkers = " + std::to_string(walkers_) +
                                " with L = " + std::to_string(params_.L) +
                                " needs more than 2^31 lattice words; use fewer walkers");
  require_memory<ExecutionSpace>(
      device_bytes(params_.L, walkers_),
      "L = " + std::to_string(params_.L) + " with " + std::to_string(walkers_) + " walkers");

  spins_ = decltype(spins_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "muca::spins"), words_,
                            walkers_);
  walker_bins_ = decltype(walker_bins_)("muca::bins", walkers_);
  neighbours_ = decltype(neighbours_)("muca::neighbours", n, 4);
  thresholds_ = decltype(thresholds_)("muca::thresholds", bins_.count());

  // Neighbour order: +x, +y, -x, -y (the first two are the bonds counted in compute_bins).
  const auto lattice = HypercubicLattice<2>::cubic(params_.L);
  auto host_neighbours = Kokkos::create_mirror_view(neighbours_);
  for (int s = 0; s < n; ++s)
    for (int k = 0; k < 4; ++k)
      host_neighbours(s, k) = static_cast<std::uint32_t>(lattice.neighbour(s, k));
  Kokkos::deep_copy(space_, neighbours_, host_neighbours);

  detail::randomise_spins(space_, spins_, params_.seed,
                          static_cast<std::uint64_t>(params_.first_walker), n);
  detail::compute_bins(space_, spins_, neighbours_, walker_bins_, n);
  choose_launch_plan();
  set_log_weights(std::vector<double>(bins_.count(), 0.0));
}

template <class ExecutionSpace>
void IsingMuca<ExecutionSpace>::choose_launch_plan() {
  using Policy = Kokkos::TeamPolicy<ExecutionSpace>;
  const std::size_t hist_bytes = sizeof(std::uint32_t) * bins_.count();
  const std::size_t max_scratch = Policy::scratch_size_max(0);
  plan_ = LaunchPlan{};
  auto lattice_bytes = [&](int threads, int per_thread) {
    return sizeof(std::uint32_t) * words_ * threads * per_thread;
  };
  if constexpr (!is_device_space_v<ExecutionSpace>) {
    // CPU: one thread per team updating a group of walkers in lockstep (independent chains
    // give the core instruction-level parallelism); their lattices stay in L1 anyway, and
    // the histogram is a per-thread ScatterView duplicate.
    plan_.team_size = 1;
    plan_.walkers_per_thread = params_.walkers_per_thread > 0
                                   ? params_.walkers_per_thread
                                   : MucaSweepKernel<ExecutionSpace>::cpu_group;
    plan_.scratch_lattice = params_.storage == LatticeStorage::scratch;
    plan_.scratch_bytes = plan_.scratch_lattice ? lattice_bytes(1, plan_.walkers_per_thread) : 0;
    plan_.grouped_scratch_bytes = plan_.scratch_bytes;
    if (params_.team_histogram_on_host) {
      plan_.team_histogram = plan_.team_group_histogram = true;
      plan_.group_slots = team_group_rows(groups_, total_walkers_, plan_.walkers_per_thread);
      plan_.grouped_scratch_bytes += plan_.group_slots * hist_bytes;
      plan_.scratch_bytes += hist_bytes;
    }
    return;
  }
  // GPU: teams of consecutive walkers share a histogram in shared memory. The lattices go
  // to shared memory too when a team of at least 64 threads fits in 48 KiB, which keeps
  // several teams resident per multiprocessor; larger lattices are updated in global
  // memory. In shared memory a thread updates a pair of walkers by default (H200, L = 32:
  // 3.1 instead of 3.5 ps per attempt; two dependency chains per thread and the per-step
  // site arithmetic shared), in global memory one (a pair measured no faster at L = 64).
  const std::size_t budget = std::min<std::size_t>(max_scratch, 48 * 1024);
  const int requested = params_.walkers_per_thread;
  auto scratch_team = [&](int per_thread) {  // threads per team, or 0 if it does not fit
    int t = params_.team_size > 0 ? params_.team_size : 256 / per_thread;
    while (t >= 32 && lattice_bytes(t, per_thread) + hist_bytes > budget && params_.team_size == 0)
      t /= 2;
    const bool fits = lattice_bytes(t, per_thread) + hist_bytes <= max_scratch &&
                      (params_.storage == LatticeStorage::scratch ||
                       (t >= 64 && lattice_bytes(t, per_thread) + hist_bytes <= budget));
    return fits ? t : 0;
  };
  int per_thread = requested > 0 ? requested : 2;
  int team = 0;
  if (params_.storage != LatticeStorage::global) {
    team = scratch_team(per_thread);
    if (team == 0 && requested == 0) team = scratch_team(per_thread = 1);
  }
  const bool scratch = team > 0;
  if (!scratch) {
    per_thread = requested > 0 ? requested : 1;
    team = params_.team_size > 0 ? params_.team_size : 256 / per_thread;
  }
  if (params_.storage == LatticeStorage::scratch && !scratch)
    throw std::invalid_argument(
        "model.storage = scratch: a team of " + std::to_string(team * per_thread) +
        " lattices of L = " + std::to_string(params_.L) + " does not fit in team scratch memory (" +
        std::to_string(max_scratch) + " bytes)");
  plan_.team_size = team;
  plan_.walkers_per_thread = per_thread;
  plan_.scratch_lattice = scratch;
  plan_.occupancy = planned_occupancy(params_.occupancy, scratch);
  plan_.team_histogram = hist_bytes <= budget;
  const std::size_t lattice_scratch = scratch ? lattice_bytes(team, per_thread) : 0;
  plan_.scratch_bytes = lattice_scratch + (plan_.team_histogram ? hist_bytes : 0);
  // Grouped recording: the team keeps group_slots rows (team_group_rows). Where they do not fit
  // beside the lattices the team records through global atomics instead.
  const long long width = static_cast<long long>(team) * per_thread;
  plan_.group_slots = team_group_rows(groups_, total_walkers_, width);
  plan_.team_group_histogram =
      plan_.team_histogram && lattice_scratch + plan_.group_slots * hist_bytes <= budget;
  plan_.grouped_scratch_bytes =
      lattice_scratch + (plan_.team_group_histogram ? plan_.group_slots * hist_bytes : 0);
}

template <class ExecutionSpace>
void IsingMuca<ExecutionSpace>::set_log_weights(const std::vector<double>& log_weights) {
  if (static_cast<int>(log_weights.size()) != bins_.count())
    throw std::invalid_argument("log weights: expected " + std::to_string(bins_.count()) +
                                " bins, got " + std::to_string(log_weights.size()));
  log_weights_ = log_weights;
  auto host = Kokkos::create_mirror_view(thresholds_);
  constexpr int moves[4] = {-2, -1, 1, 2};  // 0, 1, 3, 4 aligned neighbours
  for (int k = 0; k < bins_.count(); ++k) {
    for (int m = 0; m < 4; ++m) {
      const int to = k + moves[m];
      host(k).to[m] = to < 0 || to >= bins_.count()
                          ? 0u
                          : acceptance_threshold(log_weights[k], log_weights[to]);
    }
  }
  Kokkos::deep_copy(space_, thresholds_, host);
}

template <class ExecutionSpace>
void IsingMuca<ExecutionSpace>::run(std::uint64_t attempts, bool record,
                                    Kokkos::View<count_type*, memory_space> histogram,
                                    bool by_group,
                                    const OrderParameterRecorder<ExecutionSpace>* recorder) {
  // Launches are cut into chunks so the site buffer stays small and a team's 32-bit
  // shared-memory histogram cannot overflow (team_size * chunk < 2^32).
  constexpr std::uint64_t max_chunk = std::uint64_t{1} << 20;
  if (step_ + attempts > rng::max_step)
    throw std::runtime_error("muca: the random-number step counter would exceed 2^56");
  MucaSweepKernel<ExecutionSpace> kernel;
  kernel.spins = spins_;
  kernel.bins = walker_bins_;
  kernel.thresholds = thresholds_;
  kernel.histogram = histogram;
  kernel.seed = params_.seed;
  kernel.first_walker = static_cast<std::uint64_t>(params_.first_walker);
  kernel.words = words_;
  kernel.walkers = static_cast<int>(walkers_);
  kernel.nbins = bins_.count();
  kernel.record = record;
  kernel.plan = plan_;
  kernel.total_walkers = static_cast<std::uint64_t>(total_walkers_);
  kernel.groups = by_group ? groups_ : 1;
  kernel.slots = by_group ? plan_.group_slots : 1;
  std::size_t scratch_bytes = plan_.scratch_bytes;
  if (by_group) {
    kernel.plan.team_histogram = plan_.team_group_histogram;
    scratch_bytes = plan_.grouped_scratch_bytes;
  }
  const bool team_histogram = kernel.plan.team_histogram;
  if (record && !team_histogram)
    kernel.scatter = Kokkos::Experimental::create_scatter_view(histogram);
  const long long per_team = static_cast<long long>(plan_.team_size) * plan_.walkers_per_thread;
  const auto stride = static_cast<std::uint32_t>(plan_.scratch_lattice ? per_team : walkers_);
  const int league = static_cast<int>((walkers_ + per_team - 1) / per_team);

  std::uint64_t done = 0;
  while (done < attempts) {
    std::uint64_t piece = std::min(attempts - done, max_chunk);
    if (recorder != nullptr) piece = std::min(piece, recorder->attempts_to_next(step_));
    const int chunk = static_cast<int>(piece);
    if (sites_.extent(0) < static_cast<std::size_t>(chunk))
      sites_ = decltype(sites_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "muca::sites"),
                                std::min(attempts, max_chunk));
    detail::generate_sites(space_, sites_, neighbours_, params_.seed, step_, chunk,
                           static_cast<std::uint32_t>(sites()), stride);
    kernel.sites = sites_;
    kernel.step0 = step_;
    kernel.steps = chunk;
    Kokkos::TeamPolicy<ExecutionSpace> policy(space_, league, plan_.team_size);
    if (scratch_bytes > 0)
      policy.set_scratch_size(0, Kokkos::PerTeam(static_cast<int>(scratch_bytes)));
    clear_launch_error<ExecutionSpace>();
    parallel_for_at_occupancy<ExecutionSpace>("portamc::muca::sweep", policy, plan_.occupancy,
                                              kernel);
    check_launch<ExecutionSpace>("portamc::muca::sweep");
    step_ += chunk;
    done += chunk;
    if (recorder != nullptr && step_ % recorder->interval == 0)
      recorder->measure(
          space_, spins_, walker_bins_, static_cast<std::uint64_t>(params_.first_walker),
          static_cast<std::uint64_t>(total_walkers_), by_group ? groups_ : 1, bins_.count());
  }
  if (record && !team_histogram) Kokkos::Experimental::contribute(histogram, kernel.scatter);
  space_.fence();
}

template <class ExecutionSpace>
void IsingMuca<ExecutionSpace>::thermalise(std::uint64_t attempts_per_walker) {
  run(attempts_per_walker, false, Kokkos::View<count_type*, memory_space>());
}

template <class ExecutionSpace>
std::vector<count_type> IsingMuca<ExecutionSpace>::sample(std::uint64_t attempts_per_walker) {
  Kokkos::View<count_type*, memory_space> histogram("muca::histogram", bins_.count());
  run(attempts_per_walker, true, histogram);
  return detail::host_vector(histogram);
}

template <class ExecutionSpace>
std::vector<count_type> IsingMuca<ExecutionSpace>::sample_by_group(
    std::uint64_t attempts_per_walker, const OrderParameterRecorder<ExecutionSpace>* recorder) {
  Kokkos::View<count_type*, memory_space> histogram(
      "muca::group_histograms", static_cast<std::size_t>(groups_) * bins_.count());
  run(attempts_per_walker, true, histogram, true, recorder);
  return detail::host_vector(histogram);
}

template <class ExecutionSpace>
std::vector<std::int32_t> IsingMuca<ExecutionSpace>::walker_bins() const {
  return detail::host_vector(walker_bins_);
}

template <class ExecutionSpace>
std::vector<std::int32_t> IsingMuca<ExecutionSpace>::recomputed_bins() const {
  Kokkos::View<std::int32_t*, memory_space> fresh("muca::recomputed_bins", walkers_);
  detail::compute_bins(space_, spins_, neighbours_, fresh, sites());
  return detail::host_vector(fresh);
}

template <class ExecutionSpace>
ModelState IsingMuca<ExecutionSpace>::state() const {
  return detail::capture_state(make_hamiltonian(HamiltonianKind::ising, 2, params_.L), params_.seed,
                               step_, spins_, walker_bins_, log_weights_);
}

template <class ExecutionSpace>
void IsingMuca<ExecutionSpace>::restore(const ModelState& s) {
  if (s.kind != HamiltonianKind::ising || s.dimension != 2)
    throw std::invalid_argument("checkpoint does not match the run: it holds the " +
                                s.hamiltonian().describe() + ", the run the 2D Ising model");
  if (s.L != params_.L || s.walkers != walkers_ || s.seed != params_.seed)
    throw std::invalid_argument(
        "checkpoint does not match the run: it has L = " + std::to_string(s.L) +
        ", W = " + std::to_string(s.walkers) + ", seed = " + std::to_string(s.seed) +
        "; the run has L = " + std::to_string(params_.L) + ", W = " + std::to_string(walkers_) +
        ", seed = " + std::to_string(params_.seed));
  if (s.spins.size() != spins_.size() || s.bins.size() != static_cast<std::size_t>(walkers_))
    throw std::invalid_argument("checkpoint arrays have the wrong size");
  detail::load_state(space_, s, spins_, walker_bins_);
  step_ = s.step;
  set_log_weights(s.log_weights);
  space_.fence();
}

}  // namespace portamc::muca
