// Benchmark of the generic multicanonical engine (SpinMuca, issue #26) on the backend this
// binary was built for, beside the tuned 2D Ising engine (IsingMuca) on the same lattice.
//
// One row per model: picoseconds per attempt without the histogram, with it, with it by 64
// walker groups (as a production records), and with that and the order parameter measured
// every sweep (the production's default), at the default walker count, with canonical weights
// ln W = -beta_c E at the model's transition (so walkers sit where a multicanonical run spends
// its time and moves are accepted at realistic rates):
//   ising 2D   beta_c = ln(1 + sqrt 2) / 2 (E = -sum s s)         IsingMuca and SpinMuca
//   potts 2D   beta_c = ln(1 + sqrt q), q = 3 and 10 (E = -sum delta)
//   ising 3D   beta_c = 0.2216546
//   blume_capel 2D at beta = 2, weights exp(-beta D n) at D = 1.99, near its first-order
//              transition
// Issue #26 asks for q = 10 Potts at L = 32 within 1.5x of the 2D Ising engine's ps per attempt.
//
// Usage: bench_muca_models [--quick] [--L 32] [--L3 16] [--walkers W] [--team-size T]
//                          [--storage auto|scratch|global] [--occupancy percent]
// (--team-size, --storage and --occupancy are model.team_size, model.storage and
// Parameters::occupancy, for comparing launch plans; each row prints the plan it ran: threads
// per team, where the lattices were, and @percent of resident threads when limited.)
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/muca/detail/spin_muca.hpp"
#include "portamc/muca/names.hpp"

namespace {

using namespace portamc;
using Space = Kokkos::DefaultExecutionSpace;

struct Timing {
  double therm = 0, record = 0, grouped = 0, measured = 0;  // seconds
};

template <class Model>
Timing time_model(Model& model, std::uint64_t per_walker, const muca::Hamiltonian& h) {
  model.thermalise(per_walker / 8);  // warm-up and relaxation towards beta_c
  Kokkos::fence();
  Kokkos::Timer timer;
  model.thermalise(per_walker);
  Kokkos::fence();
  Timing t;
  t.therm = timer.seconds();
  timer.reset();
  model.sample(per_walker);
  Kokkos::fence();
  t.record = timer.seconds();
  timer.reset();
  model.sample_by_group(per_walker);
  Kokkos::fence();
  t.grouped = timer.seconds();
  muca::OrderParameterRecorder<Space> recorder;
  recorder.interval = static_cast<std::uint64_t>(h.sites());
  recorder.spec = muca::order_parameter_spec(h);
  recorder.sums = muca::OrderParameterRecorder<Space>::sum_view(
      "sums", static_cast<std::size_t>(model.walker_groups()) * muca::SpinBins(h).count,
      muca::kOrderSlots);
  timer.reset();
  model.sample_by_group(per_walker, &recorder);
  Kokkos::fence();
  t.measured = timer.seconds();
  return t;
}

// plan: threads per team x walkers per thread, "s" for lattices in scratch, "g" in global.
template <class Plan>
std::string plan_text(const Plan& plan, int walkers_per_thread) {
  return std::to_string(plan.team_size) + "x" + std::to_string(walkers_per_thread) +
         (plan.scratch_lattice ? "s" : "g") +
         (plan.occupancy > 0 ? "@" + std::to_string(plan.occupancy) : "");
}

void row(const char* engine, const std::string& what, const std::string& plan, long long W,
         double n, const Timing& t) {
  std::printf("%-10s %-52s %-7s %9lld %10.3g %14.2f %14.2f %14.2f %14.2f\n", engine, what.c_str(),
              plan.c_str(), W, n, 1e12 * t.therm / n, 1e12 * t.record / n, 1e12 * t.grouped / n,
              1e12 * t.measured / n);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const DeviceInfo info = default_device_info();
  bool quick = false;
  int L = 32, L3 = 16;
  long long W = muca::default_walkers<Space>();
  muca::Parameters p;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    if (!std::strcmp(argv[i], "--L") && i + 1 < argc) L = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--L3") && i + 1 < argc) L3 = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--walkers") && i + 1 < argc) W = std::atoll(argv[++i]);
    if (!std::strcmp(argv[i], "--team-size") && i + 1 < argc) p.team_size = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--occupancy") && i + 1 < argc) p.occupancy = std::atoi(argv[++i]);
    if (!std::strcmp(argv[i], "--storage") && i + 1 < argc)
      p.storage = muca::lattice_storage_names().value(argv[++i]);
  }
  const double target = quick ? 2e8 : (info.is_gpu ? 2e10 : 1e9);  // attempts in total
  const auto per_walker = static_cast<std::uint64_t>(std::max(64.0, target / W));
  const double n = static_cast<double>(per_walker) * W;
  std::printf("# bench_muca_models: %s on %s, Kokkos %s, W = %lld, %llu attempts per walker\n",
              info.backend.c_str(), info.device.c_str(), info.kokkos_version.c_str(), W,
              static_cast<unsigned long long>(per_walker));
  std::printf("%-10s %-52s %-7s %9s %10s %14s %14s %14s %14s\n", "engine",
              "model (canonical at beta_c)", "plan", "W", "attempts", "ps/att(therm)",
              "ps/att(rec)", "ps/att(groups)", "ps/att(+m)");
  p.walkers = W;
  p.seed = 7;
  const auto canonical = [](const muca::SpinBins& bins, double beta) {
    std::vector<double> lnw(static_cast<std::size_t>(bins.count));
    for (int k = 0; k < bins.count; ++k) lnw[k] = -beta * bins.energy(k);
    return lnw;
  };
  const double beta_ising = 0.5 * std::log(1 + std::sqrt(2.0));
  {
    p.L = L;
    muca::IsingMuca<Space> ising(Space(), p);
    const muca::Hamiltonian h = muca::make_hamiltonian(muca::HamiltonianKind::ising, 2, L);
    ising.set_log_weights(canonical(muca::SpinBins(h), beta_ising));
    const Timing t = time_model(ising, per_walker, h);
    row("IsingMuca", h.describe(), plan_text(ising.plan(), ising.plan().walkers_per_thread), W, n,
        t);
  }
  using muca::HamiltonianKind;
  std::vector<muca::Hamiltonian> models = {
      muca::make_hamiltonian(HamiltonianKind::ising, 2, L),
      muca::make_hamiltonian(HamiltonianKind::potts, 2, L, 3),
      muca::make_hamiltonian(HamiltonianKind::potts, 2, L, 10),
      muca::make_hamiltonian(HamiltonianKind::ising, 3, L3),
      muca::make_hamiltonian(HamiltonianKind::blume_capel, 2, L, 2, 2.0)};
  for (const auto& h : models) {
    // The coefficient of the bin variable: beta_c E, or Blume-Capel's beta D n.
    double beta = h.dimension == 2 ? beta_ising : 0.2216546;
    if (h.kind == HamiltonianKind::potts) beta = std::log(1 + std::sqrt(static_cast<double>(h.q)));
    if (h.kind == HamiltonianKind::blume_capel) beta = h.beta * 1.99;
    muca::SpinMuca<Space> engine(Space(), p, h);
    engine.set_log_weights(canonical(engine.energy_bins(), beta));
    const Timing t = time_model(engine, per_walker, h);
    row("SpinMuca", h.describe(), plan_text(engine.plan(), 1), W, n, t);
  }
  return 0;
}
