#pragma once
// The six-vertex model as a family of the slab chain (row_slab_chain.hpp): heat-bath moves of
// face heights (six_vertex_kernels.hpp) over colour classes of faces, on `chains` copies of the
// block side by side. SixVertexGlauber runs it forward on one rank or in slabs over several;
// SixVertexCftp runs coupled top and bottom chains of it.
//
// Step t: the colour class is step_class(order, seed, t, classes) (class_order.hpp; random
// order by default), and every face of that class in every chain makes one heat-bath move.
// Every move leaves the Gibbs measure invariant and moves in one class commute, so each step
// does; a face keeps its height with positive probability, so the chain is aperiodic.
// Irreducible: if h != h_min, take among the faces maximising h - h_min (> 0, so interior) one
// with the largest h. A neighbour one above it would share that maximal difference with a
// larger h, so all four neighbours are one below: the face can move down, staying >= h_min.
// Hence every state reaches h_min by c-flips at interior faces, and back by reversibility.
//
// Rows. Entry face * chains + chain (face = i * face_cols + j), so face row i of every chain is
// one row of face_cols * chains heights. A face move reads its four side and four diagonal
// neighbours (rows i - 1 .. i + 1) and writes face i only: the halo is one row, and a rank runs
// the faces of its owned rows. Face f of chain c draws the word keyed by (first_stream + c %
// rng_chains) * faces + f and t wherever it runs, so the slabs put together are bitwise the
// one-rank state, whatever the number of ranks.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/tilings/engine/detail/row_slab_chain.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_colouring.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_kernels.hpp"
#include "portamc/tilings/six_vertex/six_vertex_boundary.hpp"
#include "portamc/tilings/six_vertex/six_vertex_heights.hpp"
#include "portamc/tilings/six_vertex/six_vertex_weights.hpp"

namespace portamc::tilings {

/// The faces of a colour class in face rows [first_row, end_row).
inline SixVertexColourClass restrict_class(const SixVertexColourClass& c, int first_row,
                                           int end_row) {
  SixVertexColourClass out;
  for (int p = 0; p < 2; ++p) {
    const SixVertexSublattice& s = c.part[p];
    SixVertexSublattice& r = out.part[p];
    if (s.size() == 0) continue;
    // Rows s.first_row + 2 a, 0 <= a < s.rows, inside [first_row, end_row).
    const auto up = [&](int row) { return std::max(0, (row - s.first_row + 1) / 2); };
    const int a0 = std::min(s.rows, up(first_row)), a1 = std::min(s.rows, up(end_row));
    if (a1 <= a0) continue;
    r.first_row = s.first_row + 2 * a0;
    r.first_col = s.first_col;
    r.rows = a1 - a0;
    r.cols = s.cols;
  }
  if (out.part[0].size() == 0 && out.part[1].size() != 0) std::swap(out.part[0], out.part[1]);
  out.size = out.part[0].size() + out.part[1].size();
  return out;
}

struct SixVertexSlabFamily : ClassStepFamily<SixVertexSlabFamily> {
  using Element = six_vertex_height;
  SixVertexBoundary boundary;
  HeatBathTable table;
  std::vector<SixVertexColourClass> whole;  ///< the classes of the whole block
  int chains = 1;                           ///< copies side by side
  int rng_chains = 1;                       ///< chains c and c + rng_chains share their randomness
  int first_stream = 0;  ///< > 0: a share of coupling-from-the-past copies run elsewhere

  /// Throws std::invalid_argument for bad weights, heights beyond int16, chain counts that are
  /// not a multiple of rng_chains, or arrays past the kernels' 32-bit indices.
  SixVertexSlabFamily(const SixVertexBoundary& b, const SixVertexWeights& weights, int chain_count,
                      int rng_chain_count, int first)
      : boundary(b),
        table(heat_bath_thresholds(weights)),
        chains(chain_count),
        rng_chains(rng_chain_count),
        first_stream(first) {
    if (chains < 1 || rng_chains < 1 || chains % rng_chains != 0 || first_stream < 0 ||
        first_stream > INT32_MAX - rng_chains) {
      throw std::invalid_argument("six-vertex dynamics: " + std::to_string(chains) + " chains, " +
                                  std::to_string(rng_chains) +
                                  " random streams (need >= 1, chains a multiple of streams)");
    }
    if (b.max_abs_height() > 32767) {
      throw std::invalid_argument("six-vertex dynamics: heights up to " +
                                  std::to_string(b.max_abs_height()) +
                                  " do not fit the int16 height arrays (|h| <= 32767)");
    }
    if (static_cast<double>(b.face_count()) * chains > static_cast<double>(INT32_MAX)) {
      throw std::invalid_argument("six-vertex dynamics: " + std::to_string(b.face_count()) +
                                  " faces x " + std::to_string(chains) +
                                  " chains exceed the 2^31 - 1 entries of 32-bit kernel indices");
    }
    whole = six_vertex_colour_classes(b.rows(), b.cols(), is_diagonal_free(table));
  }

  int rows() const { return boundary.face_rows(); }
  int row_length() const { return boundary.face_cols() * chains; }
  int halo() const { return 1; }
  int classes() const { return static_cast<int>(whole.size()); }

  template <class Space>
  struct Moves {
    std::vector<SixVertexColourClass> local;  ///< restricted to the owned rows
    std::vector<std::int64_t> sizes;          ///< moves of the whole block, every chain
    std::int64_t size(int c) const { return sizes[static_cast<std::size_t>(c)]; }
  };
  template <class Space>
  Moves<Space> slab_moves(const Space& /*space*/, const RowSlab& slab) const {
    Moves<Space> m;
    for (const SixVertexColourClass& c : whole) {
      m.local.push_back(restrict_class(c, slab.own_begin, slab.own_end));
      m.sizes.push_back(std::int64_t{c.size} * chains);
    }
    return m;
  }
  template <class Space>
  void launch_class(const Space& space, const Kokkos::View<six_vertex_height*, Space>& heights,
                    const Moves<Space>& m, int c, const RowSlab& slab, std::uint64_t seed,
                    std::uint64_t t) const {
    const SixVertexColourClass& colour = m.local[static_cast<std::size_t>(c)];
    if (colour.size == 0) return;
    SixVertexHeatBathStep<typename Space::memory_space> kernel;
    kernel.heights = heights;
    kernel.table = table;
    kernel.colour = colour;
    kernel.chains = chains;
    kernel.rng_chains = rng_chains;
    kernel.first_stream = first_stream;
    kernel.face_cols = boundary.face_cols();
    kernel.faces = static_cast<std::int32_t>(boundary.face_count());
    kernel.first_row = slab.local_begin;
    kernel.seed = seed;
    kernel.step = t;
    Kokkos::parallel_for(
        "portamc::tilings::six_vertex_heat_bath",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space, 0, colour.size * chains),
        kernel);
  }

  /// The whole state of `states` (one per chain, each validated), interleaved.
  std::vector<six_vertex_height> interleave(const std::vector<SixVertexHeights>& states) const {
    if (states.size() != static_cast<std::size_t>(chains)) {
      throw std::invalid_argument("six-vertex dynamics: " + std::to_string(states.size()) +
                                  " states for " + std::to_string(chains) + " chains");
    }
    std::vector<six_vertex_height> out(boundary.face_count() * static_cast<std::size_t>(chains));
    for (int c = 0; c < chains; ++c) {
      validate_six_vertex_heights(boundary, states[static_cast<std::size_t>(c)]);
      const std::vector<int>& values = states[static_cast<std::size_t>(c)].values();
      for (std::size_t f = 0; f < values.size(); ++f)
        out[f * chains + c] = static_cast<six_vertex_height>(values[f]);
    }
    return out;
  }
  /// Chains first .. first + count - 1 of a whole interleaved state.
  std::vector<SixVertexHeights> split(const std::vector<six_vertex_height>& whole_state, int first,
                                      int count) const {
    std::vector<SixVertexHeights> out;
    const std::size_t faces = boundary.face_count();
    for (int c = first; c < first + count; ++c) {
      std::vector<int> values(faces);
      for (std::size_t f = 0; f < faces; ++f) values[f] = whole_state[f * chains + c];
      out.emplace_back(boundary.rows(), boundary.cols(), std::move(values));
    }
    return out;
  }
};

}  // namespace portamc::tilings
