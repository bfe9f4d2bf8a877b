#pragma once
// An SU(2) gauge field on a periodic 2-, 3- or 4-dimensional lattice, stored on the device
// of ExecutionSpace in precision Real (float or double). Owns the links; the updates live in
// updater.hpp, the kernels in update_kernels.hpp and field_kernels.hpp.
//
// Device layout (link_storage.hpp): View<Real**, LayoutRight> (component, slot), slot =
// (2 mu + parity) V/2 + site/2: structure of arrays by component, direction and parity.
//
// Canonical layout (host, for files and comparisons across backends and precisions):
// std::vector<double> of V D 4 numbers, index (site D + mu) 4 + c, site lexicographic with
// x_0 fastest, c = 0..3 the quaternion (a0, a1, a2, a3) of U = a0 + i a·sigma.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/su2/detail/geometry.hpp"
#include "portamc/su2/detail/link_storage.hpp"

namespace portamc::su2 {

/// Averages of ½ Tr U_p. spatial: planes without direction D-1 (NaN in 2D, where there
/// are none); temporal: planes containing it; total: all planes.
struct PlaquetteAverage {
  double total = 0;
  double spatial = 0;
  double temporal = 0;
};

/// The averages from the sums of 1 - ½ Tr U_p over the spatial and the temporal plaquettes
/// of the whole lattice `whole` (one rank's field, or all ranks' sums together).
PlaquetteAverage plaquette_average(double spatial_sum, double temporal_sum, const Geometry& whole);

template <class ExecutionSpace, class Real = double>
class GaugeField {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>,
                "GaugeField stores float or double links");

 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using real_type = Real;
  using link_view = LinkView<Real, memory_space>;
  using const_link_view = ConstLinkView<Real, memory_space>;

  /// A cold field on the lattice N_0 x ... x N_{D-1} (D = 2..4, every N even >= 2) in the
  /// memory of `space`, whose instance runs every kernel of the field. Throws
  /// std::invalid_argument for bad extents or a field that does not fit in that memory.
  GaugeField(const ExecutionSpace& space, const std::vector<int>& extents);

  const Geometry& geometry() const { return geometry_; }
  int dimensions() const { return geometry_.dimensions(); }
  std::vector<int> extents() const;
  std::int64_t volume() const { return geometry_.volume(); }
  std::int64_t link_count() const { return geometry_.link_count(); }
  const ExecutionSpace& space() const { return space_; }
  /// The device links (component, slot); kernels write through this.
  const link_view& links() const { return links_; }

  /// Device bytes of the links of a field with these extents.
  static std::size_t device_bytes(const std::vector<int>& extents);

  // Starts.
  /// Every link = 1.
  void cold_start();
  /// Haar-random links, link l from draw(seed, purpose_initial_state, l, 0); computed in
  /// double, so a float field holds the rounded double one.
  void hot_start(std::uint64_t seed);
  /// Links from the canonical layout (V D 4 doubles, rounded to Real, not renormalised so a
  /// round trip is exact). Throws std::invalid_argument for a wrong size.
  void from_canonical(const std::vector<double>& canonical);
  std::vector<double> to_canonical() const;

  /// Projects every link onto SU(2) (normalises the quaternion).
  void reunitarise();
  /// max over links of | |U|^2 - 1 |.
  double max_unitarity_violation() const;

  // Measurements (double accumulation).
  PlaquetteAverage plaquette() const;
  /// Wilson action S = beta sum_p (1 - ½ Tr U_p).
  double action(double beta) const;
  /// Spatial average of ½ Tr P(x), P(x) = product of the links in direction D-1 at x.
  double polyakov_loop() const;
  /// ½ Tr P(x) at every spatial site x (lexicographic in x_0 .. x_{D-2}), on the host.
  std::vector<double> polyakov_loops() const;

  /// U_mu(x) -> g(x) U_mu(x) g(x+mu)^dagger with Haar-random g(x) from
  /// draw(seed, purpose_gauge_transformation, x, step); applied on the device.
  void random_gauge_transformation(std::uint64_t seed, std::uint64_t step = 0);

 private:
  Geometry geometry_;
  ExecutionSpace space_;
  link_view links_;
};

#define PORTAMC_SU2_GAUGE_FIELD_(Space)           \
  extern template class GaugeField<Space, float>; \
  extern template class GaugeField<Space, double>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_GAUGE_FIELD_)
#undef PORTAMC_SU2_GAUGE_FIELD_

}  // namespace portamc::su2
