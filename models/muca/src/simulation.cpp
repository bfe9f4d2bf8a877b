#include "portamc/muca/simulation.hpp"

#include "portamc/muca/stationarity.hpp"

#include <Kokkos_Timer.hpp>
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace portamc::muca {

int visited_bins(const std::vector<count_type>& histogram) {
  return static_cast<int>(
      std::count_if(histogram.begin(), histogram.end(), [](count_type h) { return h > 0; }));
}

double kullback_leibler_flat(const std::vector<count_type>& histogram, int width, int floor) {
  double total = 0;
  for (count_type h : histogram) total += static_cast<double>(h);
  if (total == 0) return std::numeric_limits<double>::infinity();
  const double q = 1.0 / std::max(width, floor);
  double d = 0;
  for (count_type h : histogram) {
    if (h == 0) continue;
    const double p = static_cast<double>(h) / total;
    d += p * std::log(p / q);
  }
  return d;
}

double chebyshev_flat(const std::vector<count_type>& histogram) {
  double total = 0;
  for (count_type h : histogram) total += static_cast<double>(h);
  const int visited = visited_bins(histogram);
  if (visited == 0) return std::numeric_limits<double>::infinity();
  const double mean = total / visited;
  double d = 0;
  for (count_type h : histogram)
    if (h > 0) d = std::max(d, std::fabs(static_cast<double>(h) / mean - 1.0));
  return d;
}

namespace {

// The run's parameters with W resolved over all ranks.
// `fill`: default_walkers() of this rank's backend.
Parameters resolve_walkers(Parameters p, const parallel::Communicator& comm, long long fill) {
  p.validate();
  if (p.walkers == 0)
    p.walkers = static_cast<long long>(comm.max(static_cast<std::int64_t>(fill))) * comm.size();
  if (p.walkers < comm.size())
    throw std::invalid_argument("model.walkers = " + std::to_string(p.walkers) +
                                " are fewer than the " + std::to_string(comm.size()) +
                                " MPI ranks; every rank needs at least one walker");
  return p;
}

// This rank's share of the walkers.
Parameters share_of_walkers(Parameters p, const parallel::Communicator& comm) {
  const parallel::Share share = parallel::share_of(static_cast<std::uint64_t>(p.walkers), comm);
  p.total_walkers = p.walkers;
  p.first_walker += static_cast<long long>(share.begin);
  p.walkers = static_cast<long long>(share.size());
  return p;
}

}  // namespace

// This rank's engine.
template <class Engine, class Space>
Engine make_engine(const Space& space, const Parameters& share, const Hamiltonian* h,
                   const std::vector<unsigned char>& accessible) {
  if constexpr (std::is_same_v<Engine, IsingMuca<Space>>) {
    return Engine(space, share);
  } else {
    if (h == nullptr) throw std::invalid_argument("muca: the generic engine needs a Hamiltonian");
    Engine engine(space, share, *h);
    if (accessible.empty())
      engine.discover_accessible();
    else
      engine.set_accessible(accessible);
    return engine;
  }
}

template <class Space, class Engine>
Simulation<Space, Engine>::Simulation(const Space& space, const Parameters& params,
                                      const parallel::Communicator& comm,
                                      const Hamiltonian* hamiltonian,
                                      const std::vector<unsigned char>& accessible)
    : params_(resolve_walkers(params, comm, params.walkers == 0 ? default_walkers<Space>() : 0)),
      comm_(comm),
      model_(make_engine<Engine>(space, share_of_walkers(params_, comm), hamiltonian, accessible)) {
}

template <class Space, class Engine>
const EnergyBins& Simulation<Space, Engine>::bins() const {
  if constexpr (std::is_same_v<Engine, IsingMuca<Space>>)
    return model_.energy_bins();
  else
    return model_.run_bins();
}

template <class Space, class Engine>
Hamiltonian Simulation<Space, Engine>::hamiltonian() const {
  if constexpr (std::is_same_v<Engine, IsingMuca<Space>>) {
    return make_hamiltonian(HamiltonianKind::ising, 2, params_.L);
  } else {
    return model_.hamiltonian();
  }
}

template <class Space, class Engine>
double Simulation<Space, Engine>::updates_for_width(int width) const {
  return params_.updates_prefactor *
         std::pow(static_cast<double>(width), params_.updates_exponent) /
         static_cast<double>(params_.walkers);
}

template <class Space, class Engine>
std::uint64_t Simulation<Space, Engine>::production_therm_attempts() const {
  const double n = static_cast<double>(bins().N);
  return static_cast<std::uint64_t>(std::llround(params_.production_therm_prefactor *
                                                 std::pow(n, params_.production_therm_exponent)));
}

template <class Space, class Engine>
const IterationRecord& Simulation<Space, Engine>::iterate() {
  Kokkos::Timer timer;
  const EnergyBins& bins = this->bins();
  // The paper's w: the width reached so far, at least 10.
  const int w = std::max(driver_.previous_width, 10);
  if (!driver_.full_range) {
    driver_.updates_real = updates_for_width(w);
  } else {
    driver_.updates_real *= params_.updates_growth;
  }
  IterationRecord record;
  record.iteration = driver_.iteration;
  record.therm_attempts = static_cast<std::uint64_t>(std::llround(params_.therm_factor * w));
  record.update_attempts = static_cast<std::uint64_t>(driver_.updates_real) + 1;

  model_.thermalise(record.therm_attempts);
  record.histogram = model_.sample(record.update_attempts);
  comm_.sum(record.histogram);
  // The generic engine may learn its accessible bins by visiting them (discover_accessible):
  // then the check below asks this iteration to visit every bin any iteration has visited.
  if constexpr (!std::is_same_v<Engine, IsingMuca<Space>>) model_.mark_visited(record.histogram);

  bool all_accessible = true;
  for (int k = 0; k < bins.count(); ++k)
    if (bins.accessible(k) && record.histogram[k] == 0) all_accessible = false;
  record.width = visited_bins(record.histogram);
  // Flatness over the bins visited now (not the previous iteration's width as in the
  // paper): then d_k >= 0 always and a range still growing cannot look converged. The
  // paper's floor of 10 bins keeps a small early range from looking flat; a whole range of
  // fewer bins (the 2^3 Ising model has 9) is compared with its own width, or it could never
  // converge.
  const int floor = all_accessible ? std::min(10, bins.accessible_count()) : 10;
  record.kullback_leibler = kullback_leibler_flat(record.histogram, record.width, floor);
  record.chebyshev = chebyshev_flat(record.histogram);

  // W <- W / H on visited bins; unvisited bins keep their weight, which grows relative to the
  // others each iteration and pulls walkers into new territory.
  std::vector<double> lnw = model_.log_weights();
  for (int k = 0; k < bins.count(); ++k)
    if (record.histogram[k] > 0) lnw[k] -= std::log(static_cast<double>(record.histogram[k]));
  const double top = *std::max_element(lnw.begin(), lnw.end());
  for (double& v : lnw) v -= top;  // only differences matter; keep the numbers small
  model_.set_log_weights(lnw);
  record.log_weights_after = lnw;

  driver_.converged = all_accessible && record.kullback_leibler < params_.kl_threshold;
  if (all_accessible && !driver_.full_range) {
    driver_.full_range = true;
    // Growth by updates_growth starts from the rule's value at the full width.
    driver_.updates_real = updates_for_width(bins.accessible_count());
  }
  driver_.previous_width = std::max(driver_.previous_width, record.width);
  ++driver_.iteration;
  record.seconds = timer.seconds();
  driver_.records.push_back(std::move(record));
  return driver_.records.back();
}

template <class Space, class Engine>
bool Simulation<Space, Engine>::production_by_group() const {
  const std::size_t nbins = static_cast<std::size_t>(bins().count());
  return driver_.groups > 0 &&
         driver_.group_histograms.size() == static_cast<std::size_t>(driver_.groups) * nbins &&
         driver_.block_group_windows.size() == static_cast<std::size_t>(driver_.blocks_done);
}

template <class Space, class Engine>
bool Simulation<Space, Engine>::order_parameter_recorded() const {
  const bool per_block =
      driver_.groups >= kMinJackknifeGroups ||
      driver_.block_order_sums.size() == static_cast<std::size_t>(driver_.blocks_done);
  return production_by_group() && driver_.order_interval > 0 &&
         driver_.group_order_sums.size() == driver_.group_histograms.size() * kOrderSlots &&
         per_block;
}

template <class Space, class Engine>
const std::vector<count_type>& Simulation<Space, Engine>::production_block() {
  const EnergyBins& bins = this->bins();
  const std::size_t nbins = static_cast<std::size_t>(bins.count());
  if (driver_.blocks_done == 0) {
    driver_.groups = model_.walker_groups();
    driver_.group_histograms.assign(static_cast<std::size_t>(driver_.groups) * nbins, 0);
    driver_.block_group_windows.clear();
    driver_.order_interval = static_cast<std::uint64_t>(params_.order_parameter_sweeps) *
                             static_cast<std::uint64_t>(bins.N);
    driver_.group_order_sums.assign(
        driver_.order_interval > 0 ? driver_.group_histograms.size() * kOrderSlots : 0, 0);
    driver_.block_order_sums.clear();
    driver_.production_therm = production_therm_attempts();
    model_.thermalise(driver_.production_therm);
    driver_.production_updates = params_.production_updates_per_block > 0
                                     ? params_.production_updates_per_block
                                     : 10 * (static_cast<std::uint64_t>(driver_.updates_real) + 1);
  }
  // A production resumed with another production.walker_groups cannot continue its group
  // records: they are dropped, and the errors come from time bins.
  if (driver_.groups != model_.walker_groups()) {
    driver_.groups = 0;
    driver_.group_histograms.clear();
    driver_.block_group_windows.clear();
    driver_.group_order_sums.clear();
    driver_.block_order_sums.clear();
  }
  const bool by_group = production_by_group();
  const bool measure = order_parameter_recorded();
  OrderParameterRecorder<Space> recorder;
  if (measure) {
    recorder.interval = driver_.order_interval;
    recorder.spec = order_parameter_spec(hamiltonian());
    recorder.sums = typename OrderParameterRecorder<Space>::sum_view(
        "muca::order_sums", driver_.group_histograms.size(), kOrderSlots);
  }
  std::vector<count_type> grouped =
      model_.sample_by_group(driver_.production_updates, measure ? &recorder : nullptr);
  comm_.sum(grouped);
  if (measure) {
    // A block's limbs are below 2^32 per measurement and < 2^32 measurements per slot, so the
    // sum over ranks is exact; the carries move up afterwards.
    auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), recorder.sums);
    std::vector<std::uint64_t> sums(host.data(), host.data() + host.size());
    comm_.sum(sums);
    for (std::size_t i = 0; i < sums.size(); ++i) driver_.group_order_sums[i] += sums[i];
    normalise_limbs(driver_.group_order_sums);
    if (driver_.groups < kMinJackknifeGroups) {
      // Errors from time bins need the block's sums; the groups' rows are added up.
      const std::size_t row = nbins * kOrderSlots;
      std::vector<std::uint64_t> block_sums(row, 0);
      for (std::size_t i = 0; i < sums.size(); ++i) block_sums[i % row] += sums[i];
      normalise_limbs(block_sums);
      driver_.block_order_sums.push_back(std::move(block_sums));
    }
  }
  const int groups = model_.walker_groups();
  std::vector<count_type> block(nbins, 0);
  for (int g = 0; g < groups; ++g)
    for (std::size_t k = 0; k < nbins; ++k) block[k] += grouped[g * nbins + k];
  if (by_group) {
    for (std::size_t i = 0; i < grouped.size(); ++i) driver_.group_histograms[i] += grouped[i];
    driver_.block_group_windows.push_back(group_window_counts(bins, grouped, groups));
  }
  driver_.block_histograms.push_back(std::move(block));
  ++driver_.blocks_done;
  return driver_.block_histograms.back();
}

template <class Space, class Engine>
Checkpoint Simulation<Space, Engine>::checkpoint() const {
  return Checkpoint{gather_walkers(model_.state(), comm_), driver_};
}

template <class Space, class Engine>
void Simulation<Space, Engine>::restore(const Checkpoint& checkpoint) {
  const ModelState& all = checkpoint.model;
  if (all.walkers != params_.walkers)
    throw std::invalid_argument(
        "checkpoint does not match the run: it has W = " + std::to_string(all.walkers) +
        " walkers, the run has W = " + std::to_string(params_.walkers));
  const parallel::Share share = parallel::share_of(static_cast<std::uint64_t>(all.walkers), comm_);
  model_.restore(select_walkers(all, share.begin, share.end));
  driver_ = checkpoint.driver;
  // Bins found accessible by visits are the union of the iterations' histograms.
  if constexpr (!std::is_same_v<Engine, IsingMuca<Space>>)
    for (const IterationRecord& r : driver_.records) model_.mark_visited(r.histogram);
}

#define PORTAMC_MUCA_INSTANTIATE_(S) \
  template class Simulation<S>;      \
  template class Simulation<S, SpinMuca<S>>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_MUCA_INSTANTIATE_)
#undef PORTAMC_MUCA_INSTANTIATE_

}  // namespace portamc::muca
