#include "portamc/muca/parameters.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace portamc::muca {

void Parameters::validate() const {
  auto fail = [](const std::string& what) { throw std::invalid_argument(what); };
  if (walkers < 0) fail("model.walkers = " + std::to_string(walkers) + ": expected >= 1 or auto");
  if (first_walker < 0) fail("first_walker = " + std::to_string(first_walker) + ": expected >= 0");
  if (walker_groups < 1 || walker_groups > 4096)
    fail("production.walker_groups = " + std::to_string(walker_groups) + ": expected 1 .. 4096");
  if (walkers_per_thread < 0 || walkers_per_thread > 8)
    fail("model.walkers_per_thread = " + std::to_string(walkers_per_thread) +
         ": expected 0 (auto) .. 8");
  if (team_size < 0 || team_size > 1024)
    fail("model.team_size = " + std::to_string(team_size) + ": expected 0 (auto) .. 1024");
  if (occupancy < 0 || occupancy > 100)
    fail("model.occupancy = " + std::to_string(occupancy) + ": expected 0 (auto) .. 100 percent");
  if (!(therm_factor >= 0)) fail("iteration.therm_factor must be >= 0");
  if (!(updates_prefactor > 0)) fail("iteration.updates_prefactor must be > 0");
  if (!(updates_exponent > 0)) fail("iteration.updates_exponent must be > 0");
  if (!(updates_growth >= 1)) fail("iteration.updates_growth must be >= 1");
  if (!(kl_threshold > 0)) fail("iteration.kl_threshold must be > 0");
  if (max_iterations < 1) fail("iteration.max_iterations must be >= 1");
  if (production_blocks < 2) fail("production.blocks must be >= 2 for jackknife errors");
  if (!(production_therm_prefactor >= 0) || !std::isfinite(production_therm_prefactor))
    fail("production.therm_prefactor must be >= 0");
  if (!(production_therm_exponent >= 0 && production_therm_exponent <= 4))
    fail("production.therm_exponent must be in [0, 4]");
  if (!(stationarity_threshold > 0)) fail("production.stationarity_threshold must be > 0");
}

EnergyBins::EnergyBins(int L)
    : N(L * L), first(-2 * L * L), unit(4), reachable(static_cast<std::size_t>(L) * L + 1, 1) {
  reachable[1] = 0;
  reachable[static_cast<std::size_t>(N) - 1] = 0;
}

EnergyBins::EnergyBins(int sites, int first_energy, int energy_unit,
                       std::vector<unsigned char> accessible, int states_per_site)
    : N(sites),
      first(first_energy),
      unit(energy_unit),
      reachable(std::move(accessible)),
      site_states(states_per_site) {}

std::vector<double> EnergyBins::energies() const {
  std::vector<double> e(static_cast<std::size_t>(count()));
  for (int k = 0; k < count(); ++k) e[k] = energy(k);
  return e;
}

int EnergyBins::accessible_count() const {
  int n = 0;
  for (unsigned char r : reachable) n += r != 0 ? 1 : 0;
  return n;
}

}  // namespace portamc::muca
