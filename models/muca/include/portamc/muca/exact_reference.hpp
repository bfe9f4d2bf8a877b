#pragma once
// The exact values a run's output is compared with, where they can be had cheaply: the 2D
// Ising model has Ferdinand and Fisher's closed form at every L and its transfer-matrix ln g
// up to L = 8; the other models have exact counts (exact_levels.hpp) on lattices small enough
// that counting takes well under a second. Host-only.
#include <string>
#include <vector>

#include "portamc/muca/hamiltonian.hpp"
#include "portamc/muca/ising_exact.hpp"
#include "portamc/muca/parameters.hpp"

namespace portamc::muca {

/// Exact ln g per bin of `bins` (-inf where no configuration has the bin's energy), or empty
/// when counting would be slow.
std::vector<double> exact_log_dos(const Hamiltonian& h, const EnergyBins& bins);

/// Exact U/N, C/N, F/N and S/N at each beta, or empty when not available.
std::vector<exact::Canonical> exact_canonical(const Hamiltonian& h, const EnergyBins& bins,
                                              const std::vector<double>& betas);

/// Where exact_canonical's values come from, for the output's descriptions.
std::string exact_source(const Hamiltonian& h);

}  // namespace portamc::muca
