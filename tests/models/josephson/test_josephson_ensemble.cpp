// Scheduling, reproducibility and bookkeeping of the Langevin ensemble (ensemble.hpp):
// per-realisation results are bitwise the same for refill and one_per_thread, any slot
// count and launch length, checkpoint/restore and run splitting by first_realisation, on each
// backend of the build (TestSpace; test_josephson_backends.cpp compares the backends);
// censored realisations are flagged and kept out of the escape times; float and double
// and the paper's plain kernel agree statistically; a ramp records the bias in double even
// a trillion steps in.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ensemble_checks.hpp"
#include "portamc/josephson/detail/plain_kernel.hpp"
#include "portamc/josephson/ensemble.hpp"
#include "quick_escape.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::josephson;
using Space = TestSpace;

using portamc::josephson::testing::expect_identical;
using portamc::josephson::testing::mean_of;
using portamc::josephson::testing::MeanEstimate;
using portamc::josephson::testing::quick_escape;

template <class Real>
EnsembleResults run(const LangevinParameters& p, EnsembleOptions options = {}) {
  Ensemble<Space, Real> ensemble(Space(), p, options);
  ensemble.run();
  EXPECT_TRUE(ensemble.done());
  return ensemble.results();
}

template <class Real>
void expect_schedules_agree(Dynamics dynamics, Integrator integrator) {
  LangevinParameters p = quick_escape();
  p.dynamics = dynamics;
  p.integrator = integrator;
  EnsembleOptions refill;
  refill.slots = 37;
  refill.steps_per_launch = 1000;
  EnsembleOptions one;
  one.schedule = Schedule::one_per_thread;
  const EnsembleResults a = run<Real>(p, refill);
  const EnsembleResults b = run<Real>(p, one);
  EXPECT_GT(a.count(Outcome::escaped), 0u);
  expect_identical(a, b,
                   std::string("refill vs one_per_thread, ") + to_string(dynamics) + " " +
                       to_string(integrator));
}

TEST(JosephsonEnsemble, RefillAndOnePerThreadAgreeBitwise) {
  expect_schedules_agree<float>(Dynamics::underdamped, Integrator::euler);
  expect_schedules_agree<double>(Dynamics::underdamped, Integrator::euler);
  expect_schedules_agree<float>(Dynamics::underdamped, Integrator::heun);
  expect_schedules_agree<double>(Dynamics::overdamped, Integrator::euler);
  expect_schedules_agree<float>(Dynamics::overdamped, Integrator::heun);
}

/// The slots' (realisation, step, phi, v), sorted by realisation.
template <class Checkpoint>
auto slot_states(const Checkpoint& c) {
  std::vector<std::tuple<std::uint64_t, std::uint64_t, double, double>> rows;
  for (std::size_t k = 0; k < c.slot_realisation.size(); ++k)
    rows.emplace_back(static_cast<std::uint64_t>(c.slot_realisation[k]),
                      static_cast<std::uint64_t>(c.slot_step[k]),
                      static_cast<double>(c.slot_phi[k]), static_cast<double>(c.slot_v[k]));
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// The chunked loop (the default) or the pipelined one, and the reference loop of the advance
/// kernel give the same results, bit for bit, and on a one-thread backend the same state after
/// every launch: slots and counters. Launch lengths from 1 step (every block an edge block) to the
/// whole cap, misaligned starts, both schedules, every stepper, constant bias and ramp, float and
/// double.
template <class Real>
void expect_loops_agree(LangevinParameters p, EnsembleOptions o, std::uint64_t launch,
                        const std::string& what, AdvanceLoop candidate) {
  o.loop = candidate;
  Ensemble<Space, Real> chunked(Space(), p, o);
  o.loop = AdvanceLoop::reference;
  Ensemble<Space, Real> reference(Space(), p, o);
  const bool deterministic_schedule = Space().concurrency() == 1;
  for (int i = 0; !reference.done(); ++i) {
    ASSERT_LT(i, 100000) << what;
    reference.advance(launch);
    chunked.advance(launch);
    // Mid-run states are comparable only where the schedule is: with several threads the
    // refill hands realisations to slots in whatever order threads reach the counter, and a
    // realisation's progress at a launch boundary depends on its slot. Final results never do.
    if (!deterministic_schedule) continue;
    ASSERT_EQ(chunked.finished(), reference.finished()) << what << ", launch " << i;
    if (i % 7 == 0 || reference.done()) {
      ASSERT_EQ(slot_states(chunked.checkpoint()), slot_states(reference.checkpoint()))
          << what << ", launch " << i;
      ASSERT_EQ(chunked.checkpoint().next_realisation, reference.checkpoint().next_realisation)
          << what << ", launch " << i;
    }
  }
  while (!chunked.done()) chunked.advance(launch);
  expect_identical(chunked.results(), reference.results(), what);
}

class JosephsonLoops : public ::testing::TestWithParam<AdvanceLoop> {};

TEST_P(JosephsonLoops, AgreeBitwiseWithTheReferenceLoop) {
  const AdvanceLoop loop = GetParam();
  LangevinParameters p = quick_escape(96);
  p.max_steps = 1502;  // not a multiple of 4: the capping block is partial
  const std::pair<Dynamics, Integrator> steppers[] = {{Dynamics::underdamped, Integrator::euler},
                                                      {Dynamics::underdamped, Integrator::heun},
                                                      {Dynamics::overdamped, Integrator::euler},
                                                      {Dynamics::overdamped, Integrator::heun}};
  for (const auto& [dynamics, integrator] : steppers) {
    for (double nu : {0.0, 2e-5}) {
      LangevinParameters q = p;
      q.dynamics = dynamics;
      q.integrator = integrator;
      q.nu = nu;
      const std::string name =
          std::string(to_string(dynamics)) + " " + to_string(integrator) + (nu > 0 ? " ramp" : "");
      EnsembleOptions refill;
      refill.slots = 13;
      EnsembleOptions one;
      one.schedule = Schedule::one_per_thread;
      for (std::uint64_t launch : {1u, 5u, 9u, 258u, 1502u}) {
        if (launch < 5 && !(dynamics == Dynamics::underdamped && integrator == Integrator::euler))
          continue;  // thousands of launches: one stepper is enough
        const std::string l = ", launch " + std::to_string(launch);
        expect_loops_agree<float>(q, refill, launch, "float refill " + name + l, loop);
        expect_loops_agree<double>(q, one, launch, "double one_per_thread " + name + l, loop);
      }
      expect_loops_agree<float>(q, one, 3, "float one_per_thread " + name + ", launch 3", loop);
      expect_loops_agree<double>(q, refill, 4, "double refill " + name + ", launch 4", loop);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(JosephsonEnsemble, JosephsonLoops,
                         ::testing::Values(AdvanceLoop::chunked, AdvanceLoop::pipelined),
                         [](const ::testing::TestParamInfo<AdvanceLoop>& info) {
                           return std::string(to_string(info.param));
                         });

/// Realisations restored just before step 2^34, where word 0 of the Philox counter (block
/// bits 0..31) wraps and the block's high bits move to word 1: the chunked loop ends its
/// chunk there and continues with the next counter word, as the reference loop does.
TEST(JosephsonEnsemble, ChunkedLoopCrossesTheCounterWordWrap) {
  for (std::uint64_t launch : {300u, 100000u}) {
    LangevinParameters p = quick_escape(64);
    const std::uint64_t wrap = std::uint64_t{1} << 34;  // block 2^32
    p.max_steps = wrap + 4000;
    EnsembleOptions o;
    o.schedule = Schedule::one_per_thread;
    std::vector<EnsembleResults> results;
    for (AdvanceLoop loop :
         {AdvanceLoop::reference, AdvanceLoop::chunked, AdvanceLoop::pipelined}) {
      o.loop = loop;
      Ensemble<Space, float> ensemble(Space(), p, o);
      EnsembleCheckpoint c = ensemble.checkpoint();
      for (std::size_t s = 0; s < c.slot_step.size(); ++s)
        c.slot_step[s] = wrap - 2 * s - 1;  // up to 127 steps before it, any alignment
      ensemble.restore(c);
      while (!ensemble.done()) ensemble.advance(launch);
      results.push_back(ensemble.results());
    }
    std::size_t crossed = 0;
    for (std::uint64_t k : results[0].steps) crossed += k > wrap + 4;
    EXPECT_GT(crossed, 32u);
    expect_identical(results[1], results[0],
                     "chunked vs reference across the wrap, launch " + std::to_string(launch));
    expect_identical(results[2], results[0],
                     "pipelined vs reference across the wrap, launch " + std::to_string(launch));
  }
}

/// Slot counts from 1 to more than the realisations, launches from 1 step (every step a
/// launch boundary, including mid-block) to the whole cap.
TEST(JosephsonEnsemble, IndependentOfSlotCountAndLaunchLength) {
  LangevinParameters p = quick_escape(48);
  p.max_steps = 1500;
  EnsembleOptions reference_options;
  reference_options.schedule = Schedule::one_per_thread;
  Ensemble<Space, float> reference(Space(), p, reference_options);
  reference.advance(p.max_steps);  // one launch: every realisation to its end
  ASSERT_TRUE(reference.done());
  const EnsembleResults expected = reference.results();
  EXPECT_GT(expected.count(Outcome::censored), 0u);
  EXPECT_GT(expected.count(Outcome::escaped), 0u);
  for (std::int64_t slots : {1, 5, 48, 1000}) {
    for (std::uint64_t launch : {1u, 3u, 4u, 257u}) {
      if (launch < 4 && slots < 48) continue;  // thousands of launches: enough with one case
      EnsembleOptions o;
      o.slots = slots;
      o.steps_per_launch = launch;
      expect_identical(run<float>(p, o), expected,
                       "slots " + std::to_string(slots) + ", launch " + std::to_string(launch));
    }
  }
  // The default slot count and no packing of the tail.
  EnsembleOptions o;
  o.compact_below = 0;
  expect_identical(run<float>(p, o), expected, "default slots, no packing");
}

/// The residency probe counts the threads that started before any finished: one on Serial,
/// at most the thread count on a CPU, at most the resident threads at full occupancy on a
/// GPU; it leaves the ensemble's state alone.
TEST(JosephsonEnsemble, ResidencyProbe) {
  const LangevinParameters p = quick_escape(64);
  EnsembleOptions o;
  o.slots = 8;
  Ensemble<Space, float> ensemble(Space(), p, o);
  const EnsembleCheckpoint before = ensemble.checkpoint();
  const std::int64_t resident = ensemble.probe_residency();
  EXPECT_GE(resident, 1);
  EXPECT_LE(resident, concurrency_of(Space()));
  if (concurrency_of(Space()) == 1) EXPECT_EQ(resident, 1);
  const EnsembleCheckpoint after = ensemble.checkpoint();
  EXPECT_EQ(after.slot_realisation, before.slot_realisation);
  EXPECT_EQ(after.slot_step, before.slot_step);
  EXPECT_EQ(after.next_realisation, before.next_realisation);
  ensemble.run();
  expect_identical(ensemble.results(), run<float>(p), "after a probe");
}

/// Realisations [100, 150) of a run split by first_realisation are realisations 100..149 of
/// the whole run.
TEST(JosephsonEnsemble, SplitByFirstRealisation) {
  LangevinParameters whole = quick_escape(150);
  LangevinParameters part = whole;
  part.first_realisation = 100;
  part.realisations = 50;
  const EnsembleResults a = run<double>(whole);
  const EnsembleResults b = run<double>(part);
  for (std::size_t i = 0; i < 50; ++i) {
    EXPECT_EQ(b.steps[i], a.steps[100 + i]) << i;
    EXPECT_EQ(b.final_phi[i], a.final_phi[100 + i]) << i;
  }
}

TEST(JosephsonEnsemble, CensoredRealisationsAreFlaggedNotTimed) {
  LangevinParameters p = quick_escape(400);
  p.max_steps = 1500;  // about 40% escape before the cap
  Ensemble<Space, double> ensemble(Space(), p);
  ensemble.run();
  const EnsembleResults r = ensemble.results();
  const std::size_t escaped = r.count(Outcome::escaped), censored = r.count(Outcome::censored);
  EXPECT_EQ(escaped + censored, p.realisations);
  EXPECT_GT(escaped, 50u);
  EXPECT_GT(censored, 50u);
  EXPECT_EQ(r.count(Outcome::pending), 0u);
  const double th = p.escape_threshold();
  std::vector<double> times;
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (r.outcome[i] == Outcome::escaped) {
      EXPECT_LE(r.steps[i], p.max_steps);
      EXPECT_GT(r.final_phi[i], th);
      times.push_back(static_cast<double>(r.steps[i]) * p.h);
    } else {
      EXPECT_EQ(r.steps[i], p.max_steps);
      EXPECT_LE(r.final_phi[i], th);  // its recorded final state is still below the threshold
      EXPECT_TRUE(std::isfinite(r.final_v[i]));
    }
  }
  EXPECT_EQ(r.escape_times(), times);
  std::uint64_t total = 0;
  for (std::uint64_t s : r.steps) total += s;
  EXPECT_EQ(ensemble.steps_integrated(), total);
}

TEST(JosephsonEnsemble, StepsIntegratedCountsFinishedAndInFlight) {
  const LangevinParameters p = quick_escape(300);
  EnsembleOptions o;
  o.slots = 16;
  Ensemble<Space, float> ensemble(Space(), p, o);
  ensemble.advance(700);
  ensemble.advance(300);
  const EnsembleCheckpoint c = ensemble.checkpoint();
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < c.results.size(); ++i)
    if (c.results.outcome[i] != Outcome::pending) expected += c.results.steps[i];
  for (std::size_t s = 0; s < c.slot_step.size(); ++s)
    if (c.slot_realisation[s] >= 0) expected += c.slot_step[s];
  EXPECT_EQ(ensemble.steps_integrated(), expected);
  // While unstarted realisations remain, every slot spends its whole budget: a slot whose
  // realisation ends continues with the next one in the same launch.
  ASSERT_LT(c.next_realisation, p.realisations);
  EXPECT_EQ(expected, 16u * 1000u);
}

template <class Real>
void expect_checkpoint_continues() {
  const LangevinParameters p = quick_escape(400);
  EnsembleOptions o;
  o.slots = 40;
  o.steps_per_launch = 500;
  const EnsembleResults uninterrupted = run<Real>(p, o);

  Ensemble<Space, Real> first(Space(), p, o);
  for (int i = 0; i < 7; ++i) first.advance(o.steps_per_launch);
  const EnsembleCheckpoint early = first.checkpoint();
  EXPECT_GT(first.finished(), 0u);
  EXPECT_LT(first.finished(), p.realisations);
  while (first.finished() < p.realisations * 19 / 20) first.advance(o.steps_per_launch);
  first.advance(o.steps_per_launch);  // packs the tail before this launch
  const EnsembleCheckpoint late = first.checkpoint();
  EXPECT_LT(late.active_slots, o.slots) << "the late checkpoint should hold packed slots";
  first.run();
  expect_identical(first.results(), uninterrupted, "run with checkpoints taken");

  for (const EnsembleCheckpoint* c : {&early, &late}) {
    Ensemble<Space, Real> resumed(Space(), p, o);
    resumed.restore(*c);
    EXPECT_EQ(resumed.finished(),
              static_cast<std::uint64_t>(c->results.size() - c->results.count(Outcome::pending)));
    resumed.run();
    expect_identical(
        resumed.results(), uninterrupted,
        c == &early ? "resumed from the early checkpoint" : "resumed from the late one");
  }
}

TEST(JosephsonEnsemble, CheckpointRestoreContinuesBitForBit) {
  expect_checkpoint_continues<float>();
  expect_checkpoint_continues<double>();
}

/// float and double trajectories share their noise but separate by rounding; the mean escape
/// time and the censored fraction agree within their statistical errors.
TEST(JosephsonEnsemble, FloatAndDoubleEscapeStatisticsAgree) {
  LangevinParameters p = quick_escape(4000);
  p.max_steps = 3000;
  const EnsembleResults f = run<float>(p);
  const EnsembleResults d = run<double>(p);
  const MeanEstimate mf = mean_of(f.escape_times()), md = mean_of(d.escape_times());
  EXPECT_NEAR(mf.mean, md.mean, 4 * std::hypot(mf.error, md.error));
  const double n = static_cast<double>(p.realisations);
  const double cf = static_cast<double>(f.count(Outcome::censored)) / n;
  const double cd = static_cast<double>(d.count(Outcome::censored)) / n;
  EXPECT_NEAR(cf, cd, 4 * std::sqrt(2 * cd * (1 - cd) / n));
  EXPECT_GT(cd, 0.01);
}

/// Float normals for double trajectories (EnsembleOptions::float_noise): every loop agrees
/// bit for bit with the reference loop, the trajectories differ from those with double
/// normals (in their last digits: the escape steps themselves mostly coincide), and the
/// escape statistics agree with them.
TEST(JosephsonEnsemble, FloatNoiseForDoubleTrajectories) {
  LangevinParameters p = quick_escape(96);
  p.max_steps = 1502;
  EnsembleOptions o;
  o.float_noise = true;
  o.slots = 13;
  for (Integrator integrator : {Integrator::euler, Integrator::heun}) {
    for (double nu : {0.0, 2e-5}) {
      LangevinParameters q = p;
      q.integrator = integrator;
      q.nu = nu;
      const std::string name =
          std::string("float noise ") + to_string(integrator) + (nu > 0 ? " ramp" : "");
      for (AdvanceLoop loop : {AdvanceLoop::chunked, AdvanceLoop::pipelined})
        expect_loops_agree<double>(q, o, 258, name + " " + to_string(loop), loop);
    }
  }

  LangevinParameters s = quick_escape(4000);
  s.max_steps = 3000;
  EnsembleOptions fn;
  fn.float_noise = true;
  const EnsembleResults d = run<double>(s);
  const EnsembleResults f = run<double>(s, fn);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < d.size(); ++i) differ += d.final_phi[i] != f.final_phi[i];
  EXPECT_GT(differ, d.size() / 2);
  const MeanEstimate mf = mean_of(f.escape_times()), md = mean_of(d.escape_times());
  EXPECT_NEAR(mf.mean, md.mean, 4 * std::hypot(mf.error, md.error));
  const double n = static_cast<double>(s.realisations);
  const double cf = static_cast<double>(f.count(Outcome::censored)) / n;
  const double cd = static_cast<double>(d.count(Outcome::censored)) / n;
  EXPECT_NEAR(cf, cd, 4 * std::sqrt(2 * cd * (1 - cd) / n));
}

/// The paper's kernel (its own noise streams) samples the same escape-time distribution as
/// the ensemble's Euler integrator.
TEST(JosephsonEnsemble, PlainKernelAgreesStatistically) {
  LangevinParameters p = quick_escape(4000);
  p.max_steps = 3000;
  const EnsembleResults e = run<float>(p);
  const auto plain = Kokkos::create_mirror_view_and_copy(
      Kokkos::HostSpace(), run_plain_escape<Space, float>(Space(), p));
  std::vector<double> times;
  std::size_t censored = 0;
  for (std::size_t i = 0; i < plain.extent(0); ++i) {
    if (plain(i) < 0)
      ++censored;
    else
      times.push_back(static_cast<double>(plain(i)) * p.h);
  }
  const MeanEstimate me = mean_of(e.escape_times()), mp = mean_of(times);
  EXPECT_NEAR(mp.mean, me.mean, 4 * std::hypot(mp.error, me.error));
  const double n = static_cast<double>(p.realisations);
  const double ce = static_cast<double>(e.count(Outcome::censored)) / n;
  EXPECT_NEAR(static_cast<double>(censored) / n, ce, 4 * std::sqrt(2 * ce * (1 - ce) / n));
}

/// A ramp records gamma0 + nu k h at the escape step, in double.
TEST(JosephsonEnsemble, RampRecordsBiasAtEscape) {
  LangevinParameters p = quick_escape(256);
  p.gamma0 = 0.5;
  p.nu = 2e-3;  // gamma reaches 1 after 250 time units = 25000 steps
  p.max_steps = 30000;
  for (int precision = 0; precision < 2; ++precision) {
    const EnsembleResults r = precision == 0 ? run<float>(p) : run<double>(p);
    EXPECT_EQ(r.count(Outcome::escaped), p.realisations);
    for (std::size_t i = 0; i < r.size(); ++i) {
      EXPECT_DOUBLE_EQ(r.bias[i], p.bias_at_step(r.steps[i]));
      EXPECT_DOUBLE_EQ(r.bias[i], p.gamma0 + p.nu * static_cast<double>(r.steps[i]) * p.h);
      EXPECT_GT(r.bias[i], p.gamma0);
      EXPECT_LT(r.bias[i], 1.0 + 1e-2);  // the barrier is gone at gamma = 1: escape right away
    }
  }
}

/// A trillion steps into a slow ramp (restored state, gamma = 0.99 at step 10^12): the drive
/// and the recorded bias follow the step count exactly, where a float step count or a float
/// bias would be stuck (2^24 < 10^12 and nu h = 10^-12 is below float resolution of gamma).
/// Returns the escape delays after the restored step.
template <class Real>
std::vector<double> expect_exact_bias_late_in_ramp() {
  LangevinParameters p;
  p.V0 = 1;
  p.beta = 0.2;
  p.theta = 0.2;
  p.h = 0.01;
  p.gamma0 = 0;
  p.nu = 0.99e-10;  // gamma = nu h k = 0.99 at k = 10^12
  p.realisations = 256;
  p.seed = 5;
  const std::uint64_t start = 1000000000000ull;
  p.max_steps = start + 2000000;
  EnsembleOptions o;
  o.schedule = Schedule::one_per_thread;
  Ensemble<Space, Real> ensemble(Space(), p, o);
  EnsembleCheckpoint c = ensemble.checkpoint();
  for (std::size_t s = 0; s < c.slot_step.size(); ++s) {
    c.slot_step[s] = start + s % 4;  // also misaligned with the 4-step noise blocks
    c.slot_phi[s] = static_cast<Real>(std::asin(p.bias_at_step(start)));
  }
  ensemble.restore(c);
  ensemble.run();
  const EnsembleResults r = ensemble.results();
  EXPECT_EQ(r.count(Outcome::escaped), p.realisations);
  std::vector<double> delays;
  for (std::size_t i = 0; i < r.size(); ++i) {
    EXPECT_GT(r.steps[i], start + i % 4);
    EXPECT_DOUBLE_EQ(r.bias[i], p.bias_at_step(r.steps[i]));
    EXPECT_NEAR(r.bias[i], 0.99, 1e-3);
    delays.push_back(static_cast<double>(r.steps[i] - start));
  }
  // Distinct escape steps give distinct biases.
  for (std::size_t i = 1; i < r.size(); ++i)
    if (r.steps[i] != r.steps[0]) EXPECT_NE(r.bias[i], r.bias[0]);
  return delays;
}

TEST(JosephsonEnsemble, RampBiasExactATrillionStepsIn) {
  // float and double see the same drive: their escape delays agree statistically.
  const MeanEstimate f = mean_of(expect_exact_bias_late_in_ramp<float>());
  const MeanEstimate d = mean_of(expect_exact_bias_late_in_ramp<double>());
  EXPECT_NEAR(f.mean, d.mean, 4 * std::hypot(f.error, d.error));
}

}  // namespace
