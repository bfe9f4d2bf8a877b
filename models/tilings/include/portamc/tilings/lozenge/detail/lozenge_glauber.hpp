#pragma once
// Glauber dynamics and coupling from the past for lozenge tilings of a TriangularDomain with
// volume weight q^(cubes), on a Kokkos execution space: LozengeGlauber<Space> (algorithm in
// glauber_sampler.hpp, move in lozenge_glauber_kernel.hpp). Classes are vertex_colour
// (x - y) mod 3 of lozenge_tiling.hpp; tile types per cell are the partner k = 0, 1, 2 of its
// up triangle, i.e. the three lozenge orientations.
#include <cstdint>
#include <vector>

#include "portamc/tilings/engine/detail/glauber_sampler.hpp"
#include "portamc/tilings/engine/detail/vertex_runs.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"
#include "portamc/tilings/lozenge/detail/lozenge_glauber_kernel.hpp"
#include "portamc/tilings/lozenge/lozenge_heights.hpp"
#include "portamc/tilings/lozenge/lozenge_tiling.hpp"
#include "portamc/tilings/lozenge/triangular_domain.hpp"

namespace portamc::tilings {

struct LozengeModel {
  static constexpr const char* name = "lozenge tiling";
  using Domain = TriangularDomain;
  using Tiling = LozengeTiling;
  using Weights = LozengeWeights;
  using Geometry = LozengeGeometry;
  static constexpr int classes = 3;
  static constexpr int tile_types = 3;
  template <class Space, bool Coupled>
  using Kernel = LozengeGlauberStep<Space, Coupled>;
  static constexpr bool tiled = false;  ///< tiled steps: dominoes only so far
  static constexpr bool bit_sliced = false;

  static std::size_t cell_count(const Domain& domain) { return domain.up_flags().size(); }
  static Geometry geometry(const Domain& domain, const Weights& weights);
  static std::vector<std::uint64_t> thresholds(const Weights& weights, UpdateRule rule) {
    return lozenge_move_thresholds(weights, rule);
  }
  /// Interior vertices (row y, column x) in runs per colour class.
  static std::vector<VertexRunsHost> vertex_runs(const Domain& domain);
  static void validate(const Domain& domain, const Tiling& tiling) {
    validate_tiling(domain, tiling);
  }
  static const std::vector<std::uint8_t>& bytes(const Tiling& tiling) { return tiling.partners(); }
  static Tiling from_bytes(const Domain& domain, std::vector<std::uint8_t> bytes);
  static Tiling maximal(const Domain& domain);
  static Tiling minimal(const Domain& domain);
  static LozengeHeights heights(const Domain& domain, const Tiling& tiling);
};

template <class Space>
using LozengeGlauber = GlauberSampler<LozengeModel, Space>;

}  // namespace portamc::tilings
