#include "portamc/tilings/domino/detail/domino_glauber.hpp"

#include <utility>

#include "portamc/tilings/domino/domino_heights.hpp"
#include "portamc/tilings/domino/thurston.hpp"

namespace portamc::tilings {

DominoModel::Geometry DominoModel::geometry(const Domain& domain, const Weights& weights) {
  tilings::validate(weights);
  const int per_row = domain.cols() / 2 > 1 ? domain.cols() / 2 : 1;
  // Walk the box when at least 3/4 of its vertices are interior (rectangles, most masks); an
  // Aztec diamond (about half) is faster through its vertex runs (domino_glauber_kernel.hpp).
  std::int64_t interior = 0;
  for (int i = 1; i < domain.rows(); ++i)
    for (int j = 1; j < domain.cols(); ++j) interior += domain.is_interior_vertex(i, j) ? 1 : 0;
  const std::int64_t box = std::int64_t{domain.rows() - 1} * std::int64_t{domain.cols() - 1};
  return {domain.cols(),
          weights.period_rows,
          weights.period_cols,
          domain.rows(),
          FastDivisor(static_cast<std::uint32_t>(per_row)),
          4 * interior >= 3 * box};
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
