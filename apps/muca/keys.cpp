// The keys of portamc-muca, each declared once and bound to the member of muca::Parameters it
// fills (config_binding.hpp).
#include <optional>
#include <string>

#include "muca_app.hpp"
#include "portamc/app.hpp"
#include "portamc/muca/names.hpp"

namespace portamc::muca_app {

using config::Integer, config::Real, config::String;

// Every key of portamc-muca, bound to the member of muca::Parameters it fills.
config::Bindings<P> bindings() {
  config::Bindings<P> b("portamc-muca");
  b.integer("model.L", &P::L, Integer{4, 256, 16}, "linear lattice size (even)")
      .integer_or_auto("model.walkers", &P::walkers,
                       Integer{1, 1LL << 30, std::nullopt, true, true}, 0,
                       "parallel walkers; auto fills the device")
      .integer("model.seed", &P::seed, Integer{0, (1LL << 62), 1}, "random seed")
      .choice("model.storage", &P::storage, muca::lattice_storage_names(),
              muca::LatticeStorage::automatic,
              "where lattices live during sweeps (auto: team scratch when it fits)")
      .integer_or_auto("model.team_size", &P::team_size, Integer{1, 1024, std::nullopt, true, true},
                       0, "threads per GPU team; auto chooses")
      .integer_or_auto("model.walkers_per_thread", &P::walkers_per_thread,
                       Integer{1, 8, std::nullopt, true, true}, 0,
                       "walkers one thread updates in lockstep; auto: GPU 2 (shared memory) or 1, "
                       "CPU 8")
      .real("iteration.therm_factor", &P::therm_factor, Real{0, 1e6, 30.0},
            "thermalisation attempts per walker = therm_factor * w")
      .real("iteration.updates_prefactor", &P::updates_prefactor, Real{1e-9, 1e9, 6.0},
            "N_updates = prefactor w^z / W + 1")
      .real("iteration.updates_exponent", &P::updates_exponent, Real{0.1, 4, 2.25},
            "z in N_updates")
      .real("iteration.updates_growth", &P::updates_growth, Real{1, 10, 1.1},
            "N_updates factor per iteration once every energy was visited")
      .real("iteration.kl_threshold", &P::kl_threshold, Real{1e-12, 1, 1e-4},
            "stop when the Kullback-Leibler divergence is below this")
      .integer("iteration.max_iterations", &P::max_iterations, Integer{1, 1000000, 1000},
               "give up after this many")
      .real("production.therm_prefactor", &P::production_therm_prefactor, Real{0, 1e6, 1.0},
            "thermalisation under the final weights before production: prefactor * N^exponent "
            "attempts per walker (N = L^2; the paper's code: N^2.25)")
      .real("production.therm_exponent", &P::production_therm_exponent, Real{0, 4, 2.25},
            "exponent of N in that thermalisation")
      .real("production.stationarity_threshold", &P::stationarity_threshold, Real{1e-3, 1e3, 4.5},
            "the production passes its stationarity check when no energy window's share "
            "changes by more than this many errors between the first and last third of the "
            "blocks")
      .integer("production.walker_groups", &P::walker_groups, Integer{1, 4096, 64},
               "record the production per group of walkers (group of walker w: floor(w G / W)); "
               "with at least 16 groups the errors come from a jackknife over the groups, which "
               "are independent, else from bins of consecutive blocks")
      .integer("production.blocks", &P::production_blocks, Integer{2, 1000000, 100},
               "production blocks (jackknife samples; the stationarity check needs at least 6)")
      .integer_or_auto("production.updates_per_block", &P::production_updates_per_block,
                       Integer{1, 1LL << 50, std::nullopt, true, true}, 0,
                       "attempts per walker per block; auto = 10 x N_updates of the last "
                       "iteration")
      .unbound("analysis.beta_min", Real{0, 10, 0.2},
               "smallest inverse temperature for reweighting", "1/J")
      .unbound("analysis.beta_max", Real{0, 10, 0.8}, "largest inverse temperature", "1/J")
      .unbound("analysis.beta_points", Integer{1, 100000, 61}, "points of the beta grid")
      .unbound("output.file", String{"muca.h5", {}}, "HDF5 result file");
  app::add_checkpoint_keys(b.schema(), "a weight iteration, or a production block");
  b.check(
      [](const config::Config& c) -> std::optional<std::string> {
        if (c.integer("model.L") % 2 != 0) return "expected an even lattice size";
        return std::nullopt;
      },
      "model.L");
  b.check(
      [](const config::Config& c) -> std::optional<std::string> {
        if (c.real("analysis.beta_max") < c.real("analysis.beta_min"))
          return "must be >= analysis.beta_min";
        return std::nullopt;
      },
      "analysis.beta_max");
  return b;
}

}  // namespace portamc::muca_app
