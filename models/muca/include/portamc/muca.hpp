#pragma once
// portamc::muca, the parallel multicanonical 2D Ising model: the one header a user's program
// includes (examples/muca_energy.cpp). A run: Simulation (weight iteration, then production
// blocks), analyse_production (ln g(E), the canonical U, C, F, S with errors), the exact
// finite-lattice values (exact::ferdinand_fisher) and checkpoints (io.hpp). The other headers
// of portamc/muca/ are the pieces these are built from.
#include "portamc/muca/exact_levels.hpp"
#include "portamc/muca/first_order.hpp"
#include "portamc/muca/hamiltonian.hpp"
#include "portamc/muca/io.hpp"
#include "portamc/muca/ising_exact.hpp"
#include "portamc/muca/parameters.hpp"
#include "portamc/muca/production_analysis.hpp"
#include "portamc/muca/simulation.hpp"
