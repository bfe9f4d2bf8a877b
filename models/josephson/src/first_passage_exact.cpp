#include "portamc/josephson/first_passage_exact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/josephson/detail/quadrature.hpp"
#include "theory_checks.hpp"

namespace portamc::josephson {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

double log_add_exp(double a, double b) {
  if (a == kMinusInfinity) return b;
  if (b == kMinusInfinity) return a;
  const double high = std::max(a, b);
  return high + std::log1p(std::exp(-std::fabs(a - b)));
}

struct LogIntegral {
  double log_value;
  double relative_error;
};

// ln int_a^c exp(log_f(x)) dx. The integrand is scaled by the largest of five samples of log_f
// so that it is of order one where it matters; the panels are narrow enough (the caller's
// max_panel_width) that the samples find the panel's maximum to within a few units.
LogIntegral log_integral(const std::function<double(double)>& log_f, double a, double c,
                         double relative_tolerance, const char* what) {
  double reference = kMinusInfinity;
  for (int i = 0; i <= 4; ++i) reference = std::max(reference, log_f(a + (c - a) * 0.25 * i));
  if (!std::isfinite(reference)) {
    throw std::domain_error(std::string("portamc::josephson::mean_first_passage_time: ") + what +
                            " is not finite on [" + std::to_string(a) + ", " + std::to_string(c) +
                            "]");
  }
  QuadratureOptions options;
  options.relative_tolerance = relative_tolerance;
  const QuadratureResult r = adaptive_integral_or_throw(
      [&](double x) { return std::exp(log_f(x) - reference); }, a, c, options, what);
  return {reference + std::log(r.value), r.error_estimate / r.value};
}

std::vector<double> breakpoints(double a, double c, double width) {
  const double count = std::ceil((c - a) / width);
  const int n = std::max(1, static_cast<int>(count));
  std::vector<double> points(n + 1);
  for (int i = 0; i <= n; ++i) points[i] = a + (c - a) * i / n;
  points[n] = c;
  return points;
}

void check_problem(const FirstPassageProblem& p, const FirstPassageOptions& o) {
  const char* f = "mean_first_passage_time";
  detail::check_finite(p.start, "start", f);
  detail::check_finite(p.threshold, "threshold", f);
  detail::check_finite(p.lower_limit, "lower_limit", f);
  detail::check_positive(p.beta, "beta", f);
  detail::check_positive(p.theta, "theta", f);
  detail::check_positive(p.max_panel_width, "max_panel_width", f);
  detail::check_positive(o.relative_tolerance, "relative_tolerance", f);
  detail::check_positive(o.truncation_cutoff, "truncation_cutoff", f);
  if (!(p.threshold > p.start)) {
    detail::throw_invalid(f, "threshold", p.threshold, "greater than start");
  }
  if (!(p.lower_limit < p.start)) {
    detail::throw_invalid(f, "lower_limit", p.lower_limit, "less than start");
  }
  if ((p.threshold - p.lower_limit) / p.max_panel_width > 1e7) {
    detail::throw_invalid(f, "max_panel_width", p.max_panel_width,
                          "at least 1e-7 of threshold - lower_limit (too many panels)");
  }
}

}  // namespace

MeanFirstPassageTime mean_first_passage_time(const std::function<double(double)>& potential,
                                             const FirstPassageProblem& problem,
                                             const FirstPassageOptions& options) {
  check_problem(problem, options);
  const double theta = problem.theta;
  std::int64_t evaluations = 0;
  const auto u = [&](double x) {
    ++evaluations;
    return potential(x);
  };
  const auto minus_u = [&](double z) { return -u(z) / theta; };

  std::vector<double> points =
      breakpoints(problem.lower_limit, problem.start, problem.max_panel_width);
  const std::size_t first_outer = points.size() - 1;  // index of x0
  const std::vector<double> outer =
      breakpoints(problem.start, problem.threshold, problem.max_panel_width);
  points.insert(points.end(), outer.begin() + 1, outer.end());

  // The truncation criterion, relative to the lowest potential between the cut and x0.
  double lowest = u(problem.lower_limit);
  for (std::size_t k = 0; k < first_outer; ++k) {
    lowest = std::min({lowest, u(points[k + 1]), u(0.5 * (points[k] + points[k + 1]))});
  }
  const double margin = (u(problem.lower_limit) - lowest) / theta;
  if (!(margin >= options.truncation_cutoff)) {
    detail::throw_invalid("mean_first_passage_time", "lower_limit", problem.lower_limit,
                          ("far enough left that U(lower_limit) - min U >= truncation_cutoff * "
                           "theta (it is " +
                           std::to_string(margin) + " theta)")
                              .c_str());
  }

  // Inner integral: ln J at every breakpoint, J(y) = int_{lower_limit}^{y} e^{-U/theta}.
  const double inner_tolerance = 0.1 * options.relative_tolerance;
  std::vector<double> log_j(points.size(), kMinusInfinity);
  double inner_error = 0.0;
  for (std::size_t k = 0; k + 1 < points.size(); ++k) {
    const LogIntegral piece =
        log_integral(minus_u, points[k], points[k + 1], inner_tolerance, "exp(-U/theta)");
    log_j[k + 1] = log_add_exp(log_j[k], piece.log_value);
    inner_error = std::max(inner_error, piece.relative_error);
  }

  // Outer integral over [x0, b], panel by panel; inside a panel J(y) continues from the panel's
  // left end with a short inner quadrature.
  double log_sum = kMinusInfinity;
  double log_error = kMinusInfinity;
  for (std::size_t k = first_outer; k + 1 < points.size(); ++k) {
    const double left = points[k];
    const double log_j_left = log_j[k];
    const auto log_integrand = [&](double y) {
      const double partial =
          y > left ? log_integral(minus_u, left, y, inner_tolerance, "exp(-U/theta)").log_value
                   : kMinusInfinity;
      return u(y) / theta + log_add_exp(log_j_left, partial);
    };
    const LogIntegral piece = log_integral(log_integrand, left, points[k + 1],
                                           options.relative_tolerance, "the Pontryagin integrand");
    log_sum = log_add_exp(log_sum, piece.log_value);
    log_error = log_add_exp(log_error, piece.log_value + std::log(piece.relative_error));
  }

  MeanFirstPassageTime result;
  result.log_value = std::log(problem.beta / theta) + log_sum;
  result.value = std::exp(result.log_value);
  result.relative_error_estimate = std::exp(log_error - log_sum) + inner_error;
  result.error_estimate = result.value * result.relative_error_estimate;
  result.potential_evaluations = evaluations;
  return result;
}

MeanFirstPassageTime washboard_mean_first_passage_time(double v0, double gamma, double beta,
                                                       double theta, double start, double threshold,
                                                       const FirstPassageOptions& options) {
  const char* f = "washboard_mean_first_passage_time";
  detail::check_v0(v0, f);
  if (!std::isfinite(gamma) || !(gamma > 0.0)) {
    detail::throw_invalid(f, "gamma", gamma,
                          "finite and positive (the washboard must confine the process from "
                          "below)");
  }
  detail::check_positive(theta, "theta", f);
  detail::check_positive(options.truncation_cutoff, "truncation_cutoff", f);
  detail::check_finite(start, "start", f);
  const auto potential = [v0, gamma](double phi) { return -v0 * (std::cos(phi) + gamma * phi); };
  // U(phi - 2 pi) = U(phi) + 2 pi gamma V0, so the lowest point of (-inf, x0] lies in
  // [x0 - 2 pi, x0]: at an end or at a well bottom asin(gamma) + 2 pi n (if gamma <= 1).
  double lowest = std::min(potential(start), potential(start - 2.0 * kPi));
  if (gamma <= 1.0) {
    const double bottom = std::asin(gamma);
    const double n = std::floor((start - bottom) / (2.0 * kPi));
    const double well = bottom + 2.0 * kPi * n;
    if (well >= start - 2.0 * kPi && well <= start) lowest = std::min(lowest, potential(well));
  }
  // U >= -V0 (1 + gamma phi) everywhere: left of the cut below, U exceeds the lowest point by
  // at least the cutoff plus a unit of theta of slack.
  const double cut = -(lowest + (options.truncation_cutoff + 1.0) * theta + v0) / (gamma * v0);
  FirstPassageProblem problem;
  problem.start = start;
  problem.threshold = threshold;
  problem.beta = beta;
  problem.theta = theta;
  problem.lower_limit = std::min(cut, start - 2.0 * kPi);
  problem.max_panel_width = std::min(0.5, 0.5 * std::sqrt(theta / v0));
  return mean_first_passage_time(potential, problem, options);
}

}  // namespace portamc::josephson
