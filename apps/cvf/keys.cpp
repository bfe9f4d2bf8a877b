// The keys of portamc-cvf, each declared once and bound to the member of cvf::RunParameters it
// fills (config_binding.hpp), and the rules between them.
#include <optional>
#include <string>

#include "cvf_app.hpp"
#include "portamc/app.hpp"
#include "portamc/cvf/names.hpp"
#include "portamc/halo_transport.hpp"

namespace portamc::cvf_app {

using config::Boolean, config::Integer, config::Real, config::RealList, config::String;
using Rule = std::optional<std::string>;

// Every key of portamc-cvf, bound to the member of cvf::RunParameters it fills.
config::Bindings<P> bindings() {
  config::Bindings<P> b("portamc-cvf");
  b.integer("lattice.L", &P::L, Integer{4, 1LL << 20, 16},
            "cells per side; N = L^3 molecules; a multiple of 4 (checkerboard cubes)")
      .reals("state.temperatures", &P::temperatures,
             RealList{-1e9, 1e9, std::vector<double>{300.0}, 1}, "temperatures (each > 0)", "K")
      .reals("state.pressures", &P::pressures, RealList{-1e6, 1e6, std::vector<double>{0.1}, 1},
             "pressures", "MPa")
      .boolean("state.grid", &P::grid, Boolean{true},
               "true: every (T, P) pair, pressure outermost; false: temperatures[i] with "
               "pressures[i] (equal lengths)")
      .real(
          "model.epsilon", [](P& p) -> double& { return p.model.epsilon_kj_per_mol; },
          Real{1e-6, 1e6, 5.5}, "Lennard-Jones energy epsilon, the unit of energy", "kJ/mol")
      .real(
          "model.r0", [](P& p) -> double& { return p.model.r0_angstrom; }, Real{1e-6, 1e6, 2.9},
          "hard-core diameter r0, the unit of length", "Angstrom")
      .real(
          "model.cutoff", [](P& p) -> double& { return p.model.cutoff; }, Real{1, 1000, 6.0},
          "Lennard-Jones cutoff", "r0")
      .real(
          "model.v_hb", [](P& p) -> double& { return p.model.v_hb; }, Real{0, 1000, 0.6},
          "volume per hydrogen bond v_HB", "v0 = r0^3")
      .real(
          "model.J_over_4epsilon", [](P& p) -> double& { return p.model.J; }, Real{0, 1000, 0.5},
          "covalent HB energy J / (4 epsilon)", "", 4)
      .real(
          "model.Jsigma_over_4epsilon", [](P& p) -> double& { return p.model.J_sigma; },
          Real{0, 1000, 0.08}, "cooperative HB energy J_sigma / (4 epsilon)", "", 4)
      .real(
          "model.gas_threshold", [](P& p) -> double& { return p.model.gas_threshold; },
          Real{1, 1e6, 2.0},
          "v_iso at and above which cells are gas-like (the paper's r_1/2: 2 v0)", "v0")
      .choice(
          "model.gas_like_cells", [](P& p) -> cvf::GasLikeCells& { return p.model.gas_like_cells; },
          cvf::gas_like_cells_names(), cvf::GasLikeCells::no_hydrogen_bonds,
          "no_hydrogen_bonds: gas-like cells form no HBs (the paper); ignore: no gas criterion")
      .boolean(
          "model.volume_jacobian", [](P& p) -> bool& { return p.model.volume_jacobian; },
          Boolean{true},
          "include N ln(V'/V) in the volume-move acceptance (standard NPT); false: the "
          "paper's exp(-dH/kT) alone")
      .choice("algorithm.sigma", &P::algorithm, cvf::sigma_algorithm_names(),
              cvf::SigmaAlgorithm::metropolis,
              "update of the bonding variables: parallel Metropolis over the six arm domains, or "
              "Swendsen-Wang clusters")
      .choice("algorithm.labelling", &P::labelling, cvf::labelling_names(),
              cvf::Labelling::union_find,
              "Swendsen-Wang cluster labelling: union-find, or the paper's label equivalence")
      .choice("algorithm.metropolis_kernel", &P::metropolis_kernel, cvf::metropolis_kernel_names(),
              cvf::MetropolisKernel::packed,
              "Metropolis sigma pass: one cell per thread, or four cells per thread with one "
              "random block per two cells (faster; another, equally valid chain for the same "
              "seed)")
      .boolean("moves.volume", &P::volume_moves, Boolean{true}, "volume moves (false: fixed V_iso)")
      .real("moves.volume_step", &P::volume_step, Real{0, 1e6, 0.0},
            "largest change of v_iso per volume move (0: automatic, 1/sqrt(N))", "v0")
      .boolean("moves.eta", &P::eta_updates, Boolean{true}, "update the allowed-bond (eta) cubes")
      .choice("start.kind", &P::start, cvf::start_kind_names(), cvf::StartKind::random,
              "initial bonding variables and cubes: random, or all in state 0")
      .real("start.v_iso", &P::initial_v_iso, Real{1, 1e6, 1.2},
            "initial isotropic volume per molecule", "v0")
      .integer("run.seed", &P::seed, Integer{0, (1LL << 62), 1}, "random seed")
      .integer("run.thermalisation", &P::thermalisation, Integer{0, 1LL << 40, 1000},
               "MC steps before the first measurement, at every state point", "MC steps")
      .integer("run.measurements", &P::measurements, Integer{2, 1LL << 40, 1000},
               "measurements at every state point")
      .integer("run.steps_between_measurements", &P::steps_between_measurements,
               Integer{1, 1LL << 30, 1}, "MC steps between two measurements", "MC steps")
      .integer_or_auto(
          "analysis.blocks", &P::jackknife_blocks, Integer{2, 1000000, std::nullopt, true, true}, 0,
          "jackknife bins of C_P, kappa_T and alpha_P: auto = bins of ceil(20 tau_int) "
          "measurements (at least 16), or this many bins of the equilibrated measurements, at "
          "most run.measurements / 2; means always get the statistics service's binned errors")
      .integer("analysis.autocorrelation_lags", &P::autocorrelation_lags,
               Integer{1, 1LL << 30, 200},
               "largest lag of the order-parameter autocorrelation C_M(dt)", "measurements")
      .unbound("output.file", String{"cvf.h5", {}}, "HDF5 result file")
      .unbound("output.configuration", Boolean{false},
               "also write the final configuration (sigma, cube states, v_iso, step) to "
               "/cvf/configuration, in the one-rank layout on any number of MPI ranks")
      .custom("parallel.halo_transport", String{"auto", parallel::halo_transport_names()},
              "how halo planes travel between ranks: nccl (CUDA builds with NCCL), mpi_direct "
              "(MPI on the arrays: CPU backends or CUDA-aware MPI), mpi_staged (through pinned "
              "host memory); auto: nccl if built with it, else mpi_direct if MPI reports CUDA "
              "support, else mpi_staged",
              [](const config::Config& c, P& p) {
                p.halo_transport =
                    parallel::parse_halo_transport(c.string("parallel.halo_transport"));
              });
  app::add_checkpoint_keys(
      b.schema(), "a thermalisation step, or the steps before a measurement and the measurement");

  b.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("lattice.L") % 4 != 0)
          return "L = " + std::to_string(c.integer("lattice.L")) +
                 ": expected a multiple of 4 (the checkerboard cubes of the eta variables)";
        return std::nullopt;
      },
      "lattice.L");
  b.check(
      [](const config::Config& c) -> Rule {
        for (double t : c.real_list("state.temperatures"))
          if (!(t > 0)) return "every temperature must be > 0 K";
        return std::nullopt;
      },
      "state.temperatures");
  b.check(
      [](const config::Config& c) -> Rule {
        if (!c.boolean("state.grid") &&
            c.real_list("state.temperatures").size() != c.real_list("state.pressures").size())
          return "state.grid: false pairs temperatures with pressures: the lists need equal "
                 "lengths";
        return std::nullopt;
      },
      "state.grid");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.real("model.cutoff") < 1) return "the cutoff must be >= r0 (1)";
        if (c.real("model.gas_threshold") <= 1)
          return "the gas threshold must be above the hard core (1 v0)";
        return std::nullopt;
      },
      "model");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.real("start.v_iso") < 1) return "v_iso below the hard core (1 v0)";
        return std::nullopt;
      },
      "start.v_iso");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("analysis.autocorrelation_lags") >= c.integer("run.measurements"))
          return "expected fewer lags than run.measurements (" +
                 std::to_string(c.integer("run.measurements")) + ")";
        return std::nullopt;
      },
      "analysis.autocorrelation_lags");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto blocks = c.integer_or_auto("analysis.blocks");
        // Equilibration discards up to half of the measurements; the bins must fit the rest.
        if (blocks && *blocks > c.integer("run.measurements") / 2)
          return std::to_string(*blocks) + " jackknife blocks: expected at most run.measurements " +
                 "/ 2 = " + std::to_string(c.integer("run.measurements") / 2) +
                 " (equilibration may discard up to half of the measurements), or auto";
        return std::nullopt;
      },
      "analysis.blocks");
  return b;
}

}  // namespace portamc::cvf_app
