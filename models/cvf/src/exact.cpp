#include "portamc/cvf/exact.hpp"

#include <algorithm>
#include <cmath>

namespace portamc::cvf::exact {

double independent_bond_probability(double x, int q) {
  // Written with e^{-x} so that large positive x does not overflow.
  return 1.0 / (1.0 + (q - 1) * std::exp(-x));
}

MoleculeLaw isolated_molecule(double x) {
  // Count the 6^6 states by their number of equal pairs, then weight each class once.
  std::array<double, 16> states{};
  int arm_state[6];
  for (int code = 0; code < 46656; ++code) {
    int rest = code;
    for (int a = 0; a < 6; ++a) {
      arm_state[a] = rest % 6;
      rest /= 6;
    }
    int pairs = 0;
    for (int a = 0; a < 6; ++a)
      for (int b = a + 1; b < 6; ++b) pairs += arm_state[a] == arm_state[b];
    states[pairs] += 1;
  }
  MoleculeLaw law;
  // Normalise relative to the largest exponent present so that no term overflows.
  double largest = -HUGE_VAL;
  for (int k = 0; k < 16; ++k)
    if (states[k] > 0) largest = std::max(largest, x * k);
  double z = 0;
  for (int k = 0; k < 16; ++k) {
    law.probability[k] = states[k] > 0 ? states[k] * std::exp(x * k - largest) : 0.0;
    z += law.probability[k];
  }
  for (int k = 0; k < 16; ++k) {
    law.probability[k] /= z;
    law.mean += k * law.probability[k];
  }
  for (int k = 0; k < 16; ++k) law.variance += (k - law.mean) * (k - law.mean) * law.probability[k];
  return law;
}

}  // namespace portamc::cvf::exact
