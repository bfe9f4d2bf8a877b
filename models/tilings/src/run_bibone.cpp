// Sampling of bibone tilings for portamc-tilings: one forward BiboneGlauber chain (there is no
// coupling from the past: no height function, no monotone coupling). Samples are read out on
// the host from matching(): partner directions, orientation densities, and the fraction of
// bibones of orientation 0. No heights. Over several MPI ranks the chain runs in row slabs
// (DistributedBiboneGlauber) and every sample is gathered on rank 0, which measures it with
// the same code: the file is the one-rank file.
#include <string>
#include <vector>

#include "portamc/tilings/bibone_glauber.hpp"
#include "portamc/tilings/distributed_anchor_glauber.hpp"
#include "run_sampling.hpp"

namespace portamc::tilings::detail {

namespace {

// One rank: BiboneGlauber; bytes() on every call.
struct OneRankBibone {
  BiboneGlauber<> chain;
  void run_sweeps(std::uint64_t n) { chain.run_sweeps(n); }
  std::uint64_t steps_done() const { return chain.steps_done(); }
  std::vector<std::uint8_t> bytes_on_root() const { return chain.matching().bytes(); }
};

template <class Chain>
RunResults sample_chain(Chain& sampler, const PreparedRun& run, const ProgressCallback& progress,
                        const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  const BiboneDomain& domain = *run.bibone;
  RunResults r;
  r.observable = "orientation_0_fraction";
  r.observable_description =
      "fraction of the bibones of orientation 0 (partner direction 0 or 3, along e1)";
  r.type_names = {"orientation_0", "orientation_1", "orientation_2"};
  const auto rows = static_cast<std::size_t>(domain.height()),
             cols = static_cast<std::size_t>(domain.width());
  const std::size_t sites = rows * cols;
  std::vector<std::uint64_t> counts(3 * sites, 0);  // orientation * sites + site
  sampler.run_sweeps(static_cast<std::uint64_t>(p.thermalisation_sweeps));
  for (std::int64_t k = 0; k < p.samples; ++k) {
    sampler.run_sweeps(static_cast<std::uint64_t>(p.sweeps_between_samples));
    const std::vector<std::uint8_t> bytes = sampler.bytes_on_root();  // empty off rank 0
    ++r.density_samples;
    if (comm.is_root()) {
      std::uint64_t orientation_0 = 0;
      for (std::size_t site = 0; site < sites; ++site) {
        if (bytes[site] >= bibone::outside) continue;
        const int orientation = bytes[site] % 3;  // directions d and d + 3: one orientation
        ++counts[static_cast<std::size_t>(orientation) * sites + site];
        if (orientation == 0) ++orientation_0;
      }
      r.observable_values.push_back(static_cast<double>(orientation_0) /
                                    static_cast<double>(domain.site_count()));
      if (k + 1 == p.samples) r.configuration = {rows, cols, bytes};
    }
    const double done = static_cast<double>(k + 1) / static_cast<double>(p.samples);
    const bool go_on =
        progress(done, "sample " + std::to_string(k + 1) + "/" + std::to_string(p.samples));
    // Over ranks the chain is one collective computation: all stop at the same sample.
    if (comm.max(std::uint64_t{go_on ? 0u : 1u}) != 0) return r;
  }
  r.glauber_steps = sampler.steps_done();
  if (!comm.is_root()) return r;
  for (std::size_t type = 0; type < 3; ++type) {
    Grid<double> density{rows, cols, std::vector<double>(sites)};
    for (std::size_t site = 0; site < sites; ++site)
      density.values[site] =
          static_cast<double>(counts[type * sites + site]) / static_cast<double>(r.density_samples);
    r.densities.push_back(std::move(density));
  }
  return r;
}

}  // namespace

RunResults sample_bibone(const PreparedRun& run, const ProgressCallback& progress,
                         const parallel::Communicator& comm) {
  const RunParameters& p = run.parameters;
  if (comm.size() == 1) {
    OneRankBibone one{BiboneGlauber<>(*run.bibone, p.seed, *run.bibone_initial, p.colouring)};
    one.chain.set_class_order(p.class_order);
    RunResults r = sample_chain(one, run, progress, comm);
    r.move_pairs = one.chain.move_set().pairs();
    return r;
  }
  DistributedBiboneGlauber<> chain(*run.bibone, p.seed, comm, *run.bibone_initial,
                                   "bibone glauber on " + p.domain_description(), p.colouring);
  if (p.halo_transport != parallel::HaloTransport::automatic)
    chain.set_halo_transport(p.halo_transport);
  chain.set_class_order(p.class_order);
  RunResults r = sample_chain(chain, run, progress, comm);
  r.move_pairs = chain.model().pairs();
  return r;
}

}  // namespace portamc::tilings::detail
