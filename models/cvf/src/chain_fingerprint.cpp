// The text that ties a checkpoint to its chain. Everything the Markov chain depends on goes in,
// so that a resumed run with any of it changed is refused instead of producing a chain that is
// half one run and half another; the analysis settings (jackknife bins, lags) stay out, since
// changing them on resume is harmless and useful.
#include <cstdio>
#include <string>

#include "portamc/cvf/names.hpp"
#include "portamc/cvf/run.hpp"

namespace portamc::cvf {
namespace {

// Exact: 17 significant digits restore every double.
std::string exact(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

std::string list(const std::vector<double>& values) {
  std::string text = "[";
  for (std::size_t k = 0; k < values.size(); ++k) text += (k ? "," : "") + exact(values[k]);
  return text + "]";
}

}  // namespace

std::string chain_fingerprint(const RunParameters& p) {
  const ModelParameters& m = p.model;
  std::string text;
  auto add = [&](const char* key, const std::string& value) {
    text += std::string(key) + "=" + value + "\n";
  };
  add("L", std::to_string(p.L));
  add("temperatures", list(p.temperatures));
  add("pressures", list(p.pressures));
  add("grid", p.grid ? "true" : "false");
  add("epsilon", exact(m.epsilon_kj_per_mol));
  add("r0", exact(m.r0_angstrom));
  add("cutoff", exact(m.cutoff));
  add("v_hb", exact(m.v_hb));
  add("J", exact(m.J));
  add("J_sigma", exact(m.J_sigma));
  add("gas_threshold", exact(m.gas_threshold));
  add("gas_like_cells", to_string(m.gas_like_cells));
  add("volume_jacobian", m.volume_jacobian ? "true" : "false");
  add("sigma", to_string(p.algorithm));
  add("labelling", to_string(p.labelling));
  add("metropolis_kernel", to_string(p.metropolis_kernel));
  add("start", to_string(p.start));
  add("v_iso", exact(p.initial_v_iso));
  add("volume_moves", p.volume_moves ? "true" : "false");
  add("volume_step", exact(p.resolved_volume_step()));
  add("eta_updates", p.eta_updates ? "true" : "false");
  add("seed", std::to_string(p.seed));
  add("thermalisation", std::to_string(p.thermalisation));
  add("measurements", std::to_string(p.measurements));
  add("steps_between_measurements", std::to_string(p.steps_between_measurements));
  return text;
}

}  // namespace portamc::cvf
