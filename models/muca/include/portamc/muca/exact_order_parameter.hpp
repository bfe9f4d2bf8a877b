#pragma once
// Exact canonical averages of the order parameter (order_parameter.hpp's m) on lattices small
// enough to enumerate: the yardstick of the engine's Binder cumulant and susceptibility.
// Host-only.
#include <vector>

#include "portamc/muca/exact_levels.hpp"
#include "portamc/muca/hamiltonian.hpp"

namespace portamc::muca::exact {

/// Configurations counted by (bond, field, d), d the measured integer of order_parameter.hpp.
struct OrderParameterLevel {
  int bond = 0, field = 0;
  long long d = 0;
  double count = 0;
};
/// Every configuration of h (enumerate_configurations' limits apply).
std::vector<OrderParameterLevel> order_parameter_levels(const Hamiltonian& h);

struct OrderParameterAverages {
  double magnetisation = 0;   ///< <|m|>
  double m2 = 0, m4 = 0;      ///< <m^2>, <m^4>
  double susceptibility = 0;  ///< beta N (<m^2> - <|m|>^2)
  double binder = 0;          ///< 1 - <m^4> / (3 <m^2>^2)
};
/// The averages at inverse temperature beta and crystal field D (weights
/// exp(-beta (bond + D field)), shifted so any finite beta is stable).
OrderParameterAverages order_parameter_averages(const Hamiltonian& h,
                                                const std::vector<OrderParameterLevel>& levels,
                                                double beta, double crystal_field);

}  // namespace portamc::muca::exact
