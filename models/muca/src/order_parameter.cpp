#include "portamc/muca/detail/order_parameter.hpp"

#include <cmath>

namespace portamc::muca {

OrderParameterSpec order_parameter_spec(const Hamiltonian& h) {
  OrderParameterSpec s;
  s.sites = static_cast<int>(h.sites());
  s.states = h.site_states();
  s.bits = h.state_bits();
  s.per_word = 32 / s.bits;
  const int words = (s.sites + s.per_word - 1) / s.per_word;
  const int last_used = s.sites - (words - 1) * s.per_word;
  for (int j = 0; j < s.per_word; ++j) {
    s.full_lows |= 1u << (j * s.bits);
    if (j < last_used) s.last_lows |= 1u << (j * s.bits);
  }
  const double n = static_cast<double>(s.sites);
  if (h.kind == HamiltonianKind::blume_capel) {
    s.kind = OrderParameterKind::magnetisation;
    s.baseline = 0;
    s.offset = 0;
    s.scale = 1.0 / n;
  } else {
    s.kind = OrderParameterKind::majority;
    s.baseline = (s.sites + s.states - 1) / s.states;
    // m = (S (baseline + d) / N - 1) / (S - 1).
    const double states = static_cast<double>(s.states);
    s.offset = (states * s.baseline / n - 1.0) / (states - 1.0);
    s.scale = states / (n * (states - 1.0));
  }
  return s;
}

double limbs_value(const std::uint64_t* limbs) {
  double v = 0;
  for (int j = 3; j >= 0; --j) v = v * 4294967296.0 + static_cast<double>(limbs[j]);
  return v;
}

void normalise_limbs(std::vector<std::uint64_t>& sums) {
  for (std::size_t row = 0; row + kOrderSlots <= sums.size(); row += kOrderSlots)
    for (int k = 0; k < 4; ++k) {
      std::uint64_t* limb = &sums[row + 1 + 4 * k];
      for (int j = 0; j < 3; ++j) {
        limb[j + 1] += limb[j] >> 32;
        limb[j] &= 0xffffffffULL;
      }
    }
}

}  // namespace portamc::muca
