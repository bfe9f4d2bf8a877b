// A cvf run resumes bit for bit: interrupted twice (inside the first point's thermalisation
// and inside the second point's measurements), written to a checkpoint file, read back into a
// new run and continued, it ends with the records, counters and configuration of the run that
// was never interrupted; with Metropolis and with Swendsen-Wang. A checkpoint of another
// chain is refused.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../../common/temp_dir.hpp"
#include "portamc/cvf/checkpoint.hpp"
#include "portamc/cvf/run.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::cvf;
// gtest's Test::Run hides the name inside test bodies.
using Chain = portamc::cvf::Run;

// Two state points, so that the chain crosses a point boundary between the interruptions.
RunParameters two_points(SigmaAlgorithm algorithm) {
  RunParameters p;
  p.L = 8;
  p.temperatures = {300.0, 280.0};
  p.pressures = {0.1};
  p.algorithm = algorithm;
  p.seed = 11;
  p.thermalisation = 5;
  p.measurements = 6;
  p.steps_between_measurements = 2;
  p.autocorrelation_lags = 2;
  return p;
}

// Runs to the end; after `stops[i]` units of work the state goes through a checkpoint file
// into a new Run that continues.
struct Outcome {
  std::vector<PointRecord> points;
  FinalConfiguration configuration;
};
Outcome run_with_stops(const RunParameters& p, const std::vector<int>& stops,
                       const std::string& file = "") {
  auto run = std::make_unique<Chain>(TestSpace(), p);
  int units = 0;
  std::size_t next = 0;
  while (!run->done()) {
    run->advance();
    ++units;
    if (next < stops.size() && units == stops[next]) {
      ++next;
      write_checkpoint(file, run->checkpoint(), "lattice: {L: 8}\n");
      run = std::make_unique<Chain>(TestSpace(), p);
      run->restore(read_checkpoint(file));
    }
  }
  EXPECT_EQ(next, stops.size()) << "a stop lies beyond the end of the run";
  return {run->points(), run->configuration()};
}

class CvfResume : public portamc::testing::TempDir,
                  public ::testing::WithParamInterface<SigmaAlgorithm> {};

TEST_P(CvfResume, TwoInterruptionsChangeNoBit) {
  const RunParameters p = two_points(GetParam());
  const Outcome straight = run_with_stops(p, {});
  // Point 0: units 1..5 thermalise, 6..11 measure; point 1: 12..16, 17..22.
  const Outcome resumed = run_with_stops(p, {3, 19}, file("run.ckpt"));
  ASSERT_EQ(resumed.points.size(), straight.points.size());
  for (std::size_t k = 0; k < straight.points.size(); ++k) {
    const PointRecord& a = straight.points[k];
    const PointRecord& b = resumed.points[k];
    SCOPED_TRACE("state point " + std::to_string(k));
    EXPECT_EQ(b.step, a.step);
    EXPECT_EQ(b.hydrogen_bonds, a.hydrogen_bonds);
    EXPECT_EQ(b.cooperative, a.cooperative);
    EXPECT_EQ(b.v_iso, a.v_iso);
    EXPECT_EQ(b.volume, a.volume);
    EXPECT_EQ(b.enthalpy, a.enthalpy);
    EXPECT_EQ(b.order, a.order);
    EXPECT_EQ(b.steps, a.steps);
    EXPECT_EQ(b.volume_proposals, a.volume_proposals);
    EXPECT_EQ(b.volume_accepted, a.volume_accepted);
    EXPECT_EQ(b.label_iterations, a.label_iterations);
  }
  EXPECT_EQ(resumed.configuration.sigma, straight.configuration.sigma);
  EXPECT_EQ(resumed.configuration.cube_state, straight.configuration.cube_state);
  EXPECT_EQ(resumed.configuration.v_iso, straight.configuration.v_iso);
  EXPECT_EQ(resumed.configuration.step, straight.configuration.step);
  // The run was not trivially still: volume moves were accepted and bonds changed.
  EXPECT_GT(straight.points[0].volume_accepted + straight.points[1].volume_accepted, 0u)
      << straight.points[0].volume_proposals << " " << straight.points[1].volume_proposals;
  EXPECT_NE(straight.points[0].hydrogen_bonds.front(), straight.points[1].hydrogen_bonds.back());
}

INSTANTIATE_TEST_SUITE_P(Algorithms, CvfResume,
                         ::testing::Values(SigmaAlgorithm::metropolis,
                                           SigmaAlgorithm::swendsen_wang),
                         [](const auto& info) { return std::string(to_string(info.param)); });

TEST(CvfResumeRules, AFinishedRunResumesAsDone) {
  const RunParameters p = two_points(SigmaAlgorithm::metropolis);
  Chain run(TestSpace(), p);
  while (!run.done()) run.advance();
  Chain again(TestSpace(), p);
  again.restore(run.checkpoint());
  EXPECT_TRUE(again.done());
  EXPECT_EQ(again.points().back().enthalpy, run.points().back().enthalpy);
}

TEST(CvfResumeRules, RefusesACheckpointOfAnotherChain) {
  const RunParameters p = two_points(SigmaAlgorithm::metropolis);
  Chain run(TestSpace(), p);
  for (int i = 0; i < 7; ++i) run.advance();
  const RunCheckpoint c = run.checkpoint();
  for (auto change : std::vector<void (*)(RunParameters&)>{
           [](RunParameters& q) { q.seed = 12; }, [](RunParameters& q) { q.temperatures[1] = 281; },
           [](RunParameters& q) { q.measurements = 7; },
           [](RunParameters& q) { q.algorithm = SigmaAlgorithm::swendsen_wang; }}) {
    RunParameters other = p;
    change(other);
    Chain resumed(TestSpace(), other);
    EXPECT_THROW(resumed.restore(c), std::invalid_argument);
  }
  // The analysis settings may change on resume.
  RunParameters analysis = p;
  analysis.autocorrelation_lags = 3;
  Chain resumed(TestSpace(), analysis);
  EXPECT_NO_THROW(resumed.restore(c));
}

TEST(CvfResumeRules, RefusesAPositionThatContradictsTheRecords) {
  const RunParameters p = two_points(SigmaAlgorithm::metropolis);
  Chain run(TestSpace(), p);
  for (int i = 0; i < 8; ++i) run.advance();
  RunCheckpoint c = run.checkpoint();
  c.position.measurements_done += 1;
  Chain resumed(TestSpace(), p);
  EXPECT_THROW(resumed.restore(c), std::invalid_argument);
}

}  // namespace
