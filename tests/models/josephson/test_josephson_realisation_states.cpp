// Per-realisation ensemble states (realisation_states.hpp), the layer under checkpoints that
// restart on another MPI rank count: an ensemble's state split into the shares of several
// ranks, or the shares of several ranks joined into one, continues bit for bit. Serial, no MPI:
// each "rank" is an Ensemble of its share (first_realisation offset), as in a run.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "ensemble_checks.hpp"
#include "portamc/josephson/detail/realisation_states.hpp"
#include "portamc/josephson/ensemble.hpp"
#include "quick_escape.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::josephson;
using Space = TestSpace;

using portamc::josephson::testing::expect_identical;
using portamc::josephson::testing::quick_escape;

LangevinParameters share_of(const LangevinParameters& whole, std::uint64_t begin,
                            std::uint64_t end) {
  LangevinParameters p = whole;
  p.first_realisation = whole.first_realisation + begin;
  p.realisations = end - begin;
  return p;
}

EnsembleOptions options(std::int64_t slots, Schedule schedule = Schedule::refill) {
  EnsembleOptions o;
  o.slots = slots;
  o.steps_per_launch = 300;
  o.schedule = schedule;
  return o;
}

void expect_same_states(const RealisationStates& a, const RealisationStates& b) {
  expect_identical(a.results, b.results, "results");
  EXPECT_EQ(a.in_flight, b.in_flight);
  EXPECT_EQ(a.in_flight_phi, b.in_flight_phi);
  EXPECT_EQ(a.in_flight_v, b.in_flight_v);
  EXPECT_EQ(a.in_flight_step, b.in_flight_step);
}

template <class Real>
EnsembleResults uninterrupted(const LangevinParameters& p) {
  Ensemble<Space, Real> e(Space(), p, options(16));
  e.run();
  return e.results();
}

/// The state of an ensemble of `p` after `launches` launches.
template <class Real>
RealisationStates states_after(const LangevinParameters& p, EnsembleOptions o, int launches) {
  Ensemble<Space, Real> e(Space(), p, o);
  for (int i = 0; i < launches; ++i) e.advance(o.steps_per_launch);
  return realisation_states(e.checkpoint());
}

/// Continues `states` in an ensemble of `p` with at least `slots` slots (more where the states
/// need them) and returns the final results.
template <class Real>
EnsembleResults finish(const LangevinParameters& p, const RealisationStates& states,
                       std::int64_t slots, Schedule schedule = Schedule::refill) {
  const bool refill = schedule == Schedule::refill;
  EnsembleOptions o = options(std::max(slots, slots_needed(states, refill)), schedule);
  Ensemble<Space, Real> e(Space(), p, o);
  const double start = static_cast<double>(static_cast<Real>(p.start_phase()));
  e.restore(deal_to_slots(states, e.slot_count(), refill, start));
  EXPECT_EQ(e.finished(), states.finished());
  e.run();
  return e.results();
}

EnsembleResults joined(const std::vector<EnsembleResults>& parts) {
  std::vector<RealisationStates> s(parts.size());
  for (std::size_t k = 0; k < parts.size(); ++k) s[k].results = parts[k];
  return concatenate_realisations(s).results;
}

template <class Real>
void expect_split_continues() {
  const LangevinParameters p = quick_escape(300);
  const EnsembleResults reference = uninterrupted<Real>(p);
  // One "rank" with 20 slots, stopped with realisations finished, in flight and unstarted.
  const RealisationStates whole = states_after<Real>(p, options(20), 8);
  ASSERT_GT(whole.finished(), 0u);
  ASSERT_FALSE(whole.in_flight.empty());
  ASSERT_LT(whole.finished() + whole.in_flight.size(), p.realisations);
  // Continued on three: 100 + 100 + 100 realisations with 3, 8 and 50 slots.
  const std::uint64_t cut[] = {0, 100, 200, 300};
  const std::int64_t slots[] = {3, 8, 50};
  std::vector<EnsembleResults> parts;
  for (int r = 0; r < 3; ++r)
    parts.push_back(finish<Real>(share_of(p, cut[r], cut[r + 1]),
                                 select_realisations(whole, cut[r], cut[r + 1]), slots[r]));
  expect_identical(joined(parts), reference, "one ensemble continued as three");
}

template <class Real>
void expect_merge_continues(Schedule schedule) {
  const LangevinParameters p = quick_escape(301);
  const EnsembleResults reference = uninterrupted<Real>(p);
  // Four "ranks" of unequal progress: the joined state has unstarted realisations between
  // started ones, which the new ensemble's counter cannot hand out.
  const std::uint64_t cut[] = {0, 76, 151, 226, 301};
  const int launches[] = {3, 9, 0, 14};
  std::vector<RealisationStates> parts;
  for (int r = 0; r < 4; ++r)
    parts.push_back(
        states_after<Real>(share_of(p, cut[r], cut[r + 1]), options(5 + r), launches[r]));
  const RealisationStates all = concatenate_realisations(parts);
  validate(all);
  for (int r = 0; r < 4; ++r)
    expect_same_states(select_realisations(all, cut[r], cut[r + 1]), parts[r]);
  // On one rank with 4 slots: more realisations in flight than that, so the slots grow.
  ASSERT_GT(slots_needed(all, true), 4);
  expect_identical(finish<Real>(p, all, 4, schedule), reference,
                   std::string("four ensembles continued as one, ") + to_string(schedule));
}

TEST(JosephsonRealisationStates, OneEnsembleContinuesAsThree) {
  expect_split_continues<float>();
  expect_split_continues<double>();
}

TEST(JosephsonRealisationStates, FourEnsemblesContinueAsOne) {
  expect_merge_continues<float>(Schedule::refill);
  expect_merge_continues<double>(Schedule::refill);
  expect_merge_continues<double>(Schedule::one_per_thread);
}

TEST(JosephsonRealisationStates, DealFillsFreeSlotsFromTheUnstartedSuffix) {
  // Realisations 0..9: 1 escaped, 3 in flight, 4 unstarted (a hole), 6 censored, 8 in flight,
  // 2, 5, 7, 9 unstarted; the counter can only hand out 9.
  RealisationStates s = unstarted_realisations(10, 0.01);
  s.results.outcome[1] = Outcome::escaped;
  s.results.outcome[6] = Outcome::censored;
  s.in_flight = {0, 3, 8};
  s.in_flight_phi = {0.5, 1.5, 2.5};
  s.in_flight_v = {0.1, 0.2, 0.3};
  s.in_flight_step = {10, 20, 30};
  EXPECT_EQ(slots_needed(s, true), 7);  // 0 2 3 4 5 7 8
  EXPECT_EQ(slots_needed(s, false), 8);
  const EnsembleCheckpoint c = deal_to_slots(s, 9, true, 0.25);
  EXPECT_EQ(c.slot_realisation, (std::vector<std::int64_t>{0, 2, 3, 4, 5, 7, 8, 9, -1}));
  EXPECT_EQ(c.slot_phi, (std::vector<double>{0.5, 0.25, 1.5, 0.25, 0.25, 0.25, 2.5, 0.25, 0}));
  EXPECT_EQ(c.slot_step, (std::vector<std::uint64_t>{10, 0, 20, 0, 0, 0, 30, 0, 0}));
  EXPECT_EQ(c.next_realisation, 10u);
  EXPECT_EQ(c.active_slots, 9);
  // Back to the states: the realisations at rest are in flight at step 0 now, the same thing.
  const RealisationStates back = realisation_states(c);
  EXPECT_EQ(back.in_flight, (std::vector<std::uint64_t>{0, 2, 3, 4, 5, 7, 8, 9}));
  EXPECT_THROW(deal_to_slots(s, 6, true, 0.25), std::invalid_argument);
  // No refill: every unfinished realisation takes a slot.
  EXPECT_EQ(deal_to_slots(s, 10, false, 0.25).next_realisation, 10u);
}

TEST(JosephsonRealisationStates, InvalidStatesAreRefused) {
  RealisationStates s = unstarted_realisations(5, 0.01);
  s.in_flight = {3, 1};
  s.in_flight_phi = {0, 0};
  s.in_flight_v = {0, 0};
  s.in_flight_step = {1, 1};
  EXPECT_THROW(validate(s), std::invalid_argument);  // not ascending
  s.in_flight = {1, 3};
  validate(s);
  s.results.outcome[3] = Outcome::escaped;
  EXPECT_THROW(validate(s), std::invalid_argument);  // finished and in flight
  s.results.outcome[3] = Outcome::pending;
  s.in_flight = {1, 5};
  EXPECT_THROW(validate(s), std::invalid_argument);  // beyond the range
  s.in_flight = {1, 3};
  s.in_flight_v.pop_back();
  EXPECT_THROW(validate(s), std::invalid_argument);  // lengths
  EXPECT_THROW(select_realisations(unstarted_realisations(5, 0.01), 2, 6), std::invalid_argument);
}

TEST(JosephsonRealisationStates, GatherOnOneRankIsTheIdentity) {
  const RealisationStates s = states_after<double>(quick_escape(60), options(7), 4);
  const portamc::parallel::Communicator one;
  expect_same_states(gather_realisations(s, one), s);
  expect_identical(gather_results(s.results, one), s.results, "gather_results");
}

}  // namespace
