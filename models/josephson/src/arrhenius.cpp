#include "portamc/josephson/arrhenius.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "theory_checks.hpp"

namespace portamc::josephson {

ArrheniusFit fit_arrhenius(const std::vector<double>& theta, const std::vector<double>& mean_time,
                           const std::vector<double>& error, ArrheniusForm form) {
  const char* f = "fit_arrhenius";
  const std::size_t n = theta.size();
  if (mean_time.size() != n || error.size() != n) {
    throw std::invalid_argument(
        "portamc::josephson::fit_arrhenius: theta, mean_time and error must have the same "
        "length, got " +
        std::to_string(n) + ", " + std::to_string(mean_time.size()) + " and " +
        std::to_string(error.size()));
  }
  if (n < 2) {
    throw std::invalid_argument(
        "portamc::josephson::fit_arrhenius: a straight-line fit needs at least 2 points, got " +
        std::to_string(n));
  }
  std::vector<double> x(n), y(n), w(n);
  for (std::size_t i = 0; i < n; ++i) {
    detail::check_positive(theta[i], "theta", f);
    detail::check_positive(mean_time[i], "mean_time", f);
    detail::check_positive(error[i], "error", f);
    x[i] = 1.0 / theta[i];
    y[i] = std::log(mean_time[i]) +
           (form == ArrheniusForm::theta_prefactor ? std::log(theta[i]) : 0.0);
    const double sigma = error[i] / mean_time[i];
    w[i] = 1.0 / (sigma * sigma);
  }
  // Centred sums: the slope from sum w (x - xbar) y / sum w (x - xbar)^2 does not lose digits
  // when 1/theta spans a narrow range far from zero, as Arrhenius data do.
  double sw = 0.0, swx = 0.0, swy = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    sw += w[i];
    swx += w[i] * x[i];
    swy += w[i] * y[i];
  }
  const double xbar = swx / sw, ybar = swy / sw;
  double sxx = 0.0, sxy = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += w[i] * (x[i] - xbar) * (x[i] - xbar);
    sxy += w[i] * (x[i] - xbar) * (y[i] - ybar);
  }
  if (!(sxx > 0.0)) {
    throw std::invalid_argument(
        "portamc::josephson::fit_arrhenius: theta must take at least two different values");
  }
  ArrheniusFit fit;
  fit.barrier = sxy / sxx;
  fit.intercept = ybar - fit.barrier * xbar;
  fit.barrier_error = std::sqrt(1.0 / sxx);
  fit.intercept_error = std::sqrt(1.0 / sw + xbar * xbar / sxx);
  fit.covariance = -xbar / sxx;
  for (std::size_t i = 0; i < n; ++i) {
    const double residual = y[i] - fit.intercept - fit.barrier * x[i];
    fit.chi_squared += w[i] * residual * residual;
  }
  fit.degrees_of_freedom = static_cast<int>(n) - 2;
  return fit;
}

}  // namespace portamc::josephson
