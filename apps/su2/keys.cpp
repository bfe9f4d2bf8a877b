// The keys of portamc-su2, each declared once and bound to the member of su2::RunParameters it
// fills (config_binding.hpp).
#include <cmath>

#include "portamc/app.hpp"
#include "portamc/halo_transport.hpp"
#include "portamc/su2/names.hpp"
#include "su2_app.hpp"

namespace portamc::su2_app {

using config::Integer, config::Real, config::RealList, config::String;

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
      .integer("measure.flow.every", &P::flow_every, Integer{0, 1LL << 30, 0},
               "gradient flow of every this many measured configurations (0: no flow)",
               "measurements")
      .real("measure.flow.t_max", &P::flow_t_max, Real{0, 1e6, 0},
            "flow time of the last step (> 0 with the flow on)", "lattice units^2")
      .real("measure.flow.epsilon", &P::flow_epsilon, Real{1e-9, 1e6, 0.01},
            "Runge-Kutta step of the flow", "lattice units^2")
      .reals("measure.flow.record_times", &P::flow_record_times,
             RealList{0, 1e6, std::vector<double>{}, 0},
             "flow times at which E and Q are recorded, increasing, ending at t_max; empty: "
             "after every step",
             "lattice units^2")
      .real("measure.flow.adaptive", &P::flow_adaptive, Real{0, 1, 0},
            "local error bound of adaptive flow steps (step doubling; the largest link "
            "component error per step), epsilon the first step; 0: fixed steps of epsilon")
      .real("measure.flow.reference", &P::flow_reference, Real{1e-9, 1e6, su2::su2_flow_reference},
            "t^2 E(t0) = W(w0^2) = this (0.1: Hirakida, Itou, Kouno for SU(2))")
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

  add_rules(b);
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

}  // namespace portamc::su2_app
