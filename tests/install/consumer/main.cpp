// A user's program against the installed package: a few multicanonical sweeps.
#include <Kokkos_Core.hpp>
#include <cstdio>

#include "portamc/muca.hpp"
#include "portamc/version.hpp"

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  portamc::muca::Parameters p;
  p.L = 8;
  p.walkers = 4;
  portamc::muca::IsingMuca model(Kokkos::DefaultExecutionSpace(), p);
  const auto h = model.sample(100);
  unsigned long long total = 0;
  for (auto c : h) total += c;
  std::printf("portamc %s: %llu samples\n", portamc::version_string, total);
  return total == 400 ? 0 : 1;
}
