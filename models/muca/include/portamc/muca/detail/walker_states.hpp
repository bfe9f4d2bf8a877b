#pragma once
// Model states of consecutive walker ranges: the shares of MPI ranks joined into the state of
// all walkers (the one checkpoint of a run, written by rank 0) and split again into the shares
// of another rank count. A walker's trajectory depends only on (seed, its global index, step)
// and its spins and energy bin, so a checkpoint resumes bit for bit whichever rank holds it.
#include <cstdint>
#include <vector>

#include "portamc/muca/detail/ising_muca.hpp"
#include "portamc/parallel.hpp"

namespace portamc::muca {

/// Walkers [begin, end) of `all`, renumbered from 0; std::invalid_argument outside it.
ModelState select_walkers(const ModelState& all, std::uint64_t begin, std::uint64_t end);
/// Consecutive walker ranges of one run (same L, seed, step, weights) joined in order;
/// std::invalid_argument if they are not of one run.
ModelState concatenate_walkers(const std::vector<ModelState>& parts);
/// Collective: the states of every rank's walkers joined in rank order on rank 0; an empty
/// state (no walkers) elsewhere. The identity on one rank.
ModelState gather_walkers(const ModelState& local, const parallel::Communicator& comm);

}  // namespace portamc::muca
