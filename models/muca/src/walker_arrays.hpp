#pragma once
// Host-side moves of the arrays both walker engines keep on the device (IsingMuca,
// SpinMuca): a histogram or the walkers' bins to the host, and a saved ModelState's states
// and bins back. Internal to the muca library.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include "portamc/muca/detail/ising_muca.hpp"

namespace portamc::muca::detail {

/// A 1-D device View as a host vector.
template <class View>
std::vector<typename View::non_const_value_type> host_vector(const View& view) {
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
  return std::vector<typename View::non_const_value_type>(host.data(),
                                                          host.data() + host.extent(0));
}

/// The ModelState of an engine: its lattices (word, walker) and bins copied to the host.
template <class SpinView, class BinView>
ModelState capture_state(const Hamiltonian& h, std::uint64_t seed, std::uint64_t step,
                         const SpinView& spins, const BinView& bins,
                         const std::vector<double>& log_weights) {
  ModelState s;
  s.L = h.L;
  s.kind = h.kind;
  s.dimension = h.dimension;
  s.q = h.q;
  s.beta = h.beta;
  s.walkers = static_cast<long long>(spins.extent(1));
  s.seed = seed;
  s.step = step;
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), spins);
  s.spins.assign(host.data(), host.data() + host.size());
  s.bins = host_vector(bins);
  s.log_weights = log_weights;
  return s;
}

/// Copies a state's lattices and bins (sizes already checked) into the engine's Views.
template <class Space, class SpinView, class BinView>
void load_state(const Space& space, const ModelState& s, const SpinView& spins,
                const BinView& bins) {
  Kokkos::View<const std::uint32_t**, Kokkos::LayoutRight, Kokkos::HostSpace,
               Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      host_spins(s.spins.data(), spins.extent(0), spins.extent(1));
  Kokkos::deep_copy(space, spins, host_spins);
  Kokkos::View<const std::int32_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
      host_bins(s.bins.data(), bins.extent(0));
  Kokkos::deep_copy(space, bins, host_bins);
}

}  // namespace portamc::muca::detail
