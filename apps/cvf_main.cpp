// portamc-cvf: the CVF water model (Coronas, Vilanova, Franzese) in the NPT ensemble at one
// state point or over a scan in T and P, with parallel Metropolis or Swendsen-Wang updates of
// the hydrogen-bond network: density, enthalpy, hydrogen bonds, order parameter, their time
// series and autocorrelation, C_P, kappa_T and alpha_P. YAML in (input/cvf*.yaml), HDF5 out
// (docs/output.md); checkpoints and resume through the run protocol (run_protocol.hpp).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "portamc/app.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/config_binding.hpp"
#include "portamc/cvf/checkpoint.hpp"
#include "portamc/cvf/names.hpp"
#include "portamc/cvf/run.hpp"
#include "portamc/cvf/run_output.hpp"
#include "portamc/halo_transport.hpp"
#include "portamc/run_protocol.hpp"

namespace {

using namespace portamc;
using config::Boolean, config::Integer, config::Real, config::RealList, config::String;
using Rule = std::optional<std::string>;

using P = cvf::RunParameters;

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

// The run as the protocol drives it (run_protocol.hpp): one unit is a thermalisation step, or
// the steps before a measurement and the measurement.
class CvfDriver final : public app::RunDriver {
 public:
  CvfDriver(const app::Context& ctx, const cvf::RunParameters& p) : ctx_(ctx), p_(p) {
    const int ranks = ctx.comm.size();  // the rank count was validated in run()
    // A size that does not fit is bad input, found before anything is allocated.
    try {
      require_device_memory(cvf::required_device_bytes(p, ranks),
                            "the CVF state of " + std::to_string(p.molecules()) + " molecules" +
                                (ranks > 1 ? " (one slab of " + std::to_string(ranks) + ")" : ""));
    } catch (const std::invalid_argument& e) {
      throw app::BadInput(e.what());
    }
    chain_ = std::make_unique<cvf::Run>(p, ctx.comm);
    if (verbose())
      std::cerr << "CVF water, " << p.molecules() << " molecules (L = " << p.L << "), "
                << p.point_count() << " state point(s), " << cvf::to_string(p.algorithm)
                << (ranks > 1 ? ", z-slabs over " + std::to_string(ranks) +
                                    " ranks (halos: " + chain_->halo_transport() + ")"
                              : std::string())
                << "\n";
  }

  void advance() override { chain_->advance(); }
  bool done() const override { return chain_->done(); }
  double fraction_done() const override { return chain_->fraction_done(); }
  std::string status() const override { return chain_->status(); }
  void resume(const std::string& path) override {
    const cvf::RunCheckpoint checkpoint = cvf::read_checkpoint(path);
    try {
      chain_->restore(checkpoint);
    } catch (const std::invalid_argument& e) {
      throw h5::BadCheckpoint("cannot resume from '" + path + "': " + e.what());
    }
  }
  void save(const std::string& path, const std::string& yaml) override {
    const cvf::RunCheckpoint state = chain_->checkpoint();  // collective
    if (ctx_.is_root()) cvf::write_checkpoint(path, state, yaml);
  }
  void finish() override {
    if (verbose() && chain_->ranks() > 1)
      std::cerr << "halo exchanges: " << chain_->halo_seconds() << " s on rank 0\n";
    // Gathered on rank 0 by every rank (collective).
    if (ctx_.config.boolean("output.configuration")) configuration_ = chain_->configuration();
  }
  void analyse() override {
    analyses_ = cvf::analyse(p_, chain_->points());
    for (std::size_t k = 0; k < analyses_.size(); ++k) {
      const auto warnings = cvf::analysis_warnings(analyses_[k]);
      if (warnings.empty()) continue;
      const cvf::StatePoint& s = chain_->points()[k].point;
      std::cerr << "warning: T = " << s.temperature_kelvin << " K, P = " << s.pressure_megapascal
                << " MPa: " << warnings.size() << " estimate(s) not reliable (run longer):\n";
      for (const std::string& w : warnings) std::cerr << "  " << w << "\n";
    }
  }
  void write_results(h5::Group root) override {
    cvf::write_results(root, p_, chain_->points(), analyses_);
    if (configuration_) cvf::write_configuration(root, *configuration_);
  }
  void print_summary() const override { cvf::print_summary(p_, chain_->points(), analyses_); }

 private:
  bool verbose() const { return !ctx_.options.quiet && ctx_.is_root(); }

  const app::Context& ctx_;
  cvf::RunParameters p_;
  std::unique_ptr<cvf::Run> chain_;
  std::optional<cvf::FinalConfiguration> configuration_;
  std::vector<cvf::PointAnalysis> analyses_;
};

int run(const app::Context& ctx) {
  const cvf::RunParameters p = bindings().parameters(ctx.config);
  // Every rank holds the same parameters, so these checks agree without communication.
  try {
    p.validate();
    cvf::validate_ranks(p, ctx.comm.size());
  } catch (const std::exception& e) {
    throw app::AgreedFailure(app::exit_bad_input, e.what());
  }
  app::RunPlan plan = app::plan_run(ctx, "cvf", p.seed);
  plan.resume_note = "on any number of ranks the lattice allows";
  return app::run_protocol(ctx, plan, [&] { return std::make_unique<CvfDriver>(ctx, p); });
}

}  // namespace

int main(int argc, char** argv) {
  const app::Description description{
      "portamc-cvf",
      "CVF water (NPT Monte Carlo of the hydrogen-bond network; Metropolis or Swendsen-Wang)",
      "portamc-cvf input/cvf.yaml --set state.temperatures=[250,260,270] -o scan.h5"};
  return app::main(argc, argv, description, bindings().schema(), run);
}
