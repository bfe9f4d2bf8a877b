#pragma once
// Shared pieces of the CVF kernel tests: a plain C++ reference of the Metropolis pass and the
// eta update (no Kokkos, no shared code with the kernels beyond Geometry and the RNG), and
// host copies of device state.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include "../tilings/chi_square.hpp"
#include "portamc/cvf/detail/acceptance.hpp"
#include "portamc/cvf/geometry.hpp"
#include "portamc/rng.hpp"

namespace portamc::cvf::testing {

using portamc::tilings::testing::chi_square;

/// Host configuration: arm-major sigma and cube states.
struct HostConfiguration {
  std::vector<std::uint8_t> sigma;
  std::vector<std::uint8_t> cube;
};

/// Host cube states as the accessor Geometry::allowed takes: a host-device call operator over a
/// plain pointer (a host lambda there makes nvcc warn about a host function called from a
/// host-device one).
template <class T>
struct HostCubes {
  const T* states;
  KOKKOS_INLINE_FUNCTION T operator()(std::int64_t k) const { return states[k]; }
};
template <class T>
HostCubes<T> host_cubes(const std::vector<T>& states) {
  return {states.data()};
}

inline bool reference_allowed(const Geometry& g, const std::vector<std::uint8_t>& cube,
                              const Coordinates& c, int arm) {
  return g.allowed(host_cubes(cube), c, arm);
}

/// {N_HB raw, N_sigma} by brute force over every cell and arm (each edge seen twice).
inline std::pair<std::int64_t, std::int64_t> reference_counts(const Geometry& g,
                                                              const HostConfiguration& h) {
  const std::int64_t N = g.cells();
  std::int64_t twice_hb = 0, pairs = 0;
  for (std::int64_t cell = 0; cell < N; ++cell) {
    const Coordinates c = g.coordinates(cell);
    for (int a = 0; a < arms; ++a) {
      for (int b = a + 1; b < arms; ++b) pairs += h.sigma[a * N + cell] == h.sigma[b * N + cell];
      const std::int64_t j = g.neighbour(c, a);
      if (reference_allowed(g, h.cube, c, a) &&
          h.sigma[a * N + cell] == h.sigma[opposite_arm(a) * N + j])
        ++twice_hb;
    }
  }
  return {twice_hb / 2, pairs};
}

/// The paper's Algorithm 1 for one arm, sequentially.
inline void reference_metropolis_pass(const Geometry& g, HostConfiguration& h, int arm,
                                      std::uint64_t seed, std::uint64_t draw_step,
                                      double bond_coupling, double J_sigma, double t) {
  const std::int64_t N = g.cells();
  const SigmaAcceptance table = sigma_acceptance(bond_coupling, J_sigma, t);
  for (std::int64_t cell = 0; cell < N; ++cell) {
    const Coordinates c = g.coordinates(cell);
    const int old = h.sigma[arm * N + cell];
    const rng::Block w = rng::draw(seed, rng::purpose_cvf_sigma, cell, draw_step);
    int proposal = static_cast<int>(rng::bounded(w[0], w[1], 5));
    if (proposal >= old) ++proposal;
    int d_sigma = 0;
    for (int k = 0; k < arms; ++k) {
      if (k == arm) continue;
      const int other = h.sigma[k * N + cell];
      d_sigma += (other == proposal) - (other == old);
    }
    const int partner = h.sigma[opposite_arm(arm) * N + g.neighbour(c, arm)];
    const int d_hb =
        reference_allowed(g, h.cube, c, arm) ? (proposal == partner) - (old == partner) : 0;
    if (w[2] < table(d_hb, d_sigma)) h.sigma[arm * N + cell] = static_cast<std::uint8_t>(proposal);
  }
}

/// Appendix A's cube move, sequentially: N_HB of the cube's edges from Geometry::allowed.
inline void reference_eta_update(const Geometry& g, HostConfiguration& h, std::uint64_t seed,
                                 std::uint64_t step, double bond_coupling, double t) {
  const std::int64_t N = g.cells();
  const EtaAcceptance table = eta_acceptance(bond_coupling, t);
  for (std::int64_t cube = 0; cube < g.cubes(); ++cube) {
    const Coordinates o = g.cube_corner(cube);
    const int old = h.cube[cube];
    const rng::Block w = rng::draw(seed, rng::purpose_cvf_eta, cube, step);
    int proposal = static_cast<int>(rng::bounded(w[0], w[1], 8));
    if (proposal >= old) ++proposal;
    // Bonds on the cube's edges under a state: walk the 12 edges from their lower corners.
    auto bonds = [&](int state) {
      int n = 0;
      for (int v = 0; v < 8; ++v)
        for (int axis = 0; axis < 3; ++axis) {
          if ((v >> axis) & 1) continue;
          const Coordinates c{g.wrap(o.x + (v & 1)), g.wrap(o.y + ((v >> 1) & 1)),
                              g.wrap(o.z + (v >> 2))};
          const std::int64_t cell = g.cell(c.x, c.y, c.z);
          const Geometry::CubeEdge ce = g.cube_edge(c, axis);
          if (ce.cube != cube) return -1000;  // the geometry disagrees with itself
          const bool open = ((forbidden_edges(state) >> ce.edge) & 1) == 0;
          if (open && h.sigma[2 * axis * N + cell] ==
                          h.sigma[(2 * axis + 1) * N + g.neighbour(c, 2 * axis)])
            ++n;
        }
      return n;
    };
    const int d_hb = bonds(proposal) - bonds(old);
    if (w[2] < table(d_hb)) h.cube[cube] = static_cast<std::uint8_t>(proposal);
  }
}

/// Copies host bytes into a new byte view in the memory of `Space`.
template <class Space>
Kokkos::View<std::uint8_t*, Space> to_device(const std::vector<std::uint8_t>& h) {
  Kokkos::View<std::uint8_t*, Space> d("bytes", h.size());
  auto m = Kokkos::create_mirror_view(d);
  for (std::size_t i = 0; i < h.size(); ++i) m(i) = h[i];
  Kokkos::deep_copy(d, m);
  return d;
}

/// Copies a device byte view to the host.
template <class View>
std::vector<std::uint8_t> to_host(const View& v) {
  auto mirror = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  return std::vector<std::uint8_t>(mirror.data(), mirror.data() + mirror.extent(0));
}

}  // namespace portamc::cvf::testing
