// End-to-end: portamc-su2 on tiny inputs; the HDF5 file it writes; starts from saved
// configurations; checkpoint and resume; its error paths.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "../common/app_test.hpp"
#include "../common/foreign_checkpoint.hpp"
#include "../common/resume_refusals.hpp"
#include "portamc/backends.hpp"
#include "portamc/hdf5_file.hpp"
#include "portamc/muca/io.hpp"
#include "portamc/su2/run_output.hpp"

namespace {

namespace fs = std::filesystem;

class Su2App : public portamc::testing::AppTest {
 protected:
  Su2App() : AppTest(PORTAMC_SU2_APP, "su2") {}
};

const char* tiny =
    "lattice: {extents: [6, 6, 6, 4]}\n"
    "model: {beta: 2.3, start: hot, seed: 5}\n"
    "updates: {n_hb: 1, n_or: 1}\n"
    "run: {thermalisation: 5, measurements: 8, updates_between_measurements: 1}\n"
    "measure: {wilson_r_max: 3, wilson_t_max: 2, ape_iterations: 2, polyakov_bins: 20}\n"
    "analysis: {blocks: 4}\n";

// 4^4, cold, no thermalisation: the first measurement is of the unit configuration.
const char* cold4 =
    "lattice: {extents: [4, 4, 4, 4]}\n"
    "model: {beta: 2.3, start: cold, seed: 9}\n"
    "run: {thermalisation: 0, measurements: 4}\n";

TEST_F(Su2App, WritesACompleteSelfDescribingFile) {
  const auto output = path("out.h5");
  ASSERT_EQ(run(write_input("tiny.yaml", tiny) + " -o " + output), 0) << log();
  EXPECT_NE(log().find("plaquette"), std::string::npos) << log();
  ASSERT_TRUE(fs::exists(output));
  EXPECT_FALSE(fs::exists(output + ".checkpoint"));  // removed after a complete run
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.read_string("/provenance/software"), "portamc");
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/provenance/seed"), 5u);
  EXPECT_NE(f.read_string("/config").find("beta: 2.3"), std::string::npos);
  EXPECT_EQ(f.read<std::int64_t>("/su2/extents"), (std::vector<std::int64_t>{6, 6, 6, 4}));
  EXPECT_EQ(f.attribute_string("/su2", "precision"), "double");
  EXPECT_EQ(f.attribute_int("/su2", "points"), 1);
  EXPECT_DOUBLE_EQ(f.attribute_double("/su2/point_0", "beta"), 2.3);

  const std::string p = "/su2/point_0/";
  const auto step = f.read<std::int64_t>(p + "plaquette/step");
  ASSERT_EQ(step.size(), 8u);
  EXPECT_EQ(step.front(), 5);  // after thermalisation
  EXPECT_EQ(step.back(), 12);  // one update between measurements
  for (const char* name : {"plaquette", "plaquette_spatial", "plaquette_temporal"}) {
    for (double v : f.read<double>(p + name + "/value")) {
      EXPECT_GT(v, 0.0) << name;
      EXPECT_LT(v, 1.0) << name;
    }
    const double mean = f.read_scalar<double>(p + name + "/mean");
    EXPECT_GT(mean, 0.5) << name;
    EXPECT_LT(mean, 0.7) << name;
    EXPECT_GT(f.read_scalar<double>(p + name + "/error"), 0.0) << name;
    // Of 4 to 8 measurements tau_int is a rough guess, or unknown (NaN) where Sokal's sum
    // comes out <= 0, and the file says the estimate is not reliable.
    const double tau = f.read_scalar<double>(p + name + "/tau_int");
    EXPECT_TRUE(std::isnan(tau) || tau > 0) << name;
    EXPECT_EQ(f.attribute_int(p + name, "reliable"), 0) << name;
    EXPECT_FALSE(f.attribute_string(p + name, "description").empty());
  }
  for (double v : f.read<double>(p + "polyakov/value")) EXPECT_LE(std::abs(v), 1.0);
  for (double v : f.read<double>(p + "polyakov_abs/value")) EXPECT_GE(v, 0.0);
  EXPECT_GE(f.read_scalar<double>(p + "polyakov_susceptibility/value"), 0.0);
  EXPECT_EQ(f.attribute_int(p + "polyakov_susceptibility", "spatial_volume"), 216);
  const auto counts = f.read<std::uint64_t>(p + "polyakov_histogram/counts");
  ASSERT_EQ(counts.size(), 20u);
  std::uint64_t total = 0;
  for (auto c : counts) total += c;
  EXPECT_EQ(total, 8u);
  EXPECT_EQ(f.read<double>(p + "polyakov_histogram/edges").size(), 21u);

  for (const std::string loops : {"wilson_loops", "wilson_loops_smeared"}) {
    EXPECT_EQ(f.shape(p + loops + "/samples"), (std::vector<std::size_t>{8, 6})) << loops;
    EXPECT_EQ(f.shape(p + loops + "/mean"), (std::vector<std::size_t>{3, 2})) << loops;
    const auto w = f.read<double>(p + loops + "/mean");
    EXPECT_GT(w[0], w[1]) << loops;  // W(1,1) > W(1,2) > 0
    EXPECT_GT(w[1], 0.0) << loops;
    EXPECT_EQ(f.attribute_int(p + loops, "r_max"), 3);
  }
  // W(1,1) is the plaquette average over the spatial-temporal planes.
  const auto w11 = f.read<double>(p + "wilson_loops/samples");
  const auto temporal = f.read<double>(p + "plaquette_temporal/value");
  EXPECT_NEAR(w11[0], temporal[0], 1e-12);
  EXPECT_EQ(f.attribute_int(p + "wilson_loops_smeared", "ape_iterations"), 2);
  for (const std::string v : {"potential", "potential_smeared"}) {
    ASSERT_TRUE(f.exists(p + v)) << v;
    const std::string status = f.attribute_string(p + v, "status");
    if (status == "ok") {
      EXPECT_EQ(f.read<double>(p + v + "/v").size(), 3u);
      EXPECT_TRUE(std::isfinite(f.read_scalar<double>(p + v + "/sigma")));
    } else {
      EXPECT_FALSE(status.empty());
    }
  }
  EXPECT_EQ(f.read<double>("/su2/scan/beta"), (std::vector<double>{2.3}));
  EXPECT_GT(f.read_scalar<std::uint64_t>(p + "heatbath/links"), 0u);
  EXPECT_EQ(f.read_scalar<std::uint64_t>(p + "timing/updates"), 12u);
}

// --backend picks the execution space the run uses: every backend of the build runs the tiny
// input and is recorded in the provenance, and naming the default backend changes no bit.
TEST_F(Su2App, RunsOnEveryBackendOfTheBuild) {
  // With the gradient flow of every 4th configuration, so the flow runs from YAML to HDF5 on
  // every backend too.
  const auto input = write_input("tiny.yaml", tiny) +
                     " --set measure.flow.every=4 --set measure.flow.t_max=0.5"
                     " --set measure.flow.epsilon=0.1";
  const auto plain = path("plain.h5");
  ASSERT_EQ(run(input + " -q -o " + plain), 0) << log();
  portamc::h5::InputFile reference(plain);
  const std::string p = "/su2/point_0/";
  for (const std::string& backend : portamc::enabled_backends()) {
    SCOPED_TRACE(backend);
    const auto output = path(backend + ".h5");
    ASSERT_EQ(run(input + " -q --backend " + backend + " -o " + output), 0) << log();
    portamc::h5::InputFile f(output);
    std::string recorded = f.read_string("/provenance/backend");
    std::transform(recorded.begin(), recorded.end(), recorded.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    EXPECT_EQ(recorded, backend);
    EXPECT_EQ(f.read<std::int64_t>(p + "plaquette/step"),
              reference.read<std::int64_t>(p + "plaquette/step"));
    for (double v : f.read<double>(p + "plaquette/value")) {
      EXPECT_GT(v, 0.0);
      EXPECT_LT(v, 1.0);
    }
    // Two flowed configurations, E(t) falling along each flow.
    const auto flowed = f.read<double>(p + "flow/energy_plaquette");
    ASSERT_EQ(flowed.size(), 2u * 5u);
    for (std::size_t k = 1; k < 5; ++k) EXPECT_LT(flowed[k], flowed[k - 1]);
    if (backend == portamc::default_backend()) {
      for (const char* series :
           {"plaquette/value", "polyakov/value", "wilson_loops/samples",
            "wilson_loops_smeared/samples", "flow/energy_plaquette", "flow/charge"})
        EXPECT_EQ(f.read<double>(p + series), reference.read<double>(p + series)) << series;
    }
  }
}

// Every estimate with an error carries tau_int and N_eff, the equilibration point and the bins
// it comes from, and a reliable flag with the warning; the app prints the warnings.
TEST_F(Su2App, EstimatesCarryTauIntEffectiveSamplesAndWarnings) {
  const auto output = path("stats.h5");
  ASSERT_EQ(run(write_input("tiny.yaml", tiny) + " -q -o " + output), 0) << log();
  // 8 measurements are far too few: flagged on stderr even with --quiet.
  EXPECT_NE(log().find("warning: beta 2.3: plaquette: only"), std::string::npos) << log();
  EXPECT_NE(log().find("polyakov_susceptibility: "), std::string::npos) << log();
  portamc::h5::InputFile f(output);
  const std::string p = "/su2/point_0/";
  const auto discarded = f.attribute_int("/su2/point_0", "discarded");
  EXPECT_GE(discarded, 0);
  EXPECT_LE(discarded, 4);  // never more than half the series
  EXPECT_EQ(f.attribute_int("/su2/point_0", "used"), 8 - discarded);
  EXPECT_EQ(f.attribute_int("/su2/point_0", "discarded"),
            std::max(f.attribute_int("/su2/point_0", "plaquette_discarded"),
                     f.attribute_int("/su2/point_0", "polyakov_abs_discarded")));
  EXPECT_EQ(f.attribute_int("/su2/point_0", "reliable"), 0);
  EXPECT_NE(f.attribute_string("/su2/point_0", "warning").find("plaquette"), std::string::npos);
  // analysis.blocks: 4 is an override of the automatic bins.
  EXPECT_EQ(f.attribute_int("/su2/point_0", "bins_automatic"), 0);
  EXPECT_EQ(f.attribute_int("/su2/point_0", "blocks"), 4);
  for (const char* name :
       {"plaquette", "plaquette_spatial", "plaquette_temporal", "polyakov", "polyakov_abs"}) {
    const std::string g = p + name;
    const double tau = f.read_scalar<double>(g + "/tau_int");
    const double n_eff = f.read_scalar<double>(g + "/n_eff");
    if (std::isnan(tau))
      EXPECT_TRUE(std::isnan(n_eff)) << name;
    else
      EXPECT_NEAR(n_eff, (8.0 - discarded) / (2 * tau), 1e-9) << name;
    EXPECT_EQ(f.attribute_int(g, "discarded"), discarded) << name;
    EXPECT_EQ(f.attribute_int(g, "used"), 8 - discarded) << name;
    EXPECT_GE(f.attribute_int(g, "bin_size"), 1) << name;
    EXPECT_EQ(f.attribute_int(g, "reliable"), 0) << name;
    EXPECT_FALSE(f.attribute_string(g, "warning").empty()) << name;
    EXPECT_EQ(f.attribute_string(g + "/n_eff", "units"), "measurements") << name;
  }
  const std::string chi = p + "polyakov_susceptibility";
  EXPECT_TRUE(f.exists(chi + "/tau_int"));
  EXPECT_EQ(f.attribute_string(chi + "/n_eff", "units"), "bins");
  EXPECT_EQ(f.attribute_int(chi, "blocks"), 4);
  EXPECT_FALSE(f.attribute_string(chi, "warning").empty());
  for (const std::string loops : {"wilson_loops", "wilson_loops_smeared"}) {
    for (const char* name : {"n_eff", "reliable", "bin_size"})
      EXPECT_EQ(f.shape(p + loops + "/" + name), (std::vector<std::size_t>{3, 2})) << loops;
    EXPECT_FALSE(f.attribute_string(p + loops, "warning").empty()) << loops;
  }
  for (const std::string v : {"potential", "potential_smeared"}) {
    if (f.attribute_string(p + v, "status") != "ok") continue;
    for (const char* name : {"sigma", "v0", "alpha", "spacing_fm", "sommer_r0", "chi2_per_dof"}) {
      EXPECT_TRUE(f.exists(p + v + "/" + name + "_tau_int")) << v << " " << name;
      EXPECT_TRUE(f.exists(p + v + "/" + name + "_n_eff")) << v << " " << name;
    }
    EXPECT_EQ(f.read<double>(p + v + "/v_n_eff").size(), 3u);
    EXPECT_EQ(f.shape(p + v + "/effective_mass_tau_int"), (std::vector<std::size_t>{3, 1}));
    EXPECT_EQ(f.attribute_int(p + v, "blocks"), 4);
  }
  std::uint64_t equilibrated = 0;
  for (auto c : f.read<std::uint64_t>(p + "polyakov_histogram/counts_equilibrated"))
    equilibrated += c;
  EXPECT_EQ(static_cast<std::int64_t>(equilibrated), 8 - discarded);
  for (const char* column : {"plaquette_tau_int", "plaquette_n_eff", "polyakov_abs_n_eff",
                             "polyakov_susceptibility_tau_int", "polyakov_susceptibility_n_eff"})
    EXPECT_EQ(f.read<double>(std::string("/su2/scan/") + column).size(), 1u) << column;
  EXPECT_EQ(f.read<std::int64_t>("/su2/scan/discarded"), (std::vector<std::int64_t>{discarded}));
}

// analysis.blocks defaults to auto: bins of ceil(20 tau_int) measurements, at least 16.
TEST_F(Su2App, JackknifeBinsAreAutomaticByDefault) {
  const auto output = path("auto.h5");
  ASSERT_EQ(run(write_input("cold.yaml", cold4) + " --set run.measurements=64 -q -o " + output), 0)
      << log();
  portamc::h5::InputFile f(output);
  const std::string g = "/su2/point_0";
  EXPECT_EQ(f.attribute_int(g, "bins_automatic"), 1);
  const auto used = f.attribute_int(g, "used");
  const auto blocks = f.attribute_int(g, "blocks"), size = f.attribute_int(g, "block_size");
  // stats::choose_bins: ceil(20 tau_max) per bin, but at least 16 bins; tau_max is the larger
  // tau_int of the primary series.
  const double tau_max = std::max({0.5, f.read_scalar<double>(g + "/plaquette/tau_int"),
                                   f.read_scalar<double>(g + "/polyakov_abs/tau_int")});
  const auto wanted = static_cast<std::int64_t>(std::ceil(20 * tau_max));
  EXPECT_EQ(size, std::min(wanted, std::max<std::int64_t>(1, used / 16)));
  EXPECT_EQ(blocks, used / size);
  EXPECT_GE(blocks, 16);
  EXPECT_NE(f.read_string("/config").find("blocks: auto"), std::string::npos);
}

TEST_F(Su2App, ColdStartMeasuredBeforeAnyUpdateHasUnitPlaquette) {
  const auto output = path("cold.h5");
  ASSERT_EQ(run(write_input("cold.yaml", cold4) + " -o " + output), 0) << log();
  portamc::h5::InputFile f(output);
  const auto plaquette = f.read<double>("/su2/point_0/plaquette/value");
  ASSERT_EQ(plaquette.size(), 4u);
  EXPECT_EQ(plaquette[0], 1.0);
  EXPECT_EQ(f.read<double>("/su2/point_0/plaquette_spatial/value")[0], 1.0);
  EXPECT_EQ(f.read<double>("/su2/point_0/polyakov/value")[0], 1.0);
  for (std::size_t i = 1; i < plaquette.size(); ++i) {
    EXPECT_GT(plaquette[i], 0.0);
    EXPECT_LT(plaquette[i], 1.0);
  }
}

TEST_F(Su2App, BetaScanWritesOnePointPerCouplingAndAScanTable) {
  const auto output = path("scan.h5");
  ASSERT_EQ(run(write_input("cold.yaml", cold4) + " --set model.beta_scan=[1.5,2.5] --set " +
                "model.precision=float --set run.thermalisation=2 -o " + output),
            0)
      << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.read<double>("/su2/scan/beta"), (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(f.attribute_string("/su2", "precision"), "float");
  EXPECT_DOUBLE_EQ(f.attribute_double("/su2/point_1", "beta"), 2.5);
  const auto plaquette = f.read<double>("/su2/scan/plaquette");
  ASSERT_EQ(plaquette.size(), 2u);
  EXPECT_EQ(f.read<double>("/su2/scan/polyakov_susceptibility").size(), 2u);
  // The second coupling continues the chain: 2 + 3 updates at the first, 2 more to thermalise.
  const auto steps = f.read<std::int64_t>("/su2/point_1/plaquette/step");
  EXPECT_EQ(steps.front(), 7);
}

TEST_F(Su2App, DryRunPrintsResolvedConfigurationAndWritesNothing) {
  const auto output = path("dry.h5");
  ASSERT_EQ(run("--dry-run --set model.beta=2.5 -o " + output), 0) << log();
  EXPECT_NE(log().find("beta: 2.5"), std::string::npos) << log();
  EXPECT_NE(log().find("wilson_r_max"), std::string::npos);
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(Su2App, BadInputIsRejectedBeforeAnyWork) {
  const auto output = path("never.h5");
  const auto o = " -o " + output;
  const auto broken = write_input("broken.yaml",
                                  "lattice:\n  extents: [8, 8, 8, 8]\nmodel:\n"
                                  "  beta: -1\n  betta: 2\n");
  EXPECT_EQ(run(broken + o), 2);
  EXPECT_NE(log().find("broken.yaml:4:9: model.beta"), std::string::npos) << log();
  EXPECT_NE(log().find("model.betta: unknown key"), std::string::npos) << log();
  // Cross-key rules run once every key has a valid value of its own.
  EXPECT_EQ(run(write_input("odd.yaml", "lattice:\n  extents: [8, 7, 8, 8]\n") + o), 2);
  EXPECT_NE(log().find("odd.yaml:2:12: lattice.extents: N_1 = 7"), std::string::npos) << log();
  EXPECT_NE(log().find("even"), std::string::npos) << log();
  EXPECT_EQ(run(write_input("syntax.yaml", "lattice: {extents: [4, 4\n") + o), 2);
  EXPECT_EQ(run("--set lattice.extents=[0,4,4,4]" + o), 2);
  EXPECT_EQ(run("--set lattice.extents=[4,4,4,4,4]" + o), 2);
  EXPECT_NE(log().find("2, 3 or 4 extents"), std::string::npos) << log();
  EXPECT_EQ(run("--set lattice.extents=[4,4.5,4,4]" + o), 2);
  EXPECT_EQ(run("--set model.beta=0" + o), 2);
  EXPECT_NE(log().find("beta > 0"), std::string::npos) << log();
  EXPECT_EQ(run("--set model.beta_scan=[2.0,0]" + o), 2);
  EXPECT_EQ(run("--set model.precision=half" + o), 2);
  EXPECT_EQ(run("--set lattice.extents=[8,8,8,8] --set measure.wilson_r_max=5 "
                "--set measure.wilson_t_max=3" +
                o),
            2);
  EXPECT_NE(log().find("half the smallest spatial extent"), std::string::npos) << log();
  EXPECT_EQ(run("--set lattice.extents=[8,8,8,4] --set measure.wilson_r_max=4 "
                "--set measure.wilson_t_max=3" +
                o),
            2);
  EXPECT_NE(log().find("half the time extent"), std::string::npos) << log();
  EXPECT_EQ(run("--set measure.wilson_r_max=2 --set measure.wilson_t_max=2" + o), 2);
  EXPECT_NE(log().find("at least 3 values of R"), std::string::npos) << log();
  EXPECT_EQ(run("--set lattice.extents=[8,8] --set measure.wilson_r_max=3 "
                "--set measure.wilson_t_max=3 --set measure.ape_iterations=5" +
                o),
            2);
  EXPECT_NE(log().find("two spatial directions"), std::string::npos) << log();
  EXPECT_EQ(run("--set updates.n_hb=0 --set updates.n_or=0" + o), 2);
  EXPECT_EQ(run("--set model.start=file" + o), 2);
  EXPECT_NE(log().find("needs a start file"), std::string::npos) << log();
  EXPECT_EQ(run("--set model.start=file --set model.start_file=" + path("missing.h5") + o), 2);
  EXPECT_NE(log().find("model.start_file"), std::string::npos) << log();
  EXPECT_EQ(run("--set run.measurements=1" + o), 2);
  EXPECT_EQ(run("--set analysis.blocks=1" + o), 2);
  EXPECT_NE(log().find("analysis.blocks"), std::string::npos) << log();
  EXPECT_EQ(run("--set analysis.blocks=eight" + o), 2);
  EXPECT_EQ(run("--set analysis.blocks=500 --set run.measurements=100" + o), 2);
  EXPECT_NE(log().find("exceeds run.measurements"), std::string::npos) << log();
  EXPECT_EQ(run(path("missing.yaml")), 2);
  EXPECT_EQ(run("--bogus"), 2);
  EXPECT_EQ(run("-o " + path("no/such/dir/x.h5")), 2);
  EXPECT_NE(log().find("cannot write output file"), std::string::npos) << log();
  // A lattice that cannot fit in memory: a clear error, no allocation attempt.
  EXPECT_EQ(run("--set lattice.extents=[2048,2048,2048,2048]" + o), 2);
  EXPECT_FALSE(fs::exists(output));
}

// Flips one mantissa bit of the first stored link value in the raw bytes of a configuration
// file (links are stored contiguously, so the value's 8 bytes appear verbatim), so that the
// stored checksum no longer matches.
bool corrupt_first_link(const std::string& file) {
  const double first = portamc::h5::InputFile(file).read<double>("/su2_configuration/links").at(0);
  std::string pattern(sizeof first, '\0');
  std::memcpy(pattern.data(), &first, sizeof first);
  std::fstream io(file, std::ios::in | std::ios::out | std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(io)), {});
  const auto at = bytes.find(pattern);
  if (at == std::string::npos || bytes.find(pattern, at + 1) != std::string::npos) return false;
  io.seekp(static_cast<std::streamoff>(at));
  io.put(static_cast<char>(bytes[at] ^ 0x01));
  return static_cast<bool>(io);
}

TEST_F(Su2App, SavedConfigurationRestartsTheChainExactlyAndIsChecked) {
  const auto input = write_input("cold.yaml", cold4);
  const auto config = path("config.h5");
  // Run A: thermalise 3, measure twice (4 updates in all), save the final configuration.
  ASSERT_EQ(run(input + " --set run.thermalisation=3 --set run.measurements=2 --set " +
                "output.save_config=" + config + " -o " + path("a.h5")),
            0)
      << log();
  ASSERT_TRUE(fs::exists(config));
  // Run A3: the same with a third measurement.
  ASSERT_EQ(run(input + " --set run.thermalisation=3 --set run.measurements=3 -o " + path("a3.h5")),
            0)
      << log();
  // Run B from A's configuration: its first measurement is A's last, its second A3's third.
  ASSERT_EQ(run(input + " --set model.start=file --set model.start_file=" + config +
                " --set run.thermalisation=0 --set run.measurements=2 -o " + path("b.h5")),
            0)
      << log();
  const auto a = portamc::h5::InputFile(path("a.h5")).read<double>("/su2/point_0/plaquette/value");
  const auto a3 =
      portamc::h5::InputFile(path("a3.h5")).read<double>("/su2/point_0/plaquette/value");
  const auto b = portamc::h5::InputFile(path("b.h5")).read<double>("/su2/point_0/plaquette/value");
  ASSERT_EQ(a.size(), 2u);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[0], a[1]);
  EXPECT_EQ(b[1], a3[2]);  // the heatbath RNG counter continues from the file

  const auto o = " -o " + path("never.h5");
  const auto from = " --set model.start=file --set model.start_file=" + config;
  EXPECT_EQ(run(input + from + " --set model.precision=float" + o), 2);
  EXPECT_NE(log().find("precision"), std::string::npos) << log();
  EXPECT_EQ(run(input + from + " --set lattice.extents=[4,4,4,6]" + o), 2);
  EXPECT_NE(log().find("4x4x4x6"), std::string::npos) << log();
  EXPECT_EQ(run(input + from.substr(0, from.size() - config.size()) + path("a.h5") + o), 2);

  // One changed bit in the links: rejected by the checksum.
  ASSERT_TRUE(corrupt_first_link(config));
  EXPECT_EQ(run(input + from + o), 2);
  EXPECT_NE(log().find("checksum"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(path("never.h5")));
}

TEST_F(Su2App, InterruptedRunResumesBitForBit) {
  const auto input = write_input("resume.yaml",
                                 "lattice: {extents: [4, 4, 4, 4]}\n"
                                 "model: {beta_scan: [2.2, 2.4], start: hot, seed: 11}\n"
                                 "updates: {n_hb: 1, n_or: 1, reunitarise_every: 3}\n"
                                 "run: {thermalisation: 2, measurements: 300}\n"
                                 "measure: {wilson_r_max: 2, wilson_t_max: 2,\n"
                                 "  flow: {every: 100, t_max: 0.2, epsilon: 0.05}}\n"
                                 "potential: {enabled: false}\n");
  const auto reference = path("reference.h5");
  ASSERT_EQ(run(input + " -q --set checkpoint.every=0 -o " + reference), 0) << log();

  // Checkpoints after every unit of work make the run slow enough to interrupt mid-way.
  const auto output = path("interrupted.h5");
  const auto checkpoint = output + ".checkpoint";
  const int status =
      interrupt_once_written(input + " -q --set checkpoint.every=1e-9 -o " + output, checkpoint);
  ASSERT_GE(status, 0);
  if (status == 0) GTEST_SKIP() << "the run finished before it could be interrupted";
  ASSERT_EQ(status, 3) << log();
  EXPECT_NE(log().find("--resume"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
  ASSERT_TRUE(fs::exists(checkpoint));

  // A checkpoint of another run is refused.
  EXPECT_EQ(run(input + " --set model.seed=12 --resume " + checkpoint + " -o " + path("x.h5")), 2);
  EXPECT_NE(log().find("another run"), std::string::npos) << log();

  ASSERT_EQ(run(input + " -q --set checkpoint.every=0 --resume " + checkpoint + " -o " + output), 0)
      << log();
  EXPECT_FALSE(fs::exists(checkpoint));
  portamc::h5::InputFile r(reference), f(output);
  for (const char* point : {"point_0", "point_1"}) {
    const std::string g = std::string("/su2/") + point;
    EXPECT_EQ(f.read<std::int64_t>(g + "/plaquette/step"),
              r.read<std::int64_t>(g + "/plaquette/step"));
    for (const char* series : {"plaquette/value", "polyakov/value", "wilson_loops/samples"})
      EXPECT_EQ(f.read<double>(g + "/" + series), r.read<double>(g + "/" + series))
          << point << " " << series;
    EXPECT_EQ(f.read<std::uint64_t>(g + "/polyakov_histogram/counts"),
              r.read<std::uint64_t>(g + "/polyakov_histogram/counts"));
    for (const char* flow : {"flow/energy_plaquette", "flow/energy_clover", "flow/charge"})
      EXPECT_EQ(f.read<double>(g + "/" + flow), r.read<double>(g + "/" + flow)) << flow;
  }
}

TEST_F(Su2App, FlowWritesEnergiesChargeAndScalesPerConfiguration) {
  const auto output = path("flow.h5");
  ASSERT_EQ(run(write_input("flow.yaml",
                            "lattice: {extents: [4, 4, 4, 4]}\n"
                            "model: {beta: 2.3, start: hot, seed: 3}\n"
                            "run: {thermalisation: 10, measurements: 12}\n"
                            "measure: {flow: {every: 3, t_max: 3.0, epsilon: 0.05}}\n") +
                " -o " + output),
            0)
      << log();
  portamc::h5::InputFile f(output);
  const std::string g = "/su2/point_0/flow";
  const auto t = f.read<double>(g + "/t");
  ASSERT_EQ(t.size(), 60u);  // every step of 0.05 up to 3
  EXPECT_NEAR(t.front(), 0.05, 1e-15);
  EXPECT_EQ(t.back(), 3.0);
  EXPECT_EQ(f.read<std::int64_t>(g + "/measurement"), (std::vector<std::int64_t>{0, 3, 6, 9}));
  const auto e = f.read<double>(g + "/energy_plaquette");
  const auto q = f.read<double>(g + "/charge");
  ASSERT_EQ(e.size(), 4u * 60u);
  ASSERT_EQ(q.size(), e.size());
  for (std::size_t c = 0; c < 4; ++c)
    for (std::size_t k = 1; k < 60; ++k)
      EXPECT_LT(e[c * 60 + k], e[c * 60 + k - 1]) << "configuration " << c << ", t index " << k;
  // The file's t^2 <E> is the mean over the used configurations of its own rows.
  const auto used = f.attribute_int(g, "used");
  const auto discarded = f.attribute_int(g, "discarded");
  ASSERT_EQ(used + discarded, 4);
  const auto t2e = f.read<double>(g + "/t2_energy_plaquette");
  double mean = 0;
  for (std::int64_t c = discarded; c < 4; ++c) mean += e[static_cast<std::size_t>(c) * 60 + 59];
  EXPECT_NEAR(t2e.back(), 9.0 * mean / static_cast<double>(used), 1e-12);
  // Every point of the curve has its error, tau_int and N_eff (NaN where three configurations
  // are too few for Sokal's window: series_analysis.hpp).
  for (const char* kind : {"plaquette", "clover"}) {
    const std::string curve = g + "/t2_energy_" + kind;
    const auto error = f.read<double>(curve + "_error");
    const auto n_eff = f.read<double>(curve + "_n_eff");
    ASSERT_EQ(error.size(), 60u) << kind;
    ASSERT_EQ(f.read<double>(curve + "_tau_int").size(), 60u) << kind;
    ASSERT_EQ(n_eff.size(), 60u) << kind;
    for (std::size_t k = 0; k < 60; ++k) {
      EXPECT_GT(error[k], 0.0) << kind << ", t index " << k;
      EXPECT_TRUE(std::isnan(n_eff[k]) || n_eff[k] > 0) << kind << ", t index " << k;
    }
  }
  // At beta = 2.3 a 4^4 box flowed to t = 3 passes t^2 E = 0.1: t0 is inside, with an error.
  const double t0 = f.read_scalar<double>(g + "/t0_plaquette");
  EXPECT_GT(t0, 0.05);
  EXPECT_LT(t0, 3.0);
  EXPECT_TRUE(std::isfinite(f.read_scalar<double>(g + "/t0_plaquette_error")));
  EXPECT_TRUE(std::isfinite(f.read_scalar<double>(g + "/topological_susceptibility")));

  // Adaptive steps to three record times give the E(t) of the fixed steps, to 2e-4: the
  // fixed step of 0.05 errs by up to 7e-5 here (the integrator's accuracy is tested in
  // test_su2_flow; this checks that the run uses the adaptive flow at the record times).
  const auto adaptive = path("adaptive.h5");
  ASSERT_EQ(run(path("flow.yaml") + " --set measure.flow.adaptive=1e-7" +
                " --set measure.flow.record_times=[1,2,3] -o " + adaptive),
            0)
      << log();
  portamc::h5::InputFile h(adaptive);
  EXPECT_EQ(h.read<double>(g + "/t"), (std::vector<double>{1, 2, 3}));
  const auto ea = h.read<double>(g + "/energy_plaquette");
  ASSERT_EQ(ea.size(), 4u * 3u);
  for (std::size_t c = 0; c < 4; ++c)
    for (std::size_t k = 0; k < 3; ++k)
      EXPECT_NEAR(ea[c * 3 + k], e[c * 60 + 20 * k + 19], 2e-4 * e[c * 60 + 20 * k + 19])
          << "configuration " << c << ", t = " << k + 1;
}

TEST_F(Su2App, ResumeRejectsAFileThatIsNotACheckpoint) {
  const auto fake = write_input("fake.ckpt", "not hdf5");
  EXPECT_EQ(run("--resume " + fake + " -o " + path("r.h5")), 2);
  EXPECT_NE(log().find("fake.ckpt"), std::string::npos) << log();
}

// A checkpoint of the quick 4^4 run after `advances` units of work, written by the library.
portamc::su2::RunCheckpoint library_checkpoint(int advances) {
  namespace su2 = portamc::su2;
  su2::RunParameters p;
  p.extents = {4, 4, 4, 4};
  p.start = su2::StartKind::hot;
  p.thermalisation = 2;
  p.measurements = 6;
  su2::Simulation sim(Kokkos::DefaultExecutionSpace(), p);
  sim.start(nullptr);
  for (int i = 0; i < advances; ++i) sim.advance();
  return sim.checkpoint();
}

TEST_F(Su2App, ResumeRefusesEveryUnusableCheckpointAsBadInput) {
  const auto input = write_input("cold4.yaml", cold4);
  const std::string checkpoint = path("su2.ckpt"), foreign = path("muca.ckpt");
  portamc::su2::write_checkpoint(checkpoint, library_checkpoint(5), "");
  portamc::testing::write_muca_checkpoint(foreign);
  const auto output = path("never.h5");
  // The hostile-input campaign's case: scribbled bytes put 8e18 into the step series.
  portamc::testing::expect_resume_refusals(
      [&](const std::string& args) { return run(args); }, [&] { return log(); }, dir_,
      input + " -q -o " + output, output, checkpoint, foreign,
      [](const std::string& file) {
        portamc::testing::overwrite_element<std::int64_t>(file, "/points/point_0/step", 1,
                                                          8000000000000000000);
      });
  // Consistent but impossible: a link of 1e300, sealed with a matching checksum.
  portamc::su2::RunCheckpoint huge = library_checkpoint(5);
  huge.links[4 * 3 + 1] = 1e300;
  portamc::su2::write_checkpoint(path("huge.ckpt"), huge, "");
  EXPECT_EQ(run(input + " -q --resume " + path("huge.ckpt") + " -o " + output), 2) << log();
  EXPECT_NE(log().find("/position/links[12..15] (link 3)"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
}

TEST_F(Su2App, HelpAndVersion) {
  EXPECT_EQ(run("--help"), 0);
  EXPECT_NE(log().find("lattice.extents"), std::string::npos);
  EXPECT_NE(log().find("potential.fit_r_min"), std::string::npos);
  EXPECT_EQ(run("--version"), 0);
  EXPECT_NE(log().find("Kokkos"), std::string::npos);
}

}  // namespace
