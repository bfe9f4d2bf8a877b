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
  b.unbound("model.hamiltonian", String{"ising", muca::hamiltonian_kind_names().names()},
            "the spin model: ising (the 2D model runs on the tuned engine), potts, or "
            "blume_capel (at fixed model.beta, over every crystal field D)")
      .unbound("model.dimension", Integer{2, 3, 2}, "2: square lattice, 3: simple cubic")
      .unbound("model.q", Integer{2, 10, 2}, "states of the Potts model (potts only)")
      .unbound("model.beta", Real{0, 100, 0.0},
               "inverse temperature of a Blume-Capel run (blume_capel only; > 0): its weights "
               "flatten the number of non-zero spins, so one run covers every crystal field D",
               "1/J")
      .integer("model.L", &P::L, Integer{2, 256, 16},
               "linear lattice size (even for the two-state models; the 2D Ising model 4 or more)")
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
      .integer_or_auto("model.occupancy", &P::occupancy, Integer{1, 100, std::nullopt, true, true},
                       0,
                       "percent of a GPU multiprocessor's threads the sweeps keep resident; auto: "
                       "50 with lattices in global memory, else no limit; never changes results")
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
      .integer("production.order_parameter_sweeps", &P::order_parameter_sweeps,
               Integer{0, 1000000, 1},
               "measure every walker's order parameter every this many sweeps (N attempts) of "
               "the production, for <|m|>, the susceptibility and the Binder cumulant; 0: never")
      .unbound("analysis.beta_min", Real{0, 10, 0.2},
               "smallest inverse temperature for reweighting", "1/J")
      .unbound("analysis.beta_max", Real{0, 10, 0.8}, "largest inverse temperature", "1/J")
      .unbound("analysis.beta_points", Integer{1, 100000, 61}, "points of the beta grid")
      .unbound("analysis.crystal_field_min", Real{-100, 100, 0.0},
               "smallest crystal field D for reweighting (blume_capel only)", "J")
      .unbound("analysis.crystal_field_max", Real{-100, 100, 3.0},
               "largest crystal field D (blume_capel only)", "J")
      .unbound("analysis.crystal_field_points", Integer{1, 100000, 61},
               "points of the D grid (blume_capel only)")
      .unbound("analysis.double_peak", String{"auto", {"auto", "yes", "no"}},
               "the first-order analysis of the double-peaked P(E) (beta_eq, latent heat, "
               "interface tension) over [beta_min, beta_max], or for blume_capel of P(n) (D_eq, "
               "density jump, interface tension) over [crystal_field_min, crystal_field_max]; "
               "auto: for Potts q >= 5 in 2D and q >= 3 in 3D, and Blume-Capel")
      .unbound("output.file", String{"muca.h5", {}}, "HDF5 result file");
  app::add_checkpoint_keys(b.schema(), "a weight iteration, or a production block");
  b.check(
      [](const config::Config& c) -> std::optional<std::string> {
        const muca::Hamiltonian h = model_of(c);
        const bool two_states = h.site_states() == 2;
        if (two_states && h.L % 2 != 0)
          return "expected an even lattice size for a two-state model (an odd periodic lattice "
                 "frustrates it)";
        if (h.kind == muca::HamiltonianKind::ising && h.dimension == 2 && h.L < 4)
          return "expected at least 4 for the 2D Ising model";
        return std::nullopt;
      },
      "model.L");
  b.check(
      [](const config::Config& c) -> std::optional<std::string> {
        if (model_of(c).kind == muca::HamiltonianKind::blume_capel && !(c.real("model.beta") > 0))
          return "expected an inverse temperature > 0 for blume_capel (the run is at fixed beta "
                 "and covers every crystal field)";
        return std::nullopt;
      },
      "model.beta");
  b.check(
      [](const config::Config& c) -> std::optional<std::string> {
        if (c.real("analysis.crystal_field_max") < c.real("analysis.crystal_field_min"))
          return "must be >= analysis.crystal_field_min";
        return std::nullopt;
      },
      "analysis.crystal_field_max");
  b.check(
      [](const config::Config& c) -> std::optional<std::string> {
        if (c.real("analysis.beta_max") < c.real("analysis.beta_min"))
          return "must be >= analysis.beta_min";
        return std::nullopt;
      },
      "analysis.beta_max");
  return b;
}

muca::Hamiltonian model_of(const config::Config& c) {
  muca::Hamiltonian h;
  h.kind = muca::hamiltonian_kind_names().value(c.string("model.hamiltonian"));
  h.dimension = static_cast<int>(c.integer("model.dimension"));
  h.L = static_cast<int>(c.integer("model.L"));
  h.q = h.kind == muca::HamiltonianKind::potts ? static_cast<int>(c.integer("model.q")) : 2;
  h.beta = h.kind == muca::HamiltonianKind::blume_capel ? c.real("model.beta") : 0.0;
  return h;
}

bool wants_double_peak(const config::Config& c, const muca::Hamiltonian& h) {
  const std::string mode = c.string("analysis.double_peak");
  if (mode != "auto") return mode == "yes";
  if (h.kind == muca::HamiltonianKind::blume_capel) return true;
  return h.kind == muca::HamiltonianKind::potts && (h.dimension == 2 ? h.q >= 5 : h.q >= 3);
}

}  // namespace portamc::muca_app
