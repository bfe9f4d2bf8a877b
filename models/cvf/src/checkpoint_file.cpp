// The layout of a portamc-cvf checkpoint (format 1): the fingerprint of the chain, its
// position, the configuration in the one-rank layout, the volume-move counters and one group
// per state point begun, holding its records so far.
#include <cstdint>
#include <string>

#include "checkpoint_integrity.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/cvf/checkpoint.hpp"
#include "portamc/hdf5_file.hpp"

namespace portamc::cvf {
namespace {

constexpr std::int64_t kCheckpointFormat = 1;

std::string point_name(std::size_t k) {
  return "point_" + std::to_string(k);
}

void write_record(h5::Group g, const PointRecord& r) {
  g.write_scalar("temperature", r.point.temperature_kelvin, "K", "state point");
  g.write_scalar("pressure", r.point.pressure_megapascal, "MPa", "state point");
  g.write("step", r.step, "MC steps", "MC steps of the run before each measurement");
  g.write("hydrogen_bonds", r.hydrogen_bonds, "", "N_HB / N");
  g.write("cooperative", r.cooperative, "", "N_sigma / N");
  g.write("v_iso", r.v_iso, "v0", "V_iso / N");
  g.write("volume", r.volume, "v0", "V / N");
  g.write("enthalpy", r.enthalpy, "epsilon", "H / N");
  g.write("order", r.order, "", "M");
  g.write_scalar("steps", r.steps, "MC steps", "MC steps at this point so far");
  g.write_scalar("volume_proposals", r.volume_proposals, "", "set when the point is finished");
  g.write_scalar("volume_accepted", r.volume_accepted, "", "set when the point is finished");
  g.write_scalar("label_iterations", r.label_iterations, "", "label-equivalence passes");
  g.write_scalar("update_seconds", r.update_seconds, "s", "wall time of the updates");
  g.write_scalar("measurement_seconds", r.measurement_seconds, "s", "wall time of measuring");
}

PointRecord read_record(const h5::InputFile& f, const std::string& g) {
  PointRecord r;
  r.point.temperature_kelvin = f.read_scalar<double>(g + "/temperature");
  r.point.pressure_megapascal = f.read_scalar<double>(g + "/pressure");
  r.step = f.read<std::int64_t>(g + "/step");
  r.hydrogen_bonds = f.read<double>(g + "/hydrogen_bonds");
  r.cooperative = f.read<double>(g + "/cooperative");
  r.v_iso = f.read<double>(g + "/v_iso");
  r.volume = f.read<double>(g + "/volume");
  r.enthalpy = f.read<double>(g + "/enthalpy");
  r.order = f.read<double>(g + "/order");
  r.steps = f.read_scalar<std::uint64_t>(g + "/steps");
  r.volume_proposals = f.read_scalar<std::uint64_t>(g + "/volume_proposals");
  r.volume_accepted = f.read_scalar<std::uint64_t>(g + "/volume_accepted");
  r.label_iterations = f.read_scalar<std::uint64_t>(g + "/label_iterations");
  r.update_seconds = f.read_scalar<double>(g + "/update_seconds");
  r.measurement_seconds = f.read_scalar<double>(g + "/measurement_seconds");
  return r;
}

// The contents as stored; their checks come after the checksum (checkpoint_integrity.hpp).
RunCheckpoint read_contents(const h5::InputFile& f) {
  const std::int64_t format = f.attribute_int("/", "cvf_checkpoint_format");
  if (format != kCheckpointFormat)
    h5::refuse_checkpoint(f.path(), "cvf checkpoint format " + std::to_string(format) +
                                        ", this portamc reads format " +
                                        std::to_string(kCheckpointFormat));
  RunCheckpoint c;
  c.fingerprint = f.read_string("/fingerprint");
  c.position.point = f.read_scalar<std::uint64_t>("/position/point");
  c.position.thermalisation_done = f.read_scalar<std::int64_t>("/position/thermalisation_done");
  c.position.measurements_done = f.read_scalar<std::int64_t>("/position/measurements_done");
  c.position.steps = f.read_scalar<std::uint64_t>("/position/steps");
  c.configuration.sigma = f.read<std::uint8_t>("/configuration/sigma");
  c.configuration.cube_state = f.read<std::uint8_t>("/configuration/cube_state");
  c.configuration.v_iso = f.read_scalar<double>("/configuration/v_iso");
  c.configuration.step = f.read_scalar<std::uint64_t>("/configuration/step");
  c.volume_attempts = f.read_scalar<std::int64_t>("/volume_attempts");
  c.volume_acceptances = f.read_scalar<std::int64_t>("/volume_acceptances");
  const std::int64_t count = f.attribute_int("/points", "count");
  // A damaged count must not drive the loop: every point has a group.
  for (std::int64_t k = 0; k < count; ++k) {
    const std::string g = "/points/" + point_name(static_cast<std::size_t>(k));
    if (!f.exists(g)) h5::refuse_checkpoint(f.path(), "the group " + g + " is missing");
    c.points.push_back(read_record(f, g));
  }
  return c;
}

}  // namespace

void write_checkpoint(const std::string& path, const RunCheckpoint& c,
                      const std::string& config_yaml) {
  h5::OutputFile file(path);
  auto root = file.root();
  h5::begin_checkpoint(root, "cvf", config_yaml);
  root.attribute("cvf_checkpoint_format", kCheckpointFormat);
  root.write_string("fingerprint", c.fingerprint, "parameters that shape the chain");
  auto position = root.group("position");
  position.write_scalar("point", static_cast<std::uint64_t>(c.position.point), "",
                        "state point in progress (the count when done)");
  position.write_scalar("thermalisation_done",
                        static_cast<std::int64_t>(c.position.thermalisation_done), "MC steps",
                        "at the current point");
  position.write_scalar("measurements_done",
                        static_cast<std::int64_t>(c.position.measurements_done), "",
                        "at the current point");
  position.write_scalar("steps", c.position.steps, "MC steps", "of the whole run");
  auto configuration = root.group("configuration");
  configuration.write("sigma", c.configuration.sigma, "", "arm-major, one-rank layout");
  configuration.write("cube_state", c.configuration.cube_state, "", "checkerboard cubes");
  configuration.write_scalar("v_iso", c.configuration.v_iso, "v0", "isotropic volume");
  configuration.write_scalar("step", c.configuration.step, "MC steps", "RNG step counter");
  root.write_scalar("volume_attempts", c.volume_attempts, "", "over the whole chain");
  root.write_scalar("volume_acceptances", c.volume_acceptances, "", "over the whole chain");
  auto points = root.group("points");
  points.attribute("count", static_cast<std::int64_t>(c.points.size()));
  for (std::size_t k = 0; k < c.points.size(); ++k)
    write_record(points.group(point_name(k)), c.points[k]);
  h5::seal_checkpoint(root, checkpoint_checksum(c, config_yaml));
  file.commit();
}

RunCheckpoint read_checkpoint(const std::string& path) {
  return h5::read_verified_checkpoint(
      path, "cvf", [](const h5::InputFile& f) { return read_contents(f); },
      [](const RunCheckpoint& c, const std::string& config) {
        return checkpoint_checksum(c, config);
      },
      [](const RunCheckpoint& c, const std::string& file) { check_checkpoint(c, file); });
}

}  // namespace portamc::cvf
