#pragma once
// Analysis of a portamc-cvf run and its HDF5 layout (docs/output.md, section "portamc-cvf").
#include <cstdio>
#include <string>
#include <vector>

#include "portamc/cvf/autocorrelation.hpp"
#include "portamc/cvf/run.hpp"
#include "portamc/cvf/thermodynamics.hpp"
#include "portamc/hdf5_file.hpp"

namespace portamc::cvf {

/// Everything derived from one state point's measurements (thermodynamics.hpp: one
/// equilibration start for every series, the service's binned means, the response functions
/// jackknifed over bins).
struct PointAnalysis {
  EquilibrationPoint equilibration;  ///< from the enthalpy and volume series
  ResponseFunctions response;        ///< <v>, density, enthalpy, C_P, kappa_T, alpha_P
  Estimate hydrogen_bonds;           ///< N_HB / N
  Estimate cooperative;              ///< N_sigma / N
  Estimate v_iso;                    ///< V_iso / N
  Estimate order;                    ///< M
  /// C_M(dt), tau_e, tau_int of the equilibrated M (lags capped at the used measurements - 1).
  AutocorrelationFunction order_autocorrelation;
  double volume_acceptance = 0;     ///< NaN without volume moves
  double ns_per_molecule_step = 0;  ///< update time / (N steps)
};

std::vector<PointAnalysis> analyse(const RunParameters& parameters,
                                   const std::vector<PointRecord>& points);

/// "name: warning" for every estimate of the point whose error is not reliable (empty: all are).
std::vector<std::string> analysis_warnings(const PointAnalysis& analysis);

/// Group /cvf of a result file: parameters, a table over the state points (/cvf/scan) and one
/// group per point (/cvf/point_<k>) with time series, summaries and C_M(dt).
void write_results(h5::Group root, const RunParameters& parameters,
                   const std::vector<PointRecord>& points,
                   const std::vector<PointAnalysis>& analyses);

/// Group /cvf/configuration: the final sigma (arm-major, 6 N bytes), cube states (N/4 bytes),
/// v_iso and the step counter, in the one-rank layout (output.configuration).
void write_configuration(h5::Group root, const FinalConfiguration& configuration);

/// A table of the state points on stdout.
void print_summary(const RunParameters& parameters, const std::vector<PointRecord>& points,
                   const std::vector<PointAnalysis>& analyses);

}  // namespace portamc::cvf
