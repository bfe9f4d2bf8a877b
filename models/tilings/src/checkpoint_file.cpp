// The layout of a portamc-tilings checkpoint (format 1): the fingerprint of the run, the
// position (units done, the rank count samples are shared over), the samples so far, the
// summed tile-type counts, the last sample once taken and a chain's state. Sealed with a
// checksum of all of it (checkpoint_file.hpp), and range-checked when read, so that a damaged
// or hand-made file is refused instead of changing the results.
#include <cmath>
#include <cstdint>
#include <string>

#include "portamc/checkpoint_file.hpp"
#include "portamc/checksum.hpp"
#include "portamc/hdf5_file.hpp"
#include "portamc/tilings/sampling_run.hpp"

namespace portamc::tilings {
namespace {

constexpr std::int64_t kCheckpointFormat = 1;

std::uint64_t checksum_of(const SamplingCheckpoint& c, const std::string& config) {
  Checksum sum;
  sum.text(config)
      .text(c.fingerprint)
      .value(c.ranks)
      .value(c.samples)
      .value(c.units_done)
      .value(c.seconds);
  sum.values(c.observable_values).values(c.cftp_horizons).values(c.cftp_steps);
  sum.values(c.cftp_passes).values(c.type_counts).value(c.density_samples);
  sum.value(c.configuration.rows).value(c.configuration.cols).values(c.configuration.values);
  sum.value(c.heights.rows).value(c.heights.cols).values(c.heights.values);
  sum.values(c.rank_samples).values(c.cftp_pass).values(c.cftp_chains).values(c.cftp_heights);
  sum.values(c.chain_state).value(c.chain_steps);
  return sum.digest();
}

template <class T>
void write_grid(h5::Group g, const std::string& name, const Grid<T>& grid,
                const std::string& description) {
  g.write(name, grid.values, "", description);
  g.write(name + "_shape", std::vector<std::uint64_t>{grid.rows, grid.cols}, "", "rows, cols");
}

template <class T>
Grid<T> read_grid(const h5::InputFile& f, const std::string& name) {
  const auto shape = f.read<std::uint64_t>(name + "_shape");
  h5::require_size(f, name + "_shape", shape.size(), 2);
  Grid<T> grid{shape[0], shape[1], f.read<T>(name)};
  h5::require_size(f, name, grid.values.size(), grid.rows * grid.cols);
  return grid;
}

SamplingCheckpoint read_contents(const h5::InputFile& f) {
  const std::int64_t format = f.attribute_int("/", "tilings_checkpoint_format");
  if (format != kCheckpointFormat)
    h5::refuse_checkpoint(f.path(), "tilings checkpoint format " + std::to_string(format) +
                                        ", this portamc reads format " +
                                        std::to_string(kCheckpointFormat));
  SamplingCheckpoint c;
  c.fingerprint = f.read_string("/fingerprint");
  c.ranks = f.read_scalar<std::int64_t>("/position/ranks");
  c.samples = f.read_scalar<std::int64_t>("/position/samples");
  c.units_done = f.read_scalar<std::int64_t>("/position/units_done");
  c.seconds = f.read_scalar<double>("/position/seconds");
  c.rank_samples = f.read<std::uint64_t>("/position/rank_samples");
  c.observable_values = f.read<double>("/samples/observable");
  c.cftp_horizons = f.read<std::uint64_t>("/samples/cftp_horizon");
  c.cftp_steps = f.read<std::uint64_t>("/samples/cftp_steps");
  c.cftp_passes = f.read<std::uint64_t>("/samples/cftp_passes");
  c.type_counts = f.read<std::uint64_t>("/samples/type_counts");
  c.density_samples = f.read_scalar<std::uint64_t>("/samples/density_samples");
  c.configuration = read_grid<std::uint8_t>(f, "/last/configuration");
  c.heights = read_grid<std::int32_t>(f, "/last/heights");
  c.cftp_pass = f.read<std::uint64_t>("/cftp/pass");
  c.cftp_chains = f.read<std::uint8_t>("/cftp/chains");
  c.cftp_heights = f.read<std::int32_t>("/cftp/heights");
  c.chain_state = f.read<std::int32_t>("/chain/state");
  c.chain_steps = f.read_scalar<std::uint64_t>("/chain/steps");
  return c;
}

// Values a run can have produced (the chain's state is checked when it is restored).
void check_contents(const SamplingCheckpoint& c, const std::string& path) {
  if (c.ranks < 1 || c.samples < 1 || c.units_done < 0 || !(c.seconds >= 0) ||
      !std::isfinite(c.seconds))
    h5::refuse_checkpoint(path, "/position holds ranks = " + std::to_string(c.ranks) +
                                    ", units_done = " + std::to_string(c.units_done) +
                                    ": no run has them");
  for (std::size_t k = 0; k < c.observable_values.size(); ++k)
    if (!std::isfinite(c.observable_values[k]))
      h5::refuse_checkpoint(path, "/samples/observable[" + std::to_string(k) + "] is not finite");
  const std::size_t n = c.cftp_horizons.size();
  if (n != 0 &&
      (n != c.observable_values.size() || c.cftp_steps.size() != n || c.cftp_passes.size() != n))
    h5::refuse_checkpoint(path, "the cftp records and /samples/observable differ in length");
  std::uint64_t taken = 0;
  for (std::uint64_t k : c.rank_samples) taken += k;
  if (taken != c.observable_values.size())
    h5::refuse_checkpoint(path, "/position/rank_samples adds up to " + std::to_string(taken) +
                                    " samples, /samples/observable holds " +
                                    std::to_string(c.observable_values.size()));
  for (std::uint64_t count : c.type_counts)
    if (count > c.density_samples)
      h5::refuse_checkpoint(path, "a tile-type count exceeds /samples/density_samples = " +
                                      std::to_string(c.density_samples));
}

}  // namespace

void write_checkpoint(const std::string& path, const SamplingCheckpoint& c,
                      const std::string& config_yaml) {
  h5::OutputFile file(path);
  auto root = file.root();
  h5::begin_checkpoint(root, "tilings", config_yaml);
  root.attribute("tilings_checkpoint_format", kCheckpointFormat);
  root.write_string("fingerprint", c.fingerprint, "parameters that shape the samples");
  auto position = root.group("position");
  position.write_scalar("ranks", c.ranks, "", "ranks the samples are shared over (cftp)");
  position.write_scalar("samples", c.samples, "", "samples the run asked for");
  position.write_scalar("units_done", c.units_done, "", "units of work done");
  position.write_scalar("seconds", c.seconds, "s", "wall time of those units");
  position.write("rank_samples", c.rank_samples, "", "samples each rank has taken");
  auto samples = root.group("samples");
  samples.write("observable", c.observable_values, "", "per sample, ranks in order");
  samples.write("cftp_horizon", c.cftp_horizons, "steps", "per sample (cftp)");
  samples.write("cftp_steps", c.cftp_steps, "steps", "per sample (cftp)");
  samples.write("cftp_passes", c.cftp_passes, "", "per sample (cftp)");
  samples.write("type_counts", c.type_counts, "", "type * cells + cell, all ranks");
  samples.write_scalar("density_samples", c.density_samples, "", "samples in type_counts");
  auto last = root.group("last");
  write_grid(last, "configuration", c.configuration, "the run's last sample, once taken");
  write_grid(last, "heights", c.heights, "its heights");
  auto cftp = root.group("cftp");
  cftp.write("pass", c.cftp_pass, "", "per rank: the pass under way (sampling_run.hpp)");
  cftp.write("chains", c.cftp_chains, "", "dominoes, lozenges: per rank, its two chains");
  cftp.write("heights", c.cftp_heights, "", "six-vertex: per rank, its chains' heights");
  auto chain = root.group("chain");
  chain.write("state", c.chain_state, "", "glauber: the whole state (bytes or heights)");
  chain.write_scalar("steps", c.chain_steps, "steps", "glauber: the step counter");
  h5::seal_checkpoint(root, checksum_of(c, config_yaml));
  file.commit();
}

SamplingCheckpoint read_checkpoint(const std::string& path) {
  return h5::read_verified_checkpoint(
      path, "tilings", [](const h5::InputFile& f) { return read_contents(f); },
      [](const SamplingCheckpoint& c, const std::string& config) { return checksum_of(c, config); },
      [](const SamplingCheckpoint& c, const std::string& file) { check_contents(c, file); });
}

}  // namespace portamc::tilings
