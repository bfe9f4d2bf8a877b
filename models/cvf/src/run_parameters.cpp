#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "portamc/cvf/geometry.hpp"
#include "portamc/cvf/run.hpp"

namespace portamc::cvf {
namespace {
[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("cvf run: " + what);
}
std::string text(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", v);
  return buffer;
}
}  // namespace

StatePoint RunParameters::point(std::size_t k) const {
  if (!grid) return {temperatures.at(k), pressures.at(k)};
  const std::size_t per_isobar = temperatures.size();
  return {temperatures.at(k % per_isobar), pressures.at(k / per_isobar)};
}

double RunParameters::resolved_volume_step() const {
  // The relative volume fluctuations of a liquid fall as 1/sqrt(N): a step of about the size of
  // the fluctuations keeps the acceptance near one half at every N.
  return volume_step > 0 ? volume_step : 1.0 / std::sqrt(static_cast<double>(molecules()));
}

void RunParameters::validate() const {
  try {
    Geometry{L};
    cvf::validate(model);
  } catch (const std::invalid_argument& e) {
    fail(e.what());
  }
  if (temperatures.empty() || pressures.empty()) fail("no state point given");
  if (!grid && temperatures.size() != pressures.size())
    fail("paired state points need as many temperatures (" + std::to_string(temperatures.size()) +
         ") as pressures (" + std::to_string(pressures.size()) + ")");
  for (std::size_t k = 0; k < point_count(); ++k) {
    try {
      cvf::validate(point(k));
    } catch (const std::invalid_argument& e) {
      fail(e.what());
    }
  }
  if (!(initial_v_iso >= 1) || !std::isfinite(initial_v_iso))
    fail("the initial v_iso = " + text(initial_v_iso) + " is inside the hard core (< 1 v0)");
  if (!(volume_step >= 0) || !std::isfinite(volume_step))
    fail("the volume step must be >= 0 (0 = automatic), got " + text(volume_step));
  if (thermalisation < 0) fail("thermalisation must be >= 0");
  if (measurements < 2) fail("measurements must be >= 2 (errors need two)");
  if (steps_between_measurements < 1) fail("steps_between_measurements must be >= 1");
  // Equilibration discards at most half of the measurements, so the bins always fit.
  if (jackknife_blocks != 0 && (jackknife_blocks < 2 || jackknife_blocks > measurements / 2))
    fail("analysis.blocks must be auto (0) or in 2..measurements/2 = " +
         std::to_string(measurements / 2) + " (equilibration may discard up to half of the " +
         "measurements), got " + std::to_string(jackknife_blocks));
  if (autocorrelation_lags < 1 || autocorrelation_lags >= measurements)
    fail("autocorrelation lags must be in 1..measurements-1, got " +
         std::to_string(autocorrelation_lags));
}

}  // namespace portamc::cvf
