#include "portamc/cvf/run_output.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace portamc::cvf {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

std::size_t blocks_for(const RunParameters& p, std::size_t samples) {
  return std::min<std::size_t>(static_cast<std::size_t>(p.jackknife_blocks), samples);
}

// An estimate as two scalar datasets, value and error, in a group of its own.
void write_estimate(h5::Group& parent, const std::string& name, const stats::Estimate& e,
                    const std::string& units, const std::string& description) {
  auto g = parent.group(name);
  g.attribute("description", description);
  g.write_scalar("value", e.value, units, description);
  g.write_scalar("error", e.error, units, "jackknife error of value");
}

void write_series(h5::Group& point, const std::string& name, const std::vector<std::int64_t>& step,
                  const std::vector<double>& values, const std::string& units,
                  const std::string& description) {
  auto g = point.group(name);
  g.attribute("description", description);
  g.write("step", step, "MC steps", "MC steps of the run before the measurement");
  g.write("value", values, units, description);
}

}  // namespace

std::vector<PointAnalysis> analyse(const RunParameters& p, const std::vector<PointRecord>& points) {
  std::vector<PointAnalysis> out;
  for (const PointRecord& r : points) {
    PointAnalysis a;
    const std::size_t blocks = blocks_for(p, r.measurements());
    const ReducedStatePoint reduced = reduce(p.model, r.point);
    a.response =
        response_functions(r.enthalpy, r.volume, p.molecules(), reduced.t, p.model, blocks);
    a.hydrogen_bonds = jackknife_mean(r.hydrogen_bonds, blocks);
    a.cooperative = jackknife_mean(r.cooperative, blocks);
    a.v_iso = jackknife_mean(r.v_iso, blocks);
    a.order = jackknife_mean(r.order, blocks);
    const std::size_t lags = std::min<std::size_t>(static_cast<std::size_t>(p.autocorrelation_lags),
                                                   r.measurements() - 1);
    a.order_autocorrelation = autocorrelation_function(r.order, lags);
    a.volume_acceptance =
        r.volume_proposals > 0 ? static_cast<double>(r.volume_accepted) / r.volume_proposals : nan;
    a.ns_per_molecule_step =
        r.steps > 0 ? r.update_seconds * 1e9 / (static_cast<double>(r.steps) * p.molecules()) : nan;
    out.push_back(std::move(a));
  }
  return out;
}

void write_results(h5::Group root, const RunParameters& p, const std::vector<PointRecord>& points,
                   const std::vector<PointAnalysis>& analyses) {
  auto cvf = root.group("cvf");
  cvf.attribute("description", "CVF water model, NPT Monte Carlo (docs/models/cvf.md)");
  cvf.attribute("L", static_cast<std::int64_t>(p.L));
  cvf.attribute("molecules", p.molecules());
  cvf.attribute("algorithm", to_string(p.algorithm));
  cvf.attribute("labelling", to_string(p.labelling).c_str());
  // Which Metropolis chain the seed drove (the kernels are different, equally valid chains).
  cvf.attribute("metropolis_kernel", to_string(p.metropolis_kernel));
  cvf.attribute("points", static_cast<std::int64_t>(points.size()));
  cvf.attribute("volume_step", p.resolved_volume_step());
  cvf.attribute("r0_angstrom", p.model.r0_angstrom);  // v0 = r0^3 converts volumes to densities

  // One row per state point: what a scan plot needs without opening the point groups.
  std::vector<double> column[16];
  enum { T, P, rho, rho_e, h, h_e, cp, cp_e, kt, kt_e, ap, ap_e, hb, hb_e, tau_e, tau_int };
  for (std::size_t k = 0; k < points.size(); ++k) {
    const auto& a = analyses[k];
    const auto& rf = a.response;
    const double values[16] = {points[k].point.temperature_kelvin,
                               points[k].point.pressure_megapascal,
                               rf.density_g_per_cm3.value,
                               rf.density_g_per_cm3.error,
                               rf.enthalpy_kj_per_mol.value,
                               rf.enthalpy_kj_per_mol.error,
                               rf.heat_capacity_j_per_mol_k.value,
                               rf.heat_capacity_j_per_mol_k.error,
                               rf.compressibility_per_gpa.value,
                               rf.compressibility_per_gpa.error,
                               rf.expansivity_per_kelvin.value,
                               rf.expansivity_per_kelvin.error,
                               a.hydrogen_bonds.value,
                               a.hydrogen_bonds.error,
                               a.order_autocorrelation.tau_e,
                               a.order_autocorrelation.tau_int.tau_int};
    for (int c = 0; c < 16; ++c) column[c].push_back(values[c]);
  }
  auto scan = cvf.group("scan");
  scan.attribute("description", "one row per state point, in run order");
  scan.write("temperature", column[T], "K", "temperature");
  scan.write("pressure", column[P], "MPa", "pressure");
  scan.write("density", column[rho], "g/cm^3", "mean mass density");
  scan.write("density_error", column[rho_e], "g/cm^3", "jackknife error of density");
  scan.write("enthalpy", column[h], "kJ/mol", "mean enthalpy per molecule");
  scan.write("enthalpy_error", column[h_e], "kJ/mol", "jackknife error of enthalpy");
  scan.write("heat_capacity", column[cp], "J/(mol K)", "C_P = N Var(h) / (k_B T^2)");
  scan.write("heat_capacity_error", column[cp_e], "J/(mol K)", "jackknife error of C_P");
  scan.write("compressibility", column[kt], "1/GPa", "kappa_T = N Var(v) / (k_B T <v>)");
  scan.write("compressibility_error", column[kt_e], "1/GPa", "jackknife error of kappa_T");
  scan.write("expansivity", column[ap], "1/K", "alpha_P = N Cov(v, h) / (k_B T^2 <v>)");
  scan.write("expansivity_error", column[ap_e], "1/K", "jackknife error of alpha_P");
  scan.write("hydrogen_bonds", column[hb], "per molecule", "mean N_HB / N");
  scan.write("hydrogen_bonds_error", column[hb_e], "per molecule", "jackknife error");
  scan.write("order_tau_e", column[tau_e], "measurements",
             "first lag with C_M <= 1/e (NaN if not reached)");
  scan.write("order_tau_int", column[tau_int], "measurements",
             "integrated autocorrelation time of M");

  for (std::size_t k = 0; k < points.size(); ++k) {
    const PointRecord& r = points[k];
    const PointAnalysis& a = analyses[k];
    const ReducedStatePoint reduced = reduce(p.model, r.point);
    auto g = cvf.group("point_" + std::to_string(k));
    g.attribute("temperature", r.point.temperature_kelvin);
    g.attribute("pressure", r.point.pressure_megapascal);
    g.attribute("t_reduced", reduced.t);
    g.attribute("p_reduced", reduced.p);
    g.attribute("J_eff", effective_coupling(p.model, reduced));
    g.attribute("steps", r.steps);
    {
      // Wall times describe the run, not its results (they differ between runs and rank
      // counts): a group named `timing`, as in the other apps' files.
      auto t = g.group("timing");
      t.attribute("update_seconds", r.update_seconds);
      t.attribute("measurement_seconds", r.measurement_seconds);
      t.attribute("ns_per_molecule_step", a.ns_per_molecule_step);
    }
    g.attribute("volume_acceptance", a.volume_acceptance);
    if (p.algorithm == SigmaAlgorithm::swendsen_wang)
      g.attribute("label_iterations", r.label_iterations);

    write_series(g, "hydrogen_bonds", r.step, r.hydrogen_bonds, "per molecule",
                 "N_HB / N (zero while gas-like)");
    write_series(g, "cooperative", r.step, r.cooperative, "per molecule", "N_sigma / N");
    write_series(g, "v_iso", r.step, r.v_iso, "v0", "isotropic volume per molecule V_iso / N");
    write_series(g, "volume", r.step, r.volume, "v0", "volume per molecule V / N");
    write_series(g, "enthalpy", r.step, r.enthalpy, "epsilon", "enthalpy per molecule H / N");
    write_series(g, "order", r.step, r.order, "1", "order parameter M = max_q N_q / (6 N)");

    const auto& rf = a.response;
    write_estimate(g, "density", rf.density_g_per_cm3, "g/cm^3", "mean mass density");
    write_estimate(g, "enthalpy_mean", rf.enthalpy_kj_per_mol, "kJ/mol", "mean enthalpy");
    write_estimate(g, "heat_capacity", rf.heat_capacity_j_per_mol_k, "J/(mol K)",
                   "C_P from enthalpy fluctuations");
    write_estimate(g, "compressibility", rf.compressibility_per_gpa, "1/GPa",
                   "kappa_T from volume fluctuations");
    write_estimate(g, "expansivity", rf.expansivity_per_kelvin, "1/K",
                   "alpha_P from volume-enthalpy cross fluctuations");
    write_estimate(g, "hydrogen_bonds_mean", a.hydrogen_bonds, "per molecule", "mean N_HB / N");
    write_estimate(g, "cooperative_mean", a.cooperative, "per molecule", "mean N_sigma / N");
    write_estimate(g, "order_mean", a.order, "1", "mean order parameter M");
    g.attribute("blocks_long_enough", static_cast<std::int64_t>(rf.blocks_long_enough));

    auto ac = g.group("order_autocorrelation");
    ac.attribute("description", "C_M(dt) of the order parameter (the paper's Eq. 4)");
    ac.write("c", a.order_autocorrelation.c, "1", "C_M(dt) for dt = 0, 1, ... measurements");
    ac.write_scalar("tau_e", a.order_autocorrelation.tau_e, "measurements",
                    "first dt with C_M <= 1/e, interpolated (NaN: not reached)");
    ac.write_scalar("tau_int", a.order_autocorrelation.tau_int.tau_int, "measurements",
                    "integrated autocorrelation time");
    ac.attribute("steps_per_measurement", static_cast<std::int64_t>(p.steps_between_measurements));
  }
}

void write_configuration(h5::Group root, const FinalConfiguration& c) {
  auto g = root.group("cvf").group("configuration");
  g.attribute("description",
              "the configuration the run ended in, in the one-rank layout on every rank count "
              "(geometry.hpp: cell = x + L (y + L z), sigma[arm N + cell], cube numbering)");
  g.write("sigma", c.sigma, "", "bonding variables 0..5, arm-major: sigma[arm * N + cell]");
  g.write("cube_state", c.cube_state, "", "checkerboard cube states 0..8 (which eta are 0)");
  g.write_scalar("v_iso", c.v_iso, "v0", "isotropic volume per molecule");
  g.write_scalar("step", c.step, "MC steps", "the RNG step counter (MC steps done)");
}

void print_summary(const RunParameters& p, const std::vector<PointRecord>& points,
                   const std::vector<PointAnalysis>& analyses) {
  std::printf("%7s %8s %19s %19s %17s %17s %13s %8s %7s\n", "T [K]", "P [MPa]", "rho [g/cm^3]",
              "C_P [J/(mol K)]", "kappa_T [1/GPa]", "N_HB/N", "M", "tau_e", "ns/mol");
  for (std::size_t k = 0; k < points.size(); ++k) {
    const auto& a = analyses[k];
    const auto& rf = a.response;
    std::printf(
        "%7.2f %8.2f %9.5f+-%.1e %9.3f+-%.1e %8.4f+-%.1e %8.5f+-%.1e %6.4f+-%.0e %8.2f %7.3f\n",
        points[k].point.temperature_kelvin, points[k].point.pressure_megapascal,
        rf.density_g_per_cm3.value, rf.density_g_per_cm3.error, rf.heat_capacity_j_per_mol_k.value,
        rf.heat_capacity_j_per_mol_k.error, rf.compressibility_per_gpa.value,
        rf.compressibility_per_gpa.error, a.hydrogen_bonds.value, a.hydrogen_bonds.error,
        a.order.value, a.order.error, a.order_autocorrelation.tau_e * p.steps_between_measurements,
        a.ns_per_molecule_step);
    if (!rf.blocks_long_enough)
      std::printf(
          "        (errors unreliable: jackknife blocks shorter than 10 tau_int; run "
          "longer)\n");
  }
}

}  // namespace portamc::cvf
