// Checks of a checkpoint's values: they protect against a file that is consistent (its checksum
// matches) but wrong, made by hand or by another version. A realisation continued from a
// non-finite state, or a finished one with non-finite results, would poison the ensemble's
// statistics without any error.
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint_integrity.hpp"
#include "portamc/checkpoint_file.hpp"

namespace portamc::josephson {
namespace {

std::string element(const std::string& dataset, std::size_t i) {
  return dataset + "[" + std::to_string(i) + "]";
}

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

void require_equal_lengths(const std::string& g, const std::string& reference, std::size_t n,
                           const std::vector<std::pair<const char*, std::size_t>>& arrays,
                           const std::string& path) {
  for (const auto& [name, size] : arrays)
    if (size != n)
      h5::refuse_checkpoint(path, g + "/" + name + " holds " + std::to_string(size) + " values, " +
                                      g + "/" + reference + " " + std::to_string(n));
}

// Refuses the first value of `values` that is not finite where `which` is set.
void require_finite(const std::vector<double>& values, const std::string& dataset,
                    const std::vector<bool>& which, const std::string& path) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (which[i] && !std::isfinite(values[i]))
      h5::refuse_checkpoint(path,
                            element(dataset, i) + " = " + number(values[i]) + " is not finite");
}

void check_results(const EnsembleResults& r, const std::string& g, const std::string& path) {
  if (!std::isfinite(r.h) || !(r.h > 0))
    h5::refuse_checkpoint(
        path, g + " attribute h = " + number(r.h) + " is no time step (finite, positive)");
  const std::size_t n = r.outcome.size();
  require_equal_lengths(g, "outcome", n,
                        {{"steps", r.steps.size()},
                         {"bias", r.bias.size()},
                         {"final_phi", r.final_phi.size()},
                         {"final_v", r.final_v.size()}},
                        path);
  std::vector<bool> finished(n);
  for (std::size_t i = 0; i < n; ++i) finished[i] = r.outcome[i] != Outcome::pending;
  require_finite(r.bias, g + "/bias", finished, path);
  require_finite(r.final_phi, g + "/final_phi", finished, path);
  require_finite(r.final_v, g + "/final_v", finished, path);
}

void check_in_flight(const RealisationStates& s, const std::string& g, const std::string& path) {
  const std::size_t m = s.in_flight.size();
  require_equal_lengths(g, "realisation", m,
                        {{"phi", s.in_flight_phi.size()},
                         {"v", s.in_flight_v.size()},
                         {"step", s.in_flight_step.size()}},
                        path);
  for (std::size_t j = 0; j < m; ++j) {
    const std::uint64_t i = s.in_flight[j];
    if (i >= s.size() || (j > 0 && i <= s.in_flight[j - 1]) ||
        s.results.outcome[i] != Outcome::pending)
      h5::refuse_checkpoint(path, element(g + "/realisation", j) + " = " + std::to_string(i) +
                                      " is no pending realisation of the " +
                                      std::to_string(s.size()) + " above the previous one");
  }
  const std::vector<bool> all(m, true);
  require_finite(s.in_flight_phi, g + "/phi", all, path);
  require_finite(s.in_flight_v, g + "/v", all, path);
}

void check_record(const PointRecord& p, const std::string& g, const std::string& path) {
  if (p.slots < 0)
    h5::refuse_checkpoint(path, g + "/slots = " + std::to_string(p.slots) + " is negative");
  if (!std::isfinite(p.seconds) || p.seconds < 0)
    h5::refuse_checkpoint(path, g + "/seconds = " + number(p.seconds) + " is no wall time");
}

}  // namespace

void check_checkpoint(const RunCheckpoint& c, const std::string& path) {
  for (std::size_t k = 0; k < c.points.size(); ++k) {
    const std::string g = "/points/point_" + std::to_string(k);
    check_record(c.points[k].record, g, path);
    check_results(c.points[k].states.results, g + "/results", path);
    check_in_flight(c.points[k].states, g + "/in_flight", path);
  }
}

}  // namespace portamc::josephson
