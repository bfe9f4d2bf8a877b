// Sampling of rectangle-triangle tilings for portamc-tilings: one forward RectTriangleGlauber
// chain from rect_triangle_initial_tiling (no coupling from the past). Samples are read out on
// the host from tiling(): the face codes, the face-type densities (A: triangles only, B: mixed,
// C: rectangles only) per face, and the fraction of faces of type C. No heights. Over several
// MPI ranks the chain runs in row slabs (DistributedRectTriangleGlauber) and every sample is
// gathered on rank 0, which measures it with the same code: the file is the one-rank file.
#include <array>
#include <string>
#include <vector>

#include "portamc/tilings/distributed_anchor_glauber.hpp"
#include "portamc/tilings/rect_triangle_geometry.hpp"
#include "portamc/tilings/rect_triangle_glauber.hpp"
#include "portamc/tilings/rect_triangle_heights.hpp"
#include "run_sampling.hpp"

namespace portamc::tilings::detail {

namespace {

struct OneRankRectTriangle {
  RectTriangleGlauber<> chain;
  void run_sweeps(std::uint64_t n) { chain.run_sweeps(n); }
  std::uint64_t steps_done() const { return chain.steps_done(); }
  std::vector<std::uint8_t> bytes_on_root() const { return chain.tiling().codes(); }
};

template <class Chain>
RunResults sample_chain(Chain& sampler, const PreparedRun& run, const ProgressCallback& progress,
                        const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  const TriangularDomain& domain = *run.triangular;
  RunResults r;
  r.observable = "rectangle_face_fraction";
  r.observable_description = "fraction of the faces of type C (covered by rectangles only)";
  r.type_names = {"a_triangles", "b_mixed", "c_rectangles"};
  // Faces as a height x (2 width) grid: face index 2 (x + width y) + (0 up, 1 down).
  const auto rows = static_cast<std::size_t>(domain.height()),
             cols = 2 * static_cast<std::size_t>(domain.width());
  const std::size_t faces = rows * cols;
  std::vector<std::uint64_t> counts(3 * faces, 0);  // type * faces + face
  sampler.run_sweeps(static_cast<std::uint64_t>(p.thermalisation_sweeps));
  for (std::int64_t k = 0; k < p.samples; ++k) {
    sampler.run_sweeps(static_cast<std::uint64_t>(p.sweeps_between_samples));
    const std::vector<std::uint8_t> codes = sampler.bytes_on_root();  // empty off rank 0
    ++r.density_samples;
    if (comm.is_root()) {
      std::array<std::uint64_t, 3> totals{};
      for (std::size_t face = 0; face < faces; ++face) {
        const int type = rect_triangle::face_type(codes[face]);
        if (type < 0) continue;  // not a face of the domain
        ++counts[static_cast<std::size_t>(type) * faces + face];
        ++totals[static_cast<std::size_t>(type)];
      }
      r.observable_values.push_back(static_cast<double>(totals[2]) /
                                    static_cast<double>(totals[0] + totals[1] + totals[2]));
      if (k + 1 == p.samples) {
        r.configuration = {rows, cols, codes};
        const RectTriangleHeights h =
            heights_from_tiling(domain, RectTriangleTiling(domain.width(), domain.height(), codes));
        r.heights = {rows + 1,
                     static_cast<std::size_t>(domain.width()) + 1,
                     {h.values.begin(), h.values.end()}};
      }
    }
    const double done = static_cast<double>(k + 1) / static_cast<double>(p.samples);
    const bool go_on =
        progress(done, "sample " + std::to_string(k + 1) + "/" + std::to_string(p.samples));
    // Over ranks the chain is one collective computation: all stop at the same sample.
    if (comm.max(std::uint64_t{go_on ? 0u : 1u}) != 0) return r;
  }
  r.glauber_steps = sampler.steps_done();
  if (!comm.is_root()) return r;
  for (std::size_t type = 0; type < 3; ++type) {
    Grid<double> density{rows, cols, std::vector<double>(faces)};
    for (std::size_t face = 0; face < faces; ++face)
      density.values[face] =
          static_cast<double>(counts[type * faces + face]) / static_cast<double>(r.density_samples);
    r.densities.push_back(std::move(density));
  }
  return r;
}

}  // namespace

RunResults sample_rect_triangle(const PreparedRun& run, const ProgressCallback& progress,
                                const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  if (comm.size() == 1) {
    OneRankRectTriangle one{RectTriangleGlauber<>(*run.triangular, run.rect_triangle_weights,
                                                  p.seed, *run.rect_triangle_initial, p.colouring)};
    one.chain.set_class_order(p.class_order);
    RunResults r = sample_chain(one, run, progress, comm);
    r.move_pairs = one.chain.move_set().pairs();
    return r;
  }
  DistributedRectTriangleGlauber<> chain(
      *run.triangular, run.rect_triangle_weights, p.seed, comm, *run.rect_triangle_initial,
      "rect_triangle glauber on " + p.domain_description(), p.colouring);
  if (p.halo_transport != parallel::HaloTransport::automatic)
    chain.set_halo_transport(p.halo_transport);
  chain.set_class_order(p.class_order);
  RunResults r = sample_chain(chain, run, progress, comm);
  r.move_pairs = chain.model().pairs();
  return r;
}

}  // namespace portamc::tilings::detail
