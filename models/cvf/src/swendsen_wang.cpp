// Host side of the Swendsen-Wang update: integer bond thresholds and labelling names.
#include <cmath>
#include <stdexcept>
#include <string>

#include "portamc/cvf/detail/cluster_bonds.hpp"
#include "portamc/cvf/detail/cluster_labels.hpp"
#include "portamc/cvf/detail/union_find.hpp"

namespace portamc::cvf {

namespace {
// floor(p 2^32) for p = 1 - exp(-coupling / t) >= 0; exact because scaling by 2^32 is exact.
std::uint64_t threshold(double coupling_over_t) {
  const double p = -std::expm1(-coupling_over_t);
  return static_cast<std::uint64_t>(std::floor(std::ldexp(p, 32)));
}
}  // namespace

BondThresholds bond_thresholds(double J_eff, double J_sigma, double t) {
  if (!(t > 0) || !std::isfinite(t)) {
    throw std::invalid_argument("cvf::bond_thresholds: temperature t must be positive, got " +
                                std::to_string(t));
  }
  if (!std::isfinite(J_eff)) {
    throw std::invalid_argument("cvf::bond_thresholds: J_eff must be finite");
  }
  if (!(J_sigma >= 0) || !std::isfinite(J_sigma)) {
    throw std::invalid_argument(
        "cvf::bond_thresholds: J_sigma must be finite and non-negative, got " +
        std::to_string(J_sigma));
  }
  BondThresholds th;
  th.covalent = threshold(std::fabs(J_eff) / t);
  th.covalent_unequal = J_eff < 0;
  th.cooperative = threshold(J_sigma / t);
  return th;
}

void check_label_block(const LabelBlock& block) {
  auto power_of_two = [](int side) { return side >= 1 && (side & (side - 1)) == 0; };
  if (!power_of_two(block.x) || !power_of_two(block.y) || !power_of_two(block.z) ||
      static_cast<long long>(block.x) * block.y * block.z > LabelBlock::max_cells) {
    throw std::invalid_argument(
        "cvf union-find: label block " + std::to_string(block.x) + " x " + std::to_string(block.y) +
        " x " + std::to_string(block.z) + " must have sides that are powers of two and at most " +
        std::to_string(LabelBlock::max_cells) + " cells (its scratch memory is 28 B per cell)");
  }
}

}  // namespace portamc::cvf
