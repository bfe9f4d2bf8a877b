#pragma once
// Slab decomposition of the CVF lattice over R MPI ranks along z, the slowest direction: a
// z-plane of one arm is a contiguous range of L^2 sigma bytes, and a "cube layer" (the cubes
// whose lower corner has z = 2k or 2k + 1) is a contiguous range of L^2/2 cube states.
//
// Rank r owns the planes z0 .. z0 + T - 1 with T = L / R, z0 = r T, and the cubes whose lower
// corner lies in them: the cube layers k = z0/2 .. (z0 + T)/2 - 1. That needs T even: a cube
// spans the planes z and z + 1 of one layer, and with an odd T a layer (hence the cube index
// range, and the planes each cube of it reads) would straddle two ranks. T = 2 is enough: every
// read of an update reaches at most one plane beyond the slab (below: the arm 4 of plane z0 - 1
// and the cube layer z0/2 - 1 whose odd cubes hold the edges between z0 - 1 and z0; above:
// plane z0 + T, read by the eta update of the top cube layer and by the +z pass).
//
// Local layout (per rank): sigma arm-major over L^2 (T + 2) cells, local plane 0 = global
// z0 - 1 (halo), planes 1..T owned, plane T + 1 = global z0 + T (halo), periodic in z; cube
// states over T/2 + 1 layers, local layer 0 = global layer z0/2 - 1 (halo), 1..T/2 owned.
// Because z0 is even, local cube layer kl holds the lower corners of local planes 2 kl - 1 and
// 2 kl, and the parity of a global z is that of local z + 1.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "portamc/cvf/geometry.hpp"

namespace portamc::cvf {

class SlabDecomposition {
 public:
  using index_type = std::int64_t;

  SlabDecomposition() = default;
  /// Throws std::invalid_argument (the same text on every rank) unless L is a valid CVF size,
  /// ranks >= 1 divides L and the slab thickness L / ranks is even.
  SlabDecomposition(int L, int ranks, int rank) : geometry_(L), ranks_(ranks), rank_(rank) {
    validate(L, ranks);
    if (rank < 0 || rank >= ranks)
      throw std::invalid_argument("CVF slab: rank " + std::to_string(rank) + " outside 0.." +
                                  std::to_string(ranks - 1));
    thickness_ = L / ranks;
    z0_ = rank * thickness_;
  }

  /// The rank-count condition alone (for checks before any rank builds a slab).
  static void validate(int L, int ranks) {
    Geometry{L};  // L itself
    if (ranks < 1) throw std::invalid_argument("CVF slab: the rank count must be >= 1");
    if (L % ranks != 0 || (L / ranks) % 2 != 0) {
      // L itself is a multiple of 4, so the valid sizes are the multiples of lcm(4, 2 ranks).
      const int step = ranks % 2 == 0 ? 2 * ranks : 4 * ranks;
      throw std::invalid_argument(
          "the CVF lattice of L = " + std::to_string(L) + " cannot be split over " +
          std::to_string(ranks) +
          " MPI ranks: the z-slabs of L / ranks planes must have an even thickness (the "
          "checkerboard cubes are two planes deep), so L must be a multiple of 2 x ranks = " +
          std::to_string(2 * ranks) + " (valid sizes: multiples of " + std::to_string(step) + ")");
    }
  }

  const Geometry& geometry() const { return geometry_; }
  int size() const { return geometry_.size(); }
  int ranks() const { return ranks_; }
  int rank() const { return rank_; }
  int lower_rank() const { return (rank_ + ranks_ - 1) % ranks_; }
  int upper_rank() const { return (rank_ + 1) % ranks_; }
  /// Planes per slab T and the first owned global plane z0.
  int thickness() const { return thickness_; }
  int first_plane() const { return z0_; }
  /// The rank owning global plane z, and the one owning the cube with lower corner z.
  int owner_of_plane(int z) const { return z / thickness_; }

  index_type plane_cells() const { return static_cast<index_type>(size()) * size(); }
  /// Local cells including the two halo planes, and the owned local range [begin, end).
  index_type local_cells() const { return plane_cells() * (thickness_ + 2); }
  index_type owned_cell_begin() const { return plane_cells(); }
  index_type owned_cell_end() const { return plane_cells() * (thickness_ + 1); }
  index_type owned_cells() const { return plane_cells() * thickness_; }
  index_type local_variables() const { return arms * local_cells(); }
  /// global cell = local cell + cell_offset() for owned cells (negative offset on rank 0).
  index_type cell_offset() const { return plane_cells() * (z0_ - 1); }

  index_type layer_cubes() const { return plane_cells() / 2; }
  index_type local_cubes() const { return layer_cubes() * (thickness_ / 2 + 1); }
  index_type owned_cube_begin() const { return layer_cubes(); }
  index_type owned_cube_end() const { return local_cubes(); }
  index_type owned_cubes() const { return layer_cubes() * (thickness_ / 2); }
  /// global cube = local cube + cube_offset() for owned cubes.
  index_type cube_offset() const { return layer_cubes() * (z0_ / 2 - 1); }

  /// Whether the global cell / cube is owned by this rank.
  bool owns_cell(index_type global_cell) const {
    const index_type begin = plane_cells() * z0_;
    return global_cell >= begin && global_cell < begin + owned_cells();
  }
  bool owns_cube(index_type global_cube) const {
    const index_type begin = layer_cubes() * (z0_ / 2);
    return global_cube >= begin && global_cube < begin + owned_cubes();
  }

 private:
  Geometry geometry_;
  int ranks_ = 1;
  int rank_ = 0;
  int thickness_ = 0;
  int z0_ = 0;
};

/// The device-side view of a slab that the decomposed kernels capture by copy: local index
/// arithmetic with global parities and global RNG entities.
struct Slab {
  int L = 0;
  int T = 0;   ///< owned planes
  int z0 = 0;  ///< first owned global plane (even)
  std::int64_t plane = 0;
  std::int64_t cells = 0;  ///< local cells with halos, L^2 (T + 2)
  std::int64_t cell_offset = 0;
  std::int64_t cube_offset = 0;
  std::int64_t global_cells = 0;  ///< N = L^3

  Slab() = default;
  explicit Slab(const SlabDecomposition& d)
      : L(d.size()),
        T(d.thickness()),
        z0(d.first_plane()),
        plane(d.plane_cells()),
        cells(d.local_cells()),
        cell_offset(d.cell_offset()),
        cube_offset(d.cube_offset()),
        global_cells(d.geometry().cells()) {}

  KOKKOS_INLINE_FUNCTION int wrap(int c) const { return c < 0 ? c + L : (c >= L ? c - L : c); }
  /// Local cell of (x, y, local z); z is not wrapped (the halos hold z0 - 1 and z0 + T).
  KOKKOS_INLINE_FUNCTION std::int64_t cell(int x, int y, int zl) const {
    return x + static_cast<std::int64_t>(L) * (y + static_cast<std::int64_t>(L) * zl);
  }
  /// Local cube with lower corner (x, y, local z), zl >= 0: layer (zl + 1) / 2.
  KOKKOS_INLINE_FUNCTION std::int64_t cube_of_corner(int x, int y, int zl) const {
    return x + static_cast<std::int64_t>(L) *
                   ((y >> 1) + static_cast<std::int64_t>(L >> 1) * ((zl + 1) >> 1));
  }
  /// The local cube and cube edge of the edge from local (x, y, zl) along `axis`: the
  /// checkerboard rule of Geometry::cube_edge with the global parity of z (that of zl + 1).
  KOKKOS_INLINE_FUNCTION Geometry::CubeEdge cube_edge(int x, int y, int zl, int axis) const {
    int parity[3] = {x, y, zl + 1};
    int corner[3] = {x, y, zl};
    const int along = parity[axis];
    const int u = axis == 0 ? 1 : 0, w = axis == 2 ? 1 : 2;
    const int bu = (parity[u] - along) & 1, bw = (parity[w] - along) & 1;
    corner[u] = u == 2 ? corner[u] - bu : wrap(corner[u] - bu);
    corner[w] = w == 2 ? corner[w] - bw : wrap(corner[w] - bw);
    return {cube_of_corner(corner[0], corner[1], corner[2]), 4 * axis + bu + 2 * bw};
  }
};

}  // namespace portamc::cvf
