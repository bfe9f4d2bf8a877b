// portamc-tilings checkpoints: a run stopped twice and resumed writes the results of a run
// never stopped, bit for bit, in every mode (glauber chains of every model, CFTP of dominoes
// and of the six-vertex model, shuffling);
// a checkpoint another run cannot continue is bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "../common/app_test.hpp"
#include "../common/checkpoint_damage.hpp"
#include "../common/foreign_checkpoint.hpp"
#include "../common/h5_datasets.hpp"
#include "../common/resume_refusals.hpp"
#include "portamc/tilings/sampling_run.hpp"

namespace {

namespace fs = std::filesystem;

class TilingsResume : public portamc::testing::AppTest {
 protected:
  TilingsResume() : AppTest(PORTAMC_TILINGS_APP, "tilings_resume") {}
};

struct Case {
  std::string name, yaml;
  int first_stop, second_stop;  // units of work of the first and the second process
};

// Small runs of every source of samples; the stops fall inside the samples (a glauber run's
// unit 0 is its thermalisation).
const std::vector<Case> cases = {
    {"domino_cftp",
     "model: domino\nmode: cftp\nseed: 5\ndomain: {shape: aztec_diamond, n: 6}\n"
     "cftp: {samples: 7}\n",
     2, 3},
    {"domino_shuffling",
     "model: domino\nmode: shuffling\nseed: 5\ndomain: {shape: aztec_diamond, n: 8}\n"
     "shuffling: {samples: 6}\n",
     1, 4},
    {"domino_tiled_glauber",
     "model: domino\nmode: glauber\nseed: 2\ndomain: {shape: rectangle, rows: 16, cols: 16}\n"
     "glauber: {samples: 6, thermalisation: 3, sweeps_between_samples: 2}\n"
     "dynamics: {tile_rows: 8, tile_cols: 8, substeps: 4}\n",
     1, 3},
    {"lozenge_glauber",
     "model: lozenge\nmode: glauber\nseed: 3\ndomain: {shape: hexagon, a: 3, b: 4, c: 3}\n"
     "glauber: {samples: 6, thermalisation: 4, sweeps_between_samples: 2}\n",
     2, 2},
    {"bibone_glauber",
     "model: bibone\nmode: glauber\nseed: 4\ndomain: {shape: hexagon, a: 3, b: 3, c: 2}\n"
     "glauber: {samples: 5, thermalisation: 2, sweeps_between_samples: 2}\n",
     1, 2},
    {"rect_triangle_glauber",
     "model: rect_triangle\nmode: glauber\nseed: 4\ndomain: {shape: hexagon, a: 2, b: 2, c: 2}\n"
     "glauber: {samples: 5, thermalisation: 2, sweeps_between_samples: 1}\n",
     3, 1},
    {"six_vertex_cftp",  // 4096 steps a unit: both stops come while the copies coalesce
     "model: six_vertex\nmode: cftp\nseed: 7\ndomain: {shape: domain_wall, n: 24}\n"
     "weights: {a: 1.0, b: 1.0, c: 1.5}\ncftp: {samples: 5}\n",
     1, 1},
    {"six_vertex_glauber",
     "model: six_vertex\nmode: glauber\nseed: 6\ndomain: {shape: domain_wall, n: 6}\n"
     "glauber: {samples: 6, thermalisation: 3, sweeps_between_samples: 2}\n",
     2, 2},
};

TEST_F(TilingsResume, StoppedTwiceAndResumedWritesTheSameResultsBitForBit) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const auto input = write_input(c.name + ".yaml", c.yaml);
    const auto reference = path(c.name + "-reference.h5");
    ASSERT_EQ(run(input + " -q -o " + reference), 0) << log();
    const auto output = path(c.name + ".h5"), checkpoint = output + ".checkpoint";
    ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=" + std::to_string(c.first_stop) +
                  " -o " + output),
              3)
        << log();
    EXPECT_NE(log().find("--resume " + checkpoint), std::string::npos) << log();
    EXPECT_FALSE(fs::exists(output));
    EXPECT_EQ(portamc::tilings::read_checkpoint(checkpoint).units_done, c.first_stop);
    ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=" + std::to_string(c.second_stop) +
                  " --resume " + checkpoint + " -o " + output),
              3)
        << log();
    EXPECT_EQ(portamc::tilings::read_checkpoint(checkpoint).units_done,
              c.first_stop + c.second_stop);
    EXPECT_FALSE(fs::exists(output));
    ASSERT_EQ(run(input + " -q --resume " + checkpoint + " -o " + output), 0) << log();
    EXPECT_FALSE(fs::exists(checkpoint)) << "the checkpoint outlived the finished run";
    portamc::testing::expect_same_results(reference, output, 11, {"/tilings/summary/seconds"});
  }
}

TEST_F(TilingsResume, CftpResumesInsideALongCoalescingPass) {
  // An Aztec diamond of order 20 needs horizons up to about 8192 steps, the six-vertex DWBC
  // block of 24 about 16384: a unit (4096 time slots or steps) ends inside a pass, whose chains
  // the checkpoint holds. A restore that began the pass again would never finish here.
  const std::vector<std::pair<std::string, std::string>> inputs = {
      {"domino",
       "model: domino\nmode: cftp\nseed: 11\n"
       "domain: {shape: aztec_diamond, n: 20}\ncftp: {samples: 2}\n"},
      {"six_vertex", cases[6].yaml}};
  for (const auto& [name, yaml] : inputs) {
    SCOPED_TRACE(name);
    const auto input = write_input(name + "-long.yaml", yaml);
    const auto reference = path(name + "-long-reference.h5");
    ASSERT_EQ(run(input + " -q -o " + reference), 0) << log();
    const auto output = path(name + "-long.h5"), checkpoint = output + ".checkpoint";
    bool inside_a_pass = false;
    int stops = 0;
    // One unit at a time until the run is done, checking where each checkpoint stopped.
    for (std::string resume; stops < 100; ++stops) {
      const int status =
          run(input + " -q --set checkpoint.stop_after=1" + resume + " -o " + output);
      if (status == 0) break;
      ASSERT_EQ(status, 3) << log();
      const auto c = portamc::tilings::read_checkpoint(checkpoint);
      ASSERT_GE(c.cftp_pass.size(), 4u);
      if (c.cftp_pass[0] > 0 && c.cftp_pass[1] > 0) inside_a_pass = true;  // horizon, next
      resume = " --resume " + checkpoint;
    }
    EXPECT_TRUE(inside_a_pass) << "no checkpoint fell inside a pass";
    EXPECT_GT(stops, 2);
    portamc::testing::expect_same_results(reference, output, 11, {"/tilings/summary/seconds"});
  }
}

TEST_F(TilingsResume, ACheckpointOfAnotherRunIsBadInputAndKept) {
  const auto input = write_input("chain.yaml", cases[3].yaml);
  const auto output = path("chain.h5"), checkpoint = output + ".checkpoint";
  ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=2 -o " + output), 3) << log();
  for (const std::string set :
       {"seed=9", "glauber.sweeps_between_samples=3", "domain.a=4", "mode=cftp"}) {
    EXPECT_EQ(run(input + " -q --set " + set + " --resume " + checkpoint + " -o " + output), 2)
        << set;
    EXPECT_NE(log().find("cannot resume from '" + checkpoint + "'"), std::string::npos) << log();
    EXPECT_NE(log().find("other parameters"), std::string::npos) << log();
    EXPECT_FALSE(fs::exists(output));
    EXPECT_TRUE(fs::exists(checkpoint));
  }
  // A domain file is known by its contents, not only its path.
  const std::string mask = path("hexagon.mask");
  const auto write_mask = [&](const std::string& text) { std::ofstream(mask) << text; };
  write_mask("###.\n.###\n");
  const auto masked = write_input("masked.yaml",
                                  "model: lozenge\nmode: glauber\nseed: 3\n"
                                  "domain: {shape: file, file: " +
                                      mask +
                                      "}\n"
                                      "glauber: {samples: 3, thermalisation: 2}\n");
  const auto masked_output = path("masked.h5");
  ASSERT_EQ(run(masked + " -q --set checkpoint.stop_after=1 -o " + masked_output), 3) << log();
  write_mask("##\n");  // another valid domain under the same name
  EXPECT_EQ(run(masked + " -q --resume " + masked_output + ".checkpoint -o " + masked_output), 2);
  EXPECT_NE(log().find("other parameters"), std::string::npos) << log();
  write_mask("###.\n.###\n");
  EXPECT_EQ(run(masked + " -q --resume " + masked_output + ".checkpoint -o " + masked_output), 0)
      << log();
  // More samples than the checkpoint's run: the same chain, continued further, is allowed.
  EXPECT_EQ(run(input + " -q --set glauber.samples=8 --resume " + checkpoint + " -o " + output), 0)
      << log();
}

TEST_F(TilingsResume, ResumeRefusesEveryUnusableCheckpointAsBadInput) {
  const auto input = write_input("cftp.yaml", cases[0].yaml);
  const auto stopped = path("stopped.h5");
  ASSERT_EQ(run(input + " -q --set checkpoint.stop_after=3 -o " + stopped), 3) << log();
  const std::string checkpoint = stopped + ".checkpoint", foreign = path("muca.ckpt");
  portamc::testing::write_muca_checkpoint(foreign);
  const auto output = path("never.h5");
  portamc::testing::expect_resume_refusals(
      [&](const std::string& args) { return run(args); }, [&] { return log(); }, dir_,
      input + " -q -o " + output, output, checkpoint, foreign,
      [](const std::string& file) {
        portamc::testing::flip_bit<std::uint64_t>(file, "/samples/type_counts", 5, 2);
      });
}

}  // namespace
