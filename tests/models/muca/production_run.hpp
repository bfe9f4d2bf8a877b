#pragma once
// The parameters of a short complete run (weight iteration and production by 32 walker groups)
// on a lattice small enough to count exactly, shared by the tests that compare a production's
// reweighted values with exact enumeration.
#include <cstdint>

#include "portamc/muca/parameters.hpp"

namespace muca_test {

inline portamc::muca::Parameters production_run(std::uint64_t seed) {
  portamc::muca::Parameters p;
  p.walkers = 64;
  p.walker_groups = 32;
  p.seed = seed;
  p.kl_threshold = 1e-3;
  p.max_iterations = 400;
  p.production_blocks = 10;
  p.production_updates_per_block = 20000;
  return p;
}

}  // namespace muca_test
