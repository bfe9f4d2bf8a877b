// The tilings engines give bit for bit the same results on every backend of the build: each
// engine runs on every enabled execution space (portamc::for_each_space) and its result is
// compared with the first backend's, Serial's where the build has it. This file is compiled once,
// not once per backend. Covered: domino and lozenge Glauber chains and a domino exact sample
// (GlauberSampler), the six-vertex Glauber chains and coupling from the past. (The bibone,
// rectangle-triangle and shuffling engines are checked bit for bit against host re-implementations
// on each backend in their own files; the Kokkos Kernels colouring in test_move_colouring.cpp.)
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/domino/thurston.hpp"
#include "portamc/tilings/engine/detail/six_vertex_cftp.hpp"
#include "portamc/tilings/engine/detail/six_vertex_glauber.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"

namespace {

using namespace portamc::tilings;

// run(space) on every backend; each result is expected equal (operator==) to the first
// backend's, which is returned. `what` names the result in failure messages.
template <class Result, class Run>
Result same_on_every_backend(const Run& run, const std::string& what) {
  std::optional<Result> first;
  std::string first_backend;
  portamc::for_each_space([&](auto space) {
    const std::string backend = portamc::backend_name<decltype(space)>();
    Result result = run(space);
    if (!first) {
      first = std::move(result);
      first_backend = backend;
    } else {
      EXPECT_TRUE(result == *first) << what << ": " << backend << " differs from " << first_backend;
    }
  });
  return *first;
}

TEST(TilingsBackends, GlauberStatesAreBitwiseIdenticalOnEveryBackend) {
  const SquareDomain aztec = SquareDomain::aztec_diamond(48);  // > 1024 vertices per class
  const DominoTiling domino = same_on_every_backend<DominoTiling>(
      [&](auto space) {
        DominoGlauber<decltype(space)> chain(space, aztec, DominoWeights::two_periodic(1, 0.5), 9);
        chain.run_sweeps(300);
        return chain.tiling();
      },
      "domino Glauber tiling");
  EXPECT_NE(domino, maximal_domino_tiling(aztec));

  const TriangularDomain hex = TriangularDomain::hexagon(40, 30, 35);
  same_on_every_backend<LozengeTiling>(
      [&](auto space) {
        LozengeGlauber<decltype(space)> chain(space, hex, LozengeWeights{0.9}, 3);
        chain.run_sweeps(300);
        return chain.tiling();
      },
      "lozenge Glauber tiling");

  // Exact samples too (same CFTP seed: same horizon, same sample).
  const SquareDomain small = SquareDomain::aztec_diamond(6);
  struct Exact {
    DominoTiling tiling;
    std::uint64_t horizon = 0;
    bool operator==(const Exact& o) const { return tiling == o.tiling && horizon == o.horizon; }
  };
  same_on_every_backend<Exact>(
      [&](auto space) {
        DominoGlauber<decltype(space)> sampler(space, small, DominoWeights::uniform(), 1);
        const auto s = sampler.exact_sample(42);
        return Exact{s.tiling, s.horizon};
      },
      "domino exact sample and horizon");
}

TEST(TilingsBackends, SixVertexGlauberStatesAreBitwiseIdenticalOnEveryBackend) {
  const SixVertexBoundary b = SixVertexBoundary::domain_wall(12);
  const SixVertexWeights w{1.3, 0.6, 0.9};
  const auto states = same_on_every_backend<std::vector<SixVertexHeights>>(
      [&](auto space) {
        SixVertexGlauber<decltype(space)> glauber(space, b, w, 2024, 4);
        glauber.run_sweeps(50);
        return glauber.states();
      },
      "six-vertex Glauber states");
  ASSERT_EQ(states.size(), 4u);
  EXPECT_NE(states[0], maximal_six_vertex_heights(b));  // it moved
  EXPECT_NE(states[0], states[1]);                      // chains draw their own randomness
}

TEST(TilingsBackends, SixVertexCftpSamplesAreTheSameOnEveryBackend) {
  const SixVertexBoundary b = SixVertexBoundary::from_steps(5, 7, "++-+-++ +---+ --+-+-- -++-+", 3);
  const SixVertexWeights w{0.9, 1.2, 1.4};
  same_on_every_backend<std::vector<SixVertexHeights>>(
      [&](auto space) { return six_vertex_cftp(space, b, w, 77, 16).samples; },
      "six-vertex CFTP samples");
  same_on_every_backend<std::vector<std::uint64_t>>(
      [&](auto space) { return six_vertex_cftp(space, b, w, 77, 16).coalescence_horizons; },
      "six-vertex CFTP coalescence horizons");
}

}  // namespace
