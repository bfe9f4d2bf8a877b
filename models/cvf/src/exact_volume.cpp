#include "portamc/cvf/exact_volume.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "portamc/cvf/lennard_jones.hpp"

namespace portamc::cvf::exact {

double log_volume_weight(const ModelParameters& m, const ReducedStatePoint& point,
                         std::int64_t molecules, double v) {
  if (!(v >= 1.0)) return -std::numeric_limits<double>::infinity();
  const double n = static_cast<double>(molecules);
  const double q = bonding_states;
  const double x = effective_coupling(m, point) / point.t;
  double log_w = -n * (lennard_jones_energy_per_molecule(m, v) + point.p * v) / point.t;
  if (m.volume_jacobian) log_w += n * std::log(v);
  // log(q^2 - q + q e^x) = log q + log(q - 1 + e^x), written to stay finite for large x.
  const double log_edge = std::log(q) + x + std::log1p((q - 1) * std::exp(-x));
  log_w +=
      hydrogen_bonds_allowed(m, v) ? 2 * n * log_edge + 2 * n * std::log(q) : 6 * n * std::log(q);
  return log_w;
}

VolumeLaw volume_law(const ModelParameters& m, const ReducedStatePoint& point,
                     std::int64_t molecules, int points) {
  if (m.J_sigma != 0) throw std::invalid_argument("the exact law of v_iso needs J_sigma = 0");
  if (!(point.p > 0) || !(point.t > 0))
    throw std::invalid_argument("the exact law of v_iso needs p > 0 and t > 0");
  if (points < 100) throw std::invalid_argument("volume_law: too few quadrature points");
  // Scan geometrically for the region where the density is within e^-60 of its peak. Beyond
  // the cutoff u_LJ = 0 and the log density, -N p v / t (+ N ln v), decreases for good, so
  // the scan stops past the cutoff (or 200 e-folds down) once the density has dropped.
  std::vector<double> coarse_v, coarse_lw;
  double peak = -std::numeric_limits<double>::infinity(), v_peak = 1;
  const double v_cut = std::max(m.cutoff * m.cutoff * m.cutoff, m.gas_threshold);
  for (double v = 1;; v *= 1.001) {
    const double lw = log_volume_weight(m, point, molecules, v);
    coarse_v.push_back(v);
    coarse_lw.push_back(lw);
    if (lw > peak) peak = lw, v_peak = v;
    if (v > 2 * v_peak && lw < peak - 60 && (v > v_cut || lw < peak - 200)) break;
    if (v > 1e9) throw std::invalid_argument("volume_law: the density does not decay");
  }
  std::size_t first = coarse_v.size(), last = 0;
  for (std::size_t i = 0; i < coarse_v.size(); ++i)
    if (coarse_lw[i] > peak - 60) first = std::min(first, i), last = i;
  const double v_min = first == 0 ? 1.0 : coarse_v[first - 1];
  const double v_max = coarse_v[std::min(last + 1, coarse_v.size() - 1)];
  // Midpoint rule on [v_min, v_max], split at the threshold so the jump falls on a grid line.
  std::vector<double> nodes{v_min};
  if (m.gas_like_cells == GasLikeCells::no_hydrogen_bonds && m.gas_threshold > v_min &&
      m.gas_threshold < v_max)
    nodes.push_back(m.gas_threshold);
  nodes.push_back(v_max);
  std::vector<double> vs, lws;
  double top = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k + 1 < nodes.size(); ++k) {
    const double a = nodes[k], b = nodes[k + 1];
    const int n = std::max(100, static_cast<int>(points * (b - a) / (v_max - v_min)));
    const double h = (b - a) / n;
    for (int i = 0; i < n; ++i) {
      const double vi = a + (i + 0.5) * h;
      vs.push_back(vi);
      lws.push_back(log_volume_weight(m, point, molecules, vi) + std::log(h));
      top = std::max(top, lws.back());
    }
  }
  double z = 0, s1 = 0, s2 = 0, gas = 0;
  for (std::size_t i = 0; i < vs.size(); ++i) {
    const double w = std::exp(lws[i] - top);
    z += w;
    s1 += w * vs[i];
    s2 += w * vs[i] * vs[i];
    if (!hydrogen_bonds_allowed(m, vs[i])) gas += w;
  }
  VolumeLaw law;
  law.mean = s1 / z;
  law.variance = s2 / z - law.mean * law.mean;
  law.gas_probability = gas / z;
  law.v_max = v_max;
  return law;
}

}  // namespace portamc::cvf::exact
