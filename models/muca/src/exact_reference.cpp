#include "portamc/muca/exact_reference.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "portamc/muca/exact_levels.hpp"

namespace portamc::muca {
namespace {

bool ising_2d(const Hamiltonian& h) {
  return h.kind == HamiltonianKind::ising && h.dimension == 2;
}

// Counting is cheap when the transfer matrix's ~S^3 L operations (S = states^(L^(d-1)) layer
// states) stay below 10^8, a fraction of a second.
bool cheap_to_count(const Hamiltonian& h) {
  // Blume-Capel's levels are (bond, field) pairs, ~ 2 d N^2 of them: the transfer matrix's cost
  // grows with them, so only lattices of at most 3^9 configurations, counted one by one.
  if (h.kind == HamiltonianKind::blume_capel) return h.sites() <= 9;
  double layer_states = 1;
  const long long layer_sites = h.sites() / h.L;
  for (long long i = 0; i < layer_sites && layer_states <= 1e9; ++i)
    layer_states *= h.site_states();
  return layer_states * layer_states * layer_states * h.L <= 1e8;
}

}  // namespace

std::vector<double> exact_log_dos(const Hamiltonian& h, const EnergyBins& bins) {
  if (ising_2d(h)) return h.L <= 8 ? exact::log_dos_transfer_matrix(h.L) : std::vector<double>{};
  if (!cheap_to_count(h)) return {};
  if (h.kind == HamiltonianKind::blume_capel)
    return exact::log_partition_by_field(exact::levels_by_enumeration(h), h.beta);
  const exact::Levels levels = exact::levels_by_transfer_matrix(h);
  std::vector<double> log_g(static_cast<std::size_t>(bins.count()),
                            -std::numeric_limits<double>::infinity());
  for (int k = 0; k < bins.count(); ++k) {
    const exact::Count c = levels.at(bins.energy(k));
    if (c != 0) log_g[k] = std::log(static_cast<long double>(c));
  }
  return log_g;
}

std::vector<exact::Canonical> exact_canonical(const Hamiltonian& h, const EnergyBins& bins,
                                              const std::vector<double>& betas) {
  std::vector<exact::Canonical> out;
  if (h.kind == HamiltonianKind::blume_capel) return out;  // its scan is over D (crystal_field.hpp)
  if (ising_2d(h)) {
    for (double beta : betas) out.push_back(exact::ferdinand_fisher(h.L, beta));
    return out;
  }
  const std::vector<double> log_g = exact_log_dos(h, bins);
  if (log_g.empty()) return out;
  const std::vector<double> energy = bins.energies();
  for (double beta : betas)
    out.push_back(exact::canonical_from_log_dos(log_g, energy, bins.N, beta));
  return out;
}

std::string exact_source(const Hamiltonian& h) {
  if (ising_2d(h)) return "Ferdinand-Fisher";
  return h.kind == HamiltonianKind::blume_capel ? "exact counts, every configuration"
                                                : "exact counts, transfer matrix";
}

}  // namespace portamc::muca
