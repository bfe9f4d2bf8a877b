#include "portamc/su2/run_output.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "checkpoint_integrity.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/su2/config_file.hpp"

namespace portamc::su2 {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kTauUnits = "measurements";
constexpr const char* kBinUnits = "bins";

std::string point_name(std::size_t k) {
  return "point_" + std::to_string(k);
}

std::vector<std::int64_t> to_i64(const std::vector<int>& v) {
  return {v.begin(), v.end()};
}

std::string joined(const std::vector<std::string>& lines, const char* separator) {
  std::string text;
  for (std::size_t i = 0; i < lines.size(); ++i) text += (i ? separator : "") + lines[i];
  return text;
}

// A time series with its summary: group `name` holding step/value (growable, chunked), the
// scalar datasets mean, error, tau_int, tau_int_error, n_eff, and attributes saying which
// measurements and bins they come from and whether they are reliable.
void write_observable(h5::Group g, const std::string& name, const std::vector<std::int64_t>& step,
                      const std::vector<double>& values, const SeriesSummary& s,
                      const std::string& units, const std::string& description) {
  auto series = g.time_series(name, units, description);
  series.append(step, values);
  auto o = g.group(name);
  o.write_scalar("mean", s.mean.value, units,
                 "mean of " + description + " over the equilibrated measurements");
  o.write_scalar("error", s.mean.error, units,
                 "binned standard error of the mean (bins of bin_size consecutive equilibrated "
                 "measurements, bin_size = ceil(20 tau_int))");
  o.write_scalar("tau_int", s.tau.tau_int, kTauUnits,
                 "integrated autocorrelation time of the equilibrated measurements, tau = 1/2 + "
                 "sum rho(t), automatic window");
  o.write_scalar("tau_int_error", s.tau.tau_error, kTauUnits, "Madras-Sokal error of tau_int");
  o.write_scalar("n_eff", s.effective_samples, kTauUnits,
                 "effective sample size used / (2 tau_int)");
  o.attribute("tau_window", static_cast<std::int64_t>(s.tau.window));
  o.attribute("tau_window_converged", static_cast<std::int64_t>(s.tau.window_converged));
  o.attribute("discarded", static_cast<std::int64_t>(s.discarded));
  o.attribute("used", static_cast<std::int64_t>(s.used));
  o.attribute("bin_size", static_cast<std::int64_t>(s.bins.bin_size));
  o.attribute("bins", static_cast<std::int64_t>(s.bins.bins));
  o.attribute("reliable", static_cast<std::int64_t>(s.reliable));
  o.attribute("warning", s.warning);
}

// The bins of a jackknife, as attributes of its group. (The tau_int they were chosen for is
// not written: it derives from plaquettes and Polyakov loops, which agree between rank counts
// only to rounding, and attributes are compared bit for bit; it is the largest tau_int of the
// primary series, and for the potential of its Wilson loops, all in the file.)
void write_blocking(h5::Group g, const Blocking& b) {
  g.attribute("blocks", static_cast<std::int64_t>(b.blocks));
  g.attribute("block_size", static_cast<std::int64_t>(b.block_size));
  g.attribute("bins_automatic", static_cast<std::int64_t>(b.automatic));
  g.attribute("bins_long_enough", static_cast<std::int64_t>(b.long_enough));
}

void write_loops(h5::Group g, const std::string& name, const RunParameters& p,
                 const std::vector<std::int64_t>& step, const std::vector<double>& samples,
                 const std::vector<SeriesSummary>& summary, const std::string& what) {
  const std::size_t r = static_cast<std::size_t>(p.wilson_r_max);
  const std::size_t t = static_cast<std::size_t>(p.wilson_t_max);
  auto w = g.group(name);
  w.attribute("r_max", static_cast<std::int64_t>(r));
  w.attribute("t_max", static_cast<std::int64_t>(t));
  w.attribute("description", what);
  w.write("step", step, "updates", "updates of the run before each measurement");
  w.write_2d("samples", samples, step.size(), r * t, "",
             what + ", one row per measurement, column (R-1)*t_max + (T-1)");
  std::vector<double> mean, error, tau, tau_error, n_eff;
  std::vector<std::int64_t> reliable, bin_size;
  std::vector<std::string> warnings;
  for (std::size_t k = 0; k < summary.size(); ++k) {
    const auto& s = summary[k];
    mean.push_back(s.mean.value);
    error.push_back(s.mean.error);
    tau.push_back(s.tau.tau_int);
    tau_error.push_back(s.tau.tau_error);
    n_eff.push_back(s.effective_samples);
    reliable.push_back(s.reliable ? 1 : 0);
    bin_size.push_back(static_cast<std::int64_t>(s.bins.bin_size));
    if (!s.reliable)
      warnings.push_back("W(" + std::to_string(k / t + 1) + "," + std::to_string(k % t + 1) +
                         "): " + s.warning);
  }
  w.write_2d("mean", mean, r, t, "",
             "W(R,T) over the equilibrated measurements, row R-1, column T-1");
  w.write_2d("error", error, r, t, "", "binned standard error of W(R,T) (bins of bin_size)");
  w.write_2d("tau_int", tau, r, t, kTauUnits, "integrated autocorrelation time of W(R,T)");
  w.write_2d("tau_int_error", tau_error, r, t, kTauUnits, "error of tau_int");
  w.write_2d("n_eff", n_eff, r, t, kTauUnits,
             "effective sample size of W(R,T), used / (2 tau_int)");
  w.write_2d("bin_size", bin_size, r, t, kTauUnits, "bin length of the error of W(R,T)");
  w.write_2d("reliable", reliable, r, t, "",
             "1 if the error of W(R,T) is reliable (N_eff >= 100, converged window, long bins)");
  w.attribute("discarded",
              static_cast<std::int64_t>(summary.empty() ? 0 : summary.front().discarded));
  w.attribute("warning", joined(warnings, "\n"));
}

// name, name_error, name_tau_int and name_n_eff of one jackknife estimate over bins.
void write_estimate(h5::Group g, const std::string& name, const stats::JackknifeEstimate& e,
                    const std::string& units, const std::string& description) {
  g.write_scalar(name, e.value, units, description);
  g.write_scalar(name + "_error", e.error, units, "delete-one jackknife error of " + name);
  g.write_scalar(name + "_tau_int", e.tau_int, kBinUnits,
                 "integrated autocorrelation time of the jackknife pseudovalues of " + name +
                     " over the bins (1/2: independent bins, as the error assumes)");
  g.write_scalar(
      name + "_n_eff", e.effective_blocks, kBinUnits,
      "effective number of independent bins behind " + name + "_error, bins / (2 tau_int)");
}

// The same for an array of them (shape rows x cols; cols = 0: one dimension).
void write_estimates(h5::Group g, const std::string& name,
                     const std::vector<stats::JackknifeEstimate>& e, std::size_t rows,
                     std::size_t cols, const std::string& units, const std::string& description) {
  std::vector<double> value, error, tau, n_eff;
  for (const auto& x : e) {
    value.push_back(x.value);
    error.push_back(x.error);
    tau.push_back(x.tau_int);
    n_eff.push_back(x.effective_blocks);
  }
  const std::string tau_text =
      "integrated autocorrelation time of the jackknife pseudovalues of " + name + " over the bins";
  const std::string n_eff_text = "effective number of independent bins behind " + name + "_error";
  if (cols == 0) {
    g.write(name, value, units, description);
    g.write(name + "_error", error, units, "delete-one jackknife error of " + name);
    g.write(name + "_tau_int", tau, kBinUnits, tau_text);
    g.write(name + "_n_eff", n_eff, kBinUnits, n_eff_text);
  } else {
    g.write_2d(name, value, rows, cols, units, description);
    g.write_2d(name + "_error", error, rows, cols, units, "delete-one jackknife error of " + name);
    g.write_2d(name + "_tau_int", tau, rows, cols, kBinUnits, tau_text);
    g.write_2d(name + "_n_eff", n_eff, rows, cols, kBinUnits, n_eff_text);
  }
}

void write_potential(h5::Group g, const std::string& name, const PotentialResult& result,
                     const RunParameters& p) {
  auto v = g.group(name);
  v.attribute("status", result.status);
  v.attribute("reliable", static_cast<std::int64_t>(result.reliable));
  v.attribute("warning", result.warning);
  write_blocking(v, result.blocking);
  if (!result.ok) return;
  const StaticPotential& s = *result.potential;
  v.attribute("blocks", static_cast<std::int64_t>(s.blocks));
  v.attribute("block_size", static_cast<std::int64_t>(s.block_size));
  v.attribute("measurements_used", static_cast<std::int64_t>(s.measurements_used));
  v.attribute("fit_r_min", static_cast<std::int64_t>(s.fit_r_min));
  v.attribute("fit_r_max", static_cast<std::int64_t>(s.fit_r_max));
  v.attribute("degrees_of_freedom", static_cast<std::int64_t>(s.degrees_of_freedom));
  v.attribute("weighted", static_cast<std::int64_t>(s.weighted));
  v.attribute("sqrt_sigma_mev", p.sqrt_sigma_mev);
  v.attribute("sommer_r0_in_fit_range", static_cast<std::int64_t>(s.sommer_r0_in_fit_range));
  v.attribute("model", "V(R) = V0 - alpha/R + sigma R");

  std::vector<std::int64_t> r, plateau, found;
  std::vector<stats::JackknifeEstimate> values;
  for (const auto& q : s.potential) {
    r.push_back(q.r);
    plateau.push_back(q.plateau_t);
    found.push_back(q.plateau_found ? 1 : 0);
    values.push_back(q.v);
  }
  v.write("r", r, "lattice units", "quark separation R");
  write_estimates(v, "v", values, values.size(), 0, "lattice units",
                  "V(R) a = V_T(R) at the plateau T");
  v.write("plateau_t", plateau, "lattice units", "T at which V(R) is read off");
  v.write("plateau_found", found, "",
          "1 if the plateau criterion was met (or T was configured), 0 if the last T was used");
  const std::size_t rows = s.effective_mass.size();
  const std::size_t cols = rows > 0 ? s.effective_mass.front().size() : 0;
  std::vector<stats::JackknifeEstimate> m;
  for (const auto& row : s.effective_mass) m.insert(m.end(), row.begin(), row.end());
  if (rows > 0 && cols > 0)
    write_estimates(v, "effective_mass", m, rows, cols, "lattice units",
                    "V_T(R) = ln(W(R,T)/W(R,T+1)), row R-1, column T-1");
  write_estimate(v, "v0", s.v0, "lattice units", "fitted constant V0 a");
  write_estimate(v, "alpha", s.alpha, "", "fitted Coulomb coefficient alpha");
  write_estimate(v, "sigma", s.sigma, "lattice units", "fitted string tension sigma a^2");
  write_estimate(v, "chi2_per_dof", s.chi2_per_dof, "", "uncorrelated chi^2 per degree of freedom");
  write_estimate(v, "spacing_fm", s.spacing_fm, "fm",
                 "lattice spacing a = sqrt(sigma a^2) hbar c / sqrt(sigma), sqrt(sigma) = "
                 "sqrt_sigma_mev");
  write_estimate(v, "sommer_r0", s.sommer_r0, "lattice units", "Sommer scale r0/a (c = 1.65)");
}

// t^2 <E(t)> over the used configurations at each flow time, with the binned error, tau_int
// and N_eff of E(t) as a series over them (name, name_error, name_tau_int, name_n_eff).
void write_flow_curve(h5::Group f, const std::string& name, const std::vector<double>& t,
                      const std::vector<stats::SeriesAnalysis>& e, const std::string& what) {
  std::vector<double> value, error, tau, n_eff;
  for (std::size_t i = 0; i < t.size(); ++i) {
    value.push_back(t[i] * t[i] * e[i].mean.value);
    error.push_back(t[i] * t[i] * e[i].mean.error);
    tau.push_back(e[i].tau.tau_int);
    n_eff.push_back(e[i].effective_samples);
  }
  f.write(name, value, "", "t^2 <" + what + "(t)> over the used configurations");
  f.write(name + "_error", error, "",
          "binned standard error of " + name + " (" + what +
              "(t) as a series over the used "
              "configurations)");
  f.write(name + "_tau_int", tau, "configurations",
          "integrated autocorrelation time of " + what + "(t) over the used configurations");
  f.write(name + "_n_eff", n_eff, "configurations",
          "effective number of configurations behind " + name + "_error, used / (2 tau_int)");
}

// The flowed configurations and their analysis: group "flow" of a point (docs/output.md).
void write_flow(h5::Group point, const RunParameters& p, const PointRecord& rec,
                const PointAnalysis& a) {
  auto f = point.group("flow");
  f.attribute("definition",
              "Wilson flow (Luscher's RK3), E_plaq = 2 sum_{mu<nu} Re tr(1 - P), E_clov = -1/2 "
              "sum tr(G G) with the clover G, Q = clover charge (portamc/su2/flow.hpp)");
  f.attribute("epsilon", p.flow_epsilon);
  f.attribute("adaptive", p.flow_adaptive);
  f.attribute("t_max", p.flow_t_max);
  f.attribute("every", static_cast<std::int64_t>(p.flow_every));
  f.attribute("reference", p.flow_reference);
  f.attribute("status", a.flow_status);
  const std::vector<double> t = p.flow_times();
  const std::size_t n = rec.flow_measurement.size();
  std::vector<std::int64_t> step;
  for (std::int64_t m : rec.flow_measurement) step.push_back(rec.step[static_cast<std::size_t>(m)]);
  f.write("t", t, "lattice units^2", "flow times of the columns below");
  f.write("measurement", rec.flow_measurement, "", "index of the flowed measurement");
  f.write("step", step, "updates", "updates of the run before the flowed configuration");
  f.write_2d("energy_plaquette", rec.flow_energy_plaquette, n, t.size(), "",
             "E_plaq(t) per flowed configuration (rows) and flow time (columns)");
  f.write_2d("energy_clover", rec.flow_energy_clover, n, t.size(), "", "E_clov(t), likewise");
  f.write_2d("charge", rec.flow_charge, n, t.size(), "", "Q(t), likewise");
  if (!a.flow) return;
  const FlowAnalysis& x = *a.flow;
  f.attribute("discarded", static_cast<std::int64_t>(x.discarded));
  f.attribute("used", static_cast<std::int64_t>(x.configurations));
  write_flow_curve(f, "t2_energy_plaquette", t, x.energy_plaquette, "E_plaq");
  write_flow_curve(f, "t2_energy_clover", t, x.energy_clover, "E_clov");
  const char* jack = " (delete-one jackknife over the used configurations)";
  write_estimate(f, "t0_plaquette", x.plaquette.t0, "lattice units^2",
                 std::string("t0: t^2 <E_plaq(t0)> = reference") + jack);
  write_estimate(f, "w0_plaquette", x.plaquette.w0, "lattice units",
                 std::string("w0: t d/dt t^2 <E_plaq> = reference at t = w0^2") + jack);
  write_estimate(f, "t0_clover", x.clover.t0, "lattice units^2",
                 std::string("t0 from E_clov") + jack);
  write_estimate(f, "w0_clover", x.clover.w0, "lattice units",
                 std::string("w0 from E_clov") + jack);
  std::vector<double> q;
  for (std::size_t k = x.discarded; k < n; ++k)
    q.push_back(rec.flow_charge[(k + 1) * t.size() - 1]);
  write_observable(f, "charge_at_t_max",
                   std::vector<std::int64_t>(
                       step.begin() + static_cast<std::ptrdiff_t>(x.discarded), step.end()),
                   q, x.charge, "", "topological charge Q at t_max of each used configuration");
  write_estimate(f, "topological_susceptibility", x.susceptibility, "lattice units^-4",
                 std::string("chi_t = (<Q^2> - <Q>^2) / V at t_max") + jack);
}

void write_point(h5::Group su2, std::size_t k, const RunParameters& p, const PointRecord& rec,
                 const PointAnalysis& a) {
  auto g = su2.group(point_name(k));
  g.attribute("beta", rec.beta);
  g.attribute("measurements", static_cast<std::int64_t>(rec.measurements()));
  g.attribute("thermalisation", static_cast<std::int64_t>(p.thermalisation));
  g.attribute("updates_between_measurements",
              static_cast<std::int64_t>(p.updates_between_measurements));
  // The equilibration point of this coupling, shared by every observable.
  g.attribute("discarded", static_cast<std::int64_t>(a.equilibration.discarded));
  g.attribute("used", static_cast<std::int64_t>(a.equilibration.used));
  g.attribute("plaquette_discarded",
              static_cast<std::int64_t>(a.equilibration.plaquette_discarded));
  g.attribute("polyakov_abs_discarded",
              static_cast<std::int64_t>(a.equilibration.polyakov_abs_discarded));
  write_blocking(g, a.blocking);
  const auto warnings = analysis_warnings(a, p);
  g.attribute("reliable", static_cast<std::int64_t>(warnings.empty()));
  g.attribute("warning", joined(warnings, "\n"));

  write_observable(g, "plaquette", rec.step, rec.plaquette, a.plaquette, "",
                   "average plaquette <1/2 Tr U_p>, all planes");
  write_observable(g, "plaquette_spatial", rec.step, rec.plaquette_spatial, a.plaquette_spatial, "",
                   "average plaquette, planes without the time direction (NaN in 2D)");
  write_observable(g, "plaquette_temporal", rec.step, rec.plaquette_temporal, a.plaquette_temporal,
                   "", "average plaquette, planes with the time direction");
  write_observable(g, "polyakov", rec.step, rec.polyakov, a.polyakov, "",
                   "spatial average P of the Polyakov loop 1/2 Tr P(x)");
  std::vector<double> abs_p;
  for (double x : rec.polyakov) abs_p.push_back(std::abs(x));
  write_observable(g, "polyakov_abs", rec.step, abs_p, a.polyakov_abs, "",
                   "|P|, modulus of the spatial average of the Polyakov loop");

  auto chi = g.group("polyakov_susceptibility");
  chi.attribute("definition", "chi = N_s (<P^2> - <|P|>^2), N_s = spatial volume");
  chi.attribute("spatial_volume", static_cast<std::int64_t>(p.spatial_volume()));
  const stats::JackknifeEstimate& x = a.susceptibility.estimate;
  chi.write_scalar("value", x.value, "",
                   "Polyakov-loop susceptibility chi (equilibrated measurements)");
  chi.write_scalar("error", x.error, "", "delete-one jackknife error of chi over the bins");
  chi.write_scalar("tau_int", x.tau_int, kBinUnits,
                   "integrated autocorrelation time of the jackknife pseudovalues over the bins "
                   "(1/2: independent bins, as the error assumes)");
  chi.write_scalar("n_eff", x.effective_blocks, kBinUnits,
                   "effective number of independent bins, bins / (2 tau_int)");
  write_blocking(chi, a.blocking);
  chi.attribute("reliable", static_cast<std::int64_t>(a.susceptibility.reliable));
  chi.attribute("warning", a.susceptibility.warning);

  auto h = g.group("polyakov_histogram");
  h.attribute("definition", "counts of the per-measurement spatial average P in equal bins");
  h.write("edges", polyakov_histogram_edges(p.polyakov_bins), "", "bin edges over [-1, 1]");
  h.write("counts", rec.polyakov_histogram, "counts", "measurements with P in each bin");
  h.write("counts_equilibrated", a.polyakov_histogram_equilibrated, "counts",
          "equilibrated measurements (after the point's `discarded`) with P in each bin");

  if (!rec.wilson.empty()) {
    write_loops(g, "wilson_loops", p, rec.step, rec.wilson, a.wilson,
                "on-axis Wilson loops W(R,T) = <1/2 Tr>, unsmeared links");
    if (a.potential) write_potential(g, "potential", *a.potential, p);
  }
  if (!rec.wilson_smeared.empty()) {
    write_loops(g, "wilson_loops_smeared", p, rec.step, rec.wilson_smeared, a.wilson_smeared,
                "on-axis Wilson loops W(R,T) after APE smearing of the spatial links");
    auto w = g.group("wilson_loops_smeared");
    w.attribute("ape_alpha", p.ape_alpha);
    w.attribute("ape_iterations", static_cast<std::int64_t>(p.ape_iterations));
    if (a.potential_smeared) write_potential(g, "potential_smeared", *a.potential_smeared, p);
  }

  if (p.flow()) write_flow(g, p, rec, a);

  auto t = g.group("timing");
  t.write_scalar("updates", rec.updates, "updates", "updates at this coupling");
  t.write_scalar("update_seconds", rec.update_seconds, "s", "wall time of the updates");
  t.write_scalar("measurement_seconds", rec.measurement_seconds, "s",
                 "wall time of the measurements (smearing and Wilson loops included)");
  const double link_updates = double(rec.updates) *
                              double(p.heatbath_sweeps + p.overrelaxation_sweeps) *
                              double(p.volume()) * p.dimensions();
  t.write_scalar("link_updates_per_second",
                 rec.update_seconds > 0 ? link_updates / rec.update_seconds : kNaN, "1/s",
                 "heatbath and overrelaxation link updates per second");
  auto hb = g.group("heatbath");
  hb.write_scalar("links", rec.heatbath_links, "", "heatbath link updates");
  hb.write_scalar("failures", rec.heatbath_failures, "",
                  "links left unchanged after max_attempts rejected proposals");
}

void write_scan(h5::Group su2, const std::vector<PointRecord>& points,
                const std::vector<PointAnalysis>& analyses) {
  auto s = su2.group("scan");
  std::vector<double> beta;
  for (const auto& r : points) beta.push_back(r.beta);
  s.write("beta", beta, "", "coupling beta = 4/g^2 of each point_<k>");
  std::vector<std::int64_t> discarded, used;
  for (const auto& a : analyses) {
    discarded.push_back(static_cast<std::int64_t>(a.equilibration.discarded));
    used.push_back(static_cast<std::int64_t>(a.equilibration.used));
  }
  s.write("discarded", discarded, "measurements",
          "measurements removed from the front of every series as the transient");
  s.write("used", used, "measurements", "equilibrated measurements behind every estimate");
  // A mean: binned error, tau_int and N_eff in measurements.
  auto column = [&](const std::string& name, auto get, const std::string& description) {
    std::vector<double> value, error, tau, n_eff;
    for (const auto& a : analyses) {
      const SeriesSummary& e = get(a);
      value.push_back(e.mean.value);
      error.push_back(e.mean.error);
      tau.push_back(e.tau.tau_int);
      n_eff.push_back(e.effective_samples);
    }
    s.write(name, value, "", description);
    s.write(name + "_error", error, "", "binned standard error of " + name);
    s.write(name + "_tau_int", tau, kTauUnits, "integrated autocorrelation time of " + name);
    s.write(name + "_n_eff", n_eff, kTauUnits, "effective sample size of " + name);
  };
  column(
      "plaquette", [](const PointAnalysis& a) -> const SeriesSummary& { return a.plaquette; },
      "mean plaquette");
  column(
      "plaquette_spatial",
      [](const PointAnalysis& a) -> const SeriesSummary& { return a.plaquette_spatial; },
      "mean spatial plaquette");
  column(
      "plaquette_temporal",
      [](const PointAnalysis& a) -> const SeriesSummary& { return a.plaquette_temporal; },
      "mean temporal plaquette");
  column(
      "polyakov", [](const PointAnalysis& a) -> const SeriesSummary& { return a.polyakov; }, "<P>");
  column(
      "polyakov_abs", [](const PointAnalysis& a) -> const SeriesSummary& { return a.polyakov_abs; },
      "<|P|>");
  // The susceptibility: jackknife over bins, tau_int and N_eff of its pseudovalues in bins.
  std::vector<stats::JackknifeEstimate> chi;
  for (const auto& a : analyses) chi.push_back(a.susceptibility.estimate);
  write_estimates(s, "polyakov_susceptibility", chi, chi.size(), 0, "",
                  "chi = N_s (<P^2> - <|P|>^2)");
}

// ---- Checkpoints --------------------------------------------------------------------------------

template <class T>
void write_if_any(h5::Group g, const std::string& name, const std::vector<T>& v,
                  const std::string& units, const std::string& description) {
  if (!v.empty()) g.write(name, v, units, description);
}

template <class T>
std::vector<T> read_if_any(const h5::InputFile& f, const std::string& path) {
  return f.exists(path) ? f.read<T>(path) : std::vector<T>{};
}

}  // namespace

void write_results(h5::Group root, const RunParameters& p, const std::vector<PointRecord>& points,
                   const std::vector<PointAnalysis>& analyses) {
  if (points.size() != analyses.size())
    throw std::invalid_argument("su2 write_results: one analysis per point expected");
  auto g = root.group("su2");
  g.attribute("dimensions", static_cast<std::int64_t>(p.dimensions()));
  g.attribute("precision", su2::to_string(p.precision));
  g.attribute("start", to_string(p.start));
  if (p.start == StartKind::file) g.attribute("start_file", p.start_file);
  g.attribute("seed", static_cast<std::uint64_t>(p.seed));
  g.attribute("heatbath_sweeps", static_cast<std::int64_t>(p.heatbath_sweeps));
  g.attribute("overrelaxation_sweeps", static_cast<std::int64_t>(p.overrelaxation_sweeps));
  g.attribute("method", to_string(p.method));
  g.attribute("reunitarise_every", static_cast<std::int64_t>(p.reunitarise_every));
  g.attribute("points", static_cast<std::int64_t>(points.size()));
  g.write("extents", to_i64(p.extents), "lattice units",
          "lattice extents N_0 .. N_{D-1}; the last direction is time");
  write_scan(g, points, analyses);
  for (std::size_t k = 0; k < points.size(); ++k) write_point(g, k, p, points[k], analyses[k]);
}

void write_checkpoint(const std::string& path, const RunCheckpoint& c,
                      const std::string& config_yaml) {
  h5::OutputFile file(path);
  auto root = file.root();
  h5::begin_checkpoint(root, "su2", config_yaml);
  root.write_string("fingerprint", c.fingerprint, "parameters that shape the Markov chain");
  auto s = root.group("position");
  s.attribute("point", static_cast<std::int64_t>(c.position.point));
  s.attribute("thermalisation_done", static_cast<std::int64_t>(c.position.thermalisation_done));
  s.attribute("measurements_done", static_cast<std::int64_t>(c.position.measurements_done));
  s.write_scalar("updates", c.position.updates, "updates", "updates of the run so far");
  s.write_scalar("heatbath_sweeps", c.position.heatbath_sweeps, "sweeps",
                 "heatbath RNG step counter");
  s.write("links", c.links, "", "the configuration, canonical layout (see config_file.hpp)");
  auto pts = root.group("points");
  pts.attribute("count", static_cast<std::int64_t>(c.points.size()));
  for (std::size_t k = 0; k < c.points.size(); ++k) {
    const PointRecord& r = c.points[k];
    auto g = pts.group(point_name(k));
    g.attribute("beta", r.beta);
    g.write_scalar("updates", r.updates, "updates", "updates at this coupling");
    g.write_scalar("heatbath_links", r.heatbath_links, "", "heatbath link updates");
    g.write_scalar("heatbath_failures", r.heatbath_failures, "", "heatbath failures");
    g.write_scalar("update_seconds", r.update_seconds, "s", "update wall time");
    g.write_scalar("measurement_seconds", r.measurement_seconds, "s", "measurement wall time");
    write_if_any(g, "step", r.step, "updates", "step of each measurement");
    write_if_any(g, "plaquette", r.plaquette, "", "plaquette");
    write_if_any(g, "plaquette_spatial", r.plaquette_spatial, "", "spatial plaquette");
    write_if_any(g, "plaquette_temporal", r.plaquette_temporal, "", "temporal plaquette");
    write_if_any(g, "polyakov", r.polyakov, "", "Polyakov loop spatial average");
    write_if_any(g, "wilson", r.wilson, "", "Wilson loops, flattened");
    write_if_any(g, "wilson_smeared", r.wilson_smeared, "", "smeared Wilson loops, flattened");
    write_if_any(g, "polyakov_histogram", r.polyakov_histogram, "counts", "Polyakov histogram");
    write_if_any(g, "flow_measurement", r.flow_measurement, "",
                 "measurement index of each flowed configuration");
    write_if_any(g, "flow_energy_plaquette", r.flow_energy_plaquette, "",
                 "E_plaq, flowed configurations x flow times");
    write_if_any(g, "flow_energy_clover", r.flow_energy_clover, "",
                 "E_clov, flowed configurations x flow times");
    write_if_any(g, "flow_charge", r.flow_charge, "", "Q, flowed configurations x flow times");
  }
  h5::seal_checkpoint(root, checkpoint_checksum(c, config_yaml));
  file.commit();
}

namespace {

// The contents as stored; their checks come after the checksum (checkpoint_integrity.hpp).
RunCheckpoint read_contents(const h5::InputFile& f) {
  RunCheckpoint c;
  c.fingerprint = f.read_string("/fingerprint");
  c.position.point = static_cast<std::size_t>(f.attribute_int("/position", "point"));
  c.position.thermalisation_done = f.attribute_int("/position", "thermalisation_done");
  c.position.measurements_done = f.attribute_int("/position", "measurements_done");
  c.position.updates = f.read_scalar<std::uint64_t>("/position/updates");
  c.position.heatbath_sweeps = f.read_scalar<std::uint64_t>("/position/heatbath_sweeps");
  c.links = f.read<double>("/position/links");
  const auto count = f.attribute_int("/points", "count");
  for (std::int64_t k = 0; k < count; ++k) {
    const std::string g = "/points/" + point_name(static_cast<std::size_t>(k));
    PointRecord r;
    r.beta = f.attribute_double(g, "beta");
    r.updates = f.read_scalar<std::uint64_t>(g + "/updates");
    r.heatbath_links = f.read_scalar<std::uint64_t>(g + "/heatbath_links");
    r.heatbath_failures = f.read_scalar<std::uint64_t>(g + "/heatbath_failures");
    r.update_seconds = f.read_scalar<double>(g + "/update_seconds");
    r.measurement_seconds = f.read_scalar<double>(g + "/measurement_seconds");
    r.step = read_if_any<std::int64_t>(f, g + "/step");
    r.plaquette = read_if_any<double>(f, g + "/plaquette");
    r.plaquette_spatial = read_if_any<double>(f, g + "/plaquette_spatial");
    r.plaquette_temporal = read_if_any<double>(f, g + "/plaquette_temporal");
    r.polyakov = read_if_any<double>(f, g + "/polyakov");
    r.wilson = read_if_any<double>(f, g + "/wilson");
    r.wilson_smeared = read_if_any<double>(f, g + "/wilson_smeared");
    r.polyakov_histogram = read_if_any<std::uint64_t>(f, g + "/polyakov_histogram");
    r.flow_measurement = read_if_any<std::int64_t>(f, g + "/flow_measurement");
    r.flow_energy_plaquette = read_if_any<double>(f, g + "/flow_energy_plaquette");
    r.flow_energy_clover = read_if_any<double>(f, g + "/flow_energy_clover");
    r.flow_charge = read_if_any<double>(f, g + "/flow_charge");
    c.points.push_back(std::move(r));
  }
  return c;
}

}  // namespace

RunCheckpoint read_checkpoint(const std::string& path) {
  return h5::read_verified_checkpoint(
      path, "su2", [](const h5::InputFile& f) { return read_contents(f); },
      [](const RunCheckpoint& c, const std::string& config) {
        return checkpoint_checksum(c, config);
      },
      [](const RunCheckpoint& c, const std::string& file) { check_checkpoint(c, file); });
}

void save_configuration(const std::string& path, const Simulation& simulation,
                        const h5::Provenance& provenance) {
  save_configuration(path, simulation, provenance, simulation.configuration());
}

void save_configuration(const std::string& path, const Simulation& simulation,
                        const h5::Provenance& provenance, const std::vector<double>& links) {
  const RunParameters& p = simulation.parameters();
  GaugeConfigMetadata m;
  m.extents = to_i64(p.extents);
  m.precision = p.precision;
  m.beta = simulation.points().empty() ? p.betas.front() : simulation.points().back().beta;
  m.sweep = simulation.position().heatbath_sweeps;
  m.seed = p.seed;
  write_gauge_config(path, m, links, &provenance);
}

}  // namespace portamc::su2
