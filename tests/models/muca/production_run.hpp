#pragma once
// The parameters of a short complete run (weight iteration and production by 32 walker groups)
// on a lattice small enough to count exactly, shared by the tests that compare a production's
// reweighted values with exact enumeration.
#include <cstdint>

#include "portamc/muca/parameters.hpp"

namespace muca_test {

/// A run for the seed calibrations of first-order values: 64 walkers in 16 groups, and the
/// production thermalised for 30 N^2.25 attempts as the input files do (walkers must cross
/// between the phases).
inline portamc::muca::Parameters first_order_run(std::uint64_t seed, double kl_threshold) {
  portamc::muca::Parameters p;
  p.walkers = 64;
  p.walker_groups = 16;
  p.seed = seed;
  p.kl_threshold = kl_threshold;
  p.max_iterations = 2000;
  p.production_blocks = 20;
  p.production_updates_per_block = 20000;
  p.production_therm_prefactor = 30;
  return p;
}

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
