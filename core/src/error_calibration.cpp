#include "portamc/error_calibration.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace portamc::stats {

namespace {

// Numerical Recipes' split: the power series of P converges fast for x < a + 1, the continued
// fraction of Q (modified Lentz) for x >= a + 1. Each function takes the branch it can compute
// directly, so a tiny tail probability keeps its relative precision.
double gamma_p_series(double a, double x, double log_prefactor) {
  double term = 1.0 / a, sum = term;
  for (int n = 1; n < 10000; ++n) {
    term *= x / (a + n);
    sum += term;
    if (std::abs(term) < std::abs(sum) * 1e-16) break;
  }
  return sum * std::exp(log_prefactor);
}

double gamma_q_fraction(double a, double x, double log_prefactor) {
  constexpr double tiny = 1e-300;
  double b = x + 1.0 - a, c = 1.0 / tiny, d = 1.0 / b, h = d;
  for (int i = 1; i < 10000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < 1e-16) break;
  }
  return std::exp(log_prefactor) * h;
}

// The continued fraction of I_x(a, b) (modified Lentz), which converges fast for
// x < (a + 1) / (a + b + 2); regularized_beta uses I_x(a, b) = 1 - I_(1-x)(b, a) otherwise.
double beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::abs(d) < tiny) d = tiny;
  d = 1.0 / d;
  double h = d;
  for (int m = 1; m < 10000; ++m) {
    const double m2 = 2.0 * m;
    // The even step, then the odd step, of the fraction's terms.
    double an = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
    d = 1.0 + an * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1.0 + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    h *= d * c;
    an = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
    d = 1.0 + an * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1.0 + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double delta = d * c;
    h *= delta;
    if (std::abs(delta - 1.0) < 1e-16) break;
  }
  return h;
}

// The x with cdf(x) = p for an increasing cdf on [0, inf), by doubling then bisection.
template <class Cdf>
double quantile_by_bisection(double p, double hi, const Cdf& cdf) {
  double lo = 0.0;
  while (cdf(hi) < p) hi *= 2.0;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (cdf(mid) < p ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

void check_gamma_arguments(double a, double x) {
  if (!(a > 0) || !(x >= 0)) throw std::invalid_argument("regularized gamma: need a > 0, x >= 0");
}

}  // namespace

double regularized_gamma_p(double a, double x) {
  check_gamma_arguments(a, x);
  if (x == 0) return 0.0;
  const double log_prefactor = a * std::log(x) - x - std::lgamma(a);
  return x < a + 1.0 ? gamma_p_series(a, x, log_prefactor)
                     : 1.0 - gamma_q_fraction(a, x, log_prefactor);
}

double regularized_gamma_q(double a, double x) {
  check_gamma_arguments(a, x);
  if (x == 0) return 1.0;
  const double log_prefactor = a * std::log(x) - x - std::lgamma(a);
  return x < a + 1.0 ? 1.0 - gamma_p_series(a, x, log_prefactor)
                     : gamma_q_fraction(a, x, log_prefactor);
}

double chi_square_cdf(double x, double dof) {
  if (!(dof > 0)) throw std::invalid_argument("chi_square_cdf: dof must be positive");
  return x <= 0 ? 0.0 : regularized_gamma_p(0.5 * dof, 0.5 * x);
}

double chi_square_quantile(double p, double dof) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("chi_square_quantile: need 0 < p < 1");
  return quantile_by_bisection(p, dof + 10.0 * std::sqrt(2.0 * dof) + 50.0,
                               [dof](double x) { return chi_square_cdf(x, dof); });
}

double regularized_beta(double a, double b, double x) {
  if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1))
    throw std::invalid_argument("regularized_beta: need a, b > 0 and 0 <= x <= 1");
  if (x == 0 || x == 1) return x;
  const double log_prefactor =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1.0) / (a + b + 2.0)) return std::exp(log_prefactor) * beta_fraction(a, b, x) / a;
  return 1.0 - std::exp(log_prefactor) * beta_fraction(b, a, 1.0 - x) / b;
}

double f_cdf(double x, double d1, double d2) {
  if (!(d1 > 0) || !(d2 > 0)) throw std::invalid_argument("f_cdf: need positive dof");
  return x <= 0 ? 0.0 : regularized_beta(0.5 * d1, 0.5 * d2, d1 * x / (d1 * x + d2));
}

double f_quantile(double p, double d1, double d2) {
  if (!(p > 0 && p < 1)) throw std::invalid_argument("f_quantile: need 0 < p < 1");
  return quantile_by_bisection(p, 10.0, [d1, d2](double x) { return f_cdf(x, d1, d2); });
}

ErrorCalibration calibrate_errors(const std::vector<double>& means,
                                  const std::vector<double>& errors, std::optional<double> exact,
                                  double tail, std::optional<double> error_dof) {
  if (means.size() < 2 || means.size() != errors.size()) {
    throw std::invalid_argument("calibrate_errors: need at least 2 means, one error each");
  }
  if (!(tail > 0 && tail < 0.5))
    throw std::invalid_argument("calibrate_errors: need 0 < tail < 1/2");
  if (error_dof && !(*error_dof > 0))
    throw std::invalid_argument("calibrate_errors: error_dof must be positive");
  double sw = 0, swm = 0;
  for (std::size_t i = 0; i < means.size(); ++i) {
    if (!(errors[i] > 0) || !std::isfinite(errors[i]) || !std::isfinite(means[i])) {
      throw std::invalid_argument(
          "calibrate_errors: every mean and error must be finite and every "
          "error positive");
    }
    const double w = 1.0 / (errors[i] * errors[i]);
    sw += w;
    swm += w * means[i];
  }
  ErrorCalibration c;
  c.weighted_mean = swm / sw;
  const double reference = exact ? *exact : c.weighted_mean;
  for (std::size_t i = 0; i < means.size(); ++i) {
    const double z = (means[i] - reference) / errors[i];
    c.chi_square += z * z;
  }
  c.dof = static_cast<int>(means.size()) - (exact ? 0 : 1);
  if (error_dof) {
    c.error_dof = *error_dof;
    c.low = c.dof * f_quantile(tail, c.dof, *error_dof);
    c.high = c.dof * f_quantile(1.0 - tail, c.dof, *error_dof);
  } else {
    c.low = chi_square_quantile(tail, c.dof);
    c.high = chi_square_quantile(1.0 - tail, c.dof);
  }
  c.pass = c.chi_square >= c.low && c.chi_square <= c.high;
  std::ostringstream s;
  s << "chi^2 = " << c.chi_square << " with " << c.dof << " dof around "
    << (exact ? "the exact value " : "the weighted mean ") << reference << "; pass range [" << c.low
    << ", " << c.high << "] (two-sided, " << tail << " in each tail";
  if (error_dof) s << ", errors with " << *error_dof << " dof: dof x F(dof, " << *error_dof << ")";
  s << ")";
  c.summary = s.str();
  return c;
}

}  // namespace portamc::stats
