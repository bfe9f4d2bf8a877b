#pragma once
// A real checkpoint of portamc-muca, for tests that another app refuses to resume from it.
#include <string>

#include "portamc/muca/io.hpp"
#include "portamc/muca/simulation.hpp"

namespace portamc::testing {

inline void write_muca_checkpoint(const std::string& path) {
  muca::Parameters p;
  p.L = 4;
  p.walkers = 3;
  muca::Simulation simulation(Kokkos::DefaultExecutionSpace(), p);
  simulation.iterate();
  muca::write_checkpoint(path, simulation.checkpoint(), "");
}

}  // namespace portamc::testing
