#pragma once
// Exact counts of the configurations of a small lattice by energy level, for every
// Hamiltonian of hamiltonian.hpp: the yardstick of the multicanonical engine's checks (ln g(E)
// and the canonical tables) on lattices small enough to count. Two independent routes that
// check each other: every configuration one by one, and a transfer matrix over layers (rows in
// 2D, planes in 3D). Host-only; nothing here touches Kokkos.
#include <functional>
#include <vector>

#include "portamc/muca/hamiltonian.hpp"
#include "portamc/muca/ising_exact.hpp"

namespace portamc::muca::exact {

/// Configuration counts by (bond, field): the energy's two integer parts (hamiltonian.hpp).
struct Levels {
  long long sites = 0;
  int bond_min = 0;           ///< bonds * min_bond_energy
  int bond_levels = 0;        ///< bond takes bond_min .. bond_min + bond_levels - 1
  int field_levels = 1;       ///< field takes 0 .. field_levels - 1
  std::vector<Count> counts;  ///< index (bond - bond_min) * field_levels + field

  /// The count at (bond, field); 0 outside the ranges.
  Count at(int bond, int field = 0) const;
  /// All configurations: site_states^sites.
  Count total() const;
};

/// Called with each configuration's site states (sites numbered with x fastest) and its bond
/// and field parts.
using ConfigurationVisitor =
    std::function<void(const std::vector<int>& states, int bond, int field)>;
/// Every configuration of h, one at a time; std::invalid_argument beyond 5 * 10^7 of them.
void enumerate_configurations(const Hamiltonian& h, const ConfigurationVisitor& visit);

/// Every configuration, one at a time. Throws std::invalid_argument (after validate) when
/// site_states^sites exceeds 5 * 10^7 (e.g. Blume-Capel 4 x 4 is 4.3 * 10^7, 5 x 5 is not).
Levels levels_by_enumeration(const Hamiltonian& h);

/// Transfer matrix over the L layers (the last coordinate), with the first layer fixed for
/// the periodic closure. Cost ~ S^3 (L - 1) levels for S = site_states^(L^(d-1)) layer
/// states; throws std::invalid_argument when that exceeds 2 * 10^10 (e.g. Potts q = 10 at
/// L = 3 has S = 1000), naming the lattice.
Levels levels_by_transfer_matrix(const Hamiltonian& h);

/// ln g(E) at crystal field D: the distinct energies E = bond + D field in increasing order
/// (levels of equal energy merged) with the log of their counts.
struct LogDensity {
  std::vector<double> energy;
  std::vector<double> log_g;
};
LogDensity log_density(const Levels& levels, double crystal_field);

/// Blume-Capel at inverse temperature beta: ln Z_beta(n) = ln sum_bond count(bond, n)
/// exp(-beta bond) for n = 0 .. field_levels - 1 (-inf where no configuration has n), the
/// density of states of a run at fixed beta over the field part (hamiltonian.hpp).
std::vector<double> log_partition_by_field(const Levels& levels, double beta);

/// Canonical averages per site at inverse temperature beta and crystal field D.
struct LevelAverages {
  double energy_per_site = 0;         ///< <E>/N
  double specific_heat_per_site = 0;  ///< beta^2 (<E^2> - <E>^2) / N
  double field_per_site = 0;          ///< <field>/N: Blume-Capel's density of non-zero spins
};
/// Log-sum-exp over the levels, so any finite beta is stable. Throws std::invalid_argument
/// for a non-finite beta or an empty Levels.
LevelAverages canonical_averages(const Levels& levels, double beta, double crystal_field);

}  // namespace portamc::muca::exact
