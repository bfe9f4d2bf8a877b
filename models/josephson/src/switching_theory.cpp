#include "portamc/josephson/switching_theory.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "portamc/josephson/detail/quadrature.hpp"
#include "portamc/josephson/first_passage_exact.hpp"
#include "theory_checks.hpp"

namespace portamc::josephson {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Knots of the exponent table on [gamma0, 1]: fine enough that an interval rarely holds more
// than the transition of S, coarse enough that building the table is cheap.
constexpr int kKnots = 64;
// Below this, 1 - S (left of the median) or S (right of it) no longer changes a moment.
constexpr double kNegligible = 1e-18;

void check_ramp(const LinearRamp& ramp, const char* function) {
  if (!std::isfinite(ramp.gamma0) || ramp.gamma0 < 0.0 || ramp.gamma0 >= 1.0) {
    detail::throw_invalid(function, "ramp.gamma0", ramp.gamma0, "in [0, 1)");
  }
  detail::check_positive(ramp.nu, "ramp.nu", function);
}

void check_gamma_query(double gamma, const char* function) {
  if (std::isnan(gamma)) detail::throw_invalid(function, "gamma", gamma, "a number");
}

// (1/nu) int_a^b r, a <= b inside [gamma0, 1], with the rate checked at every node. The
// washboard rates vanish like (1 - gamma)^(1/4) or (1 - gamma)^(1/2) at the critical current
// (through omega0), a singular derivative that would cost Gauss–Kronrod many bisections; cutting
// the interval at 1 - 10^-k (k = 1, 2, ...) gives every piece a ratio of at most 10 between the
// distances of its ends to the singularity, where a few panels suffice. (A substitution
// gamma = 1 - w^4 would smooth the integrand too, but the rounding of 1 - w^4 near 1 turns it
// into a staircase; the same rounding limits the accuracy of the last pieces, see below.)
double exponent_increment(const BiasDependentRate& rate, const LinearRamp& ramp, double a,
                          double b) {
  if (b <= a) return 0.0;
  const auto checked = [&](double gamma) {
    const double r = rate(gamma);
    if (!std::isfinite(r) || r < 0.0) {
      detail::throw_invalid(
          "switching theory", "the escape rate", r,
          ("finite and non-negative (at gamma = " + std::to_string(gamma) + ")").c_str());
    }
    return r;
  };
  double sum = 0.0;
  double left = a;
  for (double distance = 0.1; distance >= 1e-12 && left < b; distance *= 0.1) {
    const double right = std::min(1.0 - distance, b);
    if (right <= left) continue;
    // Near 1 the bias itself is rounded to 1.1e-16, a relative perturbation of about
    // 1e-16 / (1 - gamma) of the rate: the tolerance stays a factor 1000 above that noise. The
    // absolute error of such a piece, about r * 1e-13 / nu, is negligible in H.
    QuadratureOptions options;
    options.relative_tolerance = std::max(1e-11, 1e-13 / distance);
    sum += adaptive_integral_or_throw(checked, left, right, options, "the escape exponent").value;
    left = right;
  }
  // Within 1e-12 of the critical current 1 - gamma has only a few significant digits, so the
  // rate is a staircase on the scale of the nodes and no error estimate converges: one 21-point
  // panel, whose contribution is at most r * 1e-12 / nu (and the rate formulas have long lost
  // their meaning there).
  if (left < b) {
    QuadratureOptions one_panel;
    one_panel.max_subdivisions = 1;
    sum += adaptive_integral(checked, left, b, one_panel).value;
  }
  return sum / ramp.nu;
}

// H at uniformly spaced knots gamma0 = x_0 < ... < x_N = 1, and H anywhere from the knot below.
class ExponentTable {
 public:
  ExponentTable(const BiasDependentRate& rate, const LinearRamp& ramp)
      : rate_(rate), ramp_(ramp), knots_(kKnots + 1), exponents_(kKnots + 1, 0.0) {
    for (int k = 0; k <= kKnots; ++k) {
      knots_[k] = ramp.gamma0 + (1.0 - ramp.gamma0) * k / kKnots;
    }
    knots_[kKnots] = 1.0;
    for (int k = 0; k < kKnots; ++k) {
      exponents_[k + 1] = exponents_[k] + exponent_increment(rate, ramp, knots_[k], knots_[k + 1]);
    }
  }
  int intervals() const { return kKnots; }
  double knot(int k) const { return knots_[k]; }
  double exponent_at_knot(int k) const { return exponents_[k]; }
  // H(gamma) for gamma in [knot(k), knot(k + 1)].
  double exponent(int k, double gamma) const {
    return exponents_[k] + exponent_increment(rate_, ramp_, knots_[k], gamma);
  }

 private:
  const BiasDependentRate& rate_;
  LinearRamp ramp_;
  std::vector<double> knots_;
  std::vector<double> exponents_;
};

double integral_over(const std::function<double(double)>& f, double a, double b) {
  QuadratureOptions options;
  options.relative_tolerance = 1e-10;
  options.absolute_tolerance = 1e-17;
  return adaptive_integral_or_throw(f, a, b, options, "a switching-current moment").value;
}

// ---- The exact overdamped rate, tabulated ----------------------------------------------------

constexpr double kPi = 3.14159265358979323846;
constexpr int kChebyshevPoints = 16;
// On the last three Chebyshev coefficients of ln(r / gamma) of a piece: the rate to ~1e-9
// relative, far below what any switching statistic resolves, and well above the accuracy of the
// tabulated values (each mean first-passage time to kRateTolerance).
constexpr double kChebyshevTolerance = 1e-9;
constexpr double kRateTolerance = 1e-11;
// A piece narrower than this fraction of the table has not converged: something is wrong.
constexpr double kNarrowestPiece = 1e-7;
// Bisection steps for gamma_x: it only has to satisfy r(gamma_x) <= negligible_rate.
constexpr int kBisections = 24;
// The smallest bias tabulated: the cost of a mean first-passage time grows like 1 / gamma (the
// inner integral reaches back to where the envelope -V0 (1 + gamma phi) lies 60 theta above the
// well), and below it gamma T(gamma) is constant to O(gamma).
constexpr double kSmallestTabulatedBias = 1e-3;

struct ChebyshevPiece {
  double low = 0.0, high = 0.0;  // in s
  std::array<double, kChebyshevPoints> coefficients{};

  double operator()(double s) const {
    const double x = (2.0 * s - low - high) / (high - low);
    // Clenshaw: f = c0 / 2 + sum_k c_k T_k(x).
    double b1 = 0.0, b2 = 0.0;
    for (int k = kChebyshevPoints - 1; k >= 1; --k) {
      const double b0 = 2.0 * x * b1 - b2 + coefficients[k];
      b2 = b1;
      b1 = b0;
    }
    return x * b1 - b2 + 0.5 * coefficients[0];
  }
};

class ExactRateTable {
 public:
  ExactRateTable(double v0, double beta, double theta, double threshold, double gamma_low,
                 double negligible_rate)
      : v0_(v0), beta_(beta), theta_(theta), threshold_(threshold) {
    const double log_negligible = std::log(negligible_rate);
    // gamma_x: the largest bias (to the bisection's resolution) with r <= negligible_rate, but
    // not below the smallest tabulated one; r grows with gamma.
    double low = std::max(gamma_low, kSmallestTabulatedBias);
    if (log_rate(low) > log_negligible) {
      gamma_x_ = low;
    } else {
      double high = 1.0;
      for (int i = 0; i < kBisections; ++i) {
        const double middle = 0.5 * (low + high);
        (log_rate(middle) <= log_negligible ? low : high) = middle;
      }
      gamma_x_ = low;
    }
    log_rate_x_ = log_rate(gamma_x_);
    // The table over s = sqrt(1 - gamma) in [0, s_x].
    const double s_x = std::sqrt(1.0 - gamma_x_);
    const int start = 4;
    for (int k = 0; k < start; ++k) build(s_x * k / start, s_x * (k + 1) / start, s_x);
    std::sort(pieces_.begin(), pieces_.end(),
              [](const ChebyshevPiece& a, const ChebyshevPiece& b) { return a.low < b.low; });
  }

  double operator()(double gamma) const {
    if (!(gamma > 0.0)) return 0.0;
    if (gamma < gamma_x_) return std::exp(log_rate_x_) * gamma / gamma_x_;
    const double s = gamma >= 1.0 ? 0.0 : std::sqrt(1.0 - gamma);
    // The piece holding s (the pieces tile [0, s_x] in order).
    const auto it = std::upper_bound(pieces_.begin(), pieces_.end(), s,
                                     [](double v, const ChebyshevPiece& p) { return v < p.low; });
    const ChebyshevPiece& piece = it == pieces_.begin() ? pieces_.front() : *(it - 1);
    return gamma * std::exp(piece(s));
  }

 private:
  // ln r = -ln T at the bias gamma, 0 < gamma < 1.
  double log_rate(double gamma) const {
    FirstPassageOptions options;
    options.relative_tolerance = kRateTolerance;
    return -washboard_mean_first_passage_time(v0_, gamma, beta_, theta_, std::asin(gamma),
                                              threshold_, options)
                .log_value;
  }

  // ln(r / gamma) at gamma = 1 - s^2.
  double tabulated(double s) const {
    const double gamma = 1.0 - s * s;
    return log_rate(gamma) - std::log(gamma);
  }

  void build(double low, double high, double s_x) {
    ChebyshevPiece piece;
    piece.low = low;
    piece.high = high;
    std::array<double, kChebyshevPoints> values{};
    double largest = 0.0;
    for (int j = 0; j < kChebyshevPoints; ++j) {
      const double x = std::cos(kPi * (j + 0.5) / kChebyshevPoints);
      values[j] = tabulated(0.5 * (low + high) + 0.5 * (high - low) * x);
      largest = std::max(largest, std::fabs(values[j]));
    }
    for (int k = 0; k < kChebyshevPoints; ++k) {
      double sum = 0.0;
      for (int j = 0; j < kChebyshevPoints; ++j)
        sum += values[j] * std::cos(kPi * k * (j + 0.5) / kChebyshevPoints);
      piece.coefficients[k] = 2.0 * sum / kChebyshevPoints;
    }
    double tail = 0.0;
    for (int k = kChebyshevPoints - 3; k < kChebyshevPoints; ++k)
      tail = std::max(tail, std::fabs(piece.coefficients[k]));
    if (tail <= kChebyshevTolerance * std::max(1.0, 0.01 * largest)) {
      pieces_.push_back(piece);
      return;
    }
    if (high - low < kNarrowestPiece * s_x)
      throw std::runtime_error(
          "portamc::josephson::exact_overdamped_rate: the tabulation of ln r did not converge "
          "near gamma = " +
          std::to_string(1.0 - low * low));
    const double middle = 0.5 * (low + high);
    build(low, middle, s_x);
    build(middle, high, s_x);
  }

  double v0_, beta_, theta_, threshold_;
  double gamma_x_ = 0.0;
  double log_rate_x_ = 0.0;
  std::vector<ChebyshevPiece> pieces_;
};

}  // namespace

BiasDependentRate exact_overdamped_rate(double v0, double beta, double theta, double threshold,
                                        double gamma_low, double negligible_rate) {
  const char* f = "exact_overdamped_rate";
  detail::check_v0(v0, f);
  detail::check_positive(beta, "beta", f);
  detail::check_positive(theta, "theta", f);
  detail::check_positive(negligible_rate, "negligible_rate", f);
  detail::check_finite(threshold, "threshold", f);
  if (!(threshold > 0.5 * kPi)) {
    detail::throw_invalid(f, "threshold", threshold,
                          "above pi/2 (else the well bottom reaches it before gamma = 1)");
  }
  if (!std::isfinite(gamma_low) || gamma_low < 0.0 || gamma_low >= 1.0) {
    detail::throw_invalid(f, "gamma_low", gamma_low, "in [0, 1)");
  }
  const auto table = std::make_shared<const ExactRateTable>(v0, beta, theta, threshold, gamma_low,
                                                            negligible_rate);
  return [table](double gamma) { return (*table)(gamma); };
}

BiasDependentRate washboard_rate(RateFormula formula, double v0, double beta, double theta) {
  // Validate once (with a bias inside the range) so that a bad V0, beta or theta is reported
  // here rather than from inside a quadrature.
  escape_rate(formula, v0, beta, theta, 0.0);
  return [formula, v0, beta, theta](double gamma) {
    return escape_rate(formula, v0, beta, theta, gamma);
  };
}

double escape_exponent(const BiasDependentRate& rate, const LinearRamp& ramp, double gamma) {
  check_ramp(ramp, "escape_exponent");
  check_gamma_query(gamma, "escape_exponent");
  if (gamma <= ramp.gamma0) return 0.0;
  if (gamma >= 1.0) return kInfinity;
  return exponent_increment(rate, ramp, ramp.gamma0, gamma);
}

double switching_cdf(const BiasDependentRate& rate, const LinearRamp& ramp, double gamma) {
  check_ramp(ramp, "switching_cdf");
  check_gamma_query(gamma, "switching_cdf");
  if (gamma >= 1.0) return 1.0;
  return -std::expm1(-escape_exponent(rate, ramp, gamma));
}

std::vector<double> switching_cdf(const BiasDependentRate& rate, const LinearRamp& ramp,
                                  const std::vector<double>& gammas) {
  check_ramp(ramp, "switching_cdf");
  for (double g : gammas) check_gamma_query(g, "switching_cdf");
  std::vector<std::size_t> order(gammas.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t i, std::size_t j) { return gammas[i] < gammas[j]; });
  std::vector<double> cdf(gammas.size(), 0.0);
  double position = ramp.gamma0;
  double exponent = 0.0;
  for (std::size_t i : order) {
    const double g = gammas[i];
    if (g >= 1.0) {
      cdf[i] = 1.0;
    } else if (g > ramp.gamma0) {
      exponent += exponent_increment(rate, ramp, position, g);
      position = g;
      cdf[i] = -std::expm1(-exponent);
    }
  }
  return cdf;
}

double switching_density(const BiasDependentRate& rate, const LinearRamp& ramp, double gamma) {
  check_ramp(ramp, "switching_density");
  check_gamma_query(gamma, "switching_density");
  if (gamma < ramp.gamma0 || gamma >= 1.0) return 0.0;
  const double r = rate(gamma);
  if (!std::isfinite(r) || r < 0.0) {
    detail::throw_invalid("switching_density", "the escape rate", r, "finite and non-negative");
  }
  return r / ramp.nu * std::exp(-escape_exponent(rate, ramp, gamma));
}

std::vector<double> switching_density(const BiasDependentRate& rate, const LinearRamp& ramp,
                                      const std::vector<double>& gammas) {
  const std::vector<double> cdf = switching_cdf(rate, ramp, gammas);
  std::vector<double> density(gammas.size(), 0.0);
  for (std::size_t i = 0; i < gammas.size(); ++i) {
    const double g = gammas[i];
    if (g < ramp.gamma0 || g >= 1.0) continue;
    const double r = rate(g);
    if (!std::isfinite(r) || r < 0.0) {
      detail::throw_invalid("switching_density", "the escape rate", r, "finite and non-negative");
    }
    density[i] = r / ramp.nu * (1.0 - cdf[i]);
  }
  return density;
}

SwitchingMoments switching_moments(const BiasDependentRate& rate, const LinearRamp& ramp) {
  check_ramp(ramp, "switching_moments");
  const ExponentTable table(rate, ramp);
  const int n = table.intervals();
  // Centre c at the first knot where S <= 1/2 (the end of the ramp if there is none).
  int centre = n;
  for (int k = 0; k <= n; ++k) {
    if (table.exponent_at_knot(k) >= std::log(2.0)) {
      centre = k;
      break;
    }
  }
  const double c = table.knot(centre);
  // E[X] = c - int_{gamma0}^{c} (1 - S) + int_{c}^{1} S,
  // E[(X - c)^2] = int_{gamma0}^{c} 2 (c - g) (1 - S) + int_{c}^{1} 2 (g - c) S:
  // both integrands are positive and small away from the transition (E[g(X)] = g(gamma0) +
  // int g' S, with the part below c rewritten through int_{gamma0}^{c} g' = g(c) - g(gamma0)).
  double below = 0.0, below_second = 0.0, above = 0.0, above_second = 0.0;
  // The two integrals over one interval evaluate H at the same nodes (mostly): remember them.
  std::unordered_map<double, double> cache;
  const auto exponent = [&](int k, double g) {
    const auto found = cache.find(g);
    if (found != cache.end()) return found->second;
    const double h = table.exponent(k, g);
    cache.emplace(g, h);
    return h;
  };
  for (int k = 0; k < centre; ++k) {
    if (-std::expm1(-table.exponent_at_knot(k + 1)) < kNegligible) continue;
    cache.clear();
    const auto one_minus_s = [&](double g) { return -std::expm1(-exponent(k, g)); };
    below += integral_over(one_minus_s, table.knot(k), table.knot(k + 1));
    below_second += integral_over([&](double g) { return 2.0 * (c - g) * one_minus_s(g); },
                                  table.knot(k), table.knot(k + 1));
  }
  for (int k = centre; k < n; ++k) {
    if (std::exp(-table.exponent_at_knot(k)) < kNegligible) break;  // H only grows
    cache.clear();
    const auto s = [&](double g) { return std::exp(-exponent(k, g)); };
    above += integral_over(s, table.knot(k), table.knot(k + 1));
    above_second += integral_over([&](double g) { return 2.0 * (g - c) * s(g); }, table.knot(k),
                                  table.knot(k + 1));
  }
  SwitchingMoments moments;
  moments.mean = c - below + above;
  const double shift = moments.mean - c;
  moments.standard_deviation =
      std::sqrt(std::max(0.0, below_second + above_second - shift * shift));
  moments.probability_at_critical_current = std::exp(-table.exponent_at_knot(n));
  return moments;
}

double negligible_escape_bias(const BiasDependentRate& rate, const LinearRamp& ramp,
                              double epsilon) {
  check_ramp(ramp, "negligible_escape_bias");
  if (!(epsilon > 0.0 && epsilon < 1.0)) {
    detail::throw_invalid("negligible_escape_bias", "epsilon", epsilon, "in (0, 1)");
  }
  const double target = -std::log1p(-epsilon);  // H at which the CDF reaches epsilon
  const ExponentTable table(rate, ramp);
  int k = 0;
  while (k < table.intervals() && table.exponent_at_knot(k + 1) <= target) ++k;
  if (k == table.intervals()) return 1.0;
  // H is continuous and non-decreasing: bisect for the last bias with H <= target.
  double low = table.knot(k), high = table.knot(k + 1);
  for (int i = 0; i < 100; ++i) {
    const double middle = 0.5 * (low + high);
    if (middle == low || middle == high) break;
    (table.exponent(k, middle) <= target ? low : high) = middle;
  }
  return low;
}

}  // namespace portamc::josephson
