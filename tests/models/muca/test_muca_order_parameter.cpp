// The order parameter of the multicanonical production (issue #26): the measurement kernel's
// integer sums equal the walkers' states counted on the host, on both engines, and the
// reweighted <|m|>, susceptibility and Binder cumulant agree with exact enumeration within
// their jackknife errors for the 2D Ising model (IsingMuca), the 3 x 3 Potts model with q = 3
// (N not a multiple of q: a non-zero offset in m) and the 2^3 Ising model (SpinMuca).
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "hamiltonian_cases.hpp"
#include "portamc/muca/exact_order_parameter.hpp"
#include "portamc/muca/production_analysis.hpp"
#include "portamc/muca/simulation.hpp"
#include "production_run.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::muca;
using Space = TestSpace;
using muca_test::model;
using muca_test::production_run;
using Wide = unsigned __int128;

// Host sums per (group, bin): count and sum d^k as 128-bit integers.
struct HostSums {
  std::map<std::size_t, std::vector<Wide>> rows;
  void add(std::size_t row, unsigned long long d) {
    auto& r = rows[row];
    r.resize(5, 0);
    Wide p = 1;
    for (int k = 0; k <= 4; ++k, p *= d) r[k] += p;
  }
};

Wide limbs_of(const std::vector<std::uint64_t>& sums, std::size_t row, int power) {
  const std::uint64_t* limb = &sums[row * kOrderSlots + 1 + 4 * (power - 1)];
  Wide v = 0;
  for (int j = 3; j >= 0; --j) v = (v << 32) + limb[j];
  return v;
}

// d of one walker's site states (order_parameter.hpp).
unsigned long long d_of(const Hamiltonian& h, const std::vector<int>& states) {
  const OrderParameterSpec spec = order_parameter_spec(h);
  std::vector<int> per_state(static_cast<std::size_t>(h.site_states()), 0);
  long long m = 0;
  for (int a : states) ++per_state[static_cast<std::size_t>(a)], m += a - 1;
  if (spec.kind == OrderParameterKind::magnetisation)
    return static_cast<unsigned long long>(std::llabs(m));
  int largest = 0;
  for (int c : per_state) largest = std::max(largest, c);
  return static_cast<unsigned long long>(largest - spec.baseline);
}

template <class Engine>
void expect_sums_match(Engine& engine, const Hamiltonian& h, int nbins,
                       const std::function<std::vector<int>(long long)>& states_of) {
  const int groups = engine.walker_groups();
  OrderParameterRecorder<Space> recorder;
  recorder.interval = 37;
  recorder.spec = order_parameter_spec(h);
  recorder.sums = OrderParameterRecorder<Space>::sum_view("sums", groups * nbins, kOrderSlots);
  HostSums expected;
  // Three measurements: at steps 37, 74 and 111.
  for (int m = 0; m < 3; ++m) {
    engine.sample_by_group(37, &recorder);
    const auto bins = engine.walker_bins();
    for (long long w = 0; w < engine.walkers(); ++w) {
      const auto group = static_cast<std::size_t>(w * groups / engine.walkers());
      expected.add(group * nbins + static_cast<std::size_t>(bins[w]), d_of(h, states_of(w)));
    }
  }
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), recorder.sums);
  std::vector<std::uint64_t> sums(host.data(), host.data() + host.size());
  normalise_limbs(sums);
  std::size_t measured_rows = 0;
  for (std::size_t row = 0; row < static_cast<std::size_t>(groups * nbins); ++row) {
    const auto it = expected.rows.find(row);
    if (it == expected.rows.end()) {
      EXPECT_EQ(sums[row * kOrderSlots], 0u) << "row " << row;
      continue;
    }
    ++measured_rows;
    EXPECT_EQ(Wide(sums[row * kOrderSlots]), it->second[0]) << "row " << row;
    for (int k = 1; k <= 4; ++k)
      EXPECT_TRUE(limbs_of(sums, row, k) == it->second[k]) << "row " << row << " power " << k;
  }
  EXPECT_GT(measured_rows, 1u);
}

TEST(MucaOrderParameter, MeasuredSumsEqualTheWalkersStates) {
  Parameters p;
  p.walkers = 40;
  p.walker_groups = 8;
  p.seed = 3;
  {
    SCOPED_TRACE("IsingMuca, 6 x 6");
    p.L = 6;
    IsingMuca<Space> engine(Space(), p);
    const Hamiltonian h = model(HamiltonianKind::ising, 2, 6);
    expect_sums_match(engine, h, engine.energy_bins().count(), [&](long long w) {
      const ModelState s = engine.state();
      std::vector<int> states(36);
      for (int i = 0; i < 36; ++i)
        states[i] = static_cast<int>((s.spins[(i / 32) * s.walkers + w] >> (i % 32)) & 1u);
      return states;
    });
  }
  for (const Hamiltonian& h :
       {model(HamiltonianKind::potts, 2, 5, 3), model(HamiltonianKind::potts, 2, 4, 10),
        model(HamiltonianKind::potts, 2, 5, 7), model(HamiltonianKind::ising, 3, 4),
        model(HamiltonianKind::ising, 2, 6), model(HamiltonianKind::blume_capel, 2, 5, 2, 0.5),
        model(HamiltonianKind::blume_capel, 3, 3, 2, 0.2)}) {
    SCOPED_TRACE(h.describe());
    SpinMuca<Space> engine(Space(), p, h);
    expect_sums_match(engine, h, engine.energy_bins().count,
                      [&](long long w) { return engine.site_states(w); });
  }
}

TEST(MucaOrderParameter, LimbsHoldProductsBeyondSixtyFourBits) {
  // (2^24 - 1)^4 needs 96 bits: the wide product, its limbs and their value.
  const std::uint64_t d = (std::uint64_t{1} << 24) - 1, d2 = d * d;
  const detail::Wide w = detail::multiply_wide(d2, d2);
  const Wide exact = Wide(d2) * Wide(d2);
  EXPECT_EQ(w.lo, static_cast<std::uint64_t>(exact));
  EXPECT_EQ(w.hi, static_cast<std::uint64_t>(exact >> 64));
  std::vector<std::uint64_t> slot(kOrderSlots, 0);
  // 3 additions overflow the low limbs' 32 bits; normalising carries them up exactly.
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t part[4] = {w.lo & 0xffffffffULL, w.lo >> 32, w.hi & 0xffffffffULL,
                                   w.hi >> 32};
    for (int j = 0; j < 4; ++j) slot[13 + j] += part[j];
  }
  normalise_limbs(slot);
  EXPECT_TRUE(limbs_of(slot, 0, 4) == 3 * exact);
  EXPECT_NEAR(limbs_value(&slot[13]), 3.0 * std::pow(static_cast<double>(d), 4),
              1e-15 * 3 * std::pow(static_cast<double>(d), 4));
}

template <class Sim>
void expect_exact_order_parameter(Sim& sim, const Hamiltonian& h,
                                  const std::vector<double>& betas) {
  while (!sim.converged() && !sim.iterations_exhausted()) sim.iterate();
  ASSERT_TRUE(sim.converged());
  while (!sim.production_done()) sim.production_block();
  const ProductionAnalysis a = analyse_production(sim, betas);
  ASSERT_TRUE(a.has_order_parameter) << a.order_parameter_reason;
  EXPECT_EQ(a.order_parameter.unmeasured_bins, 0);
  const auto levels = exact::order_parameter_levels(h);
  const auto& t = a.order_parameter;
  for (std::size_t i = 0; i < betas.size(); ++i) {
    const auto e = exact::order_parameter_averages(h, levels, betas[i], 0.0);
    const auto check = [&](const char* name, const EstimateTable& table, double exact) {
      SCOPED_TRACE(std::string(name) + " at beta " + std::to_string(betas[i]));
      ASSERT_TRUE(std::isfinite(table.error[i]));
      EXPECT_GT(table.error[i], 0);
      // 4.5 errors: about 1 in 10^5 per comparison for Gaussian estimates, with a fixed seed.
      EXPECT_LT(std::fabs(table.value[i] - exact), 4.5 * table.error[i])
          << table.value[i] << " +- " << table.error[i] << " vs exact " << exact;
      // And the error is small enough to mean something.
      EXPECT_LT(table.error[i], 0.05 * std::fabs(exact) + 1e-3);
    };
    check("|m|", t.magnetisation, e.magnetisation);
    check("m^2", t.m2, e.m2);
    check("susceptibility", t.susceptibility, e.susceptibility);
    check("binder", t.binder, e.binder);
  }
}

TEST(MucaOrderParameter, IsingMucaMatchesExactEnumeration) {
  Parameters p = production_run(5);
  p.L = 4;
  Simulation<Space> sim(Space(), p);
  expect_exact_order_parameter(sim, model(HamiltonianKind::ising, 2, 4), {0.2, 0.44, 0.7});
}

TEST(MucaOrderParameter, SpinMucaMatchesExactEnumeration) {
  for (const Hamiltonian& h :
       {model(HamiltonianKind::potts, 2, 3, 3), model(HamiltonianKind::ising, 3, 2)}) {
    SCOPED_TRACE(h.describe());
    Simulation<Space, SpinMuca<Space>> sim(Space(), production_run(6),
                                           portamc::parallel::Communicator(), &h);
    expect_exact_order_parameter(sim, h, {0.3, 0.8, 1.5});
  }
}

TEST(MucaOrderParameter, AbsentWithoutMeasurementsAndSaysWhy) {
  Parameters p = production_run(5);
  p.L = 4;
  p.production_blocks = 2;
  p.production_updates_per_block = 100;
  p.order_parameter_sweeps = 0;
  Simulation<Space> sim(Space(), p);
  while (!sim.converged() && !sim.iterations_exhausted()) sim.iterate();
  while (!sim.production_done()) sim.production_block();
  EXPECT_FALSE(sim.order_parameter_recorded());
  const ProductionAnalysis a = analyse_production(sim, {0.4});
  EXPECT_FALSE(a.has_order_parameter);
  EXPECT_NE(a.order_parameter_reason.find("order_parameter_sweeps"), std::string::npos);
}

}  // namespace
