// What portamc-josephson prints: the resolved run on stderr before it starts (unless --quiet),
// and the summary on stdout at the end: the ensembles' escape times or switching biases beside
// their theory, and the Arrhenius fits.
#include <cstdio>
#include <utility>

#include "josephson_app.hpp"
#include "portamc/josephson/names.hpp"
#include "portamc/josephson/switching_theory.hpp"

namespace portamc::josephson_app {

using namespace portamc::josephson;

void print_resolved(const ResolvedRun& r) {
  const RunParameters& in = r.input;
  std::fprintf(stderr, "mode %s, %s %s, %s%s; V0 = %.6g, beta = %.6g", to_string(in.mode),
               to_string(in.dynamics), to_string(in.integrator), to_string(in.precision),
               in.ensemble.float_noise ? " (float normals)" : "", r.V0, r.beta);
  if (in.mode != RunMode::arrhenius)
    std::fprintf(stderr, ", theta = %.6g (D = beta theta = %.6g)", r.theta, r.beta * r.theta);
  std::fprintf(stderr, ", h = %g\n", in.h);
  if (r.units)
    std::fprintf(stderr,
                 "  from physical units: E_C = %.6g J, E_J = %.6g J, t0 = hbar/E_C = %.6g s, "
                 "omega_p = %.6g rad/s, Q = %.4g\n",
                 r.units->charging_energy, r.units->josephson_energy, r.units->time_unit,
                 r.units->plasma_frequency, r.units->quality_factor);
  if (in.mode == RunMode::switching)
    std::fprintf(stderr, "  ramp: gamma0 = %.10g%s, nu = %.6g per unit time (%.3g per step)\n",
                 r.ramp_gamma0, r.ramp_start_automatic ? " (auto)" : "", r.nu, r.nu * in.h);
  std::fprintf(stderr, "  theory rate: %s\n", r.theory_rate_name().c_str());
  for (std::size_t k = 0; k < r.points.size(); ++k) {
    const LangevinParameters& p = r.points[k];
    std::fprintf(stderr, "  ensemble %zu: %llu realisations, max_steps = %llu%s", k,
                 static_cast<unsigned long long>(p.realisations),
                 static_cast<unsigned long long>(p.max_steps),
                 r.max_steps_automatic ? " (auto)" : "");
    if (k < r.theory.size())
      std::fprintf(stderr, ", theta = %.6g, DeltaU/theta = %.4g, theory <tau> = %.6g", p.theta,
                   r.theory[k].barrier / p.theta, r.theory[k].mean_time);
    std::fprintf(stderr, "\n");
  }
}

void print_summary(const ResolvedRun& r, const std::vector<PointRecord>& points,
                   const RunAnalysis& a) {
  const auto rate = [](const PointRecord& p) {
    return p.seconds > 0 ? double(p.steps_integrated()) / p.seconds : 0.0;
  };
  if (r.input.mode == RunMode::switching) {
    const SampleSummary& s = a.samples.front();
    if (s.escaped == 0)
      std::printf("switched 0 of %zu (%zu censored)\n", s.realisations, s.censored);
    else
      std::printf(
          "switched %zu of %zu (%zu censored): <gamma_sw> = %.8f +- %.2e, std = %.6f +- "
          "%.2e  [%.3g steps/s]\n",
          s.escaped, s.realisations, s.censored, s.mean, s.mean_error, s.standard_deviation,
          s.standard_deviation_error, rate(points.front()));
    const SwitchingTheoryCurves& t = *a.switching;
    if (t.status == "ok")
      std::printf("Fulton-Dunkleberger (%s): <gamma_sw> = %.8f, std = %.6f\n", t.rate_name.c_str(),
                  t.moments.mean, t.moments.standard_deviation);
    else
      std::printf("Fulton-Dunkleberger (%s): %s\n", t.rate_name.c_str(), t.status.c_str());
    return;
  }
  std::printf("%10s %11s %24s %12s %9s %14s\n", "theta", "D", "<tau>", "median", "censored",
              "theory <tau>");
  for (std::size_t k = 0; k < points.size(); ++k) {
    const SampleSummary& s = a.samples[k];
    const double theta = r.points[k].theta;
    std::printf("%10.5g %11.5g %12.6g +- %9.2e %12.6g %9zu %14.6g  [%.3g steps/s]\n", theta,
                r.beta * theta, s.mean, s.mean_error, s.median, s.censored, r.theory[k].mean_time,
                rate(points[k]));
  }
  std::printf("theory <tau>: %s\n", r.theory_rate_name().c_str());
  if (a.arrhenius) {
    const ArrheniusAnalysis& f = *a.arrhenius;
    for (auto [name, fit] : {std::pair{"eq. 12, ln <tau>", &f.plain},
                             std::pair{"eq. 13, ln (theta <tau>)", &f.theta_prefactor}}) {
      if (fit->status.rfind("ok", 0) == 0)
        std::printf("Arrhenius fit (%s): DeltaU = %.5f +- %.5f, chi2/dof = %.3g/%d\n", name,
                    fit->fit.barrier, fit->fit.barrier_error, fit->fit.chi_squared,
                    fit->fit.degrees_of_freedom);
      else
        std::printf("Arrhenius fit (%s): %s\n", name, fit->status.c_str());
    }
    std::printf("theory barrier DeltaU(gamma = %g) = %.5f\n", r.input.gamma, f.barrier);
  }
}

}  // namespace portamc::josephson_app
