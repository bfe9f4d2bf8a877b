// Benchmark of the tiling samplers (portamc::tilings) on the backend this binary was built for.
//
// Table 1, Glauber dynamics: flip attempts per second for domino tilings of Aztec diamonds AD(n)
// (uniform weights, started from the all-horizontal tiling, which needs no Thurston pass), of
// the 2n x 2n square with the same box (dom-sq, started from random 2x2 blocks: a liquid
// state), and lozenge tilings of n x n x n hexagons (uniform, started from the empty box). An
// attempt is one vertex of the class chosen by a step (the kernel's thread count), whether or
// not its block is rotatable; "active" is the fraction that is rotatable at the end (extremal
// starts are frozen: their rates are upper bounds for the bulk of an equilibrated tiling).
// Steps are doubled until one timed run takes at least --min-seconds.
// Byte model for GB/s: a step reads and writes the state array once (1 byte per cell each
// way; the 2x2 block or hexagon of a vertex shares its cache lines with its class neighbours),
// i.e. 2 x cells bytes per step; run tables and random numbers (Philox, computed) add nothing.
//
// Table 1 also has Glauber rows of the other models (heat-bath/symmetric kernels as the app runs
// them, one launch per step), sizes by --bibone, --rect-triangle, --six-vertex N,...:
//   bibone    n x n parallelogram of sites (n rounded up to even) from horizontal bibones in
//             every row (stacked pairs form flippable rhombi); an attempt is one candidate
//             cycle of the step's (family, class) pair (8 families, 50 pairs).
//   rect-tr   rectangle-triangle tilings of the n x n x n hexagon, uniform (t = c = r = 1), from
//             the maximal lozenge tiling cut into triangles (the app's start: frozen but for its
//             three seams); rt-liq: uniform, and rt-liq-w: weighted t = 1, c = 1.5, r = 1, on
//             the union of the stars around every third vertex in the same 2n x 2n box, each
//             star tiled on its own (a liquid start: ~5 % of the anchors movable, near the
//             ~4 % of an equilibrated uniform hexagon). An attempt is one anchor vertex of the
//             step's (family, class) pair (7 families x 3 classes).
//   6v-dw     six-vertex, domain-wall n x n, a = b = 1, c = 1.5 (monotone), and
//   6v-dw-lc  a = b = 1, c = 0.8 (c < max(a, b): no CFTP, Glauber only), both from the maximal
//             (frozen) state; 6v-flat: a = b = 1, c = 1.5 on an n x n block whose boundary
//             heights alternate, from the flat all-c state (every face movable: the liquid
//             load). An attempt is one face of the step's colour class (four classes).
// "active" is the share of attempts that could move in the final state. Byte model: the state
// read and written once per step (1 B per site/face, 2 B per six-vertex face) plus the int32
// anchor the bibone and rectangle-triangle kernels read per attempt.
//
// Table 2, coupling from the past: wall time of one exact uniform sample of AD(n) (both
// chains from the maximal and minimal tilings, doubling horizons from 16 steps).
//
// Usage: bench_tilings [--aztec N,N,...] [--hexagon N,...] [--bibone N,...]
//                      [--rect-triangle N,...] [--six-vertex N,...] [--cftp N,...]
//                      [--cftp-large] [--shuffle N,...] [--min-seconds S]
// (any size list may be "none"). Defaults: GPU: --aztec 1024,2048,4096,8192,16384 --hexagon
// 1024,2048 --bibone 1024,2048,4096 --rect-triangle 256,512,1024 --six-vertex 4096,8192,16384
// --cftp 256; CPU: --aztec 1024,2048 --hexagon 256,512 --bibone 256,512 --rect-triangle 64,128
// --six-vertex 256,512 --cftp 32,64.
// --class-order random,cyclic runs every CFTP row in each listed class order (class_order.hpp;
// default random, the paper's chain).
// --cftp-large adds AD(1000) to the CFTP table (hours on one CPU core).
// --tiles R,C,K adds tiled runs (domino_tiled_kernel.hpp: K steps per launch in tiles of R x C
// faces) to table 1 ("domino-t", "dom-sq-t") and to table 2 for the sizes of --cftp-tiled N,...
// (rows "Nt"). Tiled GB/s counts the bytes a launch moves (2 x cells per launch, not per step).
// --bits R,C,K does the same with the bit-sliced kernel of uniform dominoes
// (domino_bitsliced_kernel.hpp; C >= 64): rows "domino-b", "dom-sq-b" and "Nb".
//
// Table 3, domino shuffling (aztec_shuffling.hpp): wall time of one exact uniform sample of
// AD(n) on the default execution space (--shuffle N,...; GPU default 256,1000,2000,4000, CPU
// 256,1000), the mean over repeats that take at least --min-seconds; "to_host_s" is the copy of
// the cells to the host and their conversion to a DominoTiling, not included in "seconds".
#include <Kokkos_Core.hpp>
#include <Kokkos_Timer.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/domino/detail/aztec_shuffling.hpp"
#include "portamc/tilings/domino/detail/domino_glauber.hpp"
#include "portamc/tilings/engine/detail/bibone_glauber.hpp"
#include "portamc/tilings/engine/detail/rect_triangle_glauber.hpp"
#include "portamc/tilings/engine/detail/six_vertex_glauber.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"
#include "portamc/tilings/names.hpp"

namespace {

using namespace portamc;
using namespace portamc::tilings;
using Space = Kokkos::DefaultExecutionSpace;

struct Options {
  std::vector<int> aztec, hexagon, cftp, cftp_tiled, shuffle, bibone, rect_triangle, six_vertex;
  TileSchedule tiles;
  TileSchedule bits;  ///< bit-sliced tiled runs
  bool cftp_large = false;
  double min_seconds = 1.0;
  std::vector<ClassOrder> orders{ClassOrder::random};  ///< class orders of the CFTP rows
};

// Every row of an Aztec diamond is an even run of faces, so horizontal dominoes tile it.
DominoTiling all_horizontal(const SquareDomain& domain) {
  DominoTiling t = DominoTiling::empty_for(domain);
  for (int r = 0; r < domain.rows(); ++r) {
    int c = 0;
    while (c < domain.cols()) {
      if (domain.contains(r, c) && domain.contains(r, c + 1)) {
        place_domino(t, r, c, direction::east);
        c += 2;
      } else {
        ++c;
      }
    }
  }
  return t;
}

// The 2n x 2n square tiled by 2x2 blocks of two parallel dominoes with pseudo-random
// orientations: every block centre and many block corners are rotatable, as in the liquid bulk
// of a random tiling (an extremal start is a frozen brick wall, where almost no vertex moves).
DominoTiling random_blocks(const SquareDomain& square) {
  DominoTiling t = DominoTiling::empty_for(square);
  for (int r = 0; r + 1 < square.rows(); r += 2) {
    for (int c = 0; c + 1 < square.cols(); c += 2) {
      const bool vertical = rng::draw(1, rng::purpose_test, square.face_index(r, c), 0)[0] & 1u;
      place_domino(t, r, c, vertical ? direction::south : direction::east);
      place_domino(t, r + 1 - vertical, c + vertical,
                   vertical ? direction::south : direction::east);
    }
  }
  return t;
}

// Fraction of movable vertices that can rotate (either way) in the current state: attempts at
// the others cost a few byte reads, no random number and no write.
double active_fraction(const DominoGlauber<Space>& sampler) {
  const SquareDomain& d = sampler.domain();
  const DominoTiling t = sampler.tiling();
  double active = 0;
  for (int i = 1; i < d.rows(); ++i) {
    for (int j = 1; j < d.cols(); ++j) active += rotation_direction(d, t, i, j) != 0;
  }
  return active / static_cast<double>(sampler.movable_vertices());
}
double active_fraction(const LozengeGlauber<Space>& sampler) {
  const LozengeTiling t = sampler.tiling();
  double active = 0;
  for (int y = 1; y < t.height(); ++y) {
    for (int x = 1; x < t.width(); ++x) active += t.rotation_direction(x, y) != 0;
  }
  return active / static_cast<double>(sampler.movable_vertices());
}

template <class Sampler>
void time_glauber(const char* model, int n, Sampler& sampler, double setup_seconds,
                  const Options& opt) {
  sampler.run_steps(4);  // warm-up
  Kokkos::fence();
  std::uint64_t steps = 4, attempts = 0;
  double seconds = 0;
  std::uint64_t requested = steps;
  for (;;) {
    Kokkos::Timer timer;
    const std::uint64_t before = sampler.steps_done();
    attempts = sampler.run_steps(requested);
    Kokkos::fence();
    seconds = timer.seconds();
    steps = sampler.steps_done() - before;  // tiled runs round up to whole launches
    if (seconds >= opt.min_seconds || requested >= (1ull << 40)) break;
    requested *= 2;
  }
  const double cells = static_cast<double>(sampler.cell_count());
  const double rate = static_cast<double>(attempts) / seconds;
  const double launches = sampler.schedule().tiled()
                              ? static_cast<double>(steps) / sampler.schedule().substeps
                              : static_cast<double>(steps);
  const double gbs = 2.0 * cells * launches / seconds / 1e9;
  std::printf("%-8s %6d %12.0f %12.0f %7.3f %9llu %8.3f %10.4g %8.3f %8.2f %7.1f\n", model, n,
              cells, static_cast<double>(attempts) / static_cast<double>(steps),
              active_fraction(sampler), static_cast<unsigned long long>(steps), seconds, rate / 1e9,
              1e9 / rate, gbs, setup_seconds);
  std::fflush(stdout);
}

// The rows of one domino domain from one kind of start: the paper's chain (one launch per
// step), then, when asked, byte tiles ("-t") and bit-sliced tiles ("-b"). The first row's setup
// time includes building the domain.
template <class Start>
void time_domino_rows(const std::string& model, int n, const SquareDomain& domain,
                      double domain_seconds, Start&& start, const Options& opt) {
  const std::pair<const char*, TileSchedule> rows[] = {
      {"", TileSchedule{}}, {"-t", opt.tiles}, {"-b", opt.bits}};
  for (const auto& [suffix, schedule] : rows) {
    const bool plain = *suffix == '\0';
    if (!plain && !schedule.tiled()) continue;
    Kokkos::Timer setup;
    DominoGlauber<Space> sampler(Space(), domain, DominoWeights::uniform(), 2024, start(domain));
    sampler.set_schedule(schedule);
    time_glauber((model + suffix).c_str(), n, sampler,
                 setup.seconds() + (plain ? domain_seconds : 0.0), opt);
  }
}

void bench_aztec(int n, const Options& opt) {
  Kokkos::Timer setup;
  const SquareDomain domain = SquareDomain::aztec_diamond(n);
  time_domino_rows("domino", n, domain, setup.seconds(), all_horizontal, opt);
}

void bench_square(int n, const Options& opt) {
  Kokkos::Timer setup;
  const SquareDomain square = SquareDomain::rectangle(2 * n, 2 * n);
  time_domino_rows("dom-sq", n, square, setup.seconds(), random_blocks, opt);
}

void bench_hexagon(int n, const Options& opt) {
  Kokkos::Timer setup;
  const TriangularDomain hex = TriangularDomain::hexagon(n, n, n);
  LozengeGlauber<Space> sampler(Space(), hex, LozengeWeights{}, 2024, Start::minimal);
  time_glauber("lozenge", n, sampler, setup.seconds(), opt);
}

// Table 1 rows of the other models (bibone, rectangle-triangle, six-vertex Glauber). run(k)
// runs k steps and returns the attempts; steps are doubled as in time_glauber. GB/s model:
// state_bytes per cell read and written once per step (2 x state_bytes x cells) plus
// index_bytes per attempt (the int32 anchor list of the bibone and rectangle-triangle
// kernels; the six-vertex classes are computed from the thread index, 0).
template <class Run, class Active>
void time_rows(const char* model, int n, double cells, double state_bytes, double index_bytes,
               Run&& run, Active&& active, double setup_seconds, const Options& opt) {
  run(4);  // warm-up
  Kokkos::fence();
  std::uint64_t steps = 4, attempts = 0;
  double seconds = 0;
  for (;;) {
    Kokkos::Timer timer;
    attempts = run(steps);
    Kokkos::fence();
    seconds = timer.seconds();
    if (seconds >= opt.min_seconds || steps >= (1ull << 40)) break;
    steps *= 2;
  }
  const double rate = static_cast<double>(attempts) / seconds;
  const double bytes = 2.0 * state_bytes * cells * static_cast<double>(steps) +
                       index_bytes * static_cast<double>(attempts);
  std::printf("%-8s %6d %12.0f %12.0f %7.3f %9llu %8.3f %10.4g %8.3f %8.2f %7.1f\n", model, n,
              cells, static_cast<double>(attempts) / static_cast<double>(steps), active(),
              static_cast<unsigned long long>(steps), seconds, rate / 1e9, 1e9 / rate,
              bytes / seconds / 1e9, setup_seconds);
  std::fflush(stdout);
}

// The n x n parallelogram of sites (n even) matched by horizontal bibones in every row: each
// rhombus of two stacked bibones alternates, so the start is not frozen (unlike an extremal
// tiling), and no blossom search is needed at any size.
BiboneMatching horizontal_bibones(int n) {
  std::vector<std::uint8_t> partner(static_cast<std::size_t>(n) * n);
  for (std::size_t i = 0; i < partner.size(); ++i) partner[i] = i % 2 == 0 ? 0 : 3;
  return BiboneMatching(std::move(partner));
}

void bench_bibone(int n, const Options& opt) {
  n += n % 2;
  Kokkos::Timer setup;
  BiboneGlauber<Space> sampler(Space(), BiboneDomain::parallelogram(n, n), 2024,
                               horizontal_bibones(n));
  const BiboneMoveSet& moves = sampler.move_set();
  // Fraction of the candidate cycles that alternate (could flip) in the current matching.
  const auto active = [&] {
    const BiboneMatching m = sampler.matching();
    double alternating = 0;
    for (int p = 0; p < moves.pairs(); ++p) {
      const BiboneCycleShape& shape = moves.shapes[static_cast<std::size_t>(moves.pair_family[p])];
      for (std::int32_t k = moves.pair_offset[p]; k < moves.pair_offset[p + 1]; ++k)
        alternating += bibone_cycle_state(m.bytes(), shape, moves.anchors[k]) >= 0;
    }
    return alternating / static_cast<double>(moves.candidates());
  };
  time_rows(
      "bibone", n, static_cast<double>(sampler.domain().box_sites()), 1.0, 4.0,
      [&](std::uint64_t k) { return sampler.run_steps(k); }, active, setup.seconds(), opt);
}

// The union of the hexagons (stars) around the vertices (x, y) with (x + 2y) mod 3 = 0 and
// 1 <= x, y < 2n in a box of 2n x 2n cells (as the n x n x n hexagon's). These stars tile the
// plane (each triangle has one corner of each of the three vertex colours), so tiling every
// star on its own is a tiling in which a third of the vertex moves apply: a liquid start, unlike
// the maximal lozenge tiling of a hexagon (frozen but for its seams).
TriangularDomain star_union(int n) {
  const int w = 2 * n;
  std::vector<unsigned char> up(static_cast<std::size_t>(w) * w, 0), down(up.size(), 0);
  for (int y = 1; y < w; ++y) {
    for (int x = 1; x < w; ++x) {
      if ((x + 2 * y) % 3 != 0) continue;
      for (int k = 0; k < 6; ++k) {
        auto& flags = VertexStar::is_up[k] ? up : down;
        flags[static_cast<std::size_t>(x + VertexStar::dx[k] + w * (y + VertexStar::dy[k]))] = 1;
      }
    }
  }
  return TriangularDomain(w, w, std::move(up), std::move(down));
}

// Re-tiles every star of star_union(n) on its own with one of the five tilings of the hexagon
// (the vertex-move family 0), chosen pseudo-randomly.
void tile_stars(RectTriangleGlauber<Space>& sampler) {
  const RectTriangleMoveSet& moves = sampler.move_set();
  const RectTriangleMoveShape& star = moves.shapes[0];
  RectTriangleTiling t = sampler.tiling();  // its codes outside the domain stay
  for (int y = 1; y < moves.height; ++y) {
    for (int x = 1; x < moves.width; ++x) {
      if ((x + 2 * y) % 3 != 0) continue;
      const std::int32_t vertex = x + (moves.width + 1) * y;
      const rng::Block b = rng::draw(1, rng::purpose_test, static_cast<std::uint64_t>(vertex), 0);
      star.set_config(t.codes().data(), moves.base_of(vertex),
                      static_cast<int>(rng::bounded(b[0], b[1], star.configs)));
    }
  }
  sampler.set_tiling(t);  // validated
}

// Rectangle-triangle Glauber on the n x n x n hexagon from its frozen maximal start (the app's
// case) or, with liquid, on star_union(n) from tile_stars.
void bench_rect_triangle(const char* model, int n, const RectTriangleWeights& weights, bool liquid,
                         const Options& opt) {
  Kokkos::Timer setup;
  RectTriangleGlauber<Space> sampler(
      Space(), liquid ? star_union(n) : TriangularDomain::hexagon(n, n, n), weights, 2024);
  if (liquid) tile_stars(sampler);
  const RectTriangleMoveSet& moves = sampler.move_set();
  // Fraction of the anchors whose region is tiled on its own (the move can redraw it).
  const auto active = [&] {
    const RectTriangleTiling t = sampler.tiling();
    double movable = 0;
    for (int p = 0; p < moves.pairs(); ++p) {
      const RectTriangleMoveShape& shape =
          moves.shapes[static_cast<std::size_t>(moves.pair_family[static_cast<std::size_t>(p)])];
      for (std::int32_t k = moves.pair_offset[static_cast<std::size_t>(p)];
           k < moves.pair_offset[static_cast<std::size_t>(p) + 1]; ++k)
        movable += shape.config_at(t.codes().data(), moves.base_of(moves.anchors[k])) >= 0;
    }
    return movable / static_cast<double>(moves.anchors.size());
  };
  time_rows(
      model, n, static_cast<double>(sampler.state().extent(0)), 1.0, 4.0,
      [&](std::uint64_t k) { return sampler.run(k); }, active, setup.seconds(), opt);
}

// A rows x cols block whose boundary heights alternate 0, 1 around the ring, with the flat state
// h(i, j) = (i + j) mod 2 inside: every vertex is a c vertex and every interior face can move
// (the liquid load; the domain-wall rows start from the frozen maximal state).
SixVertexBoundary flat_boundary(int n) {
  std::string steps;
  for (int k = 0; k < 4 * n; ++k) steps += k % 2 == 0 ? '+' : '-';
  return SixVertexBoundary::from_steps(n, n, steps, 0);
}
SixVertexHeights flat_heights(int n) {
  std::vector<int> h(static_cast<std::size_t>(n + 1) * (n + 1));
  for (std::size_t f = 0; f < h.size(); ++f) h[f] = static_cast<int>(f / (n + 1) + f % (n + 1)) % 2;
  return SixVertexHeights(n, n, std::move(h));
}

// Heat-bath Glauber of the six-vertex model on one chain of n x n vertices; an attempt is one
// face of the step's colour class.
void bench_six_vertex(const char* model, int n, const SixVertexWeights& weights, bool flat,
                      const Options& opt) {
  if (n < 2) throw std::invalid_argument("a block of n < 2 vertices has no interior face");
  Kokkos::Timer setup;
  const SixVertexBoundary boundary = flat ? flat_boundary(n) : SixVertexBoundary::domain_wall(n);
  SixVertexGlauber<Space> sampler =
      flat ? SixVertexGlauber<Space>(Space(), boundary, weights, 2024, flat_heights(n))
           : SixVertexGlauber<Space>(Space(), boundary, weights, 2024);
  // Fraction of the interior faces whose four neighbours agree (the face can move by 2).
  const auto active = [&] {
    const SixVertexHeights h = sampler.state();
    double movable = 0;
    for (int i = 1; i < n; ++i) {
      for (int j = 1; j < n; ++j) {
        const int up = h.at(i - 1, j);
        movable += up == h.at(i + 1, j) && up == h.at(i, j - 1) && up == h.at(i, j + 1);
      }
    }
    return movable / (static_cast<double>(n - 1) * (n - 1));
  };
  // One chain: a step's attempts are its class's faces.
  const auto run = [&](std::uint64_t k) { return sampler.run_steps(k); };
  time_rows(model, n, static_cast<double>(boundary.face_count()), sizeof(six_vertex_height), 0.0,
            run, active, setup.seconds(), opt);
}

void bench_cftp(int n, ClassOrder order, const TileSchedule& schedule = {}) {
  Kokkos::Timer setup;
  DominoGlauber<Space> sampler(Space(), SquareDomain::aztec_diamond(n), DominoWeights::uniform(),
                               1);
  sampler.set_schedule(schedule);
  sampler.set_class_order(order);
  const double setup_seconds = setup.seconds();
  Kokkos::Timer timer;
  const auto sample = sampler.exact_sample(7);
  Kokkos::fence();
  const double seconds = timer.seconds();
  std::printf("%-6s %-7s %12lld %12llu %7d %14llu %10.3f %8.1f\n",
              (std::to_string(n) + (schedule.bit_sliced ? "b"
                                    : schedule.tiled()  ? "t"
                                                        : ""))
                  .c_str(),
              to_string(order), static_cast<long long>(sampler.movable_vertices()),
              static_cast<unsigned long long>(sample.horizon), sample.passes,
              static_cast<unsigned long long>(sample.steps_run), seconds, setup_seconds);
  std::fflush(stdout);
}

void bench_shuffle(int n, const Options& opt) {
  Kokkos::Timer setup;
  AztecShuffler<Space> shuffler(Space(), n);
  const double setup_seconds = setup.seconds();
  shuffler.run(1);  // first touch of the buffers, kernel loading
  Kokkos::fence();
  int repeats = 0;
  Kokkos::Timer timer;
  do {
    shuffler.run(static_cast<std::uint64_t>(2 + repeats));
    Kokkos::fence();
    ++repeats;
  } while (timer.seconds() < opt.min_seconds);
  const double seconds = timer.seconds() / repeats;
  Kokkos::Timer copy;
  const DominoTiling tiling = shuffler.tiling();
  const double to_host = copy.seconds();
  const double cell_updates = n * (n + 1.0) * (2.0 * n + 1.0) / 6.0;  // sum of k^2, k = 1..n
  std::printf("%-6d %12zu %8d %10.4f %12.3f %10.4f %8.3f\n", n, tiling.partner.size(), repeats,
              seconds, cell_updates / seconds * 1e-9, to_host, setup_seconds);
  std::fflush(stdout);
}

// "none" gives an empty list (to run only some of the tables).
bool parse_list(const char* text, std::vector<int>& out) {
  out.clear();
  std::string s(text);
  if (s == "none") return true;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t end = s.find(',', start);
    const std::string item =
        s.substr(start, end == std::string::npos ? std::string::npos : end - start);
    char* stop = nullptr;
    const long v = std::strtol(item.c_str(), &stop, 10);
    if (item.empty() || *stop != '\0' || v < 1 || v > 65536) return false;
    out.push_back(static_cast<int>(v));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return true;
}

// Runs one benchmark row; a size that does not fit (device memory, 32-bit indices) is reported
// and skipped rather than ending the table.
template <class F>
void guarded(const char* what, int n, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    std::printf("# %s n = %d skipped: %s\n", what, n, e.what());
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  const DeviceInfo info = default_device_info();
  Options opt;
  opt.aztec =
      info.is_gpu ? std::vector<int>{1024, 2048, 4096, 8192, 16384} : std::vector<int>{1024, 2048};
  opt.hexagon = info.is_gpu ? std::vector<int>{1024, 2048} : std::vector<int>{256, 512};
  opt.cftp = info.is_gpu ? std::vector<int>{256} : std::vector<int>{32, 64};
  opt.shuffle = info.is_gpu ? std::vector<int>{256, 1000, 2000, 4000} : std::vector<int>{256, 1000};
  // Largest GPU rows: ~0.55 GB on the device each (bibone: ~33 B per site, mostly the int32
  // candidate list; rectangle-triangle: ~120 B per n^2; six-vertex: 2 B per face). The host
  // set-up of the move lists grows too (bibone 4096: ~15 s and ~2.5 GB; rect-triangle 1024:
  // ~10 s per row), hence the smaller sizes than for dominoes.
  opt.bibone = info.is_gpu ? std::vector<int>{1024, 2048, 4096} : std::vector<int>{256, 512};
  opt.rect_triangle = info.is_gpu ? std::vector<int>{256, 512, 1024} : std::vector<int>{64, 128};
  opt.six_vertex = info.is_gpu ? std::vector<int>{4096, 8192, 16384} : std::vector<int>{256, 512};
  opt.min_seconds = info.is_gpu ? 1.0 : 0.5;
  const char* usage =
      "usage: bench_tilings [--aztec N,...] [--hexagon N,...] [--bibone N,...] "
      "[--rect-triangle N,...] [--six-vertex N,...] [--cftp N,...] [--cftp-large] "
      "[--shuffle N,...] [--tiles R,C,K] [--bits R,C,K] [--cftp-tiled N,...] "
      "[--class-order random,cyclic] "
      "[--min-seconds S]\n"
      "a size list may be 'none' (skip those rows)\n";
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    bool ok = true;
    if (!std::strcmp(argv[i], "--aztec") && has_value) {
      ok = parse_list(argv[++i], opt.aztec);
    } else if (!std::strcmp(argv[i], "--hexagon") && has_value) {
      ok = parse_list(argv[++i], opt.hexagon);
    } else if (!std::strcmp(argv[i], "--bibone") && has_value) {
      ok = parse_list(argv[++i], opt.bibone);
    } else if (!std::strcmp(argv[i], "--rect-triangle") && has_value) {
      ok = parse_list(argv[++i], opt.rect_triangle);
    } else if (!std::strcmp(argv[i], "--six-vertex") && has_value) {
      ok = parse_list(argv[++i], opt.six_vertex);
    } else if (!std::strcmp(argv[i], "--cftp") && has_value) {
      ok = parse_list(argv[++i], opt.cftp);
    } else if (!std::strcmp(argv[i], "--shuffle") && has_value) {
      ok = parse_list(argv[++i], opt.shuffle);
    } else if (!std::strcmp(argv[i], "--cftp-tiled") && has_value) {
      ok = parse_list(argv[++i], opt.cftp_tiled);
    } else if (!std::strcmp(argv[i], "--tiles") && has_value) {
      std::vector<int> v;
      ok = parse_list(argv[++i], v) && v.size() == 3;
      if (ok) opt.tiles = TileSchedule{v[0], v[1], v[2]};
    } else if (!std::strcmp(argv[i], "--bits") && has_value) {
      std::vector<int> v;
      ok = parse_list(argv[++i], v) && v.size() == 3;
      if (ok) opt.bits = TileSchedule{v[0], v[1], v[2], true};
    } else if (!std::strcmp(argv[i], "--class-order") && has_value) {
      opt.orders.clear();
      std::string list = argv[++i];
      for (std::size_t at = 0; ok && at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        try {
          opt.orders.push_back(class_order_names().value(list.substr(at, comma - at)));
        } catch (const std::invalid_argument&) {
          ok = false;
        }
        at = comma + 1;
      }
    } else if (!std::strcmp(argv[i], "--cftp-large")) {
      opt.cftp_large = true;
    } else if (!std::strcmp(argv[i], "--min-seconds") && has_value) {
      opt.min_seconds = std::atof(argv[++i]);
      ok = opt.min_seconds > 0;
    } else {
      ok = false;
    }
    if (!ok) {
      std::fprintf(stderr, "%s", usage);
      return 2;
    }
  }
  if (opt.cftp_large) opt.cftp.push_back(1000);

  std::printf("# bench_tilings: %s on %s, Kokkos %s\n", info.backend.c_str(), info.device.c_str(),
              info.kokkos_version.c_str());
  std::printf(
      "# Glauber heat-bath, uniform weights unless said; domino/lozenge attempts = vertices of the "
      "chosen class per step; GB/s model: 2 bytes per cell per step (state read + written "
      "once)\n");
  std::printf("%-8s %6s %12s %12s %7s %9s %8s %10s %8s %8s %7s\n", "model", "n", "cells",
              "att/step", "active", "steps", "seconds", "1e9 att/s", "ns/att", "GB/s", "setup_s");
  for (int n : opt.aztec) guarded("aztec", n, [&] { bench_aztec(n, opt); });
  for (int n : opt.aztec) guarded("square", n, [&] { bench_square(n, opt); });
  for (int n : opt.hexagon) guarded("hexagon", n, [&] { bench_hexagon(n, opt); });
  if (!opt.bibone.empty() || !opt.rect_triangle.empty() || !opt.six_vertex.empty()) {
    std::printf(
        "# bibone attempts = candidate cycles of the step's (family, class) pair; rect-tr, "
        "rt-liq(-w) = anchor vertices of the step's (family, class) pair; 6v-* = faces of the "
        "step's colour class; active = share of them that can move in the final state; GB/s "
        "adds 4 B per bibone/rect-triangle attempt (int32 anchor) and counts 2 B per "
        "six-vertex face (int16 height)\n");
  }
  for (int n : opt.bibone) guarded("bibone", n, [&] { bench_bibone(n, opt); });
  // t, c, r: mixed faces favoured. (Strongly rectangle-favouring weights such as t = 0.5, r = 2
  // trap the chain in states with a handful of movable anchors: no use as a rate benchmark.)
  const RectTriangleWeights rt_weighted{1.0, 1.5, 1.0};
  for (int n : opt.rect_triangle) {
    guarded("rect-triangle", n, [&] { bench_rect_triangle("rect-tr", n, {}, false, opt); });
    guarded("rect-triangle liquid", n, [&] { bench_rect_triangle("rt-liq", n, {}, true, opt); });
    guarded("rect-triangle liquid weighted", n,
            [&] { bench_rect_triangle("rt-liq-w", n, rt_weighted, true, opt); });
  }
  const SixVertexWeights sv_monotone{1.0, 1.0, 1.5}, sv_low_c{1.0, 1.0, 0.8};
  for (int n : opt.six_vertex) {
    guarded("six-vertex", n, [&] { bench_six_vertex("6v-dw", n, sv_monotone, false, opt); });
    guarded("six-vertex c < a", n, [&] { bench_six_vertex("6v-dw-lc", n, sv_low_c, false, opt); });
    guarded("six-vertex flat", n, [&] { bench_six_vertex("6v-flat", n, sv_monotone, true, opt); });
  }
  std::printf(
      "# CFTP of a uniform Aztec diamond AD(n): horizon T of the coalescing pass, steps "
      "over all passes (initial horizon 16, doubling)\n");
  std::printf("%-6s %-7s %12s %12s %7s %14s %10s %8s\n", "n", "order", "vertices", "horizon",
              "passes", "steps", "seconds", "setup_s");
  const auto each_order = [&](const char* what, const std::vector<int>& sizes,
                              const TileSchedule& schedule) {
    for (int n : sizes)
      for (ClassOrder order : opt.orders) guarded(what, n, [&] { bench_cftp(n, order, schedule); });
  };
  each_order("cftp", opt.cftp, TileSchedule{});
  if (opt.tiles.tiled()) {
    std::printf("# rows nt: tiled, %d x %d faces per tile, %d steps per launch\n",
                opt.tiles.tile_rows, opt.tiles.tile_cols, opt.tiles.substeps);
    each_order("cftp tiled", opt.cftp_tiled, opt.tiles);
  }
  if (opt.bits.tiled()) {
    std::printf("# rows nb: bit-sliced tiles, %d x %d faces per tile, %d steps per launch\n",
                opt.bits.tile_rows, opt.bits.tile_cols, opt.bits.substeps);
    each_order("cftp bits", opt.cftp_tiled, opt.bits);
  }
  std::printf(
      "# Domino shuffling, exact uniform sample of AD(n): seconds per sample (mean of repeats), "
      "1e9 cell updates/s (one kernel over the k^2 cells of AD(k) per step k = 1..n)\n");
  std::printf("%-6s %12s %8s %10s %12s %10s %8s\n", "n", "faces", "repeats", "seconds",
              "1e9 cell/s", "to_host_s", "setup_s");
  for (int n : opt.shuffle) guarded("shuffle", n, [&] { bench_shuffle(n, opt); });
  return 0;
}
