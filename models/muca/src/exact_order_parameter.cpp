#include "portamc/muca/exact_order_parameter.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <tuple>

#include "portamc/muca/detail/order_parameter.hpp"

namespace portamc::muca::exact {

std::vector<OrderParameterLevel> order_parameter_levels(const Hamiltonian& h) {
  const OrderParameterSpec spec = order_parameter_spec(h);
  std::map<std::tuple<int, int, long long>, double> counts;
  std::vector<int> per_state(static_cast<std::size_t>(h.site_states()));
  enumerate_configurations(h, [&](const std::vector<int>& states, int bond, int field) {
    long long d = 0;
    if (spec.kind == OrderParameterKind::magnetisation) {
      for (int a : states) d += a - 1;
      d = std::llabs(d);
    } else {
      std::fill(per_state.begin(), per_state.end(), 0);
      for (int a : states) ++per_state[static_cast<std::size_t>(a)];
      d = *std::max_element(per_state.begin(), per_state.end()) - spec.baseline;
    }
    counts[{bond, field, d}] += 1;
  });
  std::vector<OrderParameterLevel> out;
  for (const auto& [key, count] : counts)
    out.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), count});
  return out;
}

OrderParameterAverages order_parameter_averages(const Hamiltonian& h,
                                                const std::vector<OrderParameterLevel>& levels,
                                                double beta, double crystal_field) {
  const OrderParameterSpec spec = order_parameter_spec(h);
  double top = -std::numeric_limits<double>::infinity();
  for (const auto& l : levels) top = std::max(top, -beta * (l.bond + crystal_field * l.field));
  double z = 0, m1 = 0, m2 = 0, m4 = 0;
  for (const auto& l : levels) {
    const double w = l.count * std::exp(-beta * (l.bond + crystal_field * l.field) - top);
    const double m = spec.offset + spec.scale * static_cast<double>(l.d);
    z += w;
    m1 += w * m;
    m2 += w * m * m;
    m4 += w * m * m * m * m;
  }
  OrderParameterAverages a;
  a.magnetisation = m1 / z;
  a.m2 = m2 / z;
  a.m4 = m4 / z;
  a.susceptibility =
      beta * static_cast<double>(h.sites()) * (a.m2 - a.magnetisation * a.magnetisation);
  a.binder = 1.0 - a.m4 / (3.0 * a.m2 * a.m2);
  return a;
}

}  // namespace portamc::muca::exact
