// The checksum of a cvf checkpoint and the checks of its values. The checks protect against a
// file that is consistent (its checksum matches) but wrong, made by hand or by another
// version: a sigma of 7 would index past the acceptance tables, a NaN in a record would poison
// the statistics without any error.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "checkpoint_integrity.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/checksum.hpp"

namespace portamc::cvf {
namespace {

constexpr int kArms = 6;        // sigma takes 0..5
constexpr int kCubeStates = 9;  // cube states 0..8

std::string number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);
  return text;
}

void add_record(Checksum& sum, const PointRecord& r) {
  sum.value(r.point.temperature_kelvin).value(r.point.pressure_megapascal);
  sum.values(r.step).values(r.hydrogen_bonds).values(r.cooperative).values(r.v_iso);
  sum.values(r.volume).values(r.enthalpy).values(r.order);
  sum.value(r.steps).value(r.volume_proposals).value(r.volume_accepted);
  sum.value(r.label_iterations).value(r.update_seconds).value(r.measurement_seconds);
}

// L as the fingerprint states it (chain_fingerprint's first line, "L=<n>").
long long lattice_size(const RunCheckpoint& c, const std::string& path) {
  const std::string& f = c.fingerprint;
  if (f.rfind("L=", 0) != 0) h5::refuse_checkpoint(path, "/fingerprint does not begin with L=");
  const long long L = std::atoll(f.c_str() + 2);
  if (L < 4 || L > (1LL << 20) || L % 4 != 0)
    h5::refuse_checkpoint(
        path, "/fingerprint states L = " + std::to_string(L) + ", no lattice a run can have");
  return L;
}

void require_size(const std::string& path, const std::string& dataset, std::size_t size,
                  std::size_t expected) {
  if (size != expected)
    h5::refuse_checkpoint(path, dataset + " holds " + std::to_string(size) +
                                    " values where an L^3 lattice needs " +
                                    std::to_string(expected));
}

void require_below(const std::vector<std::uint8_t>& values, int states, const std::string& name,
                   const std::string& path) {
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] >= states)
      h5::refuse_checkpoint(path, name + "[" + std::to_string(i) +
                                      "] = " + std::to_string(int(values[i])) + " is outside 0.." +
                                      std::to_string(states - 1));
}

void check_configuration(const RunCheckpoint& c, const std::string& path) {
  const long long L = lattice_size(c, path);
  const std::size_t cells = static_cast<std::size_t>(L * L * L);
  const FinalConfiguration& g = c.configuration;
  require_size(path, "/configuration/sigma", g.sigma.size(), kArms * cells);
  require_size(path, "/configuration/cube_state", g.cube_state.size(), cells / 4);
  require_below(g.sigma, kArms, "/configuration/sigma", path);
  require_below(g.cube_state, kCubeStates, "/configuration/cube_state", path);
  if (!(g.v_iso >= 1) || !std::isfinite(g.v_iso))
    h5::refuse_checkpoint(path, "/configuration/v_iso = " + number(g.v_iso) +
                                    " is below the hard core (1 v0) or not finite");
  if (g.step != c.position.steps)
    h5::refuse_checkpoint(
        path, "/configuration/step = " + std::to_string(g.step) +
                  " differs from /position/steps = " + std::to_string(c.position.steps));
  if (c.volume_attempts < 0 || c.volume_acceptances < 0 || c.volume_acceptances > c.volume_attempts)
    h5::refuse_checkpoint(path, "volume_acceptances = " + std::to_string(c.volume_acceptances) +
                                    " of volume_attempts = " + std::to_string(c.volume_attempts) +
                                    " is impossible");
}

void check_record(const PointRecord& r, const std::string& g, const std::string& path) {
  const std::size_t n = r.step.size();
  const std::vector<std::pair<const char*, const std::vector<double>*>> series{
      {"hydrogen_bonds", &r.hydrogen_bonds},
      {"cooperative", &r.cooperative},
      {"v_iso", &r.v_iso},
      {"volume", &r.volume},
      {"enthalpy", &r.enthalpy},
      {"order", &r.order}};
  for (const auto& [name, values] : series) {
    if (values->size() != n)
      h5::refuse_checkpoint(path, g + "/" + name + " holds " + std::to_string(values->size()) +
                                      " values, " + g + "/step " + std::to_string(n));
    for (std::size_t i = 0; i < n; ++i)
      if (!std::isfinite((*values)[i]))
        h5::refuse_checkpoint(path, g + "/" + name + "[" + std::to_string(i) +
                                        "] = " + number((*values)[i]) + " is not finite");
  }
  for (std::size_t i = 1; i < n; ++i)
    if (r.step[i] <= r.step[i - 1])
      h5::refuse_checkpoint(path, g + "/step[" + std::to_string(i) + "] does not follow " + g +
                                      "/step[" + std::to_string(i - 1) + "]");
  if (r.volume_accepted > r.volume_proposals)
    h5::refuse_checkpoint(path, g + ": more volume moves accepted than proposed");
  for (double t : {r.update_seconds, r.measurement_seconds})
    if (!std::isfinite(t) || t < 0)
      h5::refuse_checkpoint(path, g + ": a wall time of " + number(t) + " s");
}

}  // namespace

std::uint64_t checkpoint_checksum(const RunCheckpoint& c, const std::string& config_yaml) {
  Checksum sum;
  sum.text("portamc-cvf checkpoint").text(config_yaml).text(c.fingerprint);
  sum.value(static_cast<std::uint64_t>(c.position.point));
  sum.value(static_cast<std::int64_t>(c.position.thermalisation_done));
  sum.value(static_cast<std::int64_t>(c.position.measurements_done));
  sum.value(c.position.steps);
  sum.values(c.configuration.sigma).values(c.configuration.cube_state);
  sum.value(c.configuration.v_iso).value(c.configuration.step);
  sum.value(c.volume_attempts).value(c.volume_acceptances);
  sum.value(static_cast<std::uint64_t>(c.points.size()));
  for (const PointRecord& r : c.points) add_record(sum, r);
  return sum.digest();
}

void check_checkpoint(const RunCheckpoint& c, const std::string& path) {
  check_configuration(c, path);
  for (std::size_t k = 0; k < c.points.size(); ++k)
    check_record(c.points[k], "/points/point_" + std::to_string(k), path);
}

}  // namespace portamc::cvf
