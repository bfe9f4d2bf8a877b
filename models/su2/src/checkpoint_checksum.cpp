#include <cstdint>

#include "checkpoint_integrity.hpp"
#include "portamc/checksum.hpp"

namespace portamc::su2 {
namespace {

void add_point(Checksum& sum, const PointRecord& r) {
  sum.value(r.beta).value(r.updates).value(r.heatbath_links).value(r.heatbath_failures);
  sum.value(r.update_seconds).value(r.measurement_seconds);
  sum.values(r.step).values(r.plaquette).values(r.plaquette_spatial);
  sum.values(r.plaquette_temporal).values(r.polyakov);
  sum.values(r.wilson).values(r.wilson_smeared).values(r.polyakov_histogram);
  // Only with flowed configurations: checkpoints of runs without the flow keep their checksum.
  if (!r.flow_measurement.empty()) {
    sum.values(r.flow_measurement).values(r.flow_energy_plaquette);
    sum.values(r.flow_energy_clover).values(r.flow_charge);
  }
}

}  // namespace

std::uint64_t checkpoint_checksum(const RunCheckpoint& c, const std::string& config_yaml) {
  Checksum sum;
  sum.text("portamc-su2 checkpoint").text(config_yaml).text(c.fingerprint);
  // Integers go in as 64-bit, the width the file stores them in.
  const ChainPosition& p = c.position;
  sum.value(static_cast<std::int64_t>(p.point));
  sum.value(static_cast<std::int64_t>(p.thermalisation_done));
  sum.value(static_cast<std::int64_t>(p.measurements_done));
  sum.value(p.updates).value(p.heatbath_sweeps);
  sum.values(c.links);
  sum.value(static_cast<std::uint64_t>(c.points.size()));
  for (const PointRecord& r : c.points) add_point(sum, r);
  return sum.digest();
}

}  // namespace portamc::su2
