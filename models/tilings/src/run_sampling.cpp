// run_sampling: a whole run at once (tests, benchmarks and the library's users), through the
// same SamplingRun the app drives one unit at a time; and check_ranks.
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/tilings/engine/detail/anchor_slab_families.hpp"
#include "portamc/tilings/engine/detail/distributed_tiled_domino.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/sampling_run.hpp"

namespace portamc::tilings {

namespace {

std::string ranks_text(int ranks) {
  return std::to_string(ranks) + " MPI ranks";
}

// Runs `sampling` to the end (or until `progress` asks to stop) and returns its results.
RunResults run_units(SamplingRun& sampling,
                     const std::function<bool(double, const std::string&)>& progress,
                     const parallel::Communicator& comm) {
  // One agreement per unit: a stop on any rank stops every rank after the same unit.
  std::vector<std::uint64_t> flags{1, 0};
  while (flags[0] != 0) {
    sampling.advance();
    const bool go_on = progress(sampling.fraction_done(), sampling.status());
    flags = {sampling.done() ? 0u : 1u, go_on ? 0u : 1u};
    comm.max(flags);
    if (flags[1] != 0) break;
  }
  return sampling.results();
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
      // (3 for bibone, 1 for rect_triangle: anchor_slab_families.hpp), h rows per rank.
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
  return run_sampling(run, progress, comm, default_backend());
}

RunResults run_sampling(const PreparedRun& run,
                        const std::function<bool(double, const std::string&)>& progress,
                        const parallel::Communicator& comm, const std::string& backend) {
  return with_backend(backend, [&](auto space) {
    SamplingRun sampling(space, run, comm);
    return run_units(sampling, progress, comm);
  });
}

}  // namespace portamc::tilings
