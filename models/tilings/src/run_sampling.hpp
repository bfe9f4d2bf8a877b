#pragma once
// Internal to the run code: one sampling function per family of models (run_sampling.cpp
// dispatches), and the helpers they share.
#include <cstdint>
#include <functional>
#include <string>

#include "portamc/tilings/run.hpp"

namespace portamc::tilings::detail {

using ProgressCallback = std::function<bool(double, const std::string&)>;

/// Dominoes and lozenges over the ranks of comm (run.hpp's run_sampling; one rank: as ever).
RunResults sample_domino(const PreparedRun& run, const ProgressCallback& progress,
                         const parallel::Communicator& comm);
/// mode: shuffling (Aztec diamonds): independent exact samples by domino shuffling.
RunResults sample_domino_shuffling(const PreparedRun& run, const ProgressCallback& progress,
                                   const parallel::Communicator& comm);
RunResults sample_lozenge(const PreparedRun& run, const ProgressCallback& progress,
                          const parallel::Communicator& comm);
/// Bibone and rectangle-triangle Glauber chains; over several ranks in row slabs
/// (distributed_anchor_glauber.hpp), every sample gathered on rank 0.
RunResults sample_bibone(const PreparedRun& run, const ProgressCallback& progress,
                         const parallel::Communicator& comm);
RunResults sample_rect_triangle(const PreparedRun& run, const ProgressCallback& progress,
                                const parallel::Communicator& comm);
/// Over several ranks: glauber in face-row slabs, cftp copies shared out.
RunResults sample_six_vertex(const PreparedRun& run, const ProgressCallback& progress,
                             const parallel::Communicator& comm);

/// Seed of the k-th CFTP sample: independent streams per sample, all fixed by the run's seed
/// (splitmix64 of the pair, so that neighbouring seeds share no sample).
std::uint64_t cftp_sample_seed(std::uint64_t seed, std::int64_t k);

/// After each rank ran its share of independent samples (sample order = rank order): the
/// per-sample values and the last sample's configuration and heights gathered on rank 0.
/// Collective.
void gather_samples(RunResults& r, const parallel::Communicator& comm);

}  // namespace portamc::tilings::detail
