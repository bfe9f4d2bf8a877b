// portamc-su2's summary on stdout: every coupling's plaquette, |P| and chi_P with their
// autocorrelation, and the static potential's fit.
#include <cstdio>

#include "su2_app.hpp"

namespace portamc::su2_app {

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

}  // namespace portamc::su2_app
