// The exact outputs of every one-rank tilings engine, pinned: each case runs an engine for a
// fixed number of steps (or to an exact sample) from fixed seeds on a small domain and compares
// a hash of the final state, with the engine's counters, to the values recorded here. Engines:
// GlauberSampler for dominoes (byte kernel, tiled and bit-sliced launches, tile-type counts) and
// lozenges, both rules and class orders; BiboneGlauber; RectTriangleGlauber; SixVertexGlauber
// with 2 and 4 classes; coupling from the past of GlauberSampler (whole and in pieces of a few
// slots, which must give the same values) and of SixVertexCftp (likewise); AztecShuffler. The
// other tilings tests compare backends with each other, ranks with one rank, or engines with
// host references of the same keying; this one catches any change of the results at all: of a
// chain's random-number keying, its class order, its update order or rule, a kernel's decisions,
// the CFTP horizons and passes, the shuffling's creation draws. (The slab engines are checked
// against these one-rank engines by their own tests.)
//
// The tilings engines are bitwise identical on every backend (test_tilings_backends.cpp), so
// one set of values serves every copy of this file (TestSpace). The bibone and
// rectangle-triangle chains use the periodic move colouring, which every build has (the Kokkos
// Kernels colouring depends on the build). Values recorded on Serial from commit a3b41ee, before
// the merge of the engines of issue #25, which promises to keep them. A deliberate change of the
// results updates them (the failure message prints the computed values as an initializer to
// paste), and says so in the commit.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "portamc/tilings/domino/detail/aztec_shuffling.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/engine/detail/bibone_glauber.hpp"
#include "portamc/tilings/engine/detail/move_colouring.hpp"
#include "portamc/tilings/engine/detail/rect_triangle_glauber.hpp"
#include "portamc/tilings/engine/detail/six_vertex_cftp.hpp"
#include "portamc/tilings/engine/detail/six_vertex_glauber.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::tilings;
using Space = TestSpace;
/// What a case pins: hashes and counters, in the order its runner returns them.
using Pinned = std::vector<std::uint64_t>;

/// FNV-1a over the bytes, finished with splitmix64's finaliser.
class Hash {
 public:
  void add(std::uint64_t word) {
    for (int i = 0; i < 8; ++i) byte(static_cast<std::uint8_t>(word >> (8 * i)));
  }
  void add_bytes(const std::vector<std::uint8_t>& bytes) {
    add(bytes.size());
    for (const std::uint8_t b : bytes) byte(b);
  }
  template <class Int>
  void add_values(const std::vector<Int>& values) {
    add(values.size());
    for (const Int v : values) add(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
  }
  std::uint64_t value() const {
    std::uint64_t x = h_;
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
  }

 private:
  void byte(std::uint8_t b) {
    h_ ^= b;
    h_ *= 0x100000001B3ull;
  }
  std::uint64_t h_ = 0xCBF29CE484222325ull;
};

std::uint64_t hash_of_bytes(const std::vector<std::uint8_t>& bytes) {
  Hash h;
  h.add_bytes(bytes);
  return h.value();
}

std::uint64_t hash_of_heights(const SixVertexHeights& heights) {
  Hash h;
  h.add(static_cast<std::uint64_t>(heights.rows()));
  h.add(static_cast<std::uint64_t>(heights.cols()));
  h.add_values(heights.values());
  return h.value();
}

/// The values as a C++ initializer: hashes in hex, counters in decimal.
std::string initializer(const Pinned& values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) {
    char text[32];
    if (values[i] < 1000000)
      std::snprintf(text, sizeof text, "%" PRIu64, values[i]);
    else
      std::snprintf(text, sizeof text, "0x%016" PRIX64 "ull", values[i]);
    out += (i ? ", " : "") + std::string(text);
  }
  return out + "}";
}

void expect_pinned(const std::string& what, const Pinned& computed, const Pinned& recorded) {
  EXPECT_TRUE(computed == recorded) << what << ":\n  computed " << initializer(computed)
                                    << "\n  recorded " << initializer(recorded);
}

// ---- GlauberSampler (dominoes, lozenges): forward chains ------------------------------------

struct ChainSetup {
  UpdateRule rule = UpdateRule::heat_bath;
  ClassOrder order = ClassOrder::random;
  Start start = Start::maximal;
  TileSchedule schedule = {};
};

/// {hash of the state's bytes, steps_done, flip attempts} after `steps` steps.
template <class Model>
Pinned forward_chain(const typename Model::Domain& domain, const typename Model::Weights& weights,
                     std::uint64_t seed, const ChainSetup& setup, std::uint64_t steps) {
  GlauberSampler<Model, Space> chain(Space(), domain, weights, seed, setup.start, setup.rule);
  chain.set_class_order(setup.order);
  if (setup.schedule.tiled()) chain.set_schedule(setup.schedule);
  const std::vector<std::uint8_t> start = Model::bytes(chain.tiling());
  const std::uint64_t attempts = chain.run_steps(steps);
  const std::vector<std::uint8_t> end = Model::bytes(chain.tiling());
  EXPECT_NE(end, start) << "the chain did not move";
  return {hash_of_bytes(end), chain.steps_done(), attempts};
}

const SquareDomain& aztec6() {
  static const SquareDomain d = SquareDomain::aztec_diamond(6);
  return d;
}
const SquareDomain& notched() {
  static const SquareDomain d = SquareDomain::from_mask(
      "#####...\n"
      "########\n"
      "########\n"
      "########\n"
      "########\n"
      "########\n"
      "...#####\n");
  return d;
}

TEST(TilingsPinned, DominoHeatBathChains) {
  expect_pinned("random order",
                forward_chain<DominoModel>(aztec6(), DominoWeights::uniform(), 0x5eed0001,
                                           {UpdateRule::heat_bath, ClassOrder::random}, 150),
                {0xE3B5A3CF7DEA6103ull, 150, 4498});
  expect_pinned("cyclic order",
                forward_chain<DominoModel>(aztec6(), DominoWeights::uniform(), 0x5eed0001,
                                           {UpdateRule::heat_bath, ClassOrder::cyclic}, 150),
                {0x961829F0896FEA2Eull, 150, 4575});
}

TEST(TilingsPinned, DominoMetropolisChains) {
  expect_pinned("random order",
                forward_chain<DominoModel>(aztec6(), DominoWeights::uniform(), 0x5eed0002,
                                           {UpdateRule::metropolis, ClassOrder::random}, 150),
                {0x5E62C2F4E78F2C99ull, 150, 4608});
  expect_pinned("cyclic order",
                forward_chain<DominoModel>(aztec6(), DominoWeights::uniform(), 0x5eed0002,
                                           {UpdateRule::metropolis, ClassOrder::cyclic}, 150),
                {0xBE6DDC9C33ABA0C4ull, 150, 4575});
}

TEST(TilingsPinned, DominoWeightedChains) {
  expect_pinned(
      "two-periodic, heat bath, random order, from the maximal tiling",
      forward_chain<DominoModel>(notched(), DominoWeights::two_periodic(1.0, 0.45), 0x5eed0003,
                                 {UpdateRule::heat_bath, ClassOrder::random}, 120),
      {0xEE907F4C7E9359B1ull, 120, 2160});
  expect_pinned("vertical 1.6 / horizontal 0.7, Metropolis, cyclic order, from the minimal tiling",
                forward_chain<DominoModel>(
                    notched(), DominoWeights::vertical_horizontal(1.6, 0.7), 0x5eed0004,
                    {UpdateRule::metropolis, ClassOrder::cyclic, Start::minimal}, 120),
                {0x2A92BBB1C03ED06Dull, 120, 2160});
}

TEST(TilingsPinned, DominoTileTypeCounts) {
  DominoGlauber<Space> chain(Space(), notched(), DominoWeights::vertical_horizontal(1.3),
                             0x5eed0005);
  for (int s = 0; s < 30; ++s) {
    chain.run_steps(3);
    chain.accumulate_densities();
  }
  Hash h;
  h.add_values(chain.type_counts());
  h.add(chain.densities().samples);
  expect_pinned("type counts of 30 samples", {h.value(), chain.steps_done()},
                {0xD75A44F343546DFDull, 90});
}

TEST(TilingsPinned, LozengeHeatBathChains) {
  const TriangularDomain hex = TriangularDomain::hexagon(4, 5, 3);
  expect_pinned("random order",
                forward_chain<LozengeModel>(hex, LozengeWeights{1.3}, 0x5eed0006,
                                            {UpdateRule::heat_bath, ClassOrder::random}, 150),
                {0x9997242AAC42AEA8ull, 150, 1800});
  expect_pinned("cyclic order",
                forward_chain<LozengeModel>(hex, LozengeWeights{1.3}, 0x5eed0006,
                                            {UpdateRule::heat_bath, ClassOrder::cyclic}, 150),
                {0x3C5A3242FB1EEB25ull, 150, 1800});
}

TEST(TilingsPinned, LozengeMetropolisChains) {
  const TriangularDomain hex = TriangularDomain::hexagon(4, 5, 3);
  expect_pinned("random order",
                forward_chain<LozengeModel>(hex, LozengeWeights{0.7}, 0x5eed0007,
                                            {UpdateRule::metropolis, ClassOrder::random}, 150),
                {0x970FEB7D4D4994E8ull, 150, 1800});
  expect_pinned("cyclic order, from the minimal tiling",
                forward_chain<LozengeModel>(
                    hex, LozengeWeights{0.7}, 0x5eed0007,
                    {UpdateRule::metropolis, ClassOrder::cyclic, Start::minimal}, 150),
                {0x94C861B6D3850F90ull, 150, 1800});
}

// ---- Domino tiled and bit-sliced launches ---------------------------------------------------

TEST(TilingsPinned, DominoTiledChains) {
  const SquareDomain aztec = SquareDomain::aztec_diamond(8);
  const DominoWeights weights = DominoWeights::two_periodic(1.0, 0.6);
  expect_pinned("heat bath, tiles 4 x 8, 5 substeps, random order",
                forward_chain<DominoModel>(
                    aztec, weights, 0x5eed0008,
                    {UpdateRule::heat_bath, ClassOrder::random, Start::maximal, {4, 8, 5}}, 100),
                {0x84C6530FCC94439Aull, 100, 3666});
  expect_pinned("heat bath, tiles 4 x 8, 5 substeps, cyclic order",
                forward_chain<DominoModel>(
                    aztec, weights, 0x5eed0008,
                    {UpdateRule::heat_bath, ClassOrder::cyclic, Start::maximal, {4, 8, 5}}, 100),
                {0x8DCBD95A60010EAEull, 100, 3694});
  expect_pinned("Metropolis, tiles 8 x 8, 3 substeps, random order",
                forward_chain<DominoModel>(
                    aztec, DominoWeights::uniform(), 0x5eed0009,
                    {UpdateRule::metropolis, ClassOrder::random, Start::maximal, {8, 8, 3}}, 99),
                {0x732031B6260C7775ull, 99, 4287});
}

TEST(TilingsPinned, DominoBitslicedChains) {
  const SquareDomain wide = SquareDomain::rectangle(12, 100);  // tile and word edges inside
  expect_pinned(
      "tiles 4 x 64, 8 substeps, random order",
      forward_chain<DominoModel>(
          wide, DominoWeights::uniform(), 0x5eed000a,
          {UpdateRule::heat_bath, ClassOrder::random, Start::maximal, {4, 64, 8, true}}, 160),
      {0x311760058B94B022ull, 160, 64391});
  expect_pinned(
      "tiles 4 x 64, 8 substeps, cyclic order",
      forward_chain<DominoModel>(
          wide, DominoWeights::uniform(), 0x5eed000a,
          {UpdateRule::heat_bath, ClassOrder::cyclic, Start::maximal, {4, 64, 8, true}}, 160),
      {0x84B6870765F3722Full, 160, 64412});
}

// ---- Bibone and rectangle-triangle chains ---------------------------------------------------

Pinned bibone_chain(ClassOrder order) {
  BiboneGlauber<Space> chain(Space(), BiboneDomain::hexagon(5, 6, 4), 0x5eed000b,
                             MoveColouring::periodic);
  chain.set_class_order(order);
  const std::vector<std::uint8_t> start = chain.matching().bytes();
  const std::uint64_t attempts = chain.run_steps(300);
  EXPECT_NE(chain.matching().bytes(), start) << "the chain did not move";
  return {hash_of_bytes(chain.matching().bytes()), chain.steps_done(), attempts};
}

TEST(TilingsPinned, BiboneChains) {
  expect_pinned("random order", bibone_chain(ClassOrder::random),
                {0xCC406D30382E5A6Eull, 300, 1648});
  expect_pinned("cyclic order", bibone_chain(ClassOrder::cyclic),
                {0x0C2E7BAF3E033620ull, 300, 1716});
}

Pinned rect_triangle_chain(ClassOrder order) {
  RectTriangleGlauber<Space> chain(Space(), TriangularDomain::hexagon(4, 4, 3), {1.2, 0.9, 1.7},
                                   0x5eed000c, MoveColouring::periodic);
  chain.set_class_order(order);
  const std::vector<std::uint8_t> start = chain.tiling().codes();
  const std::uint64_t attempts = chain.run(300);
  EXPECT_NE(chain.tiling().codes(), start) << "the chain did not move";
  return {hash_of_bytes(chain.tiling().codes()), chain.steps_done(), attempts};
}

TEST(TilingsPinned, RectTriangleChains) {
  expect_pinned("random order", rect_triangle_chain(ClassOrder::random),
                {0x5C60CFE85B3A9E26ull, 300, 3000});
  expect_pinned("cyclic order", rect_triangle_chain(ClassOrder::cyclic),
                {0xCD58DA1D8343CA64ull, 300, 3000});
}

// ---- Six-vertex Glauber chains --------------------------------------------------------------

/// {hash of chain k's heights for every k, step_count, last_class}.
Pinned six_vertex_chains(const SixVertexBoundary& boundary, const SixVertexWeights& weights,
                         int classes, ClassOrder order) {
  SixVertexGlauber<Space> glauber(Space(), boundary, weights, 0x5eed000d, 3);
  EXPECT_EQ(glauber.class_count(), classes);
  glauber.set_class_order(order);
  glauber.run_steps(80);
  Pinned out;
  for (const SixVertexHeights& h : glauber.states()) out.push_back(hash_of_heights(h));
  out.push_back(glauber.step_count());
  out.push_back(static_cast<std::uint64_t>(glauber.last_class()));
  return out;
}

TEST(TilingsPinned, SixVertexGlauberTwoClasses) {  // a = b = c: the checkerboard
  const SixVertexBoundary dwbc = SixVertexBoundary::domain_wall(10);
  expect_pinned("random order", six_vertex_chains(dwbc, {1, 1, 1}, 2, ClassOrder::random),
                {0xBBC25139955C7A4Bull, 0xD8736C6A0C21B1E0ull, 0xF55391F80BC74862ull, 80, 1});
  expect_pinned("cyclic order", six_vertex_chains(dwbc, {1, 1, 1}, 2, ClassOrder::cyclic),
                {0xFCF90F36D272E0B4ull, 0x7A099CDFDF7A1C03ull, 0x5673038B6CBA94DCull, 80, 0});
}

TEST(TilingsPinned, SixVertexGlauberFourClasses) {
  const SixVertexBoundary b = SixVertexBoundary::from_steps(5, 7, "++-+-++ +---+ --+-+-- -++-+", 3);
  const SixVertexWeights w{1.3, 0.6, 0.9};
  expect_pinned("random order", six_vertex_chains(b, w, 4, ClassOrder::random),
                {0x80410222149BE8E5ull, 0x13C3F0D3B205B3B3ull, 0xB7BE6B8C04D853C0ull, 80, 3});
  expect_pinned("cyclic order", six_vertex_chains(b, w, 4, ClassOrder::cyclic),
                {0x0E72EEFFE4D1EE50ull, 0x5D206F72CDA2D579ull, 0xAB1090A1BCAC0A87ull, 80, 0});
}

// ---- Coupling from the past -----------------------------------------------------------------

/// {hash of the sample's bytes, horizon, steps_run, passes}.
template <class Model>
Pinned pinned_sample(const CftpSample<typename Model::Tiling>& s) {
  return {hash_of_bytes(Model::bytes(s.tiling)), s.horizon, s.steps_run,
          static_cast<std::uint64_t>(s.passes)};
}

template <class Model>
Pinned exact_sample(const typename Model::Domain& domain, const typename Model::Weights& weights,
                    std::uint64_t cftp_seed, ClassOrder order, const TileSchedule& schedule = {}) {
  GlauberSampler<Model, Space> sampler(Space(), domain, weights, 1);
  sampler.set_class_order(order);
  if (schedule.tiled()) sampler.set_schedule(schedule);
  return pinned_sample<Model>(sampler.exact_sample(cftp_seed));
}

/// The same sample in pieces of at most `slots` time slots (exact_sample_part).
template <class Model>
Pinned exact_sample_in_pieces(const typename Model::Domain& domain,
                              const typename Model::Weights& weights, std::uint64_t cftp_seed,
                              ClassOrder order, std::uint64_t slots,
                              const TileSchedule& schedule = {}) {
  GlauberSampler<Model, Space> sampler(Space(), domain, weights, 1);
  sampler.set_class_order(order);
  if (schedule.tiled()) sampler.set_schedule(schedule);
  int pieces = 0;
  for (;;) {
    ++pieces;
    auto s = sampler.exact_sample_part(cftp_seed, CftpOptions{}, slots);
    if (s) {
      EXPECT_GT(pieces, 2);
      return pinned_sample<Model>(*s);
    }
  }
}

// Shared by the whole runs and the runs in pieces.
const Pinned domino_sample_random = {0x437F8D5C43075214ull, 256, 496, 5};
const Pinned domino_sample_cyclic = {0x1DD01F887E6174DFull, 256, 496, 5};
const Pinned domino_tiled_sample = {0x9D8264BFA66EF1A3ull, 512, 1008, 6};
const Pinned domino_bitsliced_sample = {0x61D9D8BFD5508100ull, 32, 48, 2};

TEST(TilingsPinned, DominoExactSamples) {
  expect_pinned("AD(5), uniform, random order",
                exact_sample<DominoModel>(SquareDomain::aztec_diamond(5), DominoWeights::uniform(),
                                          42, ClassOrder::random),
                domino_sample_random);
  expect_pinned(
      "AD(4), two-periodic, cyclic order",
      exact_sample<DominoModel>(SquareDomain::aztec_diamond(4),
                                DominoWeights::two_periodic(1.0, 0.5), 43, ClassOrder::cyclic),
      domino_sample_cyclic);
}

TEST(TilingsPinned, LozengeExactSamples) {
  const TriangularDomain hex = TriangularDomain::hexagon(3, 3, 3);
  expect_pinned("random order",
                exact_sample<LozengeModel>(hex, LozengeWeights{0.9}, 44, ClassOrder::random),
                {0x46A6D94DFA9F550Aull, 128, 240, 4});
  expect_pinned("cyclic order",
                exact_sample<LozengeModel>(hex, LozengeWeights{0.9}, 44, ClassOrder::cyclic),
                {0x61120DC34237A7E8ull, 64, 112, 3});
}

TEST(TilingsPinned, DominoTiledExactSamples) {
  expect_pinned("tiled, tiles 4 x 4, 4 substeps",
                exact_sample<DominoModel>(SquareDomain::aztec_diamond(4),
                                          DominoWeights::two_periodic(1.0, 0.5), 45,
                                          ClassOrder::random, {4, 4, 4}),
                domino_tiled_sample);
  expect_pinned("bit-sliced, tiles 4 x 64, 4 substeps, cyclic order",
                exact_sample<DominoModel>(SquareDomain::aztec_diamond(3), DominoWeights::uniform(),
                                          46, ClassOrder::cyclic, {4, 64, 4, true}),
                domino_bitsliced_sample);
}

TEST(TilingsPinned, ExactSamplesInPiecesEqualTheWholeRuns) {
  expect_pinned(
      "AD(5), uniform, random order, 7 slots a piece",
      exact_sample_in_pieces<DominoModel>(SquareDomain::aztec_diamond(5), DominoWeights::uniform(),
                                          42, ClassOrder::random, 7),
      domino_sample_random);
  expect_pinned("AD(4), two-periodic, cyclic order, 5 slots a piece",
                exact_sample_in_pieces<DominoModel>(SquareDomain::aztec_diamond(4),
                                                    DominoWeights::two_periodic(1.0, 0.5), 43,
                                                    ClassOrder::cyclic, 5),
                domino_sample_cyclic);
  expect_pinned("tiled, 3 slots a piece",
                exact_sample_in_pieces<DominoModel>(SquareDomain::aztec_diamond(4),
                                                    DominoWeights::two_periodic(1.0, 0.5), 45,
                                                    ClassOrder::random, 3, {4, 4, 4}),
                domino_tiled_sample);
  expect_pinned(
      "bit-sliced, 2 slots a piece",
      exact_sample_in_pieces<DominoModel>(SquareDomain::aztec_diamond(3), DominoWeights::uniform(),
                                          46, ClassOrder::cyclic, 2, {4, 64, 4, true}),
      domino_bitsliced_sample);
}

// ---- Six-vertex coupling from the past ------------------------------------------------------

const SixVertexBoundary& six_vertex_cftp_boundary() {
  static const SixVertexBoundary b =
      SixVertexBoundary::from_steps(5, 7, "++-+-++ +---+ --+-+-- -++-+", 3);
  return b;
}
constexpr SixVertexWeights six_vertex_cftp_weights{0.9, 1.2, 1.4};
constexpr int six_vertex_copies = 6;

/// {hash of each copy's sample, each copy's coalescence horizon, horizon, steps_run, passes}.
Pinned pinned_cftp(const SixVertexCftpResult& r) {
  Pinned out;
  for (const SixVertexHeights& s : r.samples) out.push_back(hash_of_heights(s));
  for (const std::uint64_t h : r.coalescence_horizons) out.push_back(h);
  out.push_back(r.horizon);
  out.push_back(r.steps_run);
  out.push_back(static_cast<std::uint64_t>(r.passes));
  return out;
}

Pinned six_vertex_cftp_run(ClassOrder order, std::uint64_t steps_a_piece) {
  SixVertexCftp<Space> cftp(Space(), six_vertex_cftp_boundary(), six_vertex_cftp_weights, 77,
                            six_vertex_copies, CftpOptions{}, 0, order);
  int pieces = 1;
  while (!cftp.run(steps_a_piece)) ++pieces;
  if (steps_a_piece < 100) {
    EXPECT_GT(pieces, 2);
  }
  return pinned_cftp(cftp.result());
}

const Pinned six_vertex_cftp_random = {0x8990744A178A330Cull,
                                       0x80C661E4C7E4C0A3ull,
                                       0x4062E5508D69FDD7ull,
                                       0x314378652F5F6B01ull,
                                       0x6D91457D3E25BF35ull,
                                       0xA62C6F3F4071F1D5ull,
                                       128,
                                       64,
                                       128,
                                       64,
                                       256,
                                       128,
                                       256,
                                       496,
                                       5};
const Pinned six_vertex_cftp_cyclic = {0x95390CBD637ADC72ull,
                                       0x95FB09019A570101ull,
                                       0x443762FA12148D7Bull,
                                       0x3F7AC712C5D78330ull,
                                       0x69A8412D0CB62C31ull,
                                       0x447499582D64A9DCull,
                                       32,
                                       64,
                                       32,
                                       16,
                                       32,
                                       32,
                                       64,
                                       112,
                                       3};

TEST(TilingsPinned, SixVertexCftp) {
  expect_pinned("random order",
                pinned_cftp(six_vertex_cftp(Space(), six_vertex_cftp_boundary(),
                                            six_vertex_cftp_weights, 77, six_vertex_copies)),
                six_vertex_cftp_random);
  expect_pinned(
      "cyclic order",
      pinned_cftp(six_vertex_cftp(Space(), six_vertex_cftp_boundary(), six_vertex_cftp_weights, 77,
                                  six_vertex_copies, CftpOptions{}, 0, ClassOrder::cyclic)),
      six_vertex_cftp_cyclic);
}

TEST(TilingsPinned, SixVertexCftpInPiecesEqualsTheWholeRun) {
  expect_pinned("random order, 13 steps a piece", six_vertex_cftp_run(ClassOrder::random, 13),
                six_vertex_cftp_random);
  expect_pinned("cyclic order, 9 steps a piece", six_vertex_cftp_run(ClassOrder::cyclic, 9),
                six_vertex_cftp_cyclic);
}

// ---- Aztec diamond shuffling ----------------------------------------------------------------

TEST(TilingsPinned, AztecShuffling) {
  AztecShuffler<Space> uniform(Space(), 12);
  uniform.run(0x5eed000e);
  expect_pinned("AD(12), uniform", {hash_of_bytes(uniform.host_cells())}, {0x1E806150F9406958ull});
  AztecShuffler<Space> weighted(Space(), 9, DominoWeights::two_periodic(1.0, 0.5));
  weighted.run(0x5eed000f);
  expect_pinned("AD(9), two-periodic", {hash_of_bytes(weighted.host_cells())},
                {0x8FA93A41320FD89Cull});
}

}  // namespace
