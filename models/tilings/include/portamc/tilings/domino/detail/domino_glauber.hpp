#pragma once
// Glauber dynamics and coupling from the past for domino tilings of a SquareDomain, on a Kokkos
// execution space: DominoGlauber<Space> (see glauber_sampler.hpp for the algorithm and the
// random-number keys, domino_glauber_kernel.hpp for the move, glauber_weights.hpp for the
// weights). Classes are the vertex colours (i + j) mod 2 of domino_tiling.hpp; tile types per
// face are the partner directions north, east, south, west.
#include <cstdint>
#include <vector>

#include "portamc/tilings/domino/detail/domino_bitsliced_kernel.hpp"
#include "portamc/tilings/domino/detail/domino_glauber_kernel.hpp"
#include "portamc/tilings/domino/detail/domino_tiled_kernel.hpp"
#include "portamc/tilings/domino/domino_tiling.hpp"
#include "portamc/tilings/domino/square_domain.hpp"
#include "portamc/tilings/engine/detail/glauber_sampler.hpp"
#include "portamc/tilings/engine/detail/vertex_runs.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"

namespace portamc::tilings {

struct DominoModel {
  static constexpr const char* name = "domino tiling";
  using Domain = SquareDomain;
  using Tiling = DominoTiling;
  using Weights = DominoWeights;
  using Geometry = DominoGeometry;
  static constexpr int classes = 2;
  static constexpr int tile_types = 4;
  template <class Space, bool Coupled>
  using Kernel = DominoGlauberStep<Space, Coupled>;
  /// Tiled launches of several steps (domino_tiled_kernel.hpp).
  static constexpr bool tiled = true;
  using TileLaunch = DominoTileLaunch;
  static TileLaunch tile_launch(std::uint64_t seed, std::uint64_t first,
                                const TileSchedule& schedule, std::int64_t rows, std::int64_t cols,
                                std::int64_t& tiles_down, ClassOrder order) {
    return domino_tile_launch(seed, first, schedule, rows, cols, tiles_down, order);
  }
  template <class Space, bool Coupled>
  using TiledKernel = DominoTiledSteps<Space, Coupled>;
  /// Uniform weights: bit-sliced tiles (domino_bitsliced_kernel.hpp).
  static constexpr bool bit_sliced = true;
  template <class Space, bool Coupled>
  using BitslicedKernel = DominoBitslicedSteps<Space, Coupled>;
  static std::int64_t box_rows(const Domain& domain) { return domain.rows(); }
  static std::int64_t box_cols(const Domain& domain) { return domain.cols(); }

  static std::size_t cell_count(const Domain& domain) { return domain.face_flags().size(); }
  static Geometry geometry(const Domain& domain, const Weights& weights);
  static std::vector<std::uint64_t> thresholds(const Weights& weights, UpdateRule rule) {
    return domino_move_thresholds(weights, rule);
  }
  /// Interior vertices in runs per colour class.
  static std::vector<VertexRunsHost> vertex_runs(const Domain& domain);
  static void validate(const Domain& domain, const Tiling& tiling) {
    require_valid_domino_tiling(domain, tiling);
  }
  static const std::vector<std::uint8_t>& bytes(const Tiling& tiling) { return tiling.partner; }
  static Tiling from_bytes(const Domain& domain, std::vector<std::uint8_t> bytes);
  static Tiling maximal(const Domain& domain);
  static Tiling minimal(const Domain& domain);
  /// domino_heights.hpp's height function.
  static std::vector<int> heights(const Domain& domain, const Tiling& tiling);
};

template <class Space>
using DominoGlauber = GlauberSampler<DominoModel, Space>;

}  // namespace portamc::tilings
