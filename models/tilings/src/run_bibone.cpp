// Sampling of bibone tilings for portamc-tilings: one forward BiboneGlauber chain (there is no
// coupling from the past: no height function, no monotone coupling). Samples are read out on
// the host from matching(): partner directions, orientation densities, and the fraction of
// bibones of orientation 0. No heights.
#include <string>
#include <vector>

#include "portamc/tilings/bibone_glauber.hpp"
#include "run_sampling.hpp"

namespace portamc::tilings::detail {

RunResults sample_bibone(const PreparedRun& run, const ProgressCallback& progress) {
  const RunParameters& p = run.parameters;
  const BiboneDomain& domain = *run.bibone;
  BiboneGlauber<> sampler(domain, p.seed, *run.bibone_initial);
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
    const BiboneMatching matching = sampler.matching();
    const auto& bytes = matching.bytes();
    std::uint64_t orientation_0 = 0;
    for (std::size_t site = 0; site < sites; ++site) {
      if (bytes[site] >= bibone::outside) continue;
      const int orientation = bytes[site] % 3;  // directions d and d + 3: one orientation
      ++counts[static_cast<std::size_t>(orientation) * sites + site];
      if (orientation == 0) ++orientation_0;
    }
    ++r.density_samples;
    r.observable_values.push_back(static_cast<double>(orientation_0) /
                                  static_cast<double>(domain.site_count()));
    if (k + 1 == p.samples) r.configuration = {rows, cols, bytes};
    const double done = static_cast<double>(k + 1) / static_cast<double>(p.samples);
    if (!progress(done, "sample " + std::to_string(k + 1) + "/" + std::to_string(p.samples)))
      return r;
  }
  r.glauber_steps = sampler.steps_done();
  for (std::size_t type = 0; type < 3; ++type) {
    Grid<double> density{rows, cols, std::vector<double>(sites)};
    for (std::size_t site = 0; site < sites; ++site)
      density.values[site] =
          static_cast<double>(counts[type * sites + site]) / static_cast<double>(r.density_samples);
    r.densities.push_back(std::move(density));
  }
  return r;
}

}  // namespace portamc::tilings::detail
