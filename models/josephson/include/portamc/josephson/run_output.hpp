#pragma once
// HDF5 layout of portamc-josephson results and checkpoints (documented in docs/output.md,
// section "portamc-josephson").
#include <string>
#include <vector>

#include "portamc/hdf5_file.hpp"
#include "portamc/josephson/run.hpp"
#include "portamc/josephson/run_analysis.hpp"

namespace portamc::josephson {

/// Group /josephson of a result file: the parameters (normalised, and physical where given),
/// the warnings, and one group for the mode (/josephson/escape, /josephson/switching or
/// /josephson/arrhenius with one /josephson/arrhenius/point_<k> per temperature).
void write_results(h5::Group root, const ResolvedRun& run, const std::vector<PointRecord>& points,
                   const RunAnalysis& analysis);

/// Writes the checkpoint atomically (temporary file, then rename), sealed with the checksum
/// of its contents (portamc/checkpoint_file.hpp).
void write_checkpoint(const std::string& path, const RunCheckpoint& checkpoint,
                      const std::string& config_yaml);
/// h5::BadCheckpoint (a std::invalid_argument: exit code 2 in the app) naming the file and what
/// is wrong unless it is an intact portamc-josephson checkpoint with values a run can have written.
RunCheckpoint read_checkpoint(const std::string& path);

}  // namespace portamc::josephson
