#pragma once
// The /tilings group of a portamc-tilings output file (layout in docs/output.md).
#include "portamc/hdf5_file.hpp"
#include "portamc/series_analysis.hpp"
#include "portamc/tilings/run.hpp"

namespace portamc::tilings {

/// Statistics of the per-sample observable, written to /tilings/summary and printed by the app.
/// mode glauber: the samples form one correlated chain, analysed by the core service
/// (stats::analyse_series: equilibration detection, tau_int, N_eff, binned error,
/// reliable/warning). mode cftp and shuffling: the samples are independent and exact, so nothing
/// is discarded, the error is the plain standard error of the mean, tau_int = 1/2 and
/// N_eff = samples; such a result is flagged, like a chain's, when N_eff < 100 or there are
/// fewer than 2 samples (NaN error).
stats::SeriesAnalysis observable_statistics(SamplingMode mode, const std::vector<double>& values);

void write_results(h5::Group root, const PreparedRun& run, const RunResults& results);

}  // namespace portamc::tilings
