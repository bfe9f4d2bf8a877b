#pragma once
// What portamc-tilings runs: the parameters resolved from its YAML (the app's keys,
// apps/tilings/keys.cpp), the prepared problem (domain, boundary, weights) checked before any
// sampling, and the results that run_output.cpp writes. One run samples one model in one mode:
//   cftp     independent exact samples by coupling from the past (monotone cases only);
//   glauber  one forward chain from the maximal or minimal state, sampled every few sweeps;
//   shuffling independent exact samples of Aztec diamonds by domino shuffling (dominoes only).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "portamc/halo_transport.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/bibone/bibone_domain.hpp"
#include "portamc/tilings/domino/square_domain.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/engine/detail/move_colouring.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"
#include "portamc/tilings/rect_triangle/rect_triangle_tiling.hpp"
#include "portamc/tilings/six_vertex/six_vertex_boundary.hpp"
#include "portamc/tilings/six_vertex/six_vertex_weights.hpp"

namespace portamc::tilings {

enum class TilingModel { domino, lozenge, six_vertex, bibone, rect_triangle };
enum class SamplingMode { cftp, glauber, shuffling };

/// The names of tiling_model_names() and sampling_mode_names() (names.hpp).
const char* to_string(TilingModel model);
const char* to_string(SamplingMode mode);

struct RunParameters {
  TilingModel model = TilingModel::domino;
  SamplingMode mode = SamplingMode::cftp;
  std::string domain_kind;       ///< e.g. aztec_diamond, hexagon, domain_wall, file
  std::vector<int> domain_size;  ///< the integers that define it (n; a b c; rows cols; ...)
  std::string domain_file;       ///< mask / boundary file for domain_kind == file
  std::string weights_kind;      ///< uniform, vertical_horizontal, two_periodic, q, abc, tcr
  std::vector<double> weight_values;
  UpdateRule rule = UpdateRule::heat_bath;
  /// dynamics.colouring: colour classes of the bibone / rect_triangle moves (others ignore it).
  MoveColouring colouring = default_move_colouring;
  /// dynamics.class_order: order of the colour classes over the steps (class_order.hpp).
  ClassOrder class_order = ClassOrder::random;
  std::uint64_t seed = 1;
  /// parallel.halo_transport: how halo rows of a distributed glauber chain travel.
  parallel::HaloTransport halo_transport = parallel::HaloTransport::automatic;
  std::int64_t samples = 1;
  std::uint64_t initial_horizon = 16;  ///< cftp, steps
  std::uint64_t max_horizon = 1ull << 40;
  bool start_maximal = true;                ///< glauber
  std::int64_t thermalisation_sweeps = 0;   ///< glauber
  std::int64_t sweeps_between_samples = 1;  ///< glauber
  /// Domino cftp/glauber: tiled steps (glauber_results.hpp TileSchedule); tile_rows = 0: off.
  int tile_rows = 0;
  int tile_cols = 0;
  int substeps = 32;
  bool bit_sliced = false;  ///< uniform dominoes: bit-plane tiles (domino_bitsliced_kernel.hpp)
  /// The schedule handed to the domino sampler (substeps 1 when untiled).
  TileSchedule schedule() const {
    return tile_rows == 0 ? TileSchedule{}
                          : TileSchedule{tile_rows, tile_cols, substeps, bit_sliced};
  }
  /// A description of the domain for the output and the log, e.g. "aztec_diamond 40".
  std::string domain_description() const;
};

/// The domain, boundary and weights of a run, built and checked before any sampling.
/// Throws std::invalid_argument (a bad input) for an unreadable or malformed mask/boundary
/// file, a domain without tilings (Thurston's reason: where it fails), bad weights, coupling
/// from the past for a non-monotone chain, or a size that does not fit the memory of the
/// backend that will run it.
struct PreparedRun {
  RunParameters parameters;
  std::optional<SquareDomain> square;
  std::optional<TriangularDomain> triangular;
  std::optional<SixVertexBoundary> boundary;
  std::optional<BiboneDomain> bibone;
  std::optional<BiboneMatching> bibone_initial;  ///< the glauber chain's start (it exists)
  std::optional<RectTriangleTiling> rect_triangle_initial;  ///< the same, on run.triangular
  DominoWeights domino_weights;
  LozengeWeights lozenge_weights;
  SixVertexWeights six_vertex_weights;
  RectTriangleWeights rect_triangle_weights;
};
/// Sizes are checked against the memory of `backend` (a name of portamc/backends.hpp, e.g.
/// "cuda"); without it, of the default execution space's.
PreparedRun prepare_run(const RunParameters& parameters, const std::string& backend);
PreparedRun prepare_run(const RunParameters& parameters);

/// A 2-D array in row-major order.
template <class T>
struct Grid {
  std::size_t rows = 0, cols = 0;
  std::vector<T> values;
};

struct RunResults {
  Grid<std::uint8_t> configuration;  ///< last sample: the model's bytes (see docs/output.md)
  Grid<std::int32_t> heights;        ///< last sample's height function (empty: the model has none)
  std::vector<std::string> type_names;
  std::vector<Grid<double>> densities;  ///< per tile/vertex type, averaged over samples
  std::uint64_t density_samples = 0;
  std::string observable;  ///< per-sample summary: name, units, description
  std::string observable_units, observable_description;
  std::vector<double> observable_values;                              ///< one per sample
  std::vector<std::uint64_t> cftp_horizons, cftp_steps, cftp_passes;  ///< per sample (cftp)
  std::uint64_t glauber_steps = 0;  ///< forward steps run (glauber)
  int move_pairs = 0;               ///< bibone, rect_triangle: (family, colour class) pairs
  double seconds = 0;
};

/// Runs the sampler on the default execution space; `progress(fraction, status)` is called
/// between samples and may return false to stop early (the results then hold the samples taken
/// so far).
RunResults run_sampling(const PreparedRun& run,
                        const std::function<bool(double, const std::string&)>& progress);

/// Throws std::invalid_argument (a bad input, the same on every rank) when `ranks` MPI ranks
/// cannot run `run`: a model or option that stays on one rank (bibone, rect_triangle; tiled
/// domino steps with mode: glauber), a glauber domain with fewer rows of cells (six-vertex:
/// face rows) than ranks, or fewer cftp/shuffling samples than ranks. Nothing for one rank.
void check_ranks(const PreparedRun& run, int ranks);

/// run_sampling over the ranks of `comm` (collective; one rank: the call above). mode: glauber
/// splits the state into row slabs (distributed_glauber.hpp, six_vertex_slab_family.hpp);
/// cftp and shuffling give each rank a contiguous share of the samples (sample k keeps its
/// seed cftp_sample_seed(seed, k); six-vertex copy k its random stream k).
/// The results are complete on rank 0 only, and equal one rank's bit for bit: the same
/// configurations, integer tile counts summed over the ranks, per-sample values gathered in
/// sample order. `progress` is called on every rank for its own part (fraction of its share);
/// with glauber, a stop on any rank stops all of them at the same sample.
RunResults run_sampling(const PreparedRun& run,
                        const std::function<bool(double, const std::string&)>& progress,
                        const parallel::Communicator& comm);
/// The same on the backend called `backend` (portamc/backends.hpp: "serial", "openmp",
/// "cuda", ...; std::invalid_argument naming the enabled ones for a backend the build lacks).
/// The samples do not depend on the backend: they are bitwise the same on every one.
RunResults run_sampling(const PreparedRun& run,
                        const std::function<bool(double, const std::string&)>& progress,
                        const parallel::Communicator& comm, const std::string& backend);

}  // namespace portamc::tilings
