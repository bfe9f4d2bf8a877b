// The YAML schema of portamc-tilings and its mapping to RunParameters. Every key is typed and
// ranged here; the cross-key rules reject combinations that cannot run (a shape of another
// model, coupling from the past on a non-monotone chain, non-positive weights) before anything
// is built. What needs the domain itself (tileability, files) is checked by prepare_run.
#include <optional>
#include <string>

#include "portamc/tilings/run.hpp"

namespace portamc::tilings {
namespace {

using config::Integer, config::Real, config::String;
using Rule = std::optional<std::string>;

// Side lengths: large enough for any GPU run, small enough that box sizes cannot overflow.
constexpr long long kMaxSide = 1 << 16;

bool shape_fits_model(const std::string& model, const std::string& shape) {
  if (shape == "file") return true;
  if (model == "domino")
    return shape == "aztec_diamond" || shape == "aztec_rectangle" || shape == "rectangle";
  if (model == "lozenge") return shape == "hexagon";
  return shape == "domain_wall";
}

const char* shapes_of(const std::string& model) {
  if (model == "domino") return "aztec_diamond, aztec_rectangle, rectangle or file";
  if (model == "lozenge") return "hexagon or file";
  return "domain_wall or file";
}

// The weights a model reads, by key.
std::vector<std::string> used_weights(const config::Config& c) {
  const std::string& model = c.string("model");
  if (model == "lozenge") return {"weights.q"};
  if (model == "six_vertex") return {"weights.a", "weights.b", "weights.c"};
  const std::string& kind = c.string("weights.kind");
  if (kind == "vertical_horizontal") return {"weights.vertical", "weights.horizontal"};
  if (kind == "two_periodic") return {"weights.a", "weights.b"};
  return {};
}

void add_keys(config::Schema& s) {
  s.add("model", String{"domino", {"domino", "lozenge", "six_vertex"}},
        "what is sampled: domino tilings, lozenge tilings or the six-vertex model")
      .add("mode", String{"cftp", {"cftp", "glauber"}},
           "cftp: independent exact samples (coupling from the past); glauber: one forward chain")
      .add("seed", Integer{0, (1LL << 62), 1}, "seed of every random number of the run")
      .add("domain.shape",
           String{
               "aztec_diamond",
               {"aztec_diamond", "aztec_rectangle", "rectangle", "hexagon", "domain_wall", "file"}},
           "domino: aztec_diamond, aztec_rectangle, rectangle, file (mask); lozenge: hexagon, "
           "file (mask); six_vertex: domain_wall, file (boundary heights)")
      .add("domain.n", Integer{1, kMaxSide, 10}, "order of the Aztec diamond / DWBC block size")
      .add("domain.a", Integer{1, kMaxSide, 4},
           "hexagon side a; Aztec rectangle side a (tileable only for a = b)")
      .add("domain.b", Integer{1, kMaxSide, 4}, "hexagon side b; Aztec rectangle side b")
      .add("domain.c", Integer{1, kMaxSide, 4}, "hexagon side c")
      .add("domain.rows", Integer{1, kMaxSide, 8}, "rectangle rows (faces)")
      .add("domain.cols", Integer{1, kMaxSide, 8}, "rectangle columns (faces)")
      .add("domain.file", String{"", {}},
           "mask file (domino: rows of '#'/'.'; lozenge: triangle mask) or six-vertex boundary "
           "file (heights on the boundary faces, '.' inside); only with shape: file")
      .add("weights.kind", String{"uniform", {"uniform", "vertical_horizontal", "two_periodic"}},
           "domino weights: uniform, vertical_horizontal (v, h) or two_periodic (a, b)")
      .add("weights.vertical", Real{0, 1e12, 1.0}, "domino vertical_horizontal: vertical weight")
      .add("weights.horizontal", Real{0, 1e12, 1.0},
           "domino vertical_horizontal: horizontal weight")
      .add("weights.a", Real{0, 1e12, 1.0}, "domino two_periodic a; six-vertex weight a")
      .add("weights.b", Real{0, 1e12, 1.0}, "domino two_periodic b; six-vertex weight b")
      .add("weights.c", Real{0, 1e12, 1.0}, "six-vertex weight c (cftp needs c >= max(a, b))")
      .add("weights.q", Real{0, 1e12, 1.0}, "lozenge weight per cube: q^volume")
      .add("dynamics.rule", String{"heat_bath", {"heat_bath", "metropolis"}},
           "local move: heat_bath (monotone, needed by cftp) or metropolis (domino/lozenge)")
      .add("cftp.samples", Integer{1, 1LL << 30, 1}, "independent exact samples")
      .add("cftp.initial_horizon", Integer{1, 1LL << 40, 16},
           "steps of the first coupled pass (doubled until the chains meet)", "steps")
      .add("cftp.max_horizon", Integer{1, 1LL << 50, 1LL << 40},
           "give up (runtime failure) beyond this horizon", "steps")
      .add("glauber.start", String{"maximal", {"maximal", "minimal"}},
           "start of the chain: the maximal or minimal height function")
      .add("glauber.thermalisation", Integer{0, 1LL << 40, 100}, "sweeps before the first sample",
           "sweeps")
      .add("glauber.sweeps_between_samples", Integer{1, 1LL << 40, 10},
           "sweeps between two samples", "sweeps")
      .add("glauber.samples", Integer{1, 1LL << 30, 10}, "samples of the chain")
      .add("output.file", String{"tilings.h5", {}}, "HDF5 result file");
}

void add_rules(config::Schema& s) {
  s.check(
      [](const config::Config& c) -> Rule {
        const std::string& model = c.string("model");
        if (shape_fits_model(model, c.string("domain.shape"))) return std::nullopt;
        return "'" + c.string("domain.shape") + "' is not a domain of the " + model +
               " model; expected " + shapes_of(model);
      },
      "domain.shape");
  s.check(
      [](const config::Config& c) -> Rule {
        const bool file = c.string("domain.shape") == "file";
        const bool given = !c.string("domain.file").empty();
        if (file && !given) return "domain.shape: file needs a file name";
        if (!file && given) return "only used with domain.shape: file";
        return std::nullopt;
      },
      "domain.file");
  s.check(
      [](const config::Config& c) -> Rule {
        if (c.string("model") != "domino" && c.string("weights.kind") != "uniform")
          return "weights.kind is for dominoes; lozenges use weights.q, six-vertex weights.a/b/c";
        return std::nullopt;
      },
      "weights.kind");
  for (const char* key : {"weights.vertical", "weights.horizontal", "weights.a", "weights.b",
                          "weights.c", "weights.q"}) {
    s.check(
        [key](const config::Config& c) -> Rule {
          for (const auto& used : used_weights(c))
            if (used == key && !(c.real(key) > 0)) return "expected a weight > 0";
          return std::nullopt;
        },
        key);
  }
  s.check(
      [](const config::Config& c) -> Rule {
        if (c.string("dynamics.rule") != "metropolis") return std::nullopt;
        if (c.string("model") == "six_vertex") return "the six-vertex dynamics is heat bath only";
        if (c.string("mode") == "cftp")
          return "coupling from the past needs a monotone rule; metropolis is not monotone "
                 "(use heat_bath, or mode: glauber)";
        return std::nullopt;
      },
      "dynamics.rule");
  s.check(
      [](const config::Config& c) -> Rule {
        if (c.string("model") != "six_vertex" || c.string("mode") != "cftp") return std::nullopt;
        const double a = c.real("weights.a"), b = c.real("weights.b"), w = c.real("weights.c");
        if (w >= a && w >= b) return std::nullopt;
        return "coupling from the past needs c >= max(a, b) (monotone heat bath); use "
               "mode: glauber for c < max(a, b)";
      },
      "weights.c");
  s.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("cftp.max_horizon") < c.integer("cftp.initial_horizon"))
          return "expected max_horizon >= initial_horizon";
        return std::nullopt;
      },
      "cftp.max_horizon");
}

}  // namespace

config::Schema make_run_schema() {
  config::Schema s("portamc-tilings");
  add_keys(s);
  add_rules(s);
  return s;
}

RunParameters run_parameters(const config::Config& c) {
  RunParameters p;
  const std::string& model = c.string("model");
  p.model = model == "lozenge"      ? TilingModel::lozenge
            : model == "six_vertex" ? TilingModel::six_vertex
                                    : TilingModel::domino;
  p.mode = c.string("mode") == "glauber" ? SamplingMode::glauber : SamplingMode::cftp;
  p.seed = static_cast<std::uint64_t>(c.integer("seed"));
  p.domain_kind = c.string("domain.shape");
  p.domain_file = c.string("domain.file");
  auto side = [&c](const char* key) { return static_cast<int>(c.integer(key)); };
  if (p.domain_kind == "aztec_diamond" || p.domain_kind == "domain_wall")
    p.domain_size = {side("domain.n")};
  else if (p.domain_kind == "aztec_rectangle")
    p.domain_size = {side("domain.a"), side("domain.b")};
  else if (p.domain_kind == "rectangle")
    p.domain_size = {side("domain.rows"), side("domain.cols")};
  else if (p.domain_kind == "hexagon")
    p.domain_size = {side("domain.a"), side("domain.b"), side("domain.c")};
  if (p.model == TilingModel::domino) {
    p.weights_kind = c.string("weights.kind");
    if (p.weights_kind == "vertical_horizontal")
      p.weight_values = {c.real("weights.vertical"), c.real("weights.horizontal")};
    else if (p.weights_kind == "two_periodic")
      p.weight_values = {c.real("weights.a"), c.real("weights.b")};
  } else if (p.model == TilingModel::lozenge) {
    p.weights_kind = "q";
    p.weight_values = {c.real("weights.q")};
  } else {
    p.weights_kind = "abc";
    p.weight_values = {c.real("weights.a"), c.real("weights.b"), c.real("weights.c")};
  }
  p.rule =
      c.string("dynamics.rule") == "metropolis" ? UpdateRule::metropolis : UpdateRule::heat_bath;
  if (p.mode == SamplingMode::cftp) {
    p.samples = c.integer("cftp.samples");
  } else {
    p.samples = c.integer("glauber.samples");
  }
  p.initial_horizon = static_cast<std::uint64_t>(c.integer("cftp.initial_horizon"));
  p.max_horizon = static_cast<std::uint64_t>(c.integer("cftp.max_horizon"));
  p.start_maximal = c.string("glauber.start") == "maximal";
  p.thermalisation_sweeps = c.integer("glauber.thermalisation");
  p.sweeps_between_samples = c.integer("glauber.sweeps_between_samples");
  return p;
}

const char* to_string(TilingModel model) {
  switch (model) {
    case TilingModel::lozenge:
      return "lozenge";
    case TilingModel::six_vertex:
      return "six_vertex";
    default:
      return "domino";
  }
}

const char* to_string(SamplingMode mode) {
  return mode == SamplingMode::glauber ? "glauber" : "cftp";
}

std::string RunParameters::domain_description() const {
  std::string text = domain_kind;
  if (domain_kind == "file") return text + " " + domain_file;
  for (int n : domain_size) text += " " + std::to_string(n);
  return text;
}

}  // namespace portamc::tilings
