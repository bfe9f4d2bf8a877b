#pragma once
// Scale setting from the gradient flow (flow.hpp): t0 from t^2 <E(t0)> = reference (Lüscher
// 2010) and w0 from W(w0^2) = reference, W(t) = t d/dt (t^2 <E(t)>) (BMW, JHEP 09 (2012) 010).
//
// Reference value for SU(2): 0.1 (su2_flow_reference), proposed by Hirakida, Itou and Kouno,
// "Thermodynamics for pure SU(2) gauge theory using gradient flow", arXiv:1805.07106, as the
// SU(3) value 0.3 scaled down by the leading perturbative coefficient of t^2 E, which is
// proportional to N^2 - 1. Both scales take any reference, since SU(2) studies differ.
//
// Between recorded flow times the curve is interpolated linearly (t0), and W is the
// difference quotient at the midpoints, interpolated linearly (w0): record the flow densely
// enough near the scales (errors O(h^2) for a spacing h; tested).
#include <vector>

#include "portamc/statistics.hpp"

namespace portamc::su2 {

inline constexpr double su2_flow_reference = 0.1;

struct FlowScales {
  double t0 = 0;  ///< NaN when t^2 E does not reach the reference on the recorded times
  double w0 = 0;  ///< NaN likewise for W
};

/// The scales of one curve t^2 E(t) on increasing times t. std::invalid_argument for fewer
/// than two points, mismatched lengths or times that do not increase.
FlowScales flow_scales(const std::vector<double>& t, const std::vector<double>& t2e,
                       double reference = su2_flow_reference);

/// t0 and w0 of the mean curve of configurations[k] = E(t) of configuration k (in chain order,
/// all on the times t), with delete-one jackknife errors over the configurations, the
/// integrated autocorrelation time of the pseudovalues and the effective number of
/// configurations (statistics.hpp). std::invalid_argument for fewer than two configurations.
struct FlowScaleEstimates {
  stats::JackknifeEstimate t0, w0;
};
FlowScaleEstimates estimate_flow_scales(const std::vector<double>& t,
                                        const std::vector<std::vector<double>>& configurations,
                                        double reference = su2_flow_reference);

}  // namespace portamc::su2
