#pragma once
// A short fixed run of IsingMuca (L = 8, 37 walkers, exact weights) on any execution space,
// shared by the model's tests on each backend (test_muca_model.cpp) and the comparison of the
// backends with each other (test_muca_backends.cpp).
#include <cmath>
#include <cstdint>
#include <vector>

#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/muca/ising_exact.hpp"

namespace portamc::muca::test_runs {

inline Parameters small(int L, long long walkers,
                        LatticeStorage storage = LatticeStorage::automatic) {
  Parameters p;
  p.L = L;
  p.walkers = walkers;
  p.seed = 12345;
  p.storage = storage;
  return p;
}

// Exact multicanonical weights ln W = -ln g for L <= 8, finite everywhere.
inline std::vector<double> exact_weights(int L) {
  auto lnw = exact::log_dos_transfer_matrix(L);
  for (double& v : lnw) v = std::isfinite(v) ? -v : 0.0;
  return lnw;
}

inline std::uint64_t fnv1a(const ModelState& s) {
  std::uint64_t h = 1469598103934665603ULL;
  auto mix = [&h](std::uint64_t v) {
    for (int i = 0; i < 8; ++i) h = (h ^ ((v >> (8 * i)) & 0xff)) * 1099511628211ULL;
  };
  for (auto w : s.spins) mix(w);
  for (auto b : s.bins) mix(static_cast<std::uint32_t>(b));
  mix(s.step);
  return h;
}

template <class Space>
ModelState run_fixed(const Space& space, LatticeStorage storage,
                     std::vector<portamc::count_type>* hist = nullptr, int walkers_per_thread = 0) {
  Parameters p = small(8, 37, storage);
  p.walkers_per_thread = walkers_per_thread;
  IsingMuca<Space> model(space, p);
  model.set_log_weights(exact_weights(8));
  model.thermalise(1001);
  auto h = model.sample(777);
  if (hist) *hist = h;
  return model.state();
}

}  // namespace portamc::muca::test_runs
