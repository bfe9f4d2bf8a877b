#include "portamc/tilings/domino_glauber.hpp"

#include <utility>

#include "portamc/tilings/domino_heights.hpp"
#include "portamc/tilings/thurston.hpp"

namespace portamc::tilings {

DominoModel::Geometry DominoModel::geometry(const Domain& domain, const Weights& weights) {
  tilings::validate(weights);
  const int per_row = domain.cols() / 2 > 1 ? domain.cols() / 2 : 1;
  return {domain.cols(), weights.period_rows, weights.period_cols, domain.rows(),
          FastDivisor(static_cast<std::uint32_t>(per_row))};
}

std::vector<VertexRunsHost> DominoModel::vertex_runs(const Domain& domain) {
  return build_vertex_runs(
      domain.vertex_rows(), domain.vertex_cols(), classes,
      [&](int i, int j) { return domain.is_interior_vertex(i, j); }, name);
}

DominoTiling DominoModel::from_bytes(const Domain& domain, std::vector<std::uint8_t> bytes) {
  DominoTiling tiling;
  tiling.rows = domain.rows();
  tiling.cols = domain.cols();
  tiling.partner = std::move(bytes);
  return tiling;
}

DominoTiling DominoModel::maximal(const Domain& domain) {
  return maximal_domino_tiling(domain);
}
DominoTiling DominoModel::minimal(const Domain& domain) {
  return minimal_domino_tiling(domain);
}

std::vector<int> DominoModel::heights(const Domain& domain, const Tiling& tiling) {
  return heights_from_tiling(domain, tiling);
}

}  // namespace portamc::tilings
