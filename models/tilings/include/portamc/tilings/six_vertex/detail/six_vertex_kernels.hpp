#pragma once
// Kernels of the six-vertex dynamics. Public functors with KOKKOS_INLINE_FUNCTION call
// operators (nvcc compiles no extended lambdas in private members), 32-bit indices.
//
// Layout: `chains` independent height functions side by side, entry face * chains + chain
// (face = i * (cols + 1) + j), so the threads of one step, which run over the chains fastest,
// read and write consecutive addresses; a single large block (chains = 1) is plain row-major.
// Heights are int16: one small integer per face (|h| <= 32767 is checked on the host).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/rng.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_colouring.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_local.hpp"

namespace portamc::tilings {

using six_vertex_height = std::int16_t;

/// Heat-bath update of every face of one colour class in every chain, step `step`: face f of
/// chain c draws rng::draw(seed, purpose_tiling_update, (first_stream + c % rng_chains) * faces
/// + f, step)[0] (the entity is the face's global index f for a single chain). Chains c and
/// c + rng_chains share their randomness: the top and bottom chains of coupling from the past.
/// first_stream (0 on one rank) numbers the streams of a share of CFTP copies run elsewhere
/// (MPI ranks), so copy k draws the same words wherever it runs. first_row: the face row of
/// the array's row 0 (a slab's local rows; 0 for the whole block).
template <class MemorySpace>
struct SixVertexHeatBathStep {
  Kokkos::View<six_vertex_height*, MemorySpace> heights;
  HeatBathTable table;
  SixVertexColourClass colour;
  std::int32_t chains = 1;
  std::int32_t rng_chains = 1;
  std::int32_t first_stream = 0;
  std::int32_t face_cols = 0;
  std::int32_t faces = 0;
  std::int32_t first_row = 0;
  std::uint64_t seed = 0;
  std::uint64_t step = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int32_t k) const {
    const std::int32_t chain = k % chains;
    std::int32_t member = k / chains;
    const int part = member < colour.part[0].size() ? 0 : 1;
    if (part == 1) member -= colour.part[0].size();
    const SixVertexSublattice& lattice = colour.part[part];
    const std::int32_t i = lattice.first_row + 2 * (member / lattice.cols);
    const std::int32_t j = lattice.first_col + 2 * (member % lattice.cols);
    const std::int32_t face = i * face_cols + j;
    const std::int32_t at = ((i - first_row) * face_cols + j) * chains + chain;
    six_vertex_height* h = heights.data();
    const FlipSite site = flip_site(h, at, chains, face_cols * chains);
    if (!site.movable) return;
    const std::uint64_t entity = static_cast<std::uint64_t>(first_stream + chain % rng_chains) *
                                     static_cast<std::uint64_t>(faces) +
                                 static_cast<std::uint64_t>(face);
    const std::uint32_t word = rng::draw(seed, rng::purpose_tiling_update, entity, step)[0];
    h[at] = static_cast<six_vertex_height>(heat_bath_height(site, table, word));
  }
};

/// heights(face * chains + c) = (c < split ? upper : lower)(face): extremal starts.
template <class MemorySpace>
struct SixVertexFillChains {
  Kokkos::View<six_vertex_height*, MemorySpace> heights;
  Kokkos::View<const six_vertex_height*, MemorySpace> upper;
  Kokkos::View<const six_vertex_height*, MemorySpace> lower;
  std::int32_t chains = 1;
  std::int32_t split = 1;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int32_t k) const {
    const std::int32_t face = k / chains;
    heights(k) = k % chains < split ? upper(face) : lower(face);
  }
};

/// Coupling-from-the-past test over pairs (c, c + pairs) of 2 * pairs chains: counts the faces
/// where they differ, in total (the reduction) and per pair (unmatched, atomically).
template <class MemorySpace>
struct SixVertexPairMismatch {
  Kokkos::View<const six_vertex_height*, MemorySpace> heights;
  Kokkos::View<std::int32_t*, MemorySpace> unmatched;
  std::int32_t pairs = 1;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int32_t k, std::int64_t& differ) const {
    const std::int32_t face = k / pairs, pair = k % pairs;
    const std::int32_t upper = face * 2 * pairs + pair;
    if (heights(upper) != heights(upper + pairs)) {
      ++differ;
      Kokkos::atomic_add(&unmatched(pair), 1);
    }
  }
};

/// height_sums(face) += sum over chains of the face's height.
template <class MemorySpace>
struct SixVertexSumHeights {
  Kokkos::View<const six_vertex_height*, MemorySpace> heights;
  Kokkos::View<std::int64_t*, MemorySpace> height_sums;
  std::int32_t chains = 1;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int32_t face) const {
    std::int64_t sum = 0;
    for (std::int32_t c = 0; c < chains; ++c) sum += heights(face * chains + c);
    height_sums(face) += sum;
  }
};

/// type_counts(vertex, type) += number of chains in which the vertex has that type.
template <class MemorySpace>
struct SixVertexCountTypes {
  Kokkos::View<const six_vertex_height*, MemorySpace> heights;
  Kokkos::View<std::int64_t**, MemorySpace> type_counts;
  std::int32_t chains = 1;
  std::int32_t cols = 0;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int32_t vertex) const {
    const std::int32_t r = vertex / cols, c = vertex % cols;
    const std::int32_t nw = (r * (cols + 1) + c) * chains, south = (cols + 1) * chains;
    std::int64_t counts[vertex_type_count] = {0, 0, 0, 0, 0, 0};
    for (std::int32_t k = 0; k < chains; ++k) {
      ++counts[vertex_type_index(heights(nw + k), heights(nw + chains + k), heights(nw + south + k),
                                 heights(nw + south + chains + k))];
    }
    for (int t = 0; t < vertex_type_count; ++t) type_counts(vertex, t) += counts[t];
  }
};

}  // namespace portamc::tilings
