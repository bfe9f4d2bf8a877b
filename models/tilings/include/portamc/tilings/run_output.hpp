#pragma once
// The /tilings group of a portamc-tilings output file (layout in docs/output.md).
#include "portamc/hdf5_file.hpp"
#include "portamc/tilings/run.hpp"

namespace portamc::tilings {

/// Mean and standard error of per-sample values (error 0 for fewer than two samples).
struct SampleMean {
  double mean = 0, error = 0;
};
SampleMean sample_mean(const std::vector<double>& values);

void write_results(h5::Group root, const PreparedRun& run, const RunResults& results);

}  // namespace portamc::tilings
