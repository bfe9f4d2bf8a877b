// prepare_run: everything about an input that can only be checked once the domain exists
// (files, tileability, weights, memory), done before any sampling so that a bad input costs
// nothing and leaves no file behind. Messages start with the key they are about.
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>

#include "portamc/backends.hpp"
#include "portamc/device_info.hpp"
#include "portamc/tilings/bibone/bibone_tileability.hpp"
#include "portamc/tilings/domino/thurston.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"
#include "portamc/tilings/run.hpp"

namespace portamc::tilings {
namespace {

// Bytes per cell of the box in the backend's memory: the sampler's state, two CFTP chains and two
// extremal states (5), plus 32-bit tile-type counters.
constexpr std::size_t kTilingBytesPerCell = 5 + 4 * 4;
// Six-vertex: 32-bit heights of two CFTP chains per copy, plus 64-bit sums and type counts.
constexpr std::size_t kSixVertexBytesPerFace = 2 * 4 + 8 + 6 * 8;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::invalid_argument("domain.file: cannot read '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The box (rows x cols of cells) of a generated domain, before building it, so that an absurd
// size is refused without allocating anything.
void require_box_fits(const std::string& backend, double cells, std::size_t bytes_per_cell,
                      const std::string& what) {
  if (cells > static_cast<double>(std::numeric_limits<std::int32_t>::max()))
    throw std::invalid_argument(what + ": " + std::to_string(static_cast<long long>(cells)) +
                                " cells exceed the 2^31 - 1 of the kernels' 32-bit indices");
  require_memory(backend, static_cast<std::size_t>(cells) * bytes_per_cell, what);
}

void prepare_domino(PreparedRun& run, const std::string& backend) {
  const RunParameters& p = run.parameters;
  const auto& n = p.domain_size;
  const std::string what = "domain (" + p.domain_description() + ")";
  if (p.domain_kind == "aztec_diamond") {
    require_box_fits(backend, 4.0 * n[0] * n[0], kTilingBytesPerCell, what);
    run.square = SquareDomain::aztec_diamond(n[0]);
  } else if (p.domain_kind == "aztec_rectangle") {
    require_box_fits(backend, double(n[0] + n[1]) * (n[0] + n[1]), kTilingBytesPerCell, what);
    run.square = SquareDomain::aztec_rectangle(n[0], n[1]);
  } else if (p.domain_kind == "rectangle") {
    require_box_fits(backend, double(n[0]) * n[1], kTilingBytesPerCell, what);
    run.square = SquareDomain::rectangle(n[0], n[1]);
  } else {
    try {
      run.square = SquareDomain::from_mask(read_text(p.domain_file));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("domain.file: '" + p.domain_file + "': " + e.what());
    }
    require_box_fits(backend, double(run.square->rows()) * run.square->cols(), kTilingBytesPerCell,
                     what);
  }
  const DominoTileability t = domino_tileability(*run.square);
  if (!t.tileable) throw std::invalid_argument(what + " has no domino tiling: " + t.reason);
  if (p.weights_kind == "vertical_horizontal")
    run.domino_weights = DominoWeights::vertical_horizontal(p.weight_values[0], p.weight_values[1]);
  else if (p.weights_kind == "two_periodic")
    run.domino_weights = DominoWeights::two_periodic(p.weight_values[0], p.weight_values[1]);
  validate(run.domino_weights);
}

// The TriangularDomain of a lozenge or rectangle-triangle run (hexagon or mask file).
void build_triangular(PreparedRun& run, const std::string& backend) {
  const RunParameters& p = run.parameters;
  const std::string what = "domain (" + p.domain_description() + ")";
  if (p.domain_kind == "hexagon") {
    const auto& s = p.domain_size;
    require_box_fits(backend, double(s[0] + s[2]) * (s[1] + s[2]), kTilingBytesPerCell, what);
    run.triangular = TriangularDomain::hexagon(s[0], s[1], s[2]);
  } else {
    try {
      run.triangular = TriangularDomain::from_mask(read_text(p.domain_file));
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("domain.file: '" + p.domain_file + "': " + e.what());
    }
    require_box_fits(backend, double(run.triangular->width()) * run.triangular->height(),
                     kTilingBytesPerCell, what);
  }
}

void prepare_lozenge(PreparedRun& run, const std::string& backend) {
  const RunParameters& p = run.parameters;
  const std::string what = "domain (" + p.domain_description() + ")";
  build_triangular(run, backend);
  try {
    maximal_heights(*run.triangular);  // Thurston: throws naming the two conflicting vertices
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(what + " has no lozenge tiling: " + e.what());
  }
  run.lozenge_weights.q = p.weight_values[0];
  validate(run.lozenge_weights);
}

void prepare_six_vertex(PreparedRun& run, const std::string& backend) {
  const RunParameters& p = run.parameters;
  const std::string what = "domain (" + p.domain_description() + ")";
  // CFTP runs every sample as its own pair of chains at once.
  const double copies = p.mode == SamplingMode::cftp ? static_cast<double>(p.samples) : 1.0;
  if (p.domain_kind == "domain_wall") {
    const double n = p.domain_size[0];
    require_box_fits(backend, (n + 1) * (n + 1) * copies, kSixVertexBytesPerFace, what);
    run.boundary = SixVertexBoundary::domain_wall(p.domain_size[0]);
  } else {
    try {
      run.boundary = SixVertexBoundary::from_file(p.domain_file);
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("domain.file: '" + p.domain_file + "': " + e.what());
    }
    require_box_fits(backend, static_cast<double>(run.boundary->face_count()) * copies,
                     kSixVertexBytesPerFace, what);
  }
  run.six_vertex_weights = {p.weight_values[0], p.weight_values[1], p.weight_values[2]};
  validate_six_vertex_weights(run.six_vertex_weights);
  if (p.mode == SamplingMode::cftp) require_monotone(run.six_vertex_weights, "weights.c");
}

void prepare_bibone(PreparedRun& run, const std::string& backend) {
  const RunParameters& p = run.parameters;
  const auto& s = p.domain_size;
  const std::string what = "domain (" + p.domain_description() + ")";
  try {
    if (p.domain_kind == "hexagon") {
      require_box_fits(backend, double(s[0] + s[2] - 1) * (s[1] + s[2] - 1), kTilingBytesPerCell,
                       what);
      run.bibone = BiboneDomain::hexagon(s[0], s[1], s[2]);
    } else if (p.domain_kind == "parallelogram") {
      require_box_fits(backend, double(s[0]) * s[1], kTilingBytesPerCell, what);
      run.bibone = BiboneDomain::parallelogram(s[1], s[0]);  // width = cols, height = rows
    } else {
      try {
        run.bibone = BiboneDomain::from_mask(read_text(p.domain_file));
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument("domain.file: '" + p.domain_file + "': " + e.what());
      }
      require_box_fits(backend, double(run.bibone->box_sites()), kTilingBytesPerCell, what);
    }
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();
    if (message.rfind("domain", 0) == 0) throw;
    throw std::invalid_argument(what + ": " + message);
  }
  BiboneTileability t = bibone_tileability(*run.bibone);
  if (!t.tileable) throw std::invalid_argument(what + " has no bibone tiling: " + t.reason);
  run.bibone_initial = std::move(t.matching);
}

void prepare_rect_triangle(PreparedRun& run, const std::string& backend) {
  const RunParameters& p = run.parameters;
  const std::string what = "domain (" + p.domain_description() + ")";
  build_triangular(run, backend);
  run.rect_triangle_weights = {p.weight_values[0], p.weight_values[1], p.weight_values[2]};
  validate(run.rect_triangle_weights);
  try {
    run.rect_triangle_initial = rect_triangle_initial_tiling(*run.triangular);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(what + " has no rectangle-triangle tiling: " + e.what());
  }
  if (rect_triangle_move_vertices(*run.triangular).empty())
    throw std::invalid_argument(what +
                                " has no interior vertex: no rectangle-triangle move could apply");
}

}  // namespace

std::string RunParameters::domain_description() const {
  std::string text = domain_kind;
  if (domain_kind == "file") return text + " " + domain_file;
  for (int n : domain_size) text += " " + std::to_string(n);
  return text;
}

PreparedRun prepare_run(const RunParameters& parameters) {
  return prepare_run(parameters, default_backend());
}

PreparedRun prepare_run(const RunParameters& parameters, const std::string& backend) {
  require_backend(backend);
  PreparedRun run;
  run.parameters = parameters;
  switch (parameters.model) {
    case TilingModel::domino:
      prepare_domino(run, backend);
      break;
    case TilingModel::lozenge:
      prepare_lozenge(run, backend);
      break;
    case TilingModel::six_vertex:
      prepare_six_vertex(run, backend);
      break;
    case TilingModel::bibone:
      prepare_bibone(run, backend);
      break;
    case TilingModel::rect_triangle:
      prepare_rect_triangle(run, backend);
      break;
  }
  return run;
}

}  // namespace portamc::tilings
