// The CVF chains are bitwise the same on every backend of the build: the same Metropolis chain
// (both kernels, with the volume move and the eta update) and the same Swendsen-Wang sweeps (both
// labelling schemes) run on each enabled execution space (portamc::for_each_space) and are
// compared with Serial's (the first space: host spaces come first), bit for bit; and a Run
// chosen by backend name gives the same records on each. This file is compiled once; the
// kernels' own tests run on each backend separately.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/cvf/detail/swendsen_wang.hpp"
#include "portamc/cvf/run.hpp"
#include "portamc/cvf/simulation.hpp"
#include "test_cvf_support.hpp"

namespace cvf = portamc::cvf;

namespace {

using portamc::cvf::testing::to_device;

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

struct MetropolisResult {
  cvf::Checkpoint checkpoint;
  std::int64_t n_sigma = 0, n_hb_raw = 0;
};

template <class Space>
MetropolisResult metropolis_chain(const Space& space, cvf::MetropolisKernel kernel) {
  cvf::ModelParameters m;
  cvf::SimulationSettings settings;
  settings.L = 8;
  settings.seed = 99;
  settings.volume.delta = 0.02;
  settings.metropolis_kernel = kernel;
  const cvf::ReducedStatePoint point{0.6, 0.05};
  cvf::Simulation<Space> sim(space, m, point, settings);
  for (int s = 0; s < 20; ++s) sim.step();
  const cvf::Measurement measured = sim.measure();
  return {sim.checkpoint(), measured.n_sigma, measured.n_hb_raw};
}

std::vector<std::uint8_t> random_bytes(std::size_t n, int states, std::uint32_t seed) {
  std::mt19937 engine(seed);
  std::vector<std::uint8_t> out(n);
  for (auto& v : out) v = static_cast<std::uint8_t>(engine() % states);
  return out;
}

template <class Space>
std::vector<std::uint8_t> sweeps(const Space& space, const cvf::Geometry& g, cvf::Labelling scheme,
                                 int count) {
  cvf::SwendsenWang<Space> sw(space, g, scheme);
  auto sigma = to_device<Space>(random_bytes(g.variables(), cvf::arms, 21));
  auto cubes = to_device<Space>(random_bytes(g.cubes(), cvf::cube_states, 22));
  const auto th = cvf::bond_thresholds(1.3, 0.45, 0.9);
  for (int i = 0; i < count; ++i) sw.sweep(sigma, cubes, th, 555, 1000 + i);
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sigma);
  return std::vector<std::uint8_t>(h.data(), h.data() + h.extent(0));
}

}  // namespace

TEST(CvfBackends, MetropolisChainsAgreeBitForBit) {
  for (const auto kernel : {cvf::MetropolisKernel::per_cell, cvf::MetropolisKernel::packed}) {
    std::optional<MetropolisResult> first;
    std::string first_name;
    portamc::for_each_space([&](auto space) {
      const std::string name = portamc::backend_name<decltype(space)>();
      const MetropolisResult r = metropolis_chain(space, kernel);
      if (!first) {
        first = r;
        first_name = name;
        return;
      }
      const std::string what =
          std::string(cvf::to_string(kernel)) + ": " + name + " vs " + first_name;
      const cvf::Checkpoint &a = first->checkpoint, &b = r.checkpoint;
      EXPECT_EQ(a.sigma, b.sigma) << what;
      EXPECT_EQ(a.cube_state, b.cube_state) << what;
      EXPECT_TRUE(same_bits(a.v_iso, b.v_iso)) << what << ": " << a.v_iso << " " << b.v_iso;
      EXPECT_EQ(a.step, b.step) << what;
      EXPECT_EQ(first->n_sigma, r.n_sigma) << what;
      EXPECT_EQ(first->n_hb_raw, r.n_hb_raw) << what;
    });
    ASSERT_TRUE(first.has_value());
    // Every space ran the 20 steps.
    EXPECT_EQ(first->checkpoint.step, 20u);
  }
}

TEST(CvfBackends, SwendsenWangSweepsAgreeBitForBit) {
  const cvf::Geometry g(8);
  std::optional<std::vector<std::uint8_t>> first;
  std::string first_name;
  portamc::for_each_space([&](auto space) {
    const std::string name = portamc::backend_name<decltype(space)>();
    for (const auto scheme : {cvf::Labelling::union_find, cvf::Labelling::label_equivalence}) {
      const std::vector<std::uint8_t> s = sweeps(space, g, scheme, 6);
      if (!first) {
        first = s;
        first_name = name + " " + cvf::to_string(scheme);
        EXPECT_NE(s, random_bytes(g.variables(), cvf::arms, 21)) << "the sweeps changed nothing";
        continue;
      }
      EXPECT_EQ(s, *first) << name << " " << cvf::to_string(scheme) << " vs " << first_name;
    }
  });
  ASSERT_TRUE(first.has_value());
}

// cvf::Run by backend name (what portamc-cvf --backend does): the records and the final
// configuration of every backend equal the first's bit for bit, Run(p) runs on the default
// backend, and a backend the build lacks is refused.
TEST(CvfBackends, RunsByBackendNameAgreeBitForBit) {
  for (const auto algorithm :
       {cvf::SigmaAlgorithm::metropolis, cvf::SigmaAlgorithm::swendsen_wang}) {
    cvf::RunParameters p;
    p.L = 4;
    p.temperatures = {260.0, 300.0};
    p.pressures = {0.1};
    p.algorithm = algorithm;
    p.seed = 5;
    p.thermalisation = 5;
    p.measurements = 4;
    p.autocorrelation_lags = 1;
    std::optional<std::vector<cvf::PointRecord>> first;
    std::optional<cvf::FinalConfiguration> first_configuration;
    for (const std::string& backend : portamc::enabled_backends()) {
      const std::string what = std::string(cvf::to_string(algorithm)) + " on " + backend;
      cvf::Run run(backend, p);
      EXPECT_EQ(run.backend(), backend);
      while (!run.done()) run.advance();
      const cvf::FinalConfiguration c = run.configuration();
      if (!first) {
        first = run.points();
        first_configuration = c;
        continue;
      }
      ASSERT_EQ(run.points().size(), first->size()) << what;
      for (std::size_t k = 0; k < first->size(); ++k) {
        const cvf::PointRecord &a = (*first)[k], &b = run.points()[k];
        EXPECT_EQ(a.step, b.step) << what;
        ASSERT_EQ(a.enthalpy.size(), b.enthalpy.size()) << what;
        for (std::size_t i = 0; i < a.enthalpy.size(); ++i) {
          EXPECT_TRUE(same_bits(a.hydrogen_bonds[i], b.hydrogen_bonds[i])) << what;
          EXPECT_TRUE(same_bits(a.cooperative[i], b.cooperative[i])) << what;
          EXPECT_TRUE(same_bits(a.volume[i], b.volume[i])) << what;
          EXPECT_TRUE(same_bits(a.enthalpy[i], b.enthalpy[i])) << what;
          EXPECT_TRUE(same_bits(a.order[i], b.order[i])) << what;
        }
        EXPECT_EQ(a.volume_accepted, b.volume_accepted) << what;
      }
      EXPECT_EQ(c.sigma, first_configuration->sigma) << what;
      EXPECT_EQ(c.cube_state, first_configuration->cube_state) << what;
      EXPECT_TRUE(same_bits(c.v_iso, first_configuration->v_iso)) << what;
    }
    ASSERT_TRUE(first.has_value());
  }
  cvf::RunParameters p;
  p.L = 4;
  EXPECT_EQ(cvf::Run(p).backend(), portamc::default_backend());
  try {
    cvf::Run run("no_such_backend", p);
    FAIL() << "an unknown backend was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_backend"), std::string::npos) << e.what();
  }
}
