#include "run_sampling.hpp"

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/tilings/distributed_anchor_glauber.hpp"
#include "portamc/tilings/distributed_tiled_domino.hpp"
#include "portamc/tilings/slab_decomposition.hpp"

namespace portamc::tilings {
namespace detail {

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::uint64_t cftp_sample_seed(std::uint64_t seed, std::int64_t k) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(k) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void gather_samples(RunResults& r, const parallel::Communicator& comm) {
  if (comm.size() == 1) return;
  r.observable_values = comm.gather(r.observable_values);
  r.cftp_horizons = comm.gather(r.cftp_horizons);
  r.cftp_steps = comm.gather(r.cftp_steps);
  r.cftp_passes = comm.gather(r.cftp_passes);
  // The last sample lives on the last rank; the others contribute nothing.
  std::vector<std::uint64_t> shapes{r.configuration.rows, r.configuration.cols, r.heights.rows,
                                    r.heights.cols};
  comm.max(shapes);
  r.configuration.values = comm.gather(r.configuration.values);
  std::vector<int> heights(r.heights.values.begin(), r.heights.values.end());
  heights = comm.gather(heights);
  r.heights.values.assign(heights.begin(), heights.end());
  r.configuration.rows = shapes[0];
  r.configuration.cols = shapes[1];
  r.heights.rows = shapes[2];
  r.heights.cols = shapes[3];
}

}  // namespace detail

namespace {

std::string ranks_text(int ranks) {
  return std::to_string(ranks) + " MPI ranks";
}

}  // namespace

void check_ranks(const PreparedRun& run, int ranks) {
  if (ranks <= 1) return;
  const RunParameters& p = run.parameters;
  switch (p.model) {
    case TilingModel::six_vertex:
      if (p.mode == SamplingMode::glauber) {
        // Face rows of the height function, split like the tilings' cell rows.
        row_slab(run.boundary->face_rows(), run.boundary->face_cols(), 0, ranks,
                 "six_vertex glauber on " + p.domain_description() + ": the height function");
        return;
      }
      break;  // cftp: copies shared out as the other models' samples
    case TilingModel::bibone:
    case TilingModel::rect_triangle:
      // mode: glauber only (cftp is refused for these models before this point); h halo rows
      // (3 for bibone, 1 for rect_triangle: distributed_anchor_glauber.hpp), h rows per rank.
      if (p.model == TilingModel::bibone) {
        const BiboneSlabModel m(*run.bibone);
        row_slab(m.rows(), m.row_length(), 0, ranks, "bibone glauber on " + p.domain_description(),
                 m.halo());
      } else {
        const RectTriangleSlabModel m(*run.triangular, run.rect_triangle_weights);
        row_slab(m.rows(), m.row_length(), 0, ranks,
                 "rect_triangle glauber on " + p.domain_description(), m.halo());
      }
      return;
    case TilingModel::domino:
    case TilingModel::lozenge:
      break;
  }
  if (p.mode != SamplingMode::glauber) {
    if (p.samples < ranks) {
      const char* key = p.mode == SamplingMode::cftp ? "cftp.samples" : "shuffling.samples";
      throw std::invalid_argument(std::string(key) + " = " + std::to_string(p.samples) +
                                  " are fewer than the " + ranks_text(ranks) +
                                  " (each rank takes whole samples)");
    }
    return;
  }
  if (p.tile_rows != 0) {
    if (p.model != TilingModel::domino) {
      throw std::invalid_argument("dynamics.tile_rows = " + std::to_string(p.tile_rows) +
                                  ": tiled steps are implemented for domino tilings only");
    }
    // Tiled dominoes: slabs of at least tile_rows rows (distributed_tiled_domino.hpp).
    tiled_domino_slab(run.square->rows(), run.square->cols(), p.tile_rows, 0, ranks,
                      "domino glauber on " + p.domain_description());
    return;
  }
  const int rows = p.model == TilingModel::domino ? run.square->rows() : run.triangular->height();
  const int length = p.model == TilingModel::domino ? run.square->cols() : run.triangular->width();
  row_slab(rows, length, 0, ranks,
           std::string(to_string(p.model)) + " glauber on " + p.domain_description());
}

RunResults run_sampling(const PreparedRun& run,
                        const std::function<bool(double, const std::string&)>& progress) {
  return run_sampling(run, progress, parallel::Communicator());
}

RunResults run_sampling(const PreparedRun& run,
                        const std::function<bool(double, const std::string&)>& progress,
                        const parallel::Communicator& comm) {
  check_ranks(run, comm.size());
  const double start = detail::seconds_now();
  RunResults results;
  switch (run.parameters.model) {
    case TilingModel::domino:
      results = run.parameters.mode == SamplingMode::shuffling
                    ? detail::sample_domino_shuffling(run, progress, comm)
                    : detail::sample_domino(run, progress, comm);
      break;
    case TilingModel::lozenge:
      results = detail::sample_lozenge(run, progress, comm);
      break;
    case TilingModel::six_vertex:
      results = detail::sample_six_vertex(run, progress, comm);
      break;
    case TilingModel::bibone:
      results = detail::sample_bibone(run, progress, comm);
      break;
    case TilingModel::rect_triangle:
      results = detail::sample_rect_triangle(run, progress, comm);
      break;
  }
  results.seconds = detail::seconds_now() - start;
  return results;
}

}  // namespace portamc::tilings
