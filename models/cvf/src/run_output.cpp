#include "portamc/cvf/run_output.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <utility>

namespace portamc::cvf {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
const char* const kMeasurements = "measurements";
const char* const kBins = "bins";

std::string joined(const std::vector<std::string>& lines, const char* separator) {
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) text += (i ? separator : "") + lines[i];
  return text;
}

// An estimate in a group of its own: value, error, tau_int and n_eff, with the bins the error
// comes from and whether it is reliable as attributes.
void write_estimate(h5::Group& parent, const std::string& name, const Estimate& e,
                    const std::string& units, const std::string& description,
                    const Blocking* blocking = nullptr) {
  auto g = parent.group(name);
  g.attribute("description", description);
  const char* tau_units = e.jackknife ? kBins : kMeasurements;
  g.write_scalar("value", e.value, units, description);
  if (e.jackknife) {
    g.write_scalar("error", e.error, units,
                   "delete-one jackknife error over bins of consecutive equilibrated "
                   "measurements (attributes bins, bin_size)");
    g.write_scalar("tau_int", e.tau_int, tau_units,
                   "integrated autocorrelation time of the jackknife pseudovalues over the bins "
                   "(1/2: independent bins, as the error assumes)");
    g.write_scalar("n_eff", e.effective_samples, tau_units,
                   "effective number of independent bins, bins / (2 tau_int)");
  } else {
    g.write_scalar("error", e.error, units,
                   "binned standard error of the mean over the equilibrated measurements (bins "
                   "of bin_size = ceil(20 tau_int), at least 16)");
    g.write_scalar("tau_int", e.tau_int, tau_units,
                   "integrated autocorrelation time of the equilibrated series, 1/2 + sum rho(t) "
                   "with the automatic window");
    g.write_scalar("n_eff", e.effective_samples, tau_units,
                   "effective sample size, used measurements / (2 tau_int)");
  }
  g.attribute("bins", static_cast<std::int64_t>(e.bins));
  g.attribute("bin_size", static_cast<std::int64_t>(e.bin_size));
  if (blocking) {
    g.attribute("bins_automatic", static_cast<std::int64_t>(blocking->automatic));
    g.attribute("bins_tau_int", blocking->tau_int);
    g.attribute("bins_long_enough", static_cast<std::int64_t>(blocking->long_enough));
  }
  g.attribute("reliable", static_cast<std::int64_t>(e.reliable));
  g.attribute("warning", e.warning);
}

void write_series(h5::Group& point, const std::string& name, const std::vector<std::int64_t>& step,
                  const std::vector<double>& values, const std::string& units,
                  const std::string& description) {
  auto g = point.group(name);
  g.attribute("description", description);
  g.write("step", step, "MC steps", "MC steps of the run before the measurement");
  g.write("value", values, units, description + " (every measurement, the transient included)");
}

// One column of /cvf/scan with its error, tau_int and n_eff columns.
struct ScanColumn {
  std::string name, units, description;
  bool jackknife = false;
  std::vector<double> value, error, tau_int, n_eff;
  void add(const Estimate& e) {
    value.push_back(e.value);
    error.push_back(e.error);
    tau_int.push_back(e.tau_int);
    n_eff.push_back(e.effective_samples);
  }
  void write(h5::Group& scan) const {
    const char* tau_units = jackknife ? kBins : kMeasurements;
    scan.write(name, value, units, description);
    scan.write(name + "_error", error, units,
               jackknife ? "jackknife error of " + name + " over bins of measurements"
                         : "binned error of " + name + " (the statistics service)");
    scan.write(name + "_tau_int", tau_int, tau_units,
               jackknife ? "tau_int of the jackknife pseudovalues of " + name + ", in bins"
                         : "integrated autocorrelation time of the equilibrated series of " + name);
    scan.write(name + "_n_eff", n_eff, tau_units,
               jackknife ? "effective number of independent bins of " + name
                         : "effective sample size of " + name + ", used / (2 tau_int)");
  }
};

}  // namespace

std::vector<PointAnalysis> analyse(const RunParameters& p, const std::vector<PointRecord>& points) {
  std::vector<PointAnalysis> out;
  for (const PointRecord& r : points) {
    PointAnalysis a;
    // One equilibration start for every series of the point: the later of the enthalpy's and
    // the volume's.
    a.equilibration = equilibration_point(r.enthalpy, r.volume);
    const std::size_t start = a.equilibration.discarded;
    const ReducedStatePoint reduced = reduce(p.model, r.point);
    ResponseOptions options;
    options.start = start;
    options.blocks = static_cast<std::size_t>(std::max(p.jackknife_blocks, 0));
    a.response =
        response_functions(r.enthalpy, r.volume, p.molecules(), reduced.t, p.model, options);
    a.hydrogen_bonds = series_mean(r.hydrogen_bonds, start);
    a.cooperative = series_mean(r.cooperative, start);
    a.v_iso = series_mean(r.v_iso, start);
    a.order = series_mean(r.order, start);
    const std::vector<double> order(r.order.begin() + static_cast<std::ptrdiff_t>(start),
                                    r.order.end());
    const std::size_t lags =
        std::min<std::size_t>(static_cast<std::size_t>(p.autocorrelation_lags), order.size() - 1);
    a.order_autocorrelation = autocorrelation_function(order, lags);
    a.volume_acceptance =
        r.volume_proposals > 0 ? static_cast<double>(r.volume_accepted) / r.volume_proposals : nan;
    a.ns_per_molecule_step =
        r.steps > 0 ? r.update_seconds * 1e9 / (static_cast<double>(r.steps) * p.molecules()) : nan;
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<std::string> analysis_warnings(const PointAnalysis& a) {
  const auto& rf = a.response;
  const std::pair<const char*, const Estimate*> estimates[] = {
      {"volume", &rf.volume},
      {"density", &rf.density_g_per_cm3},
      {"enthalpy", &rf.enthalpy},
      {"heat_capacity", &rf.heat_capacity},
      {"compressibility", &rf.compressibility},
      {"expansivity", &rf.expansivity},
      {"hydrogen_bonds", &a.hydrogen_bonds},
      {"cooperative", &a.cooperative},
      {"v_iso", &a.v_iso},
      {"order", &a.order}};
  std::vector<std::string> out;
  for (const auto& [name, e] : estimates)
    if (!e->reliable) out.push_back(std::string(name) + ": " + e->warning);
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
  cvf.attribute("epsilon_kj_per_mol", p.model.epsilon_kj_per_mol);  // the energy unit
  // analysis.blocks: "auto" (bins from tau_int) or the fixed number of jackknife bins.
  cvf.attribute("analysis_blocks",
                p.jackknife_blocks > 0 ? std::to_string(p.jackknife_blocks) : std::string("auto"));

  // One row per state point: what a scan plot needs without opening the point groups.
  std::vector<double> temperature, pressure, t4, p4;
  std::vector<std::int64_t> discarded, used, reliable;
  ScanColumn density{"density", "g/cm^3", "mean mass density"};
  ScanColumn volume{"volume", "v0", "mean volume per molecule V / (N v0)"};
  ScanColumn enthalpy{"enthalpy", "kJ/mol", "mean enthalpy per molecule"};
  ScanColumn cp{"heat_capacity", "J/(mol K)", "C_P = N Var(h) / (k_B T^2)", true};
  ScanColumn kt{"compressibility", "1/GPa", "kappa_T = N Var(v) / (k_B T <v>)", true};
  ScanColumn ap{"expansivity", "1/K", "alpha_P = N Cov(v, h) / (k_B T^2 <v>)", true};
  ScanColumn hb{"hydrogen_bonds", "per molecule", "mean N_HB / N"};
  std::vector<double> tau_e, tau_int;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const auto& a = analyses[k];
    const auto& rf = a.response;
    const ReducedStatePoint reduced = reduce(p.model, points[k].point);
    temperature.push_back(points[k].point.temperature_kelvin);
    pressure.push_back(points[k].point.pressure_megapascal);
    t4.push_back(reduced.t / 4);
    p4.push_back(reduced.p / 4);
    discarded.push_back(static_cast<std::int64_t>(a.equilibration.discarded));
    used.push_back(static_cast<std::int64_t>(a.equilibration.used));
    reliable.push_back(analysis_warnings(a).empty() ? 1 : 0);
    density.add(rf.density_g_per_cm3);
    volume.add(rf.volume);
    enthalpy.add(rf.enthalpy_kj_per_mol);
    cp.add(rf.heat_capacity_j_per_mol_k);
    kt.add(rf.compressibility_per_gpa);
    ap.add(rf.expansivity_per_kelvin);
    hb.add(a.hydrogen_bonds);
    tau_e.push_back(a.order_autocorrelation.tau_e);
    tau_int.push_back(a.order_autocorrelation.tau_int.tau_int);
  }
  auto scan = cvf.group("scan");
  scan.attribute("description", "one row per state point, in run order");
  scan.write("temperature", temperature, "K", "temperature");
  scan.write("pressure", pressure, "MPa", "pressure");
  scan.write("t_over_4epsilon", t4, "", "reduced temperature k_B T / (4 epsilon)");
  scan.write("p_v0_over_4epsilon", p4, "", "reduced pressure P v0 / (4 epsilon)");
  scan.write("equilibration_start", discarded, kMeasurements,
             "measurements discarded as the transient (largest detect_equilibration of the "
             "enthalpy and volume series)");
  scan.write("used_measurements", used, kMeasurements, "measurements after the transient");
  scan.write("reliable", reliable, "",
             "1 if every estimate of the point is reliable (N_eff >= 100, converged window, "
             "long enough bins), else see point_<k>'s warning");
  for (const ScanColumn* c : {&density, &volume, &enthalpy, &cp, &kt, &ap, &hb}) c->write(scan);
  scan.write("order_tau_e", tau_e, kMeasurements, "first lag with C_M <= 1/e (NaN if not reached)");
  scan.write("order_tau_int", tau_int, kMeasurements,
             "integrated autocorrelation time of the equilibrated M");

  for (std::size_t k = 0; k < points.size(); ++k) {
    const PointRecord& r = points[k];
    const PointAnalysis& a = analyses[k];
    const ReducedStatePoint reduced = reduce(p.model, r.point);
    auto g = cvf.group("point_" + std::to_string(k));
    g.attribute("temperature", r.point.temperature_kelvin);
    g.attribute("pressure", r.point.pressure_megapascal);
    g.attribute("t_reduced", reduced.t);
    g.attribute("p_reduced", reduced.p);
    g.attribute("t_over_4epsilon", reduced.t / 4);
    g.attribute("p_v0_over_4epsilon", reduced.p / 4);
    g.attribute("J_eff", effective_coupling(p.model, reduced));
    g.attribute("steps", r.steps);
    g.attribute("equilibration_start", static_cast<std::int64_t>(a.equilibration.discarded));
    g.attribute("equilibration_enthalpy",
                static_cast<std::int64_t>(a.equilibration.enthalpy_discarded));
    g.attribute("equilibration_volume",
                static_cast<std::int64_t>(a.equilibration.volume_discarded));
    g.attribute("used_measurements", static_cast<std::int64_t>(a.equilibration.used));
    const auto warnings = analysis_warnings(a);
    g.attribute("reliable", static_cast<std::int64_t>(warnings.empty()));
    g.attribute("warning", joined(warnings, "\n"));
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
    write_estimate(g, "volume_mean", rf.volume, "v0", "mean volume per molecule V / (N v0)");
    write_estimate(g, "v_iso_mean", a.v_iso, "v0", "mean isotropic volume per molecule");
    write_estimate(g, "enthalpy_mean", rf.enthalpy_kj_per_mol, "kJ/mol", "mean enthalpy");
    write_estimate(g, "heat_capacity", rf.heat_capacity_j_per_mol_k, "J/(mol K)",
                   "C_P from enthalpy fluctuations", &rf.blocking);
    write_estimate(g, "compressibility", rf.compressibility_per_gpa, "1/GPa",
                   "kappa_T from volume fluctuations", &rf.blocking);
    write_estimate(g, "expansivity", rf.expansivity_per_kelvin, "1/K",
                   "alpha_P from volume-enthalpy cross fluctuations", &rf.blocking);
    write_estimate(g, "hydrogen_bonds_mean", a.hydrogen_bonds, "per molecule", "mean N_HB / N");
    write_estimate(g, "cooperative_mean", a.cooperative, "per molecule", "mean N_sigma / N");
    write_estimate(g, "order_mean", a.order, "1", "mean order parameter M");

    auto ac = g.group("order_autocorrelation");
    ac.attribute("description", "C_M(dt) of the equilibrated order parameter (the paper's Eq. 4)");
    ac.write("c", a.order_autocorrelation.c, "1", "C_M(dt) for dt = 0, 1, ... measurements");
    ac.write_scalar("tau_e", a.order_autocorrelation.tau_e, kMeasurements,
                    "first dt with C_M <= 1/e, interpolated (NaN: not reached)");
    ac.write_scalar("tau_int", a.order_autocorrelation.tau_int.tau_int, kMeasurements,
                    "integrated autocorrelation time");
    ac.attribute("steps_per_measurement", static_cast<std::int64_t>(p.steps_between_measurements));
    ac.attribute("start", static_cast<std::int64_t>(a.equilibration.discarded));
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
  std::printf("%7s %8s %19s %17s %19s %17s %17s %13s %8s %6s %7s\n", "T [K]", "P [MPa]",
              "rho [g/cm^3]", "V/(N v0)", "C_P [J/(mol K)]", "kappa_T [1/GPa]", "N_HB/N", "M",
              "tau_e", "eq", "ns/mol");
  for (std::size_t k = 0; k < points.size(); ++k) {
    const auto& a = analyses[k];
    const auto& rf = a.response;
    std::printf(
        "%7.2f %8.2f %9.5f+-%.1e %7.5f+-%.1e %9.3f+-%.1e %8.4f+-%.1e %8.5f+-%.1e %6.4f+-%.0e "
        "%8.2f %6zu %7.3f\n",
        points[k].point.temperature_kelvin, points[k].point.pressure_megapascal,
        rf.density_g_per_cm3.value, rf.density_g_per_cm3.error, rf.volume.value, rf.volume.error,
        rf.heat_capacity_j_per_mol_k.value, rf.heat_capacity_j_per_mol_k.error,
        rf.compressibility_per_gpa.value, rf.compressibility_per_gpa.error, a.hydrogen_bonds.value,
        a.hydrogen_bonds.error, a.order.value, a.order.error,
        a.order_autocorrelation.tau_e * p.steps_between_measurements, a.equilibration.discarded,
        a.ns_per_molecule_step);
  }
  std::printf("eq: measurements discarded as the transient (equilibration start)\n");
}

}  // namespace portamc::cvf
