// The samples of bibone and rectangle-triangle tilings: one forward chain (there is no coupling
// from the past for these models), BiboneGlauber / RectTriangleGlauber, on one rank or in row
// slabs over several. Every sample is gathered on rank 0 and measured there on the host, so
// the file is the one-rank file.
//   bibone         partner directions; orientation densities (direction mod 3); the
//                  fraction of bibones of orientation 0. No heights.
//   rect_triangle  face codes; face-type densities (A: triangles only, B: mixed, C:
//                  rectangles only); the fraction of faces of type C; heights of the last.
#include <array>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/tilings/engine/detail/bibone_glauber.hpp"
#include "portamc/tilings/engine/detail/rect_triangle_glauber.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_geometry.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_heights.hpp"
#include "sample_source.hpp"
#include "state_bytes.hpp"

namespace portamc::tilings::detail {
namespace {

constexpr std::uint8_t kNoType = 255;

class BiboneFamily {
 public:
  using State = std::vector<std::uint8_t>;
  explicit BiboneFamily(const BiboneDomain& domain) : domain_(&domain) {
    measures_ = {"orientation_0_fraction",
                 "fraction of the bibones of orientation 0 (partner direction 0 or 3, along e1)",
                 {"orientation_0", "orientation_1", "orientation_2"},
                 static_cast<std::size_t>(domain.height()),
                 static_cast<std::size_t>(domain.width())};
  }
  const Measures& measures() const { return measures_; }
  void add(const State& bytes, bool last, Tally& tally) const {
    std::vector<std::uint8_t> types(bytes.size(), kNoType);
    std::uint64_t orientation_0 = 0;
    for (std::size_t site = 0; site < bytes.size(); ++site) {
      if (bytes[site] >= bibone::outside) continue;
      types[site] = bytes[site] % 3;  // directions d and d + 3: one orientation
      if (types[site] == 0) ++orientation_0;
    }
    tally.count_types(types, 3);
    tally.values.push_back(static_cast<double>(orientation_0) /
                           static_cast<double>(domain_->site_count()));
    if (last) tally.configuration = {measures_.rows, measures_.cols, bytes};
  }
  static std::vector<std::int32_t> to_ints(const State& bytes) { return ints_of_bytes(bytes); }
  State from_ints(const std::vector<std::int32_t>& ints) const {
    State bytes = bytes_of_ints(ints);
    validate_matching(*domain_, BiboneMatching(bytes));
    return bytes;
  }

 private:
  const BiboneDomain* domain_;
  Measures measures_;
};

class RectTriangleFamily {
 public:
  using State = std::vector<std::uint8_t>;
  explicit RectTriangleFamily(const TriangularDomain& domain) : domain_(&domain) {
    // Faces as a height x (2 width) grid: face index 2 (x + width y) + (0 up, 1 down).
    measures_ = {"rectangle_face_fraction",
                 "fraction of the faces of type C (covered by rectangles only)",
                 {"a_triangles", "b_mixed", "c_rectangles"},
                 static_cast<std::size_t>(domain.height()),
                 2 * static_cast<std::size_t>(domain.width())};
  }
  const Measures& measures() const { return measures_; }
  void add(const State& codes, bool last, Tally& tally) const {
    std::vector<std::uint8_t> types(codes.size(), kNoType);
    std::array<std::uint64_t, 3> totals{};
    for (std::size_t face = 0; face < codes.size(); ++face) {
      const int type = rect_triangle::face_type(codes[face]);
      if (type < 0) continue;  // not a face of the domain
      types[face] = static_cast<std::uint8_t>(type);
      ++totals[static_cast<std::size_t>(type)];
    }
    tally.count_types(types, 3);
    tally.values.push_back(static_cast<double>(totals[2]) /
                           static_cast<double>(totals[0] + totals[1] + totals[2]));
    if (last) {
      tally.configuration = {measures_.rows, measures_.cols, codes};
      const RectTriangleHeights h = heights_from_tiling(
          *domain_, RectTriangleTiling(domain_->width(), domain_->height(), codes));
      tally.heights = {measures_.rows + 1,
                       static_cast<std::size_t>(domain_->width()) + 1,
                       {h.values.begin(), h.values.end()}};
    }
  }
  static std::vector<std::int32_t> to_ints(const State& codes) { return ints_of_bytes(codes); }
  State from_ints(const std::vector<std::int32_t>& ints) const {
    State codes = bytes_of_ints(ints);
    validate_tiling(*domain_, RectTriangleTiling(domain_->width(), domain_->height(), codes));
    return codes;
  }

 private:
  const TriangularDomain* domain_;
  Measures measures_;
};

// The slab chain on any number of ranks: the state is gathered on rank 0; a restored state is
// checked by the family.
template <class Engine>
struct SlabChain {
  std::unique_ptr<Engine> chain;
  void run_sweeps(std::uint64_t n) { chain->run_sweeps(n); }
  std::uint64_t steps_done() const { return chain->steps_done(); }
  std::vector<std::uint8_t> state_on_root() const { return chain->bytes_on_root(); }
  void restore(const std::vector<std::uint8_t>& bytes, std::uint64_t steps) {
    chain->set_bytes(bytes);
    chain->set_steps_done(steps);
  }
  int move_pairs() const { return chain->model().pairs(); }
};

template <class Chain, class Family>
std::unique_ptr<SampleSource> source(Chain chain, Family family, const PreparedRun& run,
                                     const parallel::Communicator& comm) {
  return std::make_unique<ChainSource<Chain, Family>>(std::move(chain), std::move(family),
                                                      run.parameters, comm.is_root());
}

}  // namespace

template <class Space>
std::unique_ptr<SampleSource> make_bibone_source(const Space& space, const PreparedRun& run,
                                                 const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  auto chain = std::make_unique<BiboneGlauber<Space>>(
      space, *run.bibone, p.seed, *run.bibone_initial, p.colouring, comm,
      "bibone glauber on " + p.domain_description());
  configure_slab_chain(*chain, p);
  return source(SlabChain<BiboneGlauber<Space>>{std::move(chain)}, BiboneFamily(*run.bibone), run,
                comm);
}

template <class Space>
std::unique_ptr<SampleSource> make_rect_triangle_source(const Space& space, const PreparedRun& run,
                                                        const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  const TriangularDomain& domain = *run.triangular;
  auto chain = std::make_unique<RectTriangleGlauber<Space>>(
      space, domain, run.rect_triangle_weights, p.seed, *run.rect_triangle_initial, p.colouring,
      comm, "rect_triangle glauber on " + p.domain_description());
  configure_slab_chain(*chain, p);
  return source(SlabChain<RectTriangleGlauber<Space>>{std::move(chain)}, RectTriangleFamily(domain),
                run, comm);
}

#define PORTAMC_TILINGS_INSTANTIATE_(Space)                                \
  template std::unique_ptr<SampleSource> make_bibone_source<Space>(        \
      const Space&, const PreparedRun&, const parallel::Communicator&);    \
  template std::unique_ptr<SampleSource> make_rect_triangle_source<Space>( \
      const Space&, const PreparedRun&, const parallel::Communicator&);
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_INSTANTIATE_)
#undef PORTAMC_TILINGS_INSTANTIATE_

}  // namespace portamc::tilings::detail
