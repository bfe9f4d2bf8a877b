#pragma once
// Per-cell tile-type counts of a row slab's owned cells over samples, and their gathering into
// the one-rank TypeDensities on rank 0: shared by the slab chains (distributed_glauber.hpp,
// distributed_tiled_domino.hpp) and GlauberSampler (the whole state as one row of one slab). The
// counts are integers and the gathered densities divide the same integers by the same sample count
// as one rank does, so they agree bit for bit.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/engine/detail/slab_glauber_kernels.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"

namespace portamc::tilings {

template <class Space>
class SlabTypeCounts {
 public:
  /// Counts on `space` (its kernels run there).
  explicit SlabTypeCounts(const Space& space) : space_(space) {}

  /// Adds the slab's owned cells of `state` (they start at byte `offset` of it) to the counts;
  /// allocates them on first use (`what` names the chain in the out-of-memory message).
  void accumulate(const Kokkos::View<const std::uint8_t*, Space>& state, std::int64_t offset,
                  const RowSlab& slab, int tile_types, const std::string& what) {
    const auto cells = static_cast<std::size_t>(slab.own_cells());
    if (counts_.extent(0) == 0) {
      require_memory<Space>(cells * tile_types * sizeof(std::uint32_t),
                            what + " tile-type counts (slab)");
      counts_ = Kokkos::View<std::uint32_t**, Space>("portamc::tilings::slab_type_counts", cells,
                                                     tile_types);
    }
    Kokkos::parallel_for("portamc::tilings::count_slab_tile_types",
                         Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(
                             space_, 0, static_cast<std::int64_t>(cells)),
                         CountSlabTypes<Space>{state, counts_, offset});
    ++samples_;
  }

  std::uint64_t samples() const { return samples_; }

  /// This rank's counts, index type * cells + cell over the slab's owned cells (zeros before
  /// the first sample).
  std::vector<std::uint64_t> host_counts(const RowSlab& slab, int tile_types) const {
    const auto cells = static_cast<std::size_t>(slab.own_cells());
    std::vector<std::uint64_t> out(cells * tile_types, 0);
    if (samples_ == 0) return out;
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts_);
    for (int type = 0; type < tile_types; ++type)
      for (std::size_t c = 0; c < cells; ++c) out[type * cells + c] = host(c, type);
    return out;
  }

  /// Collective: the densities of the whole state on rank 0 (type * cells + cell, the one-rank
  /// TypeDensities bit for bit); on the other ranks only cells, types and samples are set.
  TypeDensities on_root(const RowSlab& slab, int tile_types,
                        const parallel::Communicator& comm) const {
    TypeDensities d;
    d.cells = slab.rows * slab.row_length;
    d.types = tile_types;
    d.samples = samples_;
    const auto cells = static_cast<std::size_t>(slab.own_cells());
    std::vector<std::uint64_t> own(cells * tile_types, 0);  // cell * types + type
    if (samples_ > 0) {
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), counts_);
      for (std::size_t c = 0; c < cells; ++c)
        for (int type = 0; type < tile_types; ++type) own[c * tile_types + type] = host(c, type);
    }
    const std::vector<std::uint64_t> all = comm.gather(own);
    if (!comm.is_root()) return d;
    const auto total = static_cast<std::size_t>(d.cells);
    d.values.assign(total * tile_types, 0.0);
    if (samples_ == 0) return d;
    for (std::size_t c = 0; c < total; ++c)
      for (int type = 0; type < tile_types; ++type)
        d.values[type * total + c] =
            static_cast<double>(all[c * tile_types + type]) / static_cast<double>(samples_);
    return d;
  }

 private:
  Space space_;
  Kokkos::View<std::uint32_t**, Space> counts_;
  std::uint64_t samples_ = 0;
};

}  // namespace portamc::tilings
