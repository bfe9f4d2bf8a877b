#pragma once
// The vertices of one colour class, described compactly for the kernels: within a row, the
// vertices of a class sit `stride` columns apart (stride = number of classes, class
// = (col - row) mod stride), so the interior ones form runs (row, first column, length).
// A step launches one thread per vertex of the chosen class; thread k finds its run by binary
// search over the runs' prefix offsets, instead of reading a 4-byte index per vertex from a
// list as large as the tiling. A hint per block of 1024 vertices (the run of its first vertex)
// narrows the search to the one or two runs that a block usually spans, so on a GPU a thread
// makes about two dependent loads rather than log2(runs).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace portamc::tilings {

/// Host description of one class.
struct VertexRunsHost {
  std::vector<std::int32_t> row;        ///< row of run r
  std::vector<std::int32_t> first_col;  ///< column of its first vertex
  std::vector<std::int32_t> offset;     ///< runs + 1 prefix sums of the run lengths
  std::vector<std::int32_t> hint;       ///< run of vertex min(1024 b, vertices - 1), b = 0..blocks
  std::int64_t vertex_count() const { return offset.empty() ? 0 : offset.back(); }
};

/// Runs of the vertices (row, col), 0 <= row < rows, 0 <= col < cols, for which movable(row,
/// col) holds, split into `classes` classes by (col - row) mod classes. Throws
/// std::invalid_argument (naming `what`) if a class has 2^31 or more vertices.
inline constexpr int vertex_hint_shift = 10;  // 1024 vertices per hint

std::vector<VertexRunsHost> build_vertex_runs(int rows, int cols, int classes,
                                              const std::function<bool(int, int)>& movable,
                                              const std::string& what);

/// Device copy of one class; cheap to copy into kernels.
template <class Space>
struct VertexRuns {
  Kokkos::View<const std::int32_t*, Space> row;
  Kokkos::View<const std::int32_t*, Space> first_col;
  Kokkos::View<const std::int32_t*, Space> offset;
  Kokkos::View<const std::int32_t*, Space> hint;
  std::int32_t stride = 1;
  std::int32_t runs = 0;
  std::int32_t vertices = 0;

  /// Row and column of the class's k-th vertex, 0 <= k < vertices.
  KOKKOS_INLINE_FUNCTION void locate(std::int32_t k, std::int32_t& r, std::int32_t& c) const {
    const std::int32_t block = k >> vertex_hint_shift;
    std::int32_t lo = hint(block), hi = hint(block + 1) + 1;  // offset(lo) <= k < offset(hi)
    while (hi - lo > 1) {
      const std::int32_t mid = lo + (hi - lo) / 2;
      // Select, not branch: the comparison is unpredictable, a conditional move is not.
      const bool right = offset(mid) <= k;
      lo = right ? mid : lo;
      hi = right ? hi : mid;
    }
    r = row(lo);
    c = first_col(lo) + stride * (k - offset(lo));
  }
};

template <class Space>
Kokkos::View<const std::int32_t*, Space> to_device(const std::vector<std::int32_t>& host,
                                                   const char* label) {
  Kokkos::View<std::int32_t*, Space> out(std::string(label), host.size());
  Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      source(host.data(), host.size());
  Kokkos::deep_copy(out, source);
  return out;
}

template <class Space>
VertexRuns<Space> to_device(const VertexRunsHost& host, int stride) {
  VertexRuns<Space> out;
  out.row = to_device<Space>(host.row, "portamc::tilings::run_row");
  out.first_col = to_device<Space>(host.first_col, "portamc::tilings::run_first_col");
  out.offset = to_device<Space>(host.offset, "portamc::tilings::run_offset");
  out.hint = to_device<Space>(host.hint, "portamc::tilings::run_hint");
  out.stride = stride;
  out.runs = static_cast<std::int32_t>(host.row.size());
  out.vertices = static_cast<std::int32_t>(host.vertex_count());
  return out;
}

}  // namespace portamc::tilings
