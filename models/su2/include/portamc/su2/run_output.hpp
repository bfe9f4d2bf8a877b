#pragma once
// HDF5 layout of portamc-su2 results and checkpoints (documented in docs/output.md, section
// "portamc-su2").
#include <string>
#include <vector>

#include "portamc/hdf5_file.hpp"
#include "portamc/su2/run.hpp"
#include "portamc/su2/run_analysis.hpp"

namespace portamc::su2 {

/// Group /su2 of a result file: the run's parameters, a table over the couplings (/su2/scan)
/// and one group per coupling (/su2/point_<k>) with time series, summaries, the Polyakov
/// histogram, Wilson loops and the static potential.
void write_results(h5::Group root, const RunParameters& parameters,
                   const std::vector<PointRecord>& points,
                   const std::vector<PointAnalysis>& analyses);

/// Writes the checkpoint atomically (temporary file, then rename), sealed with the checksum
/// of its contents (portamc/checkpoint_file.hpp).
void write_checkpoint(const std::string& path, const RunCheckpoint& checkpoint,
                      const std::string& config_yaml);
/// h5::BadCheckpoint (a std::invalid_argument: exit code 2 in the app) naming the file and what
/// is wrong unless it is an intact portamc-su2 checkpoint with values a run can have written.
RunCheckpoint read_checkpoint(const std::string& path);

/// The configuration now, as a gauge-configuration file (config_file.hpp) whose metadata carry
/// the last coupling, the heatbath RNG counter and the seed.
void save_configuration(const std::string& path, const Simulation& simulation,
                        const h5::Provenance& provenance);
/// The same with the configuration given (canonical layout): on several ranks, rank 0 writes
/// what the collective simulation.configuration() gathered there.
void save_configuration(const std::string& path, const Simulation& simulation,
                        const h5::Provenance& provenance, const std::vector<double>& links);

}  // namespace portamc::su2
