// The keys of portamc-tilings (keys.hpp). The domain's sizes, the weights and the sample count
// depend on several keys at once (the shape, the model, the mode) and are filled by one step
// each after their keys; every other key fills one member.
#include "keys.hpp"

#include <optional>
#include <string>
#include <vector>

#include "portamc/halo_transport.hpp"
#include "portamc/run_protocol.hpp"
#include "portamc/tilings/names.hpp"

namespace portamc {
namespace {

using config::Boolean, config::Integer, config::Real, config::String;
using Rule = std::optional<std::string>;
using P = tilings::RunParameters;

// Side lengths: large enough for any GPU run, small enough that box sizes cannot overflow.
constexpr long long kMaxSide = 1 << 16;

bool shape_fits_model(const std::string& model, const std::string& shape) {
  if (shape == "file") return true;
  if (model == "domino")
    return shape == "aztec_diamond" || shape == "aztec_rectangle" || shape == "rectangle";
  if (model == "lozenge" || model == "rect_triangle") return shape == "hexagon";
  if (model == "bibone") return shape == "hexagon" || shape == "parallelogram";
  return shape == "domain_wall";
}

const char* shapes_of(const std::string& model) {
  if (model == "domino") return "aztec_diamond, aztec_rectangle, rectangle or file";
  if (model == "lozenge" || model == "rect_triangle") return "hexagon or file";
  if (model == "bibone") return "hexagon, parallelogram or file";
  return "domain_wall or file";
}

// The weights a model reads, by key.
std::vector<std::string> used_weights(const config::Config& c) {
  const std::string& model = c.string("model");
  if (model == "lozenge") return {"weights.q"};
  if (model == "bibone") return {};
  if (model == "rect_triangle") return {"weights.t", "weights.c", "weights.r"};
  if (model == "six_vertex") return {"weights.a", "weights.b", "weights.c"};
  const std::string& kind = c.string("weights.kind");
  if (kind == "vertical_horizontal") return {"weights.vertical", "weights.horizontal"};
  if (kind == "two_periodic") return {"weights.a", "weights.b"};
  return {};
}

// domain.n/a/b/c/rows/cols -> the integers that define the domain of domain.shape.
void fill_domain_size(const config::Config& c, P& p) {
  auto side = [&c](const char* key) { return static_cast<int>(c.integer(key)); };
  const std::string& shape = c.string("domain.shape");
  if (shape == "aztec_diamond" || shape == "domain_wall")
    p.domain_size = {side("domain.n")};
  else if (shape == "aztec_rectangle")
    p.domain_size = {side("domain.a"), side("domain.b")};
  else if (shape == "rectangle" || shape == "parallelogram")
    p.domain_size = {side("domain.rows"), side("domain.cols")};
  else if (shape == "hexagon")
    p.domain_size = {side("domain.a"), side("domain.b"), side("domain.c")};
}

// weights.* -> the weights the model reads: their kind and values.
void fill_weights(const config::Config& c, P& p) {
  using tilings::TilingModel;
  const TilingModel model = tilings::tiling_model_names().value(c.string("model"));
  if (model == TilingModel::domino) {
    p.weights_kind = c.string("weights.kind");
    if (p.weights_kind == "vertical_horizontal")
      p.weight_values = {c.real("weights.vertical"), c.real("weights.horizontal")};
    else if (p.weights_kind == "two_periodic")
      p.weight_values = {c.real("weights.a"), c.real("weights.b")};
  } else if (model == TilingModel::bibone) {
    p.weights_kind = "uniform";
  } else if (model == TilingModel::rect_triangle) {
    p.weights_kind = "tcr";
    p.weight_values = {c.real("weights.t"), c.real("weights.c"), c.real("weights.r")};
  } else if (model == TilingModel::lozenge) {
    p.weights_kind = "q";
    p.weight_values = {c.real("weights.q")};
  } else {
    p.weights_kind = "abc";
    p.weight_values = {c.real("weights.a"), c.real("weights.b"), c.real("weights.c")};
  }
}

// The samples of the run's mode.
void fill_samples(const config::Config& c, P& p) {
  using tilings::SamplingMode;
  const SamplingMode mode = tilings::sampling_mode_names().value(c.string("mode"));
  if (mode == SamplingMode::cftp) {
    p.samples = c.integer("cftp.samples");
  } else if (mode == SamplingMode::shuffling) {
    p.samples = c.integer("shuffling.samples");
  } else {
    p.samples = c.integer("glauber.samples");
  }
}

void add_keys(config::Bindings<P>& b) {
  const auto& starts = tilings::start_names();
  b.choice("model", &P::model, tilings::tiling_model_names(), tilings::TilingModel::domino,
           "what is sampled: domino tilings, lozenge tilings, the six-vertex model, bibone "
           "tilings (uniform; mode: glauber only) or rectangle-triangle tilings (weights t, c, "
           "r; mode: glauber only)")
      .choice("mode", &P::mode, tilings::sampling_mode_names(), tilings::SamplingMode::cftp,
              "cftp: independent exact samples (coupling from the past); glauber: one forward "
              "chain; shuffling: independent exact samples by domino shuffling (domino model on "
              "domain.shape aztec_diamond only, any weights.kind)")
      .integer("seed", &P::seed, Integer{0, (1LL << 62), 1},
               "seed of every random number of the run")
      .text("domain.shape", &P::domain_kind,
            String{"aztec_diamond",
                   {"aztec_diamond", "aztec_rectangle", "rectangle", "hexagon", "parallelogram",
                    "domain_wall", "file"}},
            "domino: aztec_diamond, aztec_rectangle, rectangle, file (mask); lozenge: hexagon, "
            "file (mask); six_vertex: domain_wall, file (boundary heights); bibone: hexagon, "
            "parallelogram, file (site mask); rect_triangle: hexagon, file (lozenge mask)")
      .unbound("domain.n", Integer{1, kMaxSide, 10}, "order of the Aztec diamond / DWBC block size")
      .unbound("domain.a", Integer{1, kMaxSide, 4},
               "hexagon side a (bibone: sites per side); Aztec rectangle side a (tileable only "
               "for a = b)")
      .unbound("domain.b", Integer{1, kMaxSide, 4}, "hexagon side b; Aztec rectangle side b")
      .unbound("domain.c", Integer{1, kMaxSide, 4}, "hexagon side c")
      .unbound("domain.rows", Integer{1, kMaxSide, 8},
               "rectangle rows (faces); bibone parallelogram rows (sites along e2)")
      .unbound("domain.cols", Integer{1, kMaxSide, 8},
               "rectangle columns (faces); bibone parallelogram columns (sites along e1)")
      .fill(fill_domain_size)
      .text("domain.file", &P::domain_file, String{"", {}},
            "mask file (domino: rows of '#'/'.'; lozenge and rect_triangle: triangle mask; "
            "bibone: site mask, top row first) or six-vertex boundary file (heights on the "
            "boundary faces, '.' inside); only with shape: file")
      .unbound("weights.kind",
               String{"uniform", {"uniform", "vertical_horizontal", "two_periodic"}},
               "domino weights: uniform, vertical_horizontal (v, h) or two_periodic (a, b); bibone "
               "tilings: uniform only")
      .unbound("weights.vertical", Real{0, 1e12, 1.0},
               "domino vertical_horizontal: vertical weight")
      .unbound("weights.horizontal", Real{0, 1e12, 1.0},
               "domino vertical_horizontal: horizontal weight")
      .unbound("weights.a", Real{0, 1e12, 1.0}, "domino two_periodic a; six-vertex weight a")
      .unbound("weights.b", Real{0, 1e12, 1.0}, "domino two_periodic b; six-vertex weight b")
      .unbound("weights.c", Real{0, 1e12, 1.0},
               "six-vertex weight c (cftp needs c >= max(a, b)); rect_triangle weight c per face "
               "of type B (half triangle, half rectangle)")
      .unbound("weights.t", Real{0, 1e12, 1.0},
               "rect_triangle weight t per face of type A (covered by triangles only)")
      .unbound("weights.r", Real{0, 1e12, 1.0},
               "rect_triangle weight r per face of type C (covered by rectangles only)")
      .unbound("weights.q", Real{0, 1e12, 1.0}, "lozenge weight per cube: q^volume")
      .fill(fill_weights)
      .choice("dynamics.rule", &P::rule, tilings::update_rule_names(),
              tilings::UpdateRule::heat_bath,
              "local move: heat_bath (monotone, needed by cftp) or metropolis (domino/lozenge)")
      .choice("dynamics.colouring", &P::colouring, tilings::move_colouring_names(),
              tilings::default_move_colouring,
              "bibone and rect_triangle: colour classes of the moves (steps update one class of "
              "one move family in parallel): kokkos_kernels colours each family's conflict graph "
              "in the domain (Kokkos Kernels deterministic distance-1 colouring; needs a build "
              "with Kokkos Kernels, then the default), periodic uses fixed sublattice classes; "
              "ignored by the other models")
      .choice("dynamics.class_order", &P::class_order, tilings::class_order_names(),
              tilings::ClassOrder::random,
              "order of the colour classes (bibone, rect_triangle: move pairs) over the steps: "
              "random = a uniformly random class per step (the paper's chain), cyclic = class t "
              "mod classes (systematic scan; about half the steps to mix or coalesce with two "
              "classes, equally exact for cftp)")
      .integer("dynamics.tile_rows", &P::tile_rows, Integer{0, 1024, 0},
               "domino (cftp and glauber): rows of the tiles of tiled steps (each launch runs "
               "dynamics.substeps steps inside randomly shifted tiles); 0 = off (one launch per "
               "step), else a power of two 4 .. 1024, set together with dynamics.tile_cols",
               "faces")
      .integer("dynamics.tile_cols", &P::tile_cols, Integer{0, 1024, 0},
               "domino: columns of the tiles of tiled steps; 0 = off, else a power of two 4 .. "
               "1024",
               "faces")
      .boolean("dynamics.bit_sliced", &P::bit_sliced, Boolean{false},
               "domino tiled steps with uniform weights and heat_bath: hold each tile as bit "
               "planes (domino_bitsliced_kernel.hpp; 5-18x faster on GPUs, a different but "
               "equally exact chain); needs dynamics.tile_cols >= 64 and one MPI rank")
      .integer("dynamics.substeps", &P::substeps, Integer{1, 64, 32},
               "domino tiled steps: steps per launch (step counts are rounded up to whole "
               "launches); unused when the tiles are off",
               "steps")
      .unbound("cftp.samples", Integer{1, 1LL << 30, 1}, "independent exact samples")
      .integer("cftp.initial_horizon", &P::initial_horizon, Integer{1, 1LL << 40, 16},
               "steps of the first coupled pass (doubled until the chains meet)", "steps")
      .integer("cftp.max_horizon", &P::max_horizon, Integer{1, 1LL << 50, 1LL << 40},
               "give up (runtime failure) beyond this horizon", "steps")
      .custom("glauber.start", String{starts.name(tilings::Start::maximal), starts.names()},
              "start of the chain: the maximal or minimal height function (bibone: always a "
              "perfect matching found by Edmonds' algorithm; rect_triangle: always the maximal "
              "lozenge tiling cut into triangles)",
              [](const config::Config& c, P& p) {
                p.start_maximal = tilings::start_names().value(c.string("glauber.start")) ==
                                  tilings::Start::maximal;
              })
      .integer("glauber.thermalisation", &P::thermalisation_sweeps, Integer{0, 1LL << 40, 100},
               "sweeps before the first sample", "sweeps")
      .integer("glauber.sweeps_between_samples", &P::sweeps_between_samples,
               Integer{1, 1LL << 40, 10}, "sweeps between two samples", "sweeps")
      .unbound("glauber.samples", Integer{1, 1LL << 30, 10}, "samples of the chain")
      .unbound("shuffling.samples", Integer{1, 1LL << 30, 1},
               "mode: shuffling: independent exact samples (sample k uses the same per-sample "
               "seed as cftp sample k)")
      .fill(fill_samples)
      .unbound("output.file", String{"tilings.h5", {}}, "HDF5 result file")
      .custom("parallel.halo_transport", String{"auto", parallel::halo_transport_names()},
              "mode: glauber over MPI ranks: how halo rows travel: nccl (CUDA builds with NCCL), "
              "mpi_direct (MPI on the rows: CPU backends or CUDA-aware MPI), mpi_staged (through "
              "pinned host memory); auto: nccl if built with it, else mpi_direct if MPI reports "
              "CUDA support, else mpi_staged",
              [](const config::Config& c, P& p) {
                p.halo_transport =
                    parallel::parse_halo_transport(c.string("parallel.halo_transport"));
              });
}

void add_rules(config::Bindings<P>& b) {
  b.check(
      [](const config::Config& c) -> Rule {
        const std::string& model = c.string("model");
        if (shape_fits_model(model, c.string("domain.shape"))) return std::nullopt;
        return "'" + c.string("domain.shape") + "' is not a domain of the " + model +
               " model; expected " + shapes_of(model);
      },
      "domain.shape");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.string("model") == "bibone" && c.string("mode") != "glauber")
          return "bibone tilings are sampled by mode: glauber only: coupling from the past "
                 "needs a monotone coupling, and bibone tilings (dimers on the triangular "
                 "lattice) have no height function and no monotone coupling";
        if (c.string("model") == "rect_triangle" && c.string("mode") != "glauber")
          return "rectangle-triangle tilings are sampled by mode: glauber only: coupling from "
                 "the past needs a monotone coupling, and their moves have no height function "
                 "to order the states by";
        return std::nullopt;
      },
      "mode");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.string("mode") != "shuffling") return std::nullopt;
        if (c.string("model") != "domino")
          return "shuffling samples domino tilings only, not the " + c.string("model") +
                 " model (use mode: cftp or glauber)";
        if (c.string("domain.shape") != "aztec_diamond")
          return "shuffling samples Aztec diamonds only (domain.shape: aztec_diamond), not '" +
                 c.string("domain.shape") + "' (use mode: cftp or glauber)";
        return std::nullopt;
      },
      "mode");
  b.check(
      [](const config::Config& c) -> Rule {
        const bool file = c.string("domain.shape") == "file";
        const bool given = !c.string("domain.file").empty();
        if (file && !given) return "domain.shape: file needs a file name";
        if (!file && given) return "only used with domain.shape: file";
        return std::nullopt;
      },
      "domain.file");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.string("model") == "bibone" && c.string("weights.kind") != "uniform")
          return "bibone tilings are sampled uniformly only; expected weights.kind: uniform";
        if (c.string("model") != "domino" && c.string("weights.kind") != "uniform")
          return "weights.kind is for dominoes; lozenges use weights.q, six-vertex weights.a/b/c, "
                 "rectangle-triangle tilings weights.t/c/r";
        return std::nullopt;
      },
      "weights.kind");
  for (const char* key : {"weights.vertical", "weights.horizontal", "weights.a", "weights.b",
                          "weights.c", "weights.q", "weights.t", "weights.r"}) {
    b.check(
        [key](const config::Config& c) -> Rule {
          for (const auto& used : used_weights(c))
            if (used == key && !(c.real(key) > 0)) return "expected a weight > 0";
          return std::nullopt;
        },
        key);
  }
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.string("dynamics.rule") != "metropolis") return std::nullopt;
        if (c.string("model") == "six_vertex") return "the six-vertex dynamics is heat bath only";
        if (c.string("model") == "bibone")
          return "the bibone dynamics has one rule (uniform cycle moves); leave "
                 "dynamics.rule at heat_bath";
        if (c.string("model") == "rect_triangle")
          return "the rectangle-triangle dynamics is heat bath only";
        if (c.string("mode") == "cftp")
          return "coupling from the past needs a monotone rule; metropolis is not monotone "
                 "(use heat_bath, or mode: glauber)";
        return std::nullopt;
      },
      "dynamics.rule");
  b.check(
      [](const config::Config& c) -> Rule {
        const tilings::MoveColouring colouring =
            tilings::move_colouring_names().value(c.string("dynamics.colouring"));
        if (tilings::move_colouring_available(colouring)) return std::nullopt;
        return "kokkos_kernels needs Kokkos Kernels, and this portamc was built without it "
               "(PORTAMC_ENABLE_KOKKOSKERNELS=OFF or not found); use periodic";
      },
      "dynamics.colouring");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.string("model") != "six_vertex" || c.string("mode") != "cftp") return std::nullopt;
        const double a = c.real("weights.a"), b = c.real("weights.b"), w = c.real("weights.c");
        if (w >= a && w >= b) return std::nullopt;
        return "coupling from the past needs c >= max(a, b) (monotone heat bath); use "
               "mode: glauber for c < max(a, b)";
      },
      "weights.c");
  for (const char* key : {"dynamics.tile_rows", "dynamics.tile_cols"}) {
    b.check(
        [key](const config::Config& c) -> Rule {
          const long long v = c.integer(key);
          if (v == 0 || (v >= 4 && (v & (v - 1)) == 0)) return std::nullopt;
          return "expected 0 (off) or a power of two from 4 to 1024";
        },
        key);
  }
  b.check(
      [](const config::Config& c) -> Rule {
        const bool rows = c.integer("dynamics.tile_rows") != 0;
        const bool cols = c.integer("dynamics.tile_cols") != 0;
        if (rows != cols)
          return "dynamics.tile_rows and dynamics.tile_cols are both 0 (off) or both set";
        if (rows && c.string("mode") == "shuffling")
          return "domino shuffling runs no Glauber steps: tiled steps are for mode: cftp or "
                 "glauber (leave dynamics.tile_rows/tile_cols at 0)";
        if (rows && c.string("model") != "domino")
          return "tiled steps are implemented for domino tilings only, not for the " +
                 c.string("model") + " model (leave dynamics.tile_rows/tile_cols at 0)";
        return std::nullopt;
      },
      "dynamics.tile_cols");
  b.check(
      [](const config::Config& c) -> Rule {
        if (!c.boolean("dynamics.bit_sliced")) return std::nullopt;
        if (c.integer("dynamics.tile_cols") < 64)
          return "bit-sliced steps are tiled steps with at least 64 columns: set "
                 "dynamics.tile_rows and dynamics.tile_cols (>= 64)";
        if (c.string("weights.kind") != "uniform" || c.string("dynamics.rule") != "heat_bath")
          return "bit-sliced steps draw one fair coin per vertex: they need weights.kind: uniform "
                 "and dynamics.rule: heat_bath";
        return std::nullopt;
      },
      "dynamics.bit_sliced");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("cftp.max_horizon") < c.integer("cftp.initial_horizon"))
          return "expected max_horizon >= initial_horizon";
        return std::nullopt;
      },
      "cftp.max_horizon");
}

}  // namespace

config::Bindings<tilings::RunParameters> tilings_bindings() {
  config::Bindings<P> b("portamc-tilings");
  add_keys(b);
  app::add_checkpoint_keys(b.schema(),
                           "the glauber thermalisation, one sample, at most 4096 "
                           "time slots of a cftp sample, or at most 4096 steps of "
                           "a rank's six-vertex cftp copies");
  add_rules(b);
  return b;
}

}  // namespace portamc
