#include "portamc/tilings/lozenge/detail/lozenge_glauber.hpp"

#include <utility>

#include "portamc/tilings/lozenge/detail/lozenge_extremal.hpp"

namespace portamc::tilings {

LozengeModel::Geometry LozengeModel::geometry(const Domain& domain, const Weights& weights) {
  tilings::validate(weights);
  return {domain.width(), domain.height()};
}

std::vector<VertexRunsHost> LozengeModel::vertex_runs(const Domain& domain) {
  return build_vertex_runs(
      domain.height() + 1, domain.width() + 1, classes,
      [&](int y, int x) { return domain.is_interior_vertex(x, y); }, name);
}

LozengeTiling LozengeModel::from_bytes(const Domain& domain, std::vector<std::uint8_t> bytes) {
  return LozengeTiling(domain.width(), domain.height(), std::move(bytes));
}

LozengeTiling LozengeModel::maximal(const Domain& domain) {
  return maximal_tiling(domain);
}
LozengeTiling LozengeModel::minimal(const Domain& domain) {
  return minimal_tiling(domain);
}

LozengeHeights LozengeModel::heights(const Domain& domain, const Tiling& tiling) {
  return heights_from_tiling(domain, tiling);
}

}  // namespace portamc::tilings
