#include "portamc/josephson/run_output.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "checkpoint_integrity.hpp"
#include "portamc/checkpoint_file.hpp"

namespace portamc::josephson {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr const char* kTime = "hbar/E_C";  // the normalised time unit
constexpr const char* kEnergy = "E_C";     // the normalised energy unit
// Realisations are independent (each its own random stream, started afresh): the errors are
// plain standard errors, tau_int = 1/2 in units of realisations, and N_eff = n / (2 tau_int) is
// the number of realisations entering an estimate.
constexpr double kIndependentTauInt = 0.5;
constexpr const char* kTauUnits = "realisations";

// tau_int and n_eff of the estimates with errors of a group (all from the same n realisations).
void write_independent(h5::Group g, std::size_t n, const std::string& what) {
  g.write_scalar("tau_int", kIndependentTauInt, kTauUnits,
                 "integrated autocorrelation time of the realisations behind " + what +
                     ": 1/2, they are independent (disjoint random streams)");
  g.write_scalar("n_eff", static_cast<std::uint64_t>(n), "",
                 "effective sample size of " + what +
                     ": the independent uncensored realisations that enter them");
}

std::string point_name(std::size_t k) {
  return "point_" + std::to_string(k);
}

std::vector<std::uint8_t> outcome_bytes(const std::vector<Outcome>& outcome) {
  std::vector<std::uint8_t> out(outcome.size());
  for (std::size_t i = 0; i < outcome.size(); ++i) out[i] = static_cast<std::uint8_t>(outcome[i]);
  return out;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += (text.empty() ? "" : "\n") + line;
  return text;
}

void write_parameters(h5::Group g, const ResolvedRun& run) {
  const RunParameters& in = run.input;
  const LangevinParameters& first = run.points.front();
  auto p = g.group("parameters");
  p.attribute("max_steps_automatic", static_cast<std::int64_t>(run.max_steps_automatic));
  p.attribute("slots_requested", static_cast<std::int64_t>(in.ensemble.slots));
  p.attribute("steps_per_launch", static_cast<std::uint64_t>(in.ensemble.steps_per_launch));
  p.attribute("compact_below", in.ensemble.compact_below);
  p.write_scalar("V0", run.V0, "", "V0 = E_J / E_C");
  p.write_scalar("beta", run.beta, "", "damping beta = hbar / (R (2e)^2)");
  p.write_scalar("h", in.h, kTime, "time step");
  p.write_scalar("realisations", static_cast<std::uint64_t>(in.realisations), "",
                 "realisations per ensemble");
  p.write_scalar("first_realisation", static_cast<std::uint64_t>(in.first_realisation), "",
                 "RNG entity of the first realisation (of the first ensemble)");
  p.write_scalar("seed", static_cast<std::uint64_t>(in.seed), "", "random seed");
  if (in.mode != RunMode::arrhenius) {
    p.write_scalar("theta", run.theta, kEnergy, "temperature theta = k_B T / E_C");
    p.write_scalar("noise_strength", run.beta * run.theta, "",
                   "the paper's noise strength D = beta theta");
    p.write_scalar("max_steps", static_cast<std::uint64_t>(first.max_steps), "steps",
                   "step cap: realisations not escaped by then are censored");
  }
  p.write_scalar("threshold", first.escape_threshold(), "rad", "escape threshold on phi");
  if (in.mode == RunMode::switching) {
    p.attribute("ramp_start", run.ramp_start_automatic ? "automatic" : "given");
    p.write_scalar("gamma0", run.ramp_gamma0, "", "bias gamma = I / I_c when the ramp starts");
    p.write_scalar("nu", run.nu, "1/(hbar/E_C)", "ramp rate d gamma / dt");
    if (run.ramp_start_automatic)
      p.write_scalar("ramp_epsilon", in.ramp_epsilon, "",
                     "Fulton-Dunkleberger CDF from gamma = 0 at which the ramp starts");
  } else {
    p.write_scalar("gamma", in.gamma, "", "constant bias gamma = I / I_c");
  }
  if (!run.units) return;
  const PhysicalInput& j = *in.physical;
  const NormalisedJunction& u = *run.units;
  auto q = p.group("physical");
  q.write_scalar("resistance", j.resistance, "ohm", "R");
  q.write_scalar("capacitance", j.capacitance, "F", "C");
  q.write_scalar("critical_current", j.critical_current, "A", "I_c");
  if (in.mode != RunMode::arrhenius) q.write_scalar("temperature", j.temperature, "K", "T");
  if (in.mode == RunMode::switching && u.nu) {
    q.write_scalar("sweep_rate", *u.nu * j.critical_current / u.time_unit, "A/s", "dI/dt");
    if (j.sweep_frequency)
      q.write_scalar("sweep_frequency", *j.sweep_frequency, "Hz",
                     "sawtooth from 0 to I_c once per period: dI/dt = I_c f");
  }
  q.write_scalar("charging_energy", u.charging_energy, "J", "E_C = (2e)^2 / C");
  q.write_scalar("josephson_energy", u.josephson_energy, "J", "E_J = hbar I_c / (2e)");
  q.write_scalar("time_unit", u.time_unit, "s", "t0 = hbar / E_C, the normalised time unit");
  q.write_scalar("plasma_frequency", u.plasma_frequency, "rad/s",
                 "omega_p = sqrt(2e I_c / (hbar C))");
  q.write_scalar("quality_factor", u.quality_factor, "", "Q = omega_p R C = sqrt(V0) / beta");
}

void write_timing(h5::Group g, const PointRecord& p) {
  auto t = g.group("timing");
  const std::uint64_t steps = p.steps_integrated();
  t.write_scalar("seconds", p.seconds, "s", "wall time of the ensemble's launches");
  t.write_scalar("launches", p.launches, "", "kernel launches");
  t.write_scalar("steps_integrated", steps, "steps", "integration steps, all realisations");
  t.write_scalar("steps_per_second", p.seconds > 0 ? double(steps) / p.seconds : kNaN, "1/s",
                 "integration steps per second (all realisations)");
  t.write_scalar("slots", static_cast<std::int64_t>(p.slots), "", "concurrent trajectories");
}

void write_histogram(h5::Group g, const SampleSummary& s, const std::string& units,
                     const std::string& what) {
  auto h = g.group("histogram");
  h.write("edges", s.histogram_edges, units, "equal bins over [min, max] of the " + what);
  h.write("counts", s.histogram_counts, "counts", what + " in each bin");
}

void write_escape_theory(h5::Group g, const EscapeTheory& t, const ExponentialCdf& e) {
  auto th = g.group("theory");
  th.attribute("rate_formula", t.rate_name());
  th.attribute("status", t.status);
  th.attribute("kramers_formula", rate_formula_name(t.formula));
  th.attribute("kramers_status", t.kramers_status);
  th.write_scalar("barrier", t.barrier, kEnergy, "DeltaU = 2 V0 (sqrt(1-g^2) - g arccos g)");
  th.write_scalar("well_frequency", t.well_frequency, "1/(hbar/E_C)",
                  "omega0 = sqrt(V0) (1 - gamma^2)^(1/4)");
  th.write_scalar("rate", t.rate, "1/(hbar/E_C)",
                  t.exact_rate
                      ? "exact escape rate 1 / exact_mean_time (attribute rate_formula)"
                      : "escape rate of the formula (attribute rate_formula, kramers.hpp)");
  th.write_scalar("mean_time", t.mean_time, kTime, "1 / rate");
  th.write_scalar("kramers_rate", t.kramers_rate, "1/(hbar/E_C)",
                  "escape rate of the Kramers-type formula (attribute kramers_formula), leading "
                  "order in theta / DeltaU");
  th.write_scalar("kramers_mean_time", t.kramers_mean_time, kTime, "1 / kramers_rate");
  if (t.exact_applies) {
    th.attribute("exact_status", t.exact_status);
    th.write_scalar("exact_mean_time", t.exact_mean_time, kTime,
                    "exact mean first-passage time to the threshold (Pontryagin double integral)");
    th.write_scalar("exact_mean_time_error", t.exact_error, kTime, "its quadrature error estimate");
  }
  th.attribute("cdf_status", e.status);
  th.attribute("cdf_mean_source", e.mean_source);
  th.write("cdf_t", e.t, kTime, "times of the exponential CDF");
  th.write("cdf", e.cdf, "", "1 - exp(-t / tau), tau = mean_time (of the attribute rate_formula)");
}

void write_escape_group(h5::Group g, const LangevinParameters& p, const PointRecord& record,
                        const SampleSummary& s, const EscapeTheory& theory,
                        const ExponentialCdf& exponential) {
  g.attribute("theta", p.theta);
  g.attribute("gamma", p.gamma0);
  g.attribute("max_steps", static_cast<std::uint64_t>(p.max_steps));
  g.attribute("first_realisation", static_cast<std::uint64_t>(p.first_realisation));
  g.attribute("realisations", static_cast<std::uint64_t>(p.realisations));
  g.write("steps", record.results.steps, "steps",
          "steps integrated per realisation: the escape step, or max_steps when censored");
  g.write("outcome", outcome_bytes(record.results.outcome), "", "1 escaped, 2 censored");
  g.write("escape_times", s.values, kTime, "escape times (escape step h), escaped realisations");
  g.write("ecdf_t", s.ecdf_x, kTime, "sorted escape times");
  g.write("ecdf_p", s.ecdf_p, "",
          "ECDF (i+1)/realisations at ecdf_t: ends at the escaped fraction");
  write_histogram(g, s, kTime, "escape times");
  g.write_scalar("escaped", static_cast<std::uint64_t>(s.escaped), "", "escaped realisations");
  g.write_scalar("censored", static_cast<std::uint64_t>(s.censored), "",
                 "realisations censored at max_steps (not in the escape times)");
  g.write_scalar("mean_time", s.mean, kTime, "mean escape time (escaped realisations)");
  g.write_scalar("mean_time_error", s.mean_error, kTime, "standard error s / sqrt(n)");
  g.write_scalar("std_time", s.standard_deviation, kTime, "standard deviation of escape times");
  g.write_scalar("std_time_error", s.standard_deviation_error, kTime, "its large-sample error");
  g.write_scalar("median_time", s.median, kTime, "median escape time (escaped realisations)");
  write_independent(g, s.escaped, "mean_time, std_time, median_time and their errors");
  write_timing(g, record);
  write_escape_theory(g, theory, exponential);
}

void write_switching(h5::Group root, const ResolvedRun& run, const PointRecord& record,
                     const SampleSummary& s, const SwitchingTheoryCurves& t) {
  auto g = root.group("switching");
  const LangevinParameters& p = run.points.front();
  g.attribute("gamma0", p.gamma0);
  g.attribute("nu", p.nu);
  g.attribute("max_steps", static_cast<std::uint64_t>(p.max_steps));
  g.write("steps", record.results.steps, "steps",
          "steps integrated per realisation: the switching step, or max_steps when censored");
  g.write("outcome", outcome_bytes(record.results.outcome), "", "1 switched, 2 censored");
  g.write("switching_bias", s.values, "",
          "gamma0 + nu k h at the switching step k, switched realisations");
  if (run.units) {
    std::vector<double> current;
    for (double gamma : s.values) current.push_back(gamma * run.units->critical_current);
    g.write("switching_current", current, "A", "switching_bias I_c");
  }
  g.write("ecdf_gamma", s.ecdf_x, "", "sorted switching biases");
  g.write("ecdf_p", s.ecdf_p, "", "ECDF (i+1)/realisations: ends at the switched fraction");
  write_histogram(g, s, "", "switching biases");
  g.write_scalar("switched", static_cast<std::uint64_t>(s.escaped), "", "switched realisations");
  g.write_scalar("censored", static_cast<std::uint64_t>(s.censored), "",
                 "realisations censored at max_steps (not in the switching biases)");
  g.write_scalar("mean_bias", s.mean, "", "mean switching bias");
  g.write_scalar("mean_bias_error", s.mean_error, "", "standard error s / sqrt(n)");
  g.write_scalar("std_bias", s.standard_deviation, "", "standard deviation of switching biases");
  g.write_scalar("std_bias_error", s.standard_deviation_error, "", "its large-sample error");
  g.write_scalar("median_bias", s.median, "", "median switching bias");
  write_independent(g, s.escaped, "mean_bias, std_bias, median_bias and their errors");
  write_timing(g, record);
  auto th = g.group("theory");
  th.attribute("rate_formula", t.rate_name);
  th.attribute("status", t.status);
  th.attribute("kramers_formula", rate_formula_name(t.kramers_formula));
  th.attribute("kramers_status", t.kramers_status);
  th.write("gamma", t.gamma, "", "bias grid of the Fulton-Dunkleberger curves");
  th.write("cdf", t.cdf, "",
           "Fulton-Dunkleberger CDF 1 - exp(-int r dgamma / nu), r of the attribute rate_formula");
  th.write("density", t.density, "", "switching-bias density r S / nu");
  th.write_scalar("mean", t.moments.mean, "", "mean switching bias (theory)");
  th.write_scalar("std", t.moments.standard_deviation, "", "its standard deviation (theory)");
  th.write_scalar("probability_at_critical_current", t.moments.probability_at_critical_current, "",
                  "probability of no switch before gamma = 1 (theory)");
  th.write_scalar("kramers_mean", t.kramers_moments.mean, "",
                  "mean switching bias with the Kramers-type formula (attribute kramers_formula)");
  th.write_scalar("kramers_std", t.kramers_moments.standard_deviation, "",
                  "its standard deviation (Kramers-type formula)");
}

void write_fit(h5::Group g, const std::string& name, const ArrheniusFitResult& f,
               const std::string& form, std::size_t points_used, std::size_t realisations_used) {
  auto q = g.group(name);
  q.attribute("status", f.status);
  q.attribute("form", form);
  q.attribute("points_used", static_cast<std::uint64_t>(points_used));
  write_independent(q, realisations_used,
                    "the fitted parameters and their errors (summed over the points used)");
  const bool ok = f.status.rfind("ok", 0) == 0;
  const auto v = [ok](double x) { return ok ? x : kNaN; };
  q.write_scalar("barrier", v(f.fit.barrier), kEnergy, "fitted DeltaU (slope against 1/theta)");
  q.write_scalar("barrier_error", v(f.fit.barrier_error), kEnergy, "its standard error");
  q.write_scalar("intercept", v(f.fit.intercept), "", "fitted intercept a");
  q.write_scalar("intercept_error", v(f.fit.intercept_error), "", "its standard error");
  q.write_scalar("covariance", v(f.fit.covariance), "", "cov(a, DeltaU)");
  q.write_scalar("chi_squared", v(f.fit.chi_squared), "", "sum of squared normalised residuals");
  q.write_scalar("degrees_of_freedom", static_cast<std::int64_t>(ok ? f.fit.degrees_of_freedom : 0),
                 "", "points - 2");
}

void write_arrhenius(h5::Group root, const ResolvedRun& run, const std::vector<PointRecord>& points,
                     const RunAnalysis& a) {
  auto g = root.group("arrhenius");
  const ArrheniusAnalysis& fit = *a.arrhenius;
  const std::size_t m = points.size();
  std::vector<double> theta, noise, kelvin, mean, error, median, theory, kramers, exact;
  std::vector<std::uint64_t> escaped, censored, cap, first;
  std::size_t fitted_realisations = 0;  // in the points the fits use (two escapes or more)
  for (std::size_t k = 0; k < m; ++k) {
    const LangevinParameters& p = run.points[k];
    const SampleSummary& s = a.samples[k];
    theta.push_back(p.theta);
    noise.push_back(p.beta * p.theta);
    if (run.units) kelvin.push_back(kelvin_from_theta(*run.units, p.theta));
    mean.push_back(s.mean);
    error.push_back(s.mean_error);
    median.push_back(s.median);
    escaped.push_back(s.escaped);
    censored.push_back(s.censored);
    cap.push_back(p.max_steps);
    first.push_back(p.first_realisation);
    theory.push_back(run.theory[k].mean_time);
    kramers.push_back(run.theory[k].kramers_mean_time);
    exact.push_back(run.theory[k].exact_mean_time);
    if (s.escaped >= 2 && s.mean_error > 0 && std::isfinite(s.mean_error))
      fitted_realisations += s.escaped;
  }
  g.write("theta", theta, kEnergy, "temperature theta = k_B T / E_C of each point_<k>");
  g.write("noise_strength", noise, "", "the paper's D = beta theta (its Fig. 10 axis is 1/D)");
  if (run.units) g.write("temperature", kelvin, "K", "theta in kelvin for the physical junction");
  g.write("mean_time", mean, kTime, "mean escape time (escaped realisations)");
  g.write("mean_time_error", error, kTime, "standard error of the mean escape time");
  g.write("median_time", median, kTime, "median escape time");
  g.write("tau_int", std::vector<double>(m, kIndependentTauInt), kTauUnits,
          "integrated autocorrelation time of the realisations behind mean_time, median_time and "
          "mean_time_error: 1/2, they are independent (disjoint random streams)");
  g.write("n_eff", escaped, "",
          "effective sample size of mean_time and its error: the escaped (uncensored) "
          "realisations of each point");
  g.write("escaped", escaped, "", "escaped realisations");
  g.write("censored", censored, "", "realisations censored at max_steps");
  g.write("max_steps", cap, "steps", "step cap of each point");
  g.write("first_realisation", first, "", "RNG entity of each point's first realisation");
  auto th = g.group("theory");
  th.attribute("rate_formula", run.theory_rate_name());
  th.attribute("kramers_formula", rate_formula_name(run.rate_formula));
  th.write_scalar("barrier", fit.barrier, kEnergy, "DeltaU(gamma) of the washboard");
  th.write("mean_time", theory, kTime,
           "theory mean escape time at each theta, of the attribute rate_formula");
  th.write("kramers_mean_time", kramers, kTime,
           "1 / rate of the Kramers-type formula (attribute kramers_formula) at each theta");
  if (run.input.dynamics == Dynamics::overdamped)
    th.write("exact_mean_time", exact, kTime, "exact overdamped mean first-passage time");
  write_fit(g, "fit_plain", fit.plain, "ln <tau> = a + DeltaU / theta (eq. 12)", fit.points_used,
            fitted_realisations);
  write_fit(g, "fit_theta_prefactor", fit.theta_prefactor,
            "ln (theta <tau>) = a + DeltaU / theta (eq. 13)", fit.points_used, fitted_realisations);
  for (std::size_t k = 0; k < m; ++k)
    write_escape_group(g.group(point_name(k)), run.points[k], points[k], a.samples[k],
                       run.theory[k], a.exponential[k]);
}

// ---- Checkpoints ------------------------------------------------------------------------------

void write_ensemble_results(h5::Group g, const EnsembleResults& r) {
  g.attribute("h", r.h);
  g.write("steps", r.steps, "steps", "steps per realisation");
  g.write("outcome", outcome_bytes(r.outcome), "", "0 pending, 1 escaped, 2 censored");
  g.write("bias", r.bias, "", "bias at the last step");
  g.write("final_phi", r.final_phi, "rad", "phase after the last step");
  g.write("final_v", r.final_v, "", "velocity after the last step");
}

EnsembleResults read_ensemble_results(const h5::InputFile& f, const std::string& g) {
  EnsembleResults r;
  r.h = f.attribute_double(g, "h");
  r.steps = f.read<std::uint64_t>(g + "/steps");
  for (std::uint8_t o : f.read<std::uint8_t>(g + "/outcome")) {
    if (o > static_cast<std::uint8_t>(Outcome::censored))
      throw std::runtime_error("'" + f.path() + "': " + g + "/outcome holds " + std::to_string(o) +
                               ", not an outcome");
    r.outcome.push_back(static_cast<Outcome>(o));
  }
  r.bias = f.read<double>(g + "/bias");
  r.final_phi = f.read<double>(g + "/final_phi");
  r.final_v = f.read<double>(g + "/final_v");
  return r;
}

void write_record(h5::Group g, const PointRecord& p) {
  g.write_scalar("slots", static_cast<std::int64_t>(p.slots), "", "concurrent trajectories");
  g.write_scalar("seconds", p.seconds, "s", "wall time of the launches so far");
  g.write_scalar("launches", p.launches, "", "launches so far");
}

PointRecord read_record(const h5::InputFile& f, const std::string& g) {
  PointRecord p;
  p.slots = f.read_scalar<std::int64_t>(g + "/slots");
  p.seconds = f.read_scalar<double>(g + "/seconds");
  p.launches = f.read_scalar<std::uint64_t>(g + "/launches");
  return p;
}

}  // namespace

void write_results(h5::Group root, const ResolvedRun& run, const std::vector<PointRecord>& points,
                   const RunAnalysis& analysis) {
  if (points.size() != run.points.size() || analysis.samples.size() != points.size())
    throw std::invalid_argument("josephson write_results: one record and analysis per ensemble");
  const RunParameters& in = run.input;
  auto g = root.group("josephson");
  g.attribute("mode", to_string(in.mode));
  g.attribute("dynamics", to_string(in.dynamics));
  g.attribute("integrator", to_string(in.integrator));
  g.attribute("precision", to_string(in.precision));
  g.attribute("noise_precision", in.ensemble.float_noise ? "float" : to_string(in.precision));
  g.attribute("schedule", to_string(in.ensemble.schedule));
  g.attribute("rate_formula", run.theory_rate_name());
  g.attribute("ensembles", static_cast<std::int64_t>(points.size()));
  g.write_string("warnings", joined(run.warnings), "warnings of the run, one per line");
  write_parameters(g, run);
  switch (in.mode) {
    case RunMode::escape:
      write_escape_group(g.group("escape"), run.points.front(), points.front(),
                         analysis.samples.front(), run.theory.front(),
                         analysis.exponential.front());
      break;
    case RunMode::switching:
      write_switching(g, run, points.front(), analysis.samples.front(), *analysis.switching);
      break;
    case RunMode::arrhenius:
      write_arrhenius(g, run, points, analysis);
      break;
  }
}

// Format 2: one file for the whole run (gathered on rank 0), one group per ensemble started,
// holding every realisation's result and the state of those in flight. Files of format 1 (no
// format attribute, one per rank) carry no checksum and are refused like every such file.
constexpr std::int64_t kCheckpointFormat = 2;

void write_checkpoint(const std::string& path, const RunCheckpoint& c,
                      const std::string& config_yaml) {
  h5::OutputFile file(path);
  auto root = file.root();
  h5::begin_checkpoint(root, "josephson", config_yaml);
  root.attribute("josephson_checkpoint_format", kCheckpointFormat);
  root.write_string("fingerprint", c.fingerprint, "parameters that shape the realisations");
  auto points = root.group("points");
  points.attribute("count", static_cast<std::int64_t>(c.points.size()));
  for (std::size_t k = 0; k < c.points.size(); ++k) {
    const PointProgress& p = c.points[k];
    auto g = points.group(point_name(k));
    write_record(g, p.record);
    write_ensemble_results(g.group("results"), p.states.results);
    g.attribute("in_flight_count", static_cast<std::int64_t>(p.states.in_flight.size()));
    if (p.states.in_flight.empty()) continue;
    auto f = g.group("in_flight");
    f.write("realisation", p.states.in_flight, "",
            "realisations in flight (index in the ensemble)");
    f.write("phi", p.states.in_flight_phi, "rad", "phase (exact for float)");
    f.write("v", p.states.in_flight_v, "", "velocity (exact for float)");
    f.write("step", p.states.in_flight_step, "steps", "steps done");
  }
  h5::seal_checkpoint(root, checkpoint_checksum(c, config_yaml));
  file.commit();
}

namespace {

// The contents as stored; their checks come after the checksum (checkpoint_integrity.hpp).
RunCheckpoint read_contents(const h5::InputFile& f) {
  const std::int64_t format = f.attribute_int("/", "josephson_checkpoint_format");
  if (format != kCheckpointFormat)
    h5::refuse_checkpoint(f.path(), "josephson checkpoint format " + std::to_string(format) +
                                        ", this portamc reads format " +
                                        std::to_string(kCheckpointFormat));
  RunCheckpoint c;
  c.fingerprint = f.read_string("/fingerprint");
  const auto count = f.attribute_int("/points", "count");
  for (std::int64_t k = 0; k < count; ++k) {
    const std::string g = "/points/" + point_name(static_cast<std::size_t>(k));
    PointProgress p;
    p.record = read_record(f, g);
    p.states.results = read_ensemble_results(f, g + "/results");
    if (f.attribute_int(g, "in_flight_count") > 0) {
      p.states.in_flight = f.read<std::uint64_t>(g + "/in_flight/realisation");
      p.states.in_flight_phi = f.read<double>(g + "/in_flight/phi");
      p.states.in_flight_v = f.read<double>(g + "/in_flight/v");
      p.states.in_flight_step = f.read<std::uint64_t>(g + "/in_flight/step");
    }
    c.points.push_back(std::move(p));
  }
  return c;
}

}  // namespace

RunCheckpoint read_checkpoint(const std::string& path) {
  return h5::read_verified_checkpoint(
      path, "josephson", [](const h5::InputFile& f) { return read_contents(f); },
      [](const RunCheckpoint& c, const std::string& config) {
        return checkpoint_checksum(c, config);
      },
      [](const RunCheckpoint& c, const std::string& file) { check_checkpoint(c, file); });
}

}  // namespace portamc::josephson
