// portamc-su2: SU(2) lattice gauge theory (Wilson action; heatbath + overrelaxation) at one
// coupling or over a scan of couplings: plaquette, Polyakov loop, Wilson loops and the static
// potential. YAML in (input/su2*.yaml), HDF5 out (docs/output.md); checkpoints and resume
// through the run protocol (run_protocol.hpp).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

#include "portamc/app.hpp"
#include "portamc/config_binding.hpp"
#include "portamc/halo_transport.hpp"
#include "portamc/run_protocol.hpp"
#include "portamc/su2/names.hpp"
#include "portamc/su2/run.hpp"
#include "portamc/su2/run_analysis.hpp"
#include "portamc/su2/run_output.hpp"

namespace {

using namespace portamc;
using config::Integer, config::Real, config::RealList, config::String;
using Rule = std::optional<std::string>;

// The extents as integers, or nullopt when they are not 2..4 even integers (reported once, by
// the lattice.extents rule; the rules that depend on the lattice then stay silent).
std::optional<std::vector<int>> extents_of(const config::Config& c) {
  const auto& e = c.real_list("lattice.extents");
  if (e.size() < 2 || e.size() > 4) return std::nullopt;
  std::vector<int> out;
  for (double n : e) {
    if (n != std::floor(n) || n < 2 || static_cast<long long>(n) % 2 != 0) return std::nullopt;
    out.push_back(static_cast<int>(n));
  }
  return out;
}

std::string config_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

int smallest_spatial_extent(const std::vector<int>& e) {
  int m = e.front();
  for (std::size_t mu = 0; mu + 1 < e.size(); ++mu) m = std::min(m, e[mu]);
  return m;
}

using P = su2::RunParameters;

// Every key of portamc-su2, bound to the member of su2::RunParameters it fills (parallel.* go
// to ParallelOptions, read by to_parallel_options).
config::Bindings<P> bindings() {
  config::Bindings<P> b("portamc-su2");
  b.custom("lattice.extents", RealList{2, 100000, std::vector<double>{8, 8, 8, 8}, 2},
           "N_0 .. N_{D-1}: 2 to 4 even integers >= 2; the last direction is time",
           [](const config::Config& c, P& p) { p.extents = extents_of(c).value(); })
      .unbound("model.beta", Real{0, 1000, 2.3},
               "coupling beta = 4/g^2 (> 0); unused with beta_scan")
      .custom("model.beta_scan", RealList{0, 1000, std::vector<double>{}, 0},
              "couplings to run in turn (each > 0); empty = the single model.beta",
              [](const config::Config& c, P& p) {
                const auto& scan = c.real_list("model.beta_scan");
                p.betas = scan.empty() ? std::vector<double>{c.real("model.beta")} : scan;
              })
      .choice("model.precision", &P::precision, su2::precision_names(),
              su2::StoragePrecision::kDouble, "link storage precision")
      .choice("model.start", &P::start, su2::start_kind_names(), su2::StartKind::cold,
              "initial configuration: unit links, Haar-random links, or model.start_file")
      .text("model.start_file", &P::start_file, String{"", {}},
            "gauge configuration to start from (model.start: file); same extents and precision")
      .integer("model.seed", &P::seed, Integer{0, (1LL << 62), 1},
               "random seed (hot start and heatbath)")
      .integer("updates.n_hb", &P::heatbath_sweeps, Integer{0, 1000, 1},
               "heatbath sweeps per update")
      .integer("updates.n_or", &P::overrelaxation_sweeps, Integer{0, 1000, 0},
               "overrelaxation sweeps per update")
      .choice("updates.method", &P::method, su2::heatbath_method_names(),
              su2::HeatbathMethod::automatic,
              "heatbath a0 sampler; auto: Kennedy-Pendleton where beta|staple| >= kp_threshold")
      .real("updates.kp_threshold", &P::kp_threshold, Real{0, 1e6, su2::acceptance_crossover_alpha},
            "staple strength alpha from which auto uses Kennedy-Pendleton")
      .integer("updates.max_attempts", &P::max_attempts, Integer{1, su2::max_heatbath_attempts, 64},
               "a0 proposals per link before it is left unchanged")
      .integer("updates.reunitarise_every", &P::reunitarise_every, Integer{0, 1000000000, 0},
               "reunitarise all links every this many updates (0: never; updates keep links "
               "unitary)")
      .integer("run.thermalisation", &P::thermalisation, Integer{0, 1LL << 40, 100},
               "updates before the first measurement, at every coupling", "updates")
      .integer("run.measurements", &P::measurements, Integer{2, 1LL << 40, 100},
               "measurements at every coupling")
      .integer("run.updates_between_measurements", &P::updates_between_measurements,
               Integer{1, 1LL << 30, 1}, "updates between two measurements", "updates")
      .integer("measure.wilson_r_max", &P::wilson_r_max, Integer{0, 100000, 0},
               "largest spatial extent R of Wilson loops (0: no Wilson loops)", "lattice units")
      .integer("measure.wilson_t_max", &P::wilson_t_max, Integer{0, 100000, 0},
               "largest temporal extent T of Wilson loops (>= 2 for the potential)",
               "lattice units")
      .real("measure.ape_alpha", &P::ape_alpha, Real{0, 1, 0.5},
            "APE staple weight: U <- Proj[(1-alpha) U + alpha/(2(D-2)) sum of spatial staples]")
      .integer("measure.ape_iterations", &P::ape_iterations, Integer{0, 1000000, 0},
               "APE smearing steps of the spatial links; > 0 also measures smeared Wilson loops")
      .integer("measure.polyakov_bins", &P::polyakov_bins, Integer{1, 1000000, 100},
               "bins of the histogram of the spatial-average Polyakov loop over [-1, 1]")
      .integer_or_auto("analysis.blocks", &P::jackknife_blocks,
                       Integer{2, 1000000, std::nullopt, true, true}, 0,
                       "jackknife bins of the Polyakov susceptibility and the static potential; "
                       "auto: bins of ceil(20 tau_int) equilibrated measurements, at least 16 "
                       "(means always get binned errors from their own tau_int)")
      .boolean("potential.enabled", &P::potential, config::Boolean{true},
               "extract the static potential from the Wilson loops (needs 3 values of R to fit)")
      .integer("potential.fit_r_min", &P::fit_r_min, Integer{1, 100000, 1},
               "smallest R in the fit V(R) = V0 - alpha/R + sigma R", "lattice units")
      .integer("potential.fit_r_max", &P::fit_r_max, Integer{0, 100000, 0},
               "largest R in the fit (0: measure.wilson_r_max)", "lattice units")
      .integer("potential.plateau_t", &P::plateau_t, Integer{0, 100000, 0},
               "T at which V(R) = ln(W(R,T)/W(R,T+1)) is read off (0: automatic per R)",
               "lattice units")
      .real("potential.plateau_tolerance", &P::plateau_tolerance, Real{1e-6, 1e6, 1.0},
            "automatic plateau: first T with |V_T - V_T+1| <= tolerance x its error")
      .real("potential.sqrt_sigma", &P::sqrt_sigma_mev, Real{1, 100000, 440.0},
            "physical sqrt(string tension) that sets the lattice spacing", "MeV")
      .unbound("output.file", String{"su2.h5", {}}, "HDF5 result file")
      .unbound("output.save_config", String{"", {}},
               "write the final configuration here (gauge-configuration file); empty: do not")
      .unbound("parallel.grid", RealList{1, 1000000, std::vector<double>{}, 0},
               "MPI rank grid P_0 .. P_{D-1} (product = ranks; each N_mu / P_mu even where "
               "P_mu > 1); empty: chosen automatically (fewest halo sites, slowest directions "
               "first)")
      .unbound("parallel.halo_transport", String{"auto", parallel::halo_transport_names()},
               "how halos travel between ranks: nccl (CUDA builds with NCCL), mpi_direct (MPI "
               "on the buffers: CPU backends or CUDA-aware MPI), mpi_staged (through pinned "
               "host memory); auto: nccl if built with it, else mpi_direct if MPI reports CUDA "
               "support, else mpi_staged");
  app::add_checkpoint_keys(
      b.schema(),
      "a thermalisation update, or the updates before a measurement and the measurement");

  b.check(
      [](const config::Config& c) -> Rule {
        const auto& e = c.real_list("lattice.extents");
        if (e.size() < 2 || e.size() > 4)
          return "expected 2, 3 or 4 extents, got " + std::to_string(e.size());
        for (std::size_t mu = 0; mu < e.size(); ++mu)
          if (e[mu] != std::floor(e[mu]) || static_cast<long long>(e[mu]) % 2 != 0)
            return "N_" + std::to_string(mu) + " = " + config_number(e[mu]) +
                   ": every extent must be an even integer (the checkerboard updates need it)";
        return std::nullopt;
      },
      "lattice.extents");
  b.check(
      [](const config::Config& c) -> Rule {
        if (!(c.real("model.beta") > 0)) return "expected beta > 0";
        return std::nullopt;
      },
      "model.beta");
  b.check(
      [](const config::Config& c) -> Rule {
        for (double b : c.real_list("model.beta_scan"))
          if (!(b > 0)) return "every beta must be > 0";
        return std::nullopt;
      },
      "model.beta_scan");
  b.check(
      [](const config::Config& c) -> Rule {
        const bool file = c.string("model.start") == "file";
        const bool given = !c.string("model.start_file").empty();
        if (file && !given) return "model.start: file needs a start file";
        if (!file && given) return "only used with model.start: file";
        return std::nullopt;
      },
      "model.start_file");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("updates.n_hb") + c.integer("updates.n_or") < 1)
          return "an update needs at least one sweep (n_hb + n_or >= 1)";
        return std::nullopt;
      },
      "updates.n_hb");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto r = c.integer("measure.wilson_r_max"), t = c.integer("measure.wilson_t_max");
        if ((r > 0) != (t > 0)) return "wilson_r_max and wilson_t_max must both be 0 or both > 0";
        const auto e = extents_of(c);
        if (r > 0 && e && r > smallest_spatial_extent(*e) / 2)
          return "R = " + std::to_string(r) + " is larger than half the smallest spatial extent (" +
                 std::to_string(smallest_spatial_extent(*e) / 2) + ")";
        return std::nullopt;
      },
      "measure.wilson_r_max");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto t = c.integer("measure.wilson_t_max");
        const auto e = extents_of(c);
        if (t == 1 && c.boolean("potential.enabled"))
          return "expected 0 (off) or >= 2: effective masses compare T and T+1";
        if (t > 0 && e && t > e->back() / 2)
          return "T = " + std::to_string(t) + " is larger than half the time extent (" +
                 std::to_string(e->back() / 2) + ")";
        return std::nullopt;
      },
      "measure.wilson_t_max");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("measure.ape_iterations") == 0) return std::nullopt;
        if (c.integer("measure.wilson_r_max") == 0)
          return "APE smearing only acts on Wilson loops: set measure.wilson_r_max/t_max";
        if (c.real_list("lattice.extents").size() < 3)
          return "APE smearing needs two spatial directions (3 or 4 extents)";
        return std::nullopt;
      },
      "measure.ape_iterations");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto r = c.integer("measure.wilson_r_max");
        if (r == 0 || !c.boolean("potential.enabled")) return std::nullopt;
        const auto lo = c.integer("potential.fit_r_min");
        const auto hi =
            c.integer("potential.fit_r_max") == 0 ? r : c.integer("potential.fit_r_max");
        if (hi > r) return "fit_r_max = " + std::to_string(hi) + " exceeds wilson_r_max";
        if (hi - lo + 1 < 3)
          return "the fit range " + std::to_string(lo) + ".." + std::to_string(hi) +
                 " needs at least 3 values of R (3 fit parameters)";
        return std::nullopt;
      },
      "potential");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto t = c.integer("measure.wilson_t_max"), p = c.integer("potential.plateau_t");
        if (t >= 2 && c.boolean("potential.enabled") && p > t - 1)
          return "expected 0 (automatic) or 1.." + std::to_string(t - 1) + " (T+1 <= wilson_t_max)";
        return std::nullopt;
      },
      "potential.plateau_t");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto blocks = c.integer_or_auto("analysis.blocks");
        if (blocks && *blocks > c.integer("run.measurements"))
          return "analysis.blocks = " + std::to_string(*blocks) +
                 " exceeds run.measurements = " + std::to_string(c.integer("run.measurements")) +
                 " (a bin needs at least one measurement); use auto";
        return std::nullopt;
      },
      "analysis.blocks");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto& g = c.real_list("parallel.grid");
        if (g.empty()) return std::nullopt;
        for (double p : g)
          if (p != std::floor(p)) return "every entry must be a positive integer";
        if (g.size() != c.real_list("lattice.extents").size())
          return "expected one entry per lattice direction (" +
                 std::to_string(c.real_list("lattice.extents").size()) + "), got " +
                 std::to_string(g.size());
        return std::nullopt;
      },
      "parallel.grid");
  return b;
}

su2::ParallelOptions to_parallel_options(const config::Config& c) {
  su2::ParallelOptions o;
  for (double p : c.real_list("parallel.grid")) o.grid.push_back(static_cast<int>(p));
  o.transport = parallel::parse_halo_transport(c.string("parallel.halo_transport"));
  return o;
}

su2::RunParameters to_parameters(const config::Config& c) {
  su2::RunParameters p = bindings().parameters(c);
  p.validate();
  return p;
}

// The start configuration, checked against this run's lattice and precision (and checksum).
su2::GaugeConfig load_start(const su2::RunParameters& p) {
  su2::GaugeConfigExpectation expected;
  expected.extents.assign(p.extents.begin(), p.extents.end());
  expected.precision = p.precision;
  try {
    return su2::read_gauge_config(p.start_file, expected);
  } catch (const std::exception& e) {
    throw app::BadInput(std::string("model.start_file: ") + e.what());
  }
}

void print_summary(const su2::RunParameters& p, const std::vector<su2::PointRecord>& points,
                   const std::vector<su2::PointAnalysis>& analyses) {
  std::printf("%8s %22s %22s %22s %8s %9s %9s\n", "beta", "plaquette", "|P|", "chi_P", "tau_plaq",
              "N_eff", "discarded");
  for (std::size_t k = 0; k < points.size(); ++k) {
    const auto& a = analyses[k];
    const auto& chi = a.susceptibility.estimate;
    std::printf("%8.4f %12.8f +- %.2e %12.8f +- %.2e %12.6f +- %.2e %8.2f %9.1f %9zu\n",
                points[k].beta, a.plaquette.mean.value, a.plaquette.mean.error,
                a.polyakov_abs.mean.value, a.polyakov_abs.mean.error, chi.value, chi.error,
                a.plaquette.tau.tau_int, a.plaquette.effective_samples, a.equilibration.discarded);
    for (const auto* v : {&a.potential, &a.potential_smeared}) {
      if (!*v) continue;
      const char* which = v == &a.potential ? "unsmeared" : "APE-smeared";
      if (!(*v)->ok) {
        std::printf("  potential (%s): not extracted: %s\n", which, (*v)->status.c_str());
        continue;
      }
      const auto& s = *(*v)->potential;
      std::printf(
          "  potential (%s, R %d..%d): sigma a^2 = %.5f +- %.5f, alpha = %.4f +- %.4f, "
          "a = %.4f +- %.4f fm (sqrt(sigma) = %g MeV)\n",
          which, s.fit_r_min, s.fit_r_max, s.sigma.value, s.sigma.error, s.alpha.value,
          s.alpha.error, s.spacing_fm.value, s.spacing_fm.error, p.sqrt_sigma_mev);
    }
  }
}

// The run as the protocol drives it (run_protocol.hpp): one unit is a thermalisation update,
// or the updates before a measurement and the measurement.
class Su2Driver final : public app::RunDriver {
 public:
  Su2Driver(const app::Context& ctx, const su2::RunParameters& p)
      : ctx_(ctx), p_(p), save_path_(ctx.config.string("output.save_config")) {
    sim_.emplace(p, ctx.comm, to_parallel_options(ctx.config));
    if (!ctx.options.quiet && ctx.is_root())
      std::cerr << "lattice " << p.extents.size() << "D, " << p.volume() << " sites, "
                << p.betas.size() << " coupling(s), " << su2::to_string(p.precision) << ", "
                << sim_->decomposition_text() << "\n";
  }

  // The start configuration is read on rank 0 and sent out in blocks; the other ranks only
  // need the RNG counter it continues.
  void start() override {
    std::optional<su2::GaugeConfig> start;
    if (p_.start == su2::StartKind::file) {
      app::collective_check(
          ctx_, [&] { start = load_start(p_); }, true);
      std::string sweep = ctx_.is_root() ? std::to_string(start->metadata.sweep) : std::string();
      ctx_.comm.broadcast(sweep);
      if (!ctx_.is_root()) {
        start.emplace();
        start->metadata.sweep = std::stoull(sweep);
      }
    }
    sim_->start(start ? &*start : nullptr);
  }
  void resume(const std::string& path) override {
    su2::RunCheckpoint checkpoint = su2::read_checkpoint(path);
    if (!ctx_.is_root()) checkpoint.links.clear();  // the configuration comes from rank 0
    sim_->restore(checkpoint);
  }
  void advance() override { sim_->advance(); }
  bool done() const override { return sim_->done(); }
  double fraction_done() const override { return sim_->fraction_done(); }
  std::string status() const override { return sim_->status(); }
  void save(const std::string& path, const std::string& yaml) override {
    const su2::RunCheckpoint state = sim_->checkpoint();  // collective
    if (ctx_.is_root()) su2::write_checkpoint(path, state, yaml);
  }
  // Collective: the configuration is gathered on rank 0 before it alone writes files.
  void finish() override {
    if (!save_path_.empty()) final_links_ = sim_->configuration();
  }
  void analyse() override {
    for (const auto& r : sim_->points()) analyses_.push_back(su2::analyse_point(r, p_));
    for (std::size_t k = 0; k < analyses_.size(); ++k)
      for (const std::string& w : su2::analysis_warnings(analyses_[k], p_))
        std::cerr << "warning: beta " << sim_->points()[k].beta << ": " << w << "\n";
  }
  void write_results(h5::Group root) override {
    su2::write_results(root, p_, sim_->points(), analyses_);
  }
  void write_other_files() override {
    if (!save_path_.empty())
      su2::save_configuration(save_path_, *sim_, ctx_.provenance(p_.seed), final_links_);
  }
  void print_summary() const override { ::print_summary(p_, sim_->points(), analyses_); }

 private:
  const app::Context& ctx_;
  su2::RunParameters p_;
  std::string save_path_;
  std::optional<su2::Simulation> sim_;
  std::vector<double> final_links_;
  std::vector<su2::PointAnalysis> analyses_;
};

int run(const app::Context& ctx) {
  const su2::RunParameters p = to_parameters(ctx.config);
  app::RunPlan plan = app::plan_run(ctx, "su2", p.seed);
  plan.also_written = {{"output.save_config", ctx.config.string("output.save_config")}};
  plan.also_read = {{"model.start_file", p.start_file}};
  plan.resume_note = "on any number of ranks";
  return app::run_protocol(ctx, plan, [&] { return std::make_unique<Su2Driver>(ctx, p); });
}

}  // namespace

int main(int argc, char** argv) {
  const app::Description description{
      "portamc-su2", "SU(2) lattice gauge theory: plaquette, Polyakov loop, static potential",
      "portamc-su2 input/su2.yaml --set model.beta=2.5 -o su2-b2.5.h5"};
  return app::main(argc, argv, description, bindings().schema(), run);
}
