// End-to-end: portamc-tilings on small domains of each model, the HDF5 file it writes (shapes,
// attributes, physical sanity values), the shipped inputs, and its error paths.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "../common/app_test.hpp"
#include "portamc/hdf5_file.hpp"

namespace {

namespace fs = std::filesystem;
using Shape = std::vector<std::size_t>;

class TilingsApp : public portamc::testing::AppTest {
 protected:
  TilingsApp() : AppTest(PORTAMC_TILINGS_APP, "tilings") {}
};

// Checks that the type densities of every cell sum to 1 inside the domain and 0 outside.
void expect_densities_sum_to_one(const portamc::h5::InputFile& f,
                                 const std::vector<std::string>& types,
                                 const std::vector<unsigned char>& inside) {
  std::vector<double> sum(inside.size(), 0.0);
  for (const auto& t : types) {
    const auto d = f.read<double>("/tilings/densities/" + t);
    ASSERT_EQ(d.size(), inside.size()) << t;
    for (std::size_t i = 0; i < d.size(); ++i) sum[i] += d[i];
  }
  for (std::size_t i = 0; i < sum.size(); ++i)
    EXPECT_NEAR(sum[i], inside[i] ? 1.0 : 0.0, 1e-12) << "cell " << i;
}

TEST_F(TilingsApp, DominoCftpOnAnAztecDiamond) {
  const auto output = path("domino.h5");
  const auto input = write_input("domino.yaml",
                                 "model: domino\nmode: cftp\nseed: 3\n"
                                 "domain: {shape: aztec_diamond, n: 6}\ncftp: {samples: 40}\n");
  ASSERT_EQ(run(input + " -o " + output), 0) << log();
  EXPECT_NE(log().find("vertical_fraction"), std::string::npos) << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.read_string("/provenance/software"), "portamc");
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/provenance/seed"), 3u);
  EXPECT_NE(f.read_string("/config").find("aztec_diamond"), std::string::npos);
  EXPECT_EQ(f.attribute_string("/tilings", "model"), "domino");
  EXPECT_EQ(f.attribute_string("/tilings", "mode"), "cftp");
  EXPECT_EQ(f.attribute_int("/tilings", "samples"), 40);
  EXPECT_EQ(f.shape("/tilings/configuration"), (Shape{12, 12}));
  EXPECT_EQ(f.shape("/tilings/heights"), (Shape{13, 13}));
  EXPECT_FALSE(f.attribute_string("/tilings/configuration", "description").empty());
  EXPECT_EQ(f.attribute_string("/tilings/heights", "units"), "height units");
  const auto faces = f.read<unsigned char>("/tilings/domain/faces");
  ASSERT_EQ(faces.size(), 144u);
  const auto config = f.read<unsigned char>("/tilings/configuration");
  for (std::size_t i = 0; i < faces.size(); ++i) EXPECT_EQ(config[i] < 4, faces[i] != 0) << i;
  expect_densities_sum_to_one(f, {"north", "east", "south", "west"}, faces);
  EXPECT_EQ(f.attribute_int("/tilings/densities", "samples"), 40);
  for (const char* name : {"horizon", "steps", "passes"})
    EXPECT_EQ(f.read<std::uint64_t>(std::string("/tilings/cftp/") + name).size(), 40u) << name;
  for (auto h : f.read<std::uint64_t>("/tilings/cftp/horizon")) EXPECT_GE(h, 16u);
  // The Aztec diamond is symmetric under a quarter turn: vertical and horizontal are equally
  // likely, so the vertical fraction is 1/2 on average.
  const double mean = f.read_scalar<double>("/tilings/summary/vertical_fraction_mean");
  const double error = f.read_scalar<double>("/tilings/summary/vertical_fraction_error");
  EXPECT_GT(error, 0.0);
  EXPECT_NEAR(mean, 0.5, 4 * error + 1e-9);
  EXPECT_EQ(f.read<double>("/tilings/samples/vertical_fraction").size(), 40u);
}

// --backend picks the execution space the engines run on; the default backend's file and the
// Serial backend's hold bitwise the same samples (a forward chain and CFTP samples).
TEST_F(TilingsApp, BackendSerialWritesTheDefaultBackendsSamples) {
  for (const char* mode : {"glauber", "cftp"}) {
    const auto input = write_input(
        std::string(mode) + ".yaml",
        std::string("model: lozenge\nmode: ") + mode +
            "\nseed: 9\ndomain: {shape: hexagon, a: 3, b: 2, c: 4}\n" +
            (std::string(mode) == "glauber"
                 ? "glauber: {thermalisation: 20, samples: 30, sweeps_between_samples: 2}\n"
                 : "cftp: {samples: 20}\n"));
    const auto plain = path(std::string(mode) + "_default.h5");
    const auto serial = path(std::string(mode) + "_serial.h5");
    ASSERT_EQ(run(input + " -q -o " + plain), 0) << log();
    ASSERT_EQ(run(input + " -q --backend serial -o " + serial), 0) << log();
    portamc::h5::InputFile a(plain), b(serial);
    EXPECT_EQ(a.read<unsigned char>("/tilings/configuration"),
              b.read<unsigned char>("/tilings/configuration"))
        << mode;
    EXPECT_EQ(a.read<std::int32_t>("/tilings/heights"), b.read<std::int32_t>("/tilings/heights"))
        << mode;
    EXPECT_EQ(a.read<double>("/tilings/samples/volume"), b.read<double>("/tilings/samples/volume"))
        << mode;
    EXPECT_EQ(a.read<double>("/tilings/densities/orientation_0"),
              b.read<double>("/tilings/densities/orientation_0"))
        << mode;
  }
}

TEST_F(TilingsApp, LozengeCftpMeanVolumeIsHalfTheBox) {
  const auto output = path("lozenge.h5");
  const auto input = write_input("lozenge.yaml",
                                 "model: lozenge\nseed: 5\n"
                                 "domain: {shape: hexagon, a: 3, b: 2, c: 4}\n"
                                 "cftp: {samples: 200}\n");
  ASSERT_EQ(run(input + " -q -o " + output), 0) << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.attribute_string("/tilings", "model"), "lozenge");
  EXPECT_EQ(f.shape("/tilings/configuration"), (Shape{6, 7}));  // (b + c) x (a + c) cells
  EXPECT_EQ(f.shape("/tilings/heights"), (Shape{7, 8}));
  expect_densities_sum_to_one(f, {"orientation_0", "orientation_1", "orientation_2"},
                              f.read<unsigned char>("/tilings/domain/up"));
  // Uniform boxed plane partitions: complementing the stack inside the a x b x c box is a
  // bijection, so the mean volume is abc / 2 = 12.
  const auto volumes = f.read<double>("/tilings/samples/volume");
  ASSERT_EQ(volumes.size(), 200u);
  for (double v : volumes) EXPECT_TRUE(v >= 0 && v <= 24) << v;
  const double mean = f.read_scalar<double>("/tilings/summary/volume_mean");
  const double error = f.read_scalar<double>("/tilings/summary/volume_error");
  EXPECT_NEAR(mean, 12.0, 4 * error);
  EXPECT_LT(error, 1.0);
  // Exact samples are independent: the plain standard error, tau_int = 1/2, N_eff = samples.
  EXPECT_EQ(f.read_scalar<double>("/tilings/summary/volume_tau_int"), 0.5);
  EXPECT_EQ(f.read_scalar<double>("/tilings/summary/volume_n_eff"), 200.0);
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/tilings/summary/volume_discarded"), 0u);
  EXPECT_EQ(f.read_scalar<std::uint64_t>("/tilings/summary/volume_used"), 200u);
  EXPECT_EQ(f.attribute_int("/tilings/summary", "reliable"), 1);
  EXPECT_EQ(f.attribute_string("/tilings/summary", "warning"), "");
  double m = 0, ss = 0;
  for (double v : volumes) m += v / 200;
  for (double v : volumes) ss += (v - m) * (v - m);
  EXPECT_NEAR(error, std::sqrt(ss / 199 / 200), 1e-12);
}

// A Glauber chain's samples are correlated: the summary detects the transient, measures
// tau_int and gives the binned error with N_eff beside it; the app warns when it is not
// reliable.
TEST_F(TilingsApp, GlauberSummaryHasEquilibrationTauIntAndBinnedError) {
  const auto output = path("chain.h5");
  // From the maximal tiling of the 8 x 8 x 8 hexagon (volume 512; 256 on average) with no
  // thermalisation: a transient of some hundred sweeps.
  ASSERT_EQ(run("--set model=lozenge --set mode=glauber --set domain.shape=hexagon "
                "--set domain.a=8 --set domain.b=8 --set domain.c=8 --set glauber.start=maximal "
                "--set glauber.thermalisation=0 --set glauber.sweeps_between_samples=1 "
                "--set glauber.samples=2000 --set seed=4242 -o " +
                output),
            0)
      << log();
  EXPECT_NE(log().find("tau_int"), std::string::npos) << log();
  portamc::h5::InputFile f(output);
  const std::string s = "/tilings/summary/volume_";
  const auto discarded = f.read_scalar<std::uint64_t>(s + "discarded");
  const auto used = f.read_scalar<std::uint64_t>(s + "used");
  EXPECT_GT(discarded, 0u);
  EXPECT_EQ(discarded + used, 2000u);
  const double tau = f.read_scalar<double>(s + "tau_int");
  EXPECT_GT(tau, 1.0);
  EXPECT_NEAR(f.read_scalar<double>(s + "n_eff"), static_cast<double>(used) / (2 * tau), 1e-9);
  EXPECT_GT(f.read_scalar<std::uint64_t>(s + "bin_size"), 1u);
  const double mean = f.read_scalar<double>(s + "mean");
  const double error = f.read_scalar<double>(s + "error");
  EXPECT_NEAR(mean, 256.0, 4 * error);
  // The binned error of the equilibrated samples exceeds their naive standard error.
  const auto volumes = f.read<double>("/tilings/samples/volume");
  ASSERT_EQ(volumes.size(), 2000u);
  double m = 0, ss = 0;
  const double n = static_cast<double>(used);
  for (std::size_t i = discarded; i < volumes.size(); ++i) m += volumes[i] / n;
  for (std::size_t i = discarded; i < volumes.size(); ++i)
    ss += (volumes[i] - m) * (volumes[i] - m);
  EXPECT_NEAR(mean, m, error);  // equal but for a trailing partial bin, which is dropped
  EXPECT_GT(error, 2 * std::sqrt(ss / (n - 1) / n));
  EXPECT_NE(f.attribute_string("/tilings/summary", "error_method").find("binned"),
            std::string::npos);
  // N_eff is well below 100 here: flagged in the file and on stderr.
  EXPECT_EQ(f.attribute_int("/tilings/summary", "reliable"), 0);
  EXPECT_NE(f.attribute_string("/tilings/summary", "warning").find("effective samples"),
            std::string::npos);
  EXPECT_NE(log().find("warning: volume: only"), std::string::npos) << log();
}

// In both class orders (dynamics.class_order), recorded in the file.
TEST_F(TilingsApp, SixVertexCftpWithDomainWallBoundary) {
  for (const std::string order : {"random", "cyclic"}) {
    SCOPED_TRACE(order);
    const auto output = path("six_" + order + ".h5");
    const auto input = write_input("six.yaml",
                                   "model: six_vertex\nseed: 7\n"
                                   "domain: {shape: domain_wall, n: 6}\n"
                                   "weights: {a: 1, b: 1, c: 1.5}\ncftp: {samples: 30}\n"
                                   "dynamics: {class_order: " +
                                       order + "}\n");
    ASSERT_EQ(run(input + " -o " + output), 0) << log();
    portamc::h5::InputFile f(output);
    EXPECT_EQ(f.attribute_string("/tilings", "class_order"), order);
    EXPECT_EQ(f.shape("/tilings/configuration"), (Shape{6, 6}));
    EXPECT_EQ(f.shape("/tilings/heights"), (Shape{7, 7}));
    const auto h = f.read<std::int32_t>("/tilings/heights");
    for (int j = 0; j <= 6; ++j) EXPECT_EQ(h[j], j);  // DWBC: h(0, j) = j
    expect_densities_sum_to_one(f, {"a1", "a2", "b1", "b2", "c1", "c2"},
                                std::vector<unsigned char>(36, 1));
    EXPECT_EQ(f.read<std::int32_t>("/tilings/domain/ring_heights").size(), 24u);
    EXPECT_EQ(f.read<std::uint64_t>("/tilings/cftp/horizon").size(), 30u);
    // Every row of an alternating-sign matrix has at least one c vertex (its +1 entry).
    for (double c : f.read<double>("/tilings/samples/c_fraction")) EXPECT_GE(c, 6.0 / 36);
  }
}

TEST_F(TilingsApp, GlauberModesOfEveryModel) {
  const std::vector<std::string> cases = {
      "--set model=domino --set domain.shape=rectangle --set domain.rows=6 --set domain.cols=8 "
      "--set dynamics.rule=metropolis --set weights.kind=vertical_horizontal "
      "--set weights.vertical=2",
      "--set model=lozenge --set domain.shape=hexagon --set weights.q=0.9 --set "
      "glauber.start=minimal",
      "--set model=six_vertex --set domain.shape=domain_wall --set domain.n=5 "
      "--set weights.a=2 --set weights.c=1",  // c < a: no CFTP, but Glauber runs
      "--set model=bibone --set domain.shape=hexagon --set domain.a=4 --set domain.b=3 "
      "--set domain.c=3",
      "--set model=rect_triangle --set domain.shape=hexagon --set domain.a=2 --set domain.b=2 "
      "--set domain.c=2",
  };
  for (const auto& args : cases) {
    for (const std::string order : {"random", "cyclic"}) {
      const auto output = path("glauber.h5");
      ASSERT_EQ(run("--set mode=glauber --set glauber.samples=5 --set glauber.thermalisation=20 " +
                    args + " --set dynamics.class_order=" + order + " -q -o " + output),
                0)
          << args << "\n"
          << log();
      portamc::h5::InputFile f(output);
      EXPECT_EQ(f.attribute_string("/tilings", "mode"), "glauber");
      EXPECT_EQ(f.attribute_string("/tilings", "class_order"), order);
      EXPECT_GT(f.read_scalar<std::uint64_t>("/tilings/glauber/steps"), 0u) << args;
      EXPECT_FALSE(f.exists("/tilings/cftp")) << args;
      fs::remove(output);
    }
  }
}

TEST_F(TilingsApp, DominoTiledStepsInBothModes) {
  for (const std::string mode : {"cftp", "glauber"}) {
    const auto output = path("tiled.h5");
    ASSERT_EQ(run("--set mode=" + mode +
                  " --set domain.n=8 --set cftp.samples=3 --set glauber.samples=3 "
                  "--set glauber.thermalisation=5 --set dynamics.tile_rows=8 "
                  "--set dynamics.tile_cols=4 --set dynamics.substeps=8 -q -o " +
                  output),
              0)
        << mode << "\n"
        << log();
    portamc::h5::InputFile f(output);
    EXPECT_EQ(f.attribute_int("/tilings", "tile_rows"), 8) << mode;
    EXPECT_EQ(f.attribute_int("/tilings", "tile_cols"), 4) << mode;
    EXPECT_EQ(f.attribute_int("/tilings", "substeps"), 8) << mode;
    const auto faces = f.read<unsigned char>("/tilings/domain/faces");
    const auto config = f.read<unsigned char>("/tilings/configuration");
    ASSERT_EQ(config.size(), faces.size());
    for (std::size_t i = 0; i < faces.size(); ++i) EXPECT_EQ(config[i] < 4, faces[i] != 0) << i;
    expect_densities_sum_to_one(f, {"north", "east", "south", "west"}, faces);
    EXPECT_EQ(f.read<double>("/tilings/samples/vertical_fraction").size(), 3u);
    if (mode == "glauber") {  // whole launches of 8 steps
      EXPECT_EQ(f.read_scalar<std::uint64_t>("/tilings/glauber/steps") % 8, 0u);
    }
    fs::remove(output);
  }
  // Bit-sliced tiles (uniform weights): a different exact chain, recorded as bit_sliced = 1;
  // here in cyclic class order, as the large Aztec input runs it.
  {
    const auto output = path("bits.h5");
    ASSERT_EQ(run("--set domain.n=8 --set cftp.samples=3 --set dynamics.tile_rows=8 "
                  "--set dynamics.tile_cols=64 --set dynamics.substeps=16 "
                  "--set dynamics.bit_sliced=true --set dynamics.class_order=cyclic -q -o " +
                  output),
              0)
        << log();
    portamc::h5::InputFile f(output);
    EXPECT_EQ(f.attribute_int("/tilings", "bit_sliced"), 1);
    EXPECT_EQ(f.attribute_string("/tilings", "class_order"), "cyclic");
    EXPECT_EQ(f.attribute_int("/tilings", "tile_cols"), 64);
    const auto faces = f.read<unsigned char>("/tilings/domain/faces");
    expect_densities_sum_to_one(f, {"north", "east", "south", "west"}, faces);
    fs::remove(output);
  }
  // Untiled runs record tile_rows = 0, and the default class order.
  const auto output = path("untiled.h5");
  ASSERT_EQ(run("--set domain.n=4 -q -o " + output), 0) << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.attribute_int("/tilings", "tile_rows"), 0);
  EXPECT_EQ(f.attribute_string("/tilings", "class_order"), "random");
}

TEST_F(TilingsApp, DominoShufflingOfAnAztecDiamond) {
  for (const std::string weights : {"{kind: uniform}", "{kind: two_periodic, a: 1, b: 0.5}",
                                    "{kind: vertical_horizontal, vertical: 2, horizontal: 1}"}) {
    const auto output = path("shuffling.h5");
    const auto input = write_input("shuffling.yaml",
                                   "model: domino\nmode: shuffling\nseed: 4\n"
                                   "domain: {shape: aztec_diamond, n: 10}\nweights: " +
                                       weights + "\nshuffling: {samples: 30}\n");
    ASSERT_EQ(run(input + " -q -o " + output), 0) << weights << "\n" << log();
    portamc::h5::InputFile f(output);
    EXPECT_EQ(f.attribute_string("/tilings", "mode"), "shuffling");
    EXPECT_EQ(f.attribute_int("/tilings", "samples"), 30);
    EXPECT_EQ(f.shape("/tilings/configuration"), (Shape{20, 20}));
    EXPECT_EQ(f.shape("/tilings/heights"), (Shape{21, 21}));
    const auto faces = f.read<unsigned char>("/tilings/domain/faces");
    const auto config = f.read<unsigned char>("/tilings/configuration");
    ASSERT_EQ(config.size(), faces.size());
    for (std::size_t i = 0; i < faces.size(); ++i) EXPECT_EQ(config[i] < 4, faces[i] != 0) << i;
    expect_densities_sum_to_one(f, {"north", "east", "south", "west"}, faces);
    EXPECT_EQ(f.attribute_int("/tilings/densities", "samples"), 30);
    EXPECT_EQ(f.read<double>("/tilings/samples/vertical_fraction").size(), 30u);
    EXPECT_FALSE(f.exists("/tilings/cftp"));
    EXPECT_FALSE(f.exists("/tilings/glauber"));
    if (weights == "{kind: uniform}") {  // quarter-turn symmetry, as for CFTP
      const double mean = f.read_scalar<double>("/tilings/summary/vertical_fraction_mean");
      const double error = f.read_scalar<double>("/tilings/summary/vertical_fraction_error");
      EXPECT_NEAR(mean, 0.5, 4 * error + 1e-9);
    }
    fs::remove(output);
  }
}

TEST_F(TilingsApp, BiboneGlauberOnEveryShape) {
  // Top row (y = 1) first: sites (0..1, 1) and (0..3, 0).
  const auto mask = write_input("bibone.mask", "##..\n####\n");
  struct Case {
    std::string args;
    Shape box;
  };
  const std::vector<Case> cases = {
      {"--set domain.shape=hexagon --set domain.a=4 --set domain.b=3 --set domain.c=3", {5, 6}},
      {"--set domain.shape=parallelogram --set domain.rows=3 --set domain.cols=4", {3, 4}},
      {"--set domain.shape=file --set domain.file=" + mask, {2, 4}},
  };
  for (const auto& c : cases) {
    const auto output = path("bibone.h5");
    ASSERT_EQ(run("--set model=bibone --set mode=glauber --set glauber.samples=20 "
                  "--set glauber.thermalisation=50 --set glauber.sweeps_between_samples=2 " +
                  c.args + " -q -o " + output),
              0)
        << c.args << "\n"
        << log();
    portamc::h5::InputFile f(output);
    EXPECT_EQ(f.attribute_string("/tilings", "model"), "bibone");
    EXPECT_EQ(f.shape("/tilings/configuration"), c.box) << c.args;
    EXPECT_FALSE(f.exists("/tilings/heights")) << c.args;
    EXPECT_FALSE(f.exists("/tilings/cftp")) << c.args;
    EXPECT_GT(f.read_scalar<std::uint64_t>("/tilings/glauber/steps"), 0u) << c.args;
    const auto sites = f.read<unsigned char>("/tilings/domain/sites");
    const auto config = f.read<unsigned char>("/tilings/configuration");
    ASSERT_EQ(config.size(), sites.size());
    for (std::size_t i = 0; i < sites.size(); ++i) EXPECT_EQ(config[i] < 6, sites[i] != 0) << i;
    expect_densities_sum_to_one(f, {"orientation_0", "orientation_1", "orientation_2"}, sites);
    const std::string colouring = f.attribute_string("/tilings", "colouring");
    EXPECT_TRUE(colouring == "kokkos_kernels" || colouring == "periodic") << colouring;
    EXPECT_GT(f.attribute_int("/tilings", "move_pairs"), 0) << c.args;
    const auto fractions = f.read<double>("/tilings/samples/orientation_0_fraction");
    ASSERT_EQ(fractions.size(), 20u);
    for (double v : fractions) EXPECT_TRUE(v >= 0 && v <= 1) << v;
    fs::remove(output);
  }
  // Fixed periodic classes: 50 (family, class) pairs whatever the domain.
  const auto output = path("bibone-periodic.h5");
  ASSERT_EQ(run("--set model=bibone --set mode=glauber --set glauber.samples=2 "
                "--set dynamics.colouring=periodic " +
                cases[0].args + " -q -o " + output),
            0)
      << log();
  portamc::h5::InputFile f(output);
  EXPECT_EQ(f.attribute_string("/tilings", "colouring"), "periodic");
  EXPECT_EQ(f.attribute_int("/tilings", "move_pairs"), 50);
}

TEST_F(TilingsApp, RectTriangleGlauberOnAHexagonAndAMask) {
  const auto hexagon = write_input("hexagon.mask", "###.\n.###\n");  // the 1 x 1 x 1 hexagon
  struct Case {
    std::string args;
  };
  const std::vector<Case> cases = {
      {"--set domain.shape=file --set domain.file=" + hexagon},
      {"--set domain.shape=hexagon --set domain.a=3 --set domain.b=2 --set domain.c=3 "
       "--set weights.t=1 --set weights.c=2 --set weights.r=0.5"},
      {"--set domain.shape=hexagon --set domain.a=2 --set domain.b=2 --set domain.c=2"},
  };
  for (const auto& c : cases) {
    const auto output = path("rt.h5");
    ASSERT_EQ(run("--set model=rect_triangle --set mode=glauber --set glauber.samples=20 "
                  "--set glauber.thermalisation=50 " +
                  c.args + " -q -o " + output),
              0)
        << c.args << "\n"
        << log();
    portamc::h5::InputFile f(output);
    EXPECT_EQ(f.attribute_string("/tilings", "model"), "rect_triangle");
    EXPECT_FALSE(f.exists("/tilings/cftp")) << c.args;
    EXPECT_GT(f.read_scalar<std::uint64_t>("/tilings/glauber/steps"), 0u) << c.args;
    const auto up = f.read<unsigned char>("/tilings/domain/up");
    const auto down = f.read<unsigned char>("/tilings/domain/down");
    const auto box = f.shape("/tilings/domain/up");
    EXPECT_EQ(f.shape("/tilings/configuration"), (Shape{box[0], 2 * box[1]})) << c.args;
    // Half-cube heights at the box's vertices: h = x - y (mod 3) where defined; rectangle
    // centres and outside vertices hold the fill value (rect_triangle_heights.hpp).
    ASSERT_EQ(f.shape("/tilings/heights"), (Shape{box[0] + 1, box[1] + 1})) << c.args;
    EXPECT_NE(f.attribute_string("/tilings/heights", "description").find("half-cube"),
              std::string::npos);
    const auto heights = f.read<std::int32_t>("/tilings/heights");
    std::size_t defined = 0;
    for (std::size_t v = 0; v < heights.size(); ++v) {
      if (heights[v] == std::numeric_limits<std::int32_t>::min()) continue;
      const auto x = static_cast<std::int64_t>(v % (box[1] + 1)),
                 y = static_cast<std::int64_t>(v / (box[1] + 1));
      EXPECT_EQ(((heights[v] - x + y) % 3 + 3) % 3, 0) << c.args << " vertex " << v;
      ++defined;
    }
    // At least the six boundary vertices of the smallest hexagon.
    EXPECT_GE(defined, 6u) << c.args;
    std::vector<unsigned char> inside;  // faces in the configuration's order: U, D per cell
    for (std::size_t i = 0; i < up.size(); ++i) {
      inside.push_back(up[i]);
      inside.push_back(down[i]);
    }
    const auto config = f.read<unsigned char>("/tilings/configuration");
    ASSERT_EQ(config.size(), inside.size());
    for (std::size_t i = 0; i < inside.size(); ++i) EXPECT_EQ(config[i] != 0, inside[i] != 0) << i;
    expect_densities_sum_to_one(f, {"a_triangles", "b_mixed", "c_rectangles"}, inside);
    const auto fractions = f.read<double>("/tilings/samples/rectangle_face_fraction");
    ASSERT_EQ(fractions.size(), 20u);
    for (double v : fractions) EXPECT_TRUE(v >= 0 && v <= 1) << v;
    EXPECT_NE(f.attribute_string("/tilings", "weights").find("tcr"), std::string::npos);
    fs::remove(output);
  }
}

TEST_F(TilingsApp, ShippedInputsAreValid) {
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(PORTAMC_SOURCE_DIR) / "input")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("tilings", 0) != 0 || entry.path().extension() != ".yaml") continue;
    EXPECT_EQ(run(entry.path().string() + " --dry-run"), 0) << name << "\n" << log();
    ++checked;
  }
  EXPECT_GE(checked, 7);
}

TEST_F(TilingsApp, BadInputIsRejectedBeforeAnyWorkNamingTheProblem) {
  const auto output = path("never.h5");
  const auto holey = write_input("holey.mask", "###\n#.#\n###\n");
  // Balanced colours, yet no tiling: Thurston's algorithm says where the heights conflict.
  const auto untileable = write_input("balanced.mask", "..#.\n####\n.#..\n");
  const auto ragged = write_input("ragged.mask", "####\n##\n");
  const auto badchar = write_input("badchar.mask", "##\n#x\n");
  const auto boundary = write_input("bad.boundary", "0 1 2\n1 . x\n2 3 4\n");
  const auto lozenge = write_input("lozenge.mask", "##\n");  // one lozenge: no interior vertex
  struct Case {
    std::string args, text;
  };
  const std::vector<Case> cases = {
      {"--set modle=domino", "unknown key modle"},
      {"--set model=dimer", "model"},
      {"--set domain.n=0", "domain.n"},
      {"--set domain.n=2.5", "domain.n"},
      {"--set model=lozenge", "'aztec_diamond' is not a domain of the lozenge model"},
      {"--set domain.shape=file", "needs a file name"},
      {"--set domain.file=x.mask", "only used with domain.shape: file"},
      {"--set domain.shape=aztec_rectangle --set domain.a=3 --set domain.b=4", "no domino tiling"},
      {"--set domain.shape=rectangle --set domain.rows=3 --set domain.cols=5", "no domino tiling"},
      {"--set domain.shape=file --set domain.file=" + path("missing.mask"), "cannot read"},
      {"--set domain.shape=file --set domain.file=" + holey, "domain.file"},
      {"--set domain.shape=file --set domain.file=" + untileable, "no domino tiling"},
      {"--set domain.shape=file --set domain.file=" + ragged, "domain.file"},
      {"--set domain.shape=file --set domain.file=" + badchar, "domain.file"},
      {"--set model=six_vertex --set domain.shape=file --set domain.file=" + boundary,
       "domain.file"},
      {"--set weights.kind=vertical_horizontal --set weights.vertical=0", "weights.vertical"},
      {"--set weights.kind=two_periodic --set weights.b=-1", "weights.b"},
      {"--set model=lozenge --set domain.shape=hexagon --set weights.q=0", "weight > 0"},
      {"--set model=lozenge --set domain.shape=hexagon --set weights.kind=two_periodic",
       "weights.kind"},
      {"--set dynamics.rule=metropolis", "monotone"},
      {"--set model=six_vertex --set domain.shape=domain_wall --set weights.a=2", "c >= max(a, b)"},
      {"--set model=six_vertex --set domain.shape=domain_wall --set mode=glauber "
       "--set dynamics.rule=metropolis",
       "heat bath only"},
      {"--set cftp.initial_horizon=64 --set cftp.max_horizon=32", "max_horizon"},
      {"--set domain.n=65536", "domain"},  // (2n)^2 cells: beyond the 32-bit kernels
      {"--set seed=-1", "seed"},
      {"--set model=bibone --set domain.shape=hexagon --set mode=cftp",
       "no height function and no monotone coupling"},
      {"--set model=bibone --set domain.shape=hexagon --set mode=shuffling", "mode: glauber only"},
      {"--set model=bibone --set mode=glauber", "not a domain of the bibone model"},
      {"--set model=bibone --set mode=glauber --set domain.shape=hexagon "
       "--set weights.kind=two_periodic",
       "uniformly only"},
      {"--set model=bibone --set mode=glauber --set domain.shape=hexagon",
       "no bibone tiling"},  // 4 4 4: 37 sites, an odd number
      {"--set model=bibone --set mode=glauber --set domain.shape=hexagon --set domain.c=3 "
       "--set dynamics.rule=metropolis",
       "one rule"},
      {"--set model=rect_triangle --set domain.shape=hexagon",
       "rectangle-triangle tilings are sampled by mode: glauber only"},
      {"--set model=rect_triangle --set mode=glauber", "not a domain of the rect_triangle model"},
      {"--set model=rect_triangle --set mode=glauber --set domain.shape=hexagon "
       "--set weights.r=0",
       "weights.r"},
      {"--set model=rect_triangle --set mode=glauber --set domain.shape=hexagon "
       "--set weights.kind=vertical_horizontal",
       "weights.t/c/r"},
      {"--set model=rect_triangle --set mode=glauber --set domain.shape=hexagon "
       "--set dynamics.rule=metropolis",
       "heat bath only"},
      {"--set model=rect_triangle --set mode=glauber --set domain.shape=file --set domain.file=" +
           lozenge,
       "no interior vertex"},
      {"--set model=bibone --set mode=glauber --set domain.shape=file --set domain.file=" + badchar,
       "domain.file"},
      {"--set mode=shuffling --set domain.shape=rectangle", "shuffling samples Aztec diamonds"},
      {"--set mode=shuffling --set model=lozenge --set domain.shape=hexagon",
       "shuffling samples domino tilings only"},
      {"--set mode=shuffling --set dynamics.tile_rows=8 --set dynamics.tile_cols=8",
       "domino shuffling runs no Glauber steps"},
      {"--set mode=shuffling --set shuffling.samples=0", "shuffling.samples"},
      {"--set dynamics.tile_rows=6 --set dynamics.tile_cols=8", "dynamics.tile_rows"},
      {"--set dynamics.tile_rows=2 --set dynamics.tile_cols=8", "power of two"},
      {"--set dynamics.tile_rows=2048 --set dynamics.tile_cols=8", "dynamics.tile_rows"},
      {"--set dynamics.tile_rows=8", "both 0 (off) or both set"},
      {"--set dynamics.tile_rows=8 --set dynamics.tile_cols=8 --set dynamics.substeps=65",
       "dynamics.substeps"},
      {"--set model=lozenge --set domain.shape=hexagon --set dynamics.tile_rows=8 "
       "--set dynamics.tile_cols=8",
       "tiled steps are implemented for domino tilings only"},
      {"--set dynamics.bit_sliced=true", "at least 64 columns"},
      {"--set dynamics.bit_sliced=true --set dynamics.tile_rows=8 --set dynamics.tile_cols=32",
       "at least 64 columns"},
      {"--set dynamics.bit_sliced=true --set dynamics.tile_rows=8 --set dynamics.tile_cols=64 "
       "--set weights.kind=two_periodic",
       "one fair coin per vertex"},
      {"--set dynamics.class_order=sequential", "dynamics.class_order"},
      {"--resume " + path("x.ckpt"), "cannot resume from"},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(run(c.args + " -o " + output), 2) << c.args << "\n" << log();
    EXPECT_NE(log().find(c.text), std::string::npos) << c.args << "\n" << log();
    EXPECT_FALSE(fs::exists(output)) << c.args;
  }
  EXPECT_EQ(run("-o " + path("no/such/dir/x.h5")), 2);
  EXPECT_NE(log().find("cannot write output file"), std::string::npos) << log();
  const auto broken = write_input("broken.yaml", "model: domino\ndomain:\n  n: -3\n");
  EXPECT_EQ(run(broken + " -o " + output), 2);
  EXPECT_NE(log().find("broken.yaml:3:6: domain.n"), std::string::npos) << log();
  // Nothing was left behind, not even a temporary file.
  for (const auto& entry : fs::directory_iterator(dir_))
    EXPECT_EQ(entry.path().string().find("never.h5"), std::string::npos) << entry.path();
}

TEST_F(TilingsApp, DryRunHelpAndVersion) {
  const auto output = path("dry.h5");
  ASSERT_EQ(run("--dry-run --set model=lozenge --set domain.shape=hexagon -o " + output), 0)
      << log();
  EXPECT_NE(log().find("model: lozenge"), std::string::npos) << log();
  EXPECT_FALSE(fs::exists(output));
  EXPECT_EQ(run("--help"), 0);
  EXPECT_NE(log().find("domain.shape"), std::string::npos);
  EXPECT_NE(log().find("cftp.initial_horizon"), std::string::npos);
  EXPECT_EQ(run("--version"), 0);
  EXPECT_NE(log().find("Kokkos"), std::string::npos);
}

}  // namespace
