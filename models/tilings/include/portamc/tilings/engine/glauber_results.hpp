#pragma once
// Plain results and small kernels of the Glauber samplers (glauber_sampler.hpp): the start
// choice, CFTP options and result, tile-type densities, and the two reductions over the state
// array (coalescence test, tile-type counts).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

namespace portamc::tilings {

enum class Start { maximal, minimal };

struct CftpOptions {
  std::uint64_t initial_horizon = 16;      ///< T of the first pass (steps)
  std::uint64_t max_horizon = 1ull << 40;  ///< give up (std::runtime_error) beyond this
};

/// How a sampler schedules its steps (domino_tiled_kernel.hpp). tile_rows = 0: one launch per
/// global step (the paper's chain). Otherwise each launch runs `substeps` steps inside tiles
/// of tile_rows x tile_cols faces (powers of two, >= 4) with a random shift per launch; step
/// counts are then rounded up to whole launches.
struct TileSchedule {
  int tile_rows = 0;
  int tile_cols = 0;
  int substeps = 1;  ///< 1 .. 64
  /// Uniform dominoes only: the bit-sliced kernel (domino_bitsliced_kernel.hpp), tile_cols >= 64.
  bool bit_sliced = false;
  bool tiled() const { return tile_rows != 0; }
};

template <class Tiling>
struct CftpSample {
  Tiling tiling;                ///< exact sample of the weighted measure
  std::uint64_t horizon = 0;    ///< T of the pass that coalesced
  std::uint64_t steps_run = 0;  ///< steps over all passes (a coupled step counts once)
  int passes = 0;
};

/// A CFTP sample under way (GlauberSampler::exact_sample_part): the pass in progress, which
/// runs time slots next_slot, next_slot - 1, ..., 1 of the stream from -horizon, and what the
/// sample has cost so far. horizon == 0: no sample under way. With the two chains' states this
/// is all a checkpoint needs to continue the pass exactly.
struct CftpPass {
  std::uint64_t horizon = 0;
  std::uint64_t next_slot = 0;
  bool met = false;  ///< the chains have coalesced in this pass
  std::uint64_t passes = 0;
  std::uint64_t steps_run = 0;
};

/// Tile-type frequencies per cell over the accumulated samples: value(cell, type).
struct TypeDensities {
  int cells = 0;
  int types = 0;
  std::uint64_t samples = 0;
  std::vector<double> values;  ///< index type * cells + cell
  double at(int cell, int type) const {
    return values[static_cast<std::size_t>(type) * static_cast<std::size_t>(cells) +
                  static_cast<std::size_t>(cell)];
  }
};

/// Counts the bytes in which two states differ (the coalescence test).
template <class Space>
struct ByteDifferences {
  Kokkos::View<const std::uint8_t*, Space> a, b;
  KOKKOS_INLINE_FUNCTION void operator()(std::int32_t i, std::int64_t& differ) const {
    differ += a(i) != b(i) ? 1 : 0;
  }
};

}  // namespace portamc::tilings
