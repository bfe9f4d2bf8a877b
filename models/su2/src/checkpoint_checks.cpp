// Checks of a checkpoint's values: they protect against a file that is consistent (its checksum
// matches) but wrong, made by hand or by another version. Links that are no SU(2) matrices
// would change every measurement after the resume, and a step beyond the run's updates puts a
// wrong time axis under the series.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint_integrity.hpp"
#include "portamc/checkpoint_file.hpp"

namespace portamc::su2 {
namespace {

// |q|^2 of a stored link may differ from 1 by this much. Every update stores normalised
// links, so even float runs stay within about 1e-7; anything beyond is no SU(2) matrix.
constexpr double kUnitarityTolerance = 1e-4;
// Plaquettes, Polyakov and Wilson loops are (1/2) Tr of SU(2) matrices: within [-1, 1] up to
// rounding.
constexpr double kTraceTolerance = 1e-4;

std::string element(const std::string& dataset, std::size_t i) {
  return dataset + "[" + std::to_string(i) + "]";
}

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

void check_links(const std::vector<double>& links, const std::string& path) {
  if (links.size() % 4 != 0)
    h5::refuse_checkpoint(
        path, "/position/links holds " + std::to_string(links.size()) + " values, not 4 per link");
  for (std::size_t i = 0; i < links.size(); i += 4) {
    const double* q = &links[i];
    const bool finite =
        std::isfinite(q[0]) && std::isfinite(q[1]) && std::isfinite(q[2]) && std::isfinite(q[3]);
    const double norm2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if (finite && std::fabs(norm2 - 1) <= kUnitarityTolerance) continue;
    h5::refuse_checkpoint(
        path, "/position/links[" + std::to_string(i) + ".." + std::to_string(i + 3) + "] (link " +
                  std::to_string(i / 4) + ") = (" + number(q[0]) + ", " + number(q[1]) + ", " +
                  number(q[2]) + ", " + number(q[3]) + ") is " +
                  (finite ? "not unitary: |q|^2 = " + number(norm2) : std::string("not finite")));
  }
}

// (1/2) Tr values within [-1, 1]; NaN only where `nan_allowed` (the spatial plaquette in 2D).
void check_traces(const std::vector<double>& values, const std::string& dataset,
                  const std::string& path, bool nan_allowed = false) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    if (nan_allowed && std::isnan(v)) continue;
    if (!(std::fabs(v) <= 1 + kTraceTolerance))
      h5::refuse_checkpoint(path, element(dataset, i) + " = " + number(v) +
                                      " is no trace of an SU(2) matrix (within [-1, 1])");
  }
}

void check_series_lengths(const PointRecord& r, const std::string& g, const std::string& path) {
  const std::size_t n = r.step.size();
  const std::pair<const char*, std::size_t> series[] = {
      {"plaquette", r.plaquette.size()},
      {"plaquette_spatial", r.plaquette_spatial.size()},
      {"plaquette_temporal", r.plaquette_temporal.size()},
      {"polyakov", r.polyakov.size()}};
  for (const auto& [name, size] : series)
    if (size != n)
      h5::refuse_checkpoint(path, g + "/" + name + " holds " + std::to_string(size) +
                                      " measurements, " + g + "/step " + std::to_string(n));
  const bool wilson_ok = n == 0 ? r.wilson.empty() : r.wilson.size() % n == 0;
  if (!wilson_ok || (!r.wilson_smeared.empty() && r.wilson_smeared.size() != r.wilson.size()))
    h5::refuse_checkpoint(path, g + "/wilson and wilson_smeared hold " +
                                    std::to_string(r.wilson.size()) + " and " +
                                    std::to_string(r.wilson_smeared.size()) +
                                    " values, not the same number of loops for each of the " +
                                    std::to_string(n) + " measurements");
  const std::size_t flowed = r.flow_measurement.size();
  const std::size_t values = r.flow_energy_plaquette.size();
  if ((flowed == 0 ? values != 0 : values % flowed != 0) || r.flow_energy_clover.size() != values ||
      r.flow_charge.size() != values)
    h5::refuse_checkpoint(path, g + "/flow_* hold " + std::to_string(values) + ", " +
                                    std::to_string(r.flow_energy_clover.size()) + " and " +
                                    std::to_string(r.flow_charge.size()) +
                                    " values, not the same number of flow times for each of the " +
                                    std::to_string(flowed) + " flowed configurations");
  for (std::size_t i = 0; i < flowed; ++i)
    if (r.flow_measurement[i] < 0 || static_cast<std::size_t>(r.flow_measurement[i]) >= n ||
        (i > 0 && r.flow_measurement[i] <= r.flow_measurement[i - 1]))
      h5::refuse_checkpoint(path, element(g + "/flow_measurement", i) + " = " +
                                      std::to_string(r.flow_measurement[i]) +
                                      " is no later measurement of the " + std::to_string(n));
}

// Measurements, their counters and values at one coupling. `last_step` carries the step of
// the run's previous measurement from coupling to coupling.
void check_point(const PointRecord& r, const std::string& g, std::uint64_t updates,
                 std::int64_t& last_step, const std::string& path) {
  if (!std::isfinite(r.beta))
    h5::refuse_checkpoint(path, g + " attribute beta = " + number(r.beta) + " is not finite");
  check_series_lengths(r, g, path);
  for (std::size_t i = 0; i < r.step.size(); ++i) {
    const std::int64_t s = r.step[i];
    if (s < last_step || static_cast<std::uint64_t>(s) > updates)
      h5::refuse_checkpoint(
          path,
          element(g + "/step", i) + " = " + std::to_string(s) +
              " is not between the previous measurement's step (" + std::to_string(last_step) +
              ") and the run's updates (/position/updates = " + std::to_string(updates) + ")");
    last_step = s;
  }
  std::uint64_t counted = 0;
  for (std::uint64_t c : r.polyakov_histogram) counted += c;
  if (counted != r.step.size())
    h5::refuse_checkpoint(path, g + "/polyakov_histogram counts " + std::to_string(counted) +
                                    " measurements, " + g + "/step holds " +
                                    std::to_string(r.step.size()));
  if (r.heatbath_failures > r.heatbath_links)
    h5::refuse_checkpoint(path, g + "/heatbath_failures = " + std::to_string(r.heatbath_failures) +
                                    " exceeds " + g +
                                    "/heatbath_links = " + std::to_string(r.heatbath_links));
  check_traces(r.plaquette, g + "/plaquette", path);
  check_traces(r.plaquette_spatial, g + "/plaquette_spatial", path, true);
  check_traces(r.plaquette_temporal, g + "/plaquette_temporal", path);
  check_traces(r.polyakov, g + "/polyakov", path);
  check_traces(r.wilson, g + "/wilson", path);
  check_traces(r.wilson_smeared, g + "/wilson_smeared", path);
}

void check_position(const RunCheckpoint& c, const std::string& path) {
  const ChainPosition& p = c.position;
  // The coupling in progress has been begun (point < points) or is about to be (point ==
  // points, its counters still 0).
  if (p.point > c.points.size() || c.points.size() > p.point + 1)
    h5::refuse_checkpoint(path, "/position attribute point = " + std::to_string(p.point) +
                                    " does not fit the " + std::to_string(c.points.size()) +
                                    " couplings begun (/points attribute count)");
  const std::size_t measured = p.point < c.points.size() ? c.points[p.point].step.size() : 0;
  if (p.thermalisation_done < 0 || p.measurements_done < 0 ||
      static_cast<std::size_t>(p.measurements_done) != measured ||
      (p.point == c.points.size() && p.thermalisation_done != 0))
    h5::refuse_checkpoint(
        path,
        "/position attributes thermalisation_done = " + std::to_string(p.thermalisation_done) +
            " and measurements_done = " + std::to_string(p.measurements_done) + " do not fit the " +
            std::to_string(measured) + " measurements of the coupling in progress");
  std::uint64_t updates = 0;
  for (const PointRecord& r : c.points) updates += r.updates;
  if (updates != p.updates)
    h5::refuse_checkpoint(path, "/position/updates = " + std::to_string(p.updates) +
                                    ", but the couplings' updates add up to " +
                                    std::to_string(updates));
}

}  // namespace

void check_checkpoint(const RunCheckpoint& c, const std::string& path) {
  check_links(c.links, path);
  check_position(c, path);
  std::int64_t last_step = 0;
  for (std::size_t k = 0; k < c.points.size(); ++k)
    check_point(c.points[k], "/points/point_" + std::to_string(k), c.position.updates, last_step,
                path);
}

}  // namespace portamc::su2
