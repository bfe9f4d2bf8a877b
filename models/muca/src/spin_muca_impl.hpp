#pragma once
// Definitions of SpinMuca's members; included once by spin_muca.cpp, which instantiates the
// class for every execution space of the build.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "portamc/device_info.hpp"
#include "portamc/lattice.hpp"
#include "portamc/muca/detail/spin_muca.hpp"
#include "portamc/occupancy.hpp"

#include "walker_arrays.hpp"

namespace portamc::muca {

namespace spin_detail {

// Random initial states. Ising: word k of walker w is (seed, initial_state, w, k)'s first word,
// as IsingMuca draws it (so the two engines start alike). Otherwise site i of walker w is
// uniform in 0 .. states - 1 from (seed, initial_state, w, i).
template <class SpinView>
struct RandomStates {
  SpinView spins;
  std::uint64_t seed, first_walker;
  int sites, words, bits, per_word, states;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t w) const {
    const std::uint64_t entity = first_walker + static_cast<std::uint64_t>(w);
    for (int k = 0; k < words; ++k) {
      if (bits == 1) {
        const rng::Block b = rng::draw(seed, rng::purpose_initial_state, entity, k);
        const int used = sites - 32 * k < 32 ? sites - 32 * k : 32;
        spins(k, w) = used == 32 ? b[0] : (b[0] & ((1u << used) - 1u));
        continue;
      }
      std::uint32_t word = 0;
      for (int j = 0; j < per_word && k * per_word + j < sites; ++j) {
        const rng::Block b = rng::draw(seed, rng::purpose_initial_state, entity, k * per_word + j);
        word |= rng::bounded(b[0], b[1], static_cast<std::uint32_t>(states)) << (j * bits);
      }
      spins(k, w) = word;
    }
  }
};

// Bin of every walker from its states: the bond energy over the forward bonds of each site, or
// Blume-Capel's number of non-zero spins (state != 1).
template <class SpinView, class NeighbourView, class BinView>
struct RecomputeBins {
  SpinView spins;
  NeighbourView neighbours;  // (site, n): n < d forward
  BinView bins;
  int sites, dimension, bits, per_word, min_bond, unit;
  std::uint32_t mask;
  SpinKind kind;
  KOKKOS_INLINE_FUNCTION std::uint32_t state(int site, std::int64_t w) const {
    return (spins(site / per_word, w) >> ((site % per_word) * bits)) & mask;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t w) const {
    if (kind == SpinKind::blume_capel) {
      int field = 0;
      for (int s = 0; s < sites; ++s) field += state(s, w) != 1u ? 1 : 0;
      bins(w) = field;
      return;
    }
    const bool ising = kind == SpinKind::ising;
    int bond = 0;
    for (int s = 0; s < sites; ++s) {
      const std::uint32_t a = state(s, w);
      for (int mu = 0; mu < dimension; ++mu) {
        const std::uint32_t b = state(static_cast<int>(neighbours(s, mu)), w);
        bond += ising ? (a == b ? -1 : 1) : (a == b ? -1 : 0);
      }
    }
    bins(w) = (bond - min_bond) / unit;
  }
};

// The shared site sequence of steps step0 .. step0 + n - 1 (IsingMuca's stream: two sites per
// Philox call), as word offsets for word stride `stride` and bit positions.
template <class StepView, class NeighbourView>
struct SpinSiteSequence {
  StepView out;
  NeighbourView neighbours;
  std::uint64_t seed, step0;
  std::uint32_t sites, stride;
  int count, bits, per_word;  // count = 2d neighbours
  KOKKOS_INLINE_FUNCTION void operator()(const int t) const {
    const std::uint64_t step = step0 + static_cast<std::uint64_t>(t);
    const rng::Block b = rng::draw(seed, rng::purpose_site_choice, 0, step >> 1);
    const std::uint32_t site =
        (step & 1) ? rng::bounded(b[2], b[3], sites) : rng::bounded(b[0], b[1], sites);
    SpinStepSites s{};
    const auto place = [&](int slot, std::uint32_t at) {
      s.offset[slot] = (at / static_cast<std::uint32_t>(per_word)) * stride;
      s.shift[slot] = static_cast<std::uint8_t>((at % static_cast<std::uint32_t>(per_word)) * bits);
    };
    place(0, site);
    for (int n = 0; n < count; ++n) place(n + 1, neighbours(site, n));
    out(t) = s;
  }
};

inline SpinKind spin_kind(const Hamiltonian& h) {
  switch (h.kind) {
    case HamiltonianKind::ising:
      return SpinKind::ising;
    case HamiltonianKind::potts:
      return SpinKind::potts;
    case HamiltonianKind::blume_capel:
      return SpinKind::blume_capel;
  }
  return SpinKind::ising;
}

}  // namespace spin_detail

template <class ExecutionSpace>
std::size_t SpinMuca<ExecutionSpace>::device_bytes(const Hamiltonian& h, long long walkers) {
  const SpinBins bins(h);
  const std::size_t per_word = 32 / static_cast<std::size_t>(h.state_bits());
  const auto sites = static_cast<std::size_t>(h.sites());
  const std::size_t words = (sites + per_word - 1) / per_word;
  return words * walkers * sizeof(std::uint32_t) + walkers * sizeof(std::int32_t) +
         static_cast<std::size_t>(bins.count) * threshold_columns(h) * sizeof(std::uint32_t) +
         sites * 2 * h.dimension * sizeof(std::uint32_t) +
         (std::size_t{1} << 20) * sizeof(SpinStepSites);
}

template <class ExecutionSpace>
SpinMuca<ExecutionSpace>::SpinMuca(const ExecutionSpace& space, const Parameters& params,
                                   const Hamiltonian& h)
    : params_(params),
      h_(h),
      space_(space),
      bins_(h),
      run_bins_(static_cast<int>(h.sites()), bins_.min_bond, bins_.unit,
                std::vector<unsigned char>(static_cast<std::size_t>(bins_.count), 1),
                h.site_states()) {
  validate_run(h_);
  params_.L = h_.L;  // the lattice is the Hamiltonian's (validated above)
  params_.validate();
  if (h_.sites() > (std::int64_t{1} << 24))
    throw std::invalid_argument("muca engine: " + h_.describe() + " has more than 2^24 sites");
  walkers_ = params_.walkers > 0 ? params_.walkers : default_walkers<ExecutionSpace>();
  total_walkers_ =
      params_.total_walkers > 0 ? params_.total_walkers : params_.first_walker + walkers_;
  if (params_.first_walker + walkers_ > total_walkers_)
    throw std::invalid_argument("muca: walkers " + std::to_string(params_.first_walker) + " .. " +
                                std::to_string(params_.first_walker + walkers_ - 1) +
                                " are not among the run's " + std::to_string(total_walkers_));
  groups_ = static_cast<int>(std::min<long long>(params_.walker_groups, total_walkers_));
  bits_ = h_.state_bits();
  per_word_ = 32 / bits_;
  const int n = static_cast<int>(h_.sites());
  words_ = (n + per_word_ - 1) / per_word_;
  if (static_cast<long long>(words_) * walkers_ > std::numeric_limits<std::int32_t>::max())
    throw std::invalid_argument("model.walkers = " + std::to_string(walkers_) + " with " +
                                h_.describe() + " needs more than 2^31 lattice words");
  require_memory<ExecutionSpace>(device_bytes(h_, walkers_),
                                 h_.describe() + " with " + std::to_string(walkers_) + " walkers");

  spins_ = decltype(spins_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "muca::states"), words_,
                            walkers_);
  walker_bins_ = decltype(walker_bins_)("muca::bins", walkers_);
  neighbours_ = decltype(neighbours_)("muca::neighbours", n, 2 * h_.dimension);
  thresholds_ = decltype(thresholds_)("muca::thresholds", bins_.count, threshold_columns(h_));
  // Blume-Capel's bin 0 is the one configuration with every spin 0 and no bond energy:
  // ln Z_beta(n = 0) = 0 fixes the normalisation at any beta.
  if (h_.kind == HamiltonianKind::blume_capel) run_bins_.anchor_bin = 0;

  auto host_neighbours = Kokkos::create_mirror_view(neighbours_);
  const auto fill = [&](const auto& lattice) {
    for (int s = 0; s < n; ++s)
      for (int k = 0; k < 2 * h_.dimension; ++k)
        host_neighbours(s, k) = static_cast<std::uint32_t>(lattice.neighbour(s, k));
  };
  if (h_.dimension == 2)
    fill(HypercubicLattice<2>::cubic(h_.L));
  else
    fill(HypercubicLattice<3>::cubic(h_.L));
  Kokkos::deep_copy(space_, neighbours_, host_neighbours);

  Kokkos::parallel_for("portamc::muca::random_states",
                       Kokkos::RangePolicy<ExecutionSpace>(space_, 0, walkers_),
                       spin_detail::RandomStates<decltype(spins_)>{
                           spins_, params_.seed, static_cast<std::uint64_t>(params_.first_walker),
                           n, words_, bits_, per_word_, h_.site_states()});
  compute_bins(walker_bins_);
  set_log_weights(std::vector<double>(bins_.count, 0.0));
  choose_launch_plan();
}

template <class ExecutionSpace>
void SpinMuca<ExecutionSpace>::compute_bins(
    const Kokkos::View<std::int32_t*, memory_space>& out) const {
  Kokkos::parallel_for(
      "portamc::muca::recompute_bins", Kokkos::RangePolicy<ExecutionSpace>(space_, 0, walkers_),
      spin_detail::RecomputeBins<decltype(spins_), decltype(neighbours_),
                                 Kokkos::View<std::int32_t*, memory_space>>{
          spins_, neighbours_, out, static_cast<int>(h_.sites()), h_.dimension, bits_, per_word_,
          bins_.min_bond, bins_.unit, (1u << bits_) - 1u, spin_detail::spin_kind(h_)});
}

template <class ExecutionSpace>
void SpinMuca<ExecutionSpace>::set_accessible(const std::vector<unsigned char>& accessible) {
  int marked = 0;
  for (unsigned char a : accessible) marked += a != 0 ? 1 : 0;
  if (static_cast<int>(accessible.size()) != bins_.count || marked < 2)
    throw std::invalid_argument("muca: the accessible bins need one flag per bin (" +
                                std::to_string(bins_.count) + ") and at least two set");
  run_bins_.reachable = accessible;
  discovering_ = false;
}

template <class ExecutionSpace>
void SpinMuca<ExecutionSpace>::discover_accessible() {
  run_bins_.reachable = anchor_bins(h_);
  discovering_ = true;
}

template <class ExecutionSpace>
void SpinMuca<ExecutionSpace>::mark_visited(const std::vector<count_type>& histogram) {
  if (!discovering_) return;
  if (histogram.size() != run_bins_.reachable.size())
    throw std::invalid_argument("muca: a histogram of " + std::to_string(histogram.size()) +
                                " bins for " + std::to_string(run_bins_.reachable.size()));
  for (std::size_t k = 0; k < histogram.size(); ++k)
    if (histogram[k] > 0) run_bins_.reachable[k] = 1;
}

template <class ExecutionSpace>
void SpinMuca<ExecutionSpace>::set_log_weights(const std::vector<double>& log_weights) {
  if (static_cast<int>(log_weights.size()) != bins_.count)
    throw std::invalid_argument("log weights: expected " + std::to_string(bins_.count) +
                                " bins, got " + std::to_string(log_weights.size()));
  log_weights_ = log_weights;
  auto host = Kokkos::create_mirror_view(thresholds_);
  if (h_.kind == HamiltonianKind::blume_capel) {
    // Class (dn + 1) (8d + 1) + dbond + 4d: the weight ratio times exp(-beta dbond).
    const int span = 4 * h_.dimension;
    for (int k = 0; k < bins_.count; ++k)
      for (int dn = -1; dn <= 1; ++dn)
        for (int dbond = -span; dbond <= span; ++dbond) {
          const int to = k + dn;
          host(k, (dn + 1) * (2 * span + 1) + dbond + span) =
              to < 0 || to >= bins_.count
                  ? 0u
                  : acceptance_threshold(log_weights[k], log_weights[to] - h_.beta * dbond);
        }
  } else {
    for (int k = 0; k < bins_.count; ++k)
      for (int jump = -bins_.max_jump; jump <= bins_.max_jump; ++jump) {
        const int to = k + jump;
        host(k, jump + bins_.max_jump) =
            to < 0 || to >= bins_.count ? 0u
                                        : acceptance_threshold(log_weights[k], log_weights[to]);
      }
  }
  Kokkos::deep_copy(space_, thresholds_, host);
}

template <class ExecutionSpace>
void SpinMuca<ExecutionSpace>::choose_launch_plan() {
  using Policy = Kokkos::TeamPolicy<ExecutionSpace>;
  plan_ = SpinLaunchPlan{};
  if constexpr (!is_device_space_v<ExecutionSpace>) {
    // CPU: one walker per team; its lattice stays in L1 anyway, and the histogram is a
    // per-thread ScatterView duplicate (or, for tests, the GPU plan's team rows).
    if (params_.team_histogram_on_host) {
      const std::size_t hist_bytes = sizeof(std::uint32_t) * static_cast<std::size_t>(bins_.count);
      plan_.team_histogram = plan_.team_group_histogram = true;
      plan_.group_slots = team_group_rows(groups_, total_walkers_, 1);
      constexpr std::size_t slack = 128;  // get_shmem's alignment, as on GPUs
      plan_.scratch_bytes = hist_bytes + slack;
      plan_.grouped_scratch_bytes = plan_.group_slots * hist_bytes + slack;
    }
    return;
  } else {
    // GPU: as IsingMuca, teams share a histogram in shared memory, and the lattices go there
    // too when a team of 64 fits beside it in 48 KiB (several teams then stay resident per
    // multiprocessor); larger lattices are updated in global memory. (Kokkos 4.6 caps a
    // team's scratch at 40 936 bytes, which Potts q = 10 at L = 32 misses by 156. Forced into
    // shared memory at the real limit for teams of 64, it took 12.0 ps per attempt on an H200
    // against 7.8 in global memory: five teams of 64 per multiprocessor are too few threads
    // to hide the latency.)
    const std::size_t max_scratch = Policy::scratch_size_max(0);
    const std::size_t budget = std::min<std::size_t>(max_scratch, 48 * 1024);
    const std::size_t hist_bytes = sizeof(std::uint32_t) * static_cast<std::size_t>(bins_.count);
    const auto lattice_bytes = [&](int team) {
      return sizeof(std::uint32_t) * static_cast<std::size_t>(words_) * team;
    };
    // Teams of 64 with lattices in scratch, 128 without. (Teams of 128 with lattices in
    // scratch ran no attempt at all on an H200 with Kokkos 4.6.01, and raised no error: every
    // count stayed zero. Teams of 64 ran, and teams of 128 with global lattices.)
    // get_shmem aligns each piece it hands out: `slack` bytes leave room for that.
    constexpr std::size_t slack = 128;
    const bool fixed = params_.team_size > 0;
    int team = fixed ? params_.team_size : 64;
    bool scratch = false;
    if (params_.storage != LatticeStorage::global) {
      scratch = lattice_bytes(team) + hist_bytes + slack <=
                (params_.storage == LatticeStorage::scratch ? max_scratch : budget);
      if (!scratch) team = fixed ? params_.team_size : 128;
    }
    if (params_.storage == LatticeStorage::scratch && !scratch)
      throw std::invalid_argument("model.storage = scratch: a team of " + std::to_string(team) +
                                  " lattices of the " + h_.describe() +
                                  " does not fit in team scratch memory (" +
                                  std::to_string(max_scratch) + " bytes)");
    plan_.team_size = team;
    plan_.scratch_lattice = scratch;
    plan_.occupancy = planned_occupancy(params_.occupancy, scratch);
    const std::size_t lattice_scratch = scratch ? lattice_bytes(team) : 0;
    plan_.team_histogram = lattice_scratch + hist_bytes + slack <= budget;
    plan_.scratch_bytes = lattice_scratch + (plan_.team_histogram ? hist_bytes : 0) + slack;
    plan_.group_slots = team_group_rows(groups_, total_walkers_, team);
    plan_.team_group_histogram =
        plan_.team_histogram && lattice_scratch + plan_.group_slots * hist_bytes + slack <= budget;
    plan_.grouped_scratch_bytes =
        lattice_scratch + (plan_.team_group_histogram ? plan_.group_slots * hist_bytes : 0) + slack;
  }
}

template <class ExecutionSpace>
void SpinMuca<ExecutionSpace>::run(std::uint64_t attempts, bool record,
                                   Kokkos::View<count_type*, memory_space> histogram, bool by_group,
                                   const OrderParameterRecorder<ExecutionSpace>* recorder) {
  // Chunks keep the site buffer small and a team's 32-bit scratch counters from overflowing
  // (team_size * chunk < 2^32).
  constexpr std::uint64_t max_chunk = std::uint64_t{1} << 20;
  if (step_ + attempts > rng::max_step)
    throw std::runtime_error("muca: the random-number step counter would exceed 2^56");
  SpinMucaKernel<ExecutionSpace> kernel;
  kernel.spins = spins_;
  kernel.bins = walker_bins_;
  kernel.thresholds = thresholds_;
  kernel.histogram = histogram;
  kernel.seed = params_.seed;
  kernel.first_walker = static_cast<std::uint64_t>(params_.first_walker);
  kernel.total_walkers = static_cast<std::uint64_t>(total_walkers_);
  kernel.groups = by_group ? groups_ : 1;
  kernel.slots = by_group ? plan_.group_slots : 1;
  kernel.nbins = bins_.count;
  kernel.walkers = static_cast<int>(walkers_);
  kernel.words = words_;
  kernel.neighbours = 2 * h_.dimension;
  kernel.max_jump = bins_.max_jump;
  kernel.states = h_.site_states();
  kernel.mask = (1u << bits_) - 1u;
  kernel.kind = spin_detail::spin_kind(h_);
  kernel.record = record;
  kernel.scratch_lattice = plan_.scratch_lattice;
  kernel.team_histogram = by_group ? plan_.team_group_histogram : plan_.team_histogram;
  std::size_t scratch_bytes = by_group ? plan_.grouped_scratch_bytes : plan_.scratch_bytes;
  if (!record && !plan_.scratch_lattice) scratch_bytes = 0;
  if (record && !kernel.team_histogram)
    kernel.scatter = Kokkos::Experimental::create_scatter_view(histogram);
  const int team = plan_.team_size;
  const auto stride = static_cast<std::uint32_t>(plan_.scratch_lattice ? team : walkers_);
  const int league = static_cast<int>((walkers_ + team - 1) / team);
  std::uint64_t done = 0;
  while (done < attempts) {
    std::uint64_t piece = std::min(attempts - done, max_chunk);
    if (recorder != nullptr) piece = std::min(piece, recorder->attempts_to_next(step_));
    const int chunk = static_cast<int>(piece);
    if (sites_.extent(0) < static_cast<std::size_t>(chunk))
      sites_ = decltype(sites_)(Kokkos::view_alloc(Kokkos::WithoutInitializing, "muca::sites"),
                                std::min(attempts, max_chunk));
    Kokkos::parallel_for(
        "portamc::muca::spin_sites", Kokkos::RangePolicy<ExecutionSpace>(space_, 0, chunk),
        spin_detail::SpinSiteSequence<decltype(sites_), decltype(neighbours_)>{
            sites_, neighbours_, params_.seed, step_, static_cast<std::uint32_t>(h_.sites()),
            stride, 2 * h_.dimension, bits_, per_word_});
    kernel.sites = sites_;
    kernel.step0 = step_;
    kernel.steps = chunk;
    Kokkos::TeamPolicy<ExecutionSpace> policy(space_, league, team);
    if (scratch_bytes > 0)
      policy.set_scratch_size(0, Kokkos::PerTeam(static_cast<int>(scratch_bytes)));
    clear_launch_error<ExecutionSpace>();
    parallel_for_at_occupancy<ExecutionSpace>("portamc::muca::spin_sweep", policy, plan_.occupancy,
                                              kernel);
    check_launch<ExecutionSpace>("portamc::muca::spin_sweep");
    step_ += static_cast<std::uint64_t>(chunk);
    done += static_cast<std::uint64_t>(chunk);
    if (recorder != nullptr && step_ % recorder->interval == 0)
      recorder->measure(
          space_, spins_, walker_bins_, static_cast<std::uint64_t>(params_.first_walker),
          static_cast<std::uint64_t>(total_walkers_), by_group ? groups_ : 1, bins_.count);
  }
  if (record && !kernel.team_histogram) Kokkos::Experimental::contribute(histogram, kernel.scatter);
  space_.fence();
}

template <class ExecutionSpace>
void SpinMuca<ExecutionSpace>::thermalise(std::uint64_t attempts_per_walker) {
  run(attempts_per_walker, false, Kokkos::View<count_type*, memory_space>(), false);
}

template <class ExecutionSpace>
std::vector<count_type> SpinMuca<ExecutionSpace>::sample(std::uint64_t attempts_per_walker) {
  Kokkos::View<count_type*, memory_space> histogram("muca::histogram", bins_.count);
  run(attempts_per_walker, true, histogram, false);
  return detail::host_vector(histogram);
}

template <class ExecutionSpace>
std::vector<count_type> SpinMuca<ExecutionSpace>::sample_by_group(
    std::uint64_t attempts_per_walker, const OrderParameterRecorder<ExecutionSpace>* recorder) {
  Kokkos::View<count_type*, memory_space> histogram(
      "muca::group_histograms", static_cast<std::size_t>(groups_) * bins_.count);
  run(attempts_per_walker, true, histogram, true, recorder);
  return detail::host_vector(histogram);
}

template <class ExecutionSpace>
std::vector<std::int32_t> SpinMuca<ExecutionSpace>::walker_bins() const {
  return detail::host_vector(walker_bins_);
}

template <class ExecutionSpace>
std::vector<std::int32_t> SpinMuca<ExecutionSpace>::recomputed_bins() const {
  Kokkos::View<std::int32_t*, memory_space> fresh("muca::recomputed_bins", walkers_);
  compute_bins(fresh);
  return detail::host_vector(fresh);
}

template <class ExecutionSpace>
std::vector<int> SpinMuca<ExecutionSpace>::site_states(long long w) const {
  auto spins = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), spins_);
  std::vector<int> states(static_cast<std::size_t>(h_.sites()));
  for (std::size_t i = 0; i < states.size(); ++i)
    states[i] = static_cast<int>((spins(i / per_word_, w) >> ((i % per_word_) * bits_)) &
                                 ((1u << bits_) - 1u));
  return states;
}

template <class ExecutionSpace>
ModelState SpinMuca<ExecutionSpace>::state() const {
  return detail::capture_state(h_, params_.seed, step_, spins_, walker_bins_, log_weights_);
}

template <class ExecutionSpace>
void SpinMuca<ExecutionSpace>::restore(const ModelState& s) {
  if (!same_model(s.hamiltonian(), h_))
    throw std::invalid_argument("state does not match the run: it holds the " +
                                s.hamiltonian().describe() + ", the run the " + h_.describe());
  if (s.L != h_.L || s.walkers != walkers_ || s.seed != params_.seed ||
      s.spins.size() != spins_.size() || s.bins.size() != static_cast<std::size_t>(walkers_) ||
      s.log_weights.size() != static_cast<std::size_t>(bins_.count))
    throw std::invalid_argument("state does not match the run: it has L = " + std::to_string(s.L) +
                                ", W = " + std::to_string(s.walkers) +
                                ", seed = " + std::to_string(s.seed) + "; the run has " +
                                h_.describe() + ", W = " + std::to_string(walkers_) +
                                ", seed = " + std::to_string(params_.seed));
  detail::load_state(space_, s, spins_, walker_bins_);
  step_ = s.step;
  set_log_weights(s.log_weights);
  space_.fence();
}

}  // namespace portamc::muca
