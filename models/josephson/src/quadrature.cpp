#include "portamc/josephson/detail/quadrature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <queue>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace portamc::josephson {
namespace {

// QUADPACK's 21-point Kronrod nodes on [-1, 1] (non-negative half; the odd entries are the
// 10-point Gauss nodes) and weights, computed by Fullerton with 80-digit arithmetic. The test
// checks that K21 integrates polynomials exactly to degree 31 and G10 to degree 19.
constexpr double kNodes[11] = {
    0.995657163025808080735527280689003, 0.973906528517171720077964012084452,
    0.930157491355708226001207180059508, 0.865063366688984510732096688423493,
    0.780817726586416897063717578345042, 0.679409568299024406234327365114874,
    0.562757134668604683339000099272694, 0.433395394129247190799265943165784,
    0.294392862701460198131126603103866, 0.148874338981631210884826001129720,
    0.000000000000000000000000000000000};
constexpr double kKronrodWeights[11] = {
    0.011694638867371874278064396062192, 0.032558162307964727478818972459390,
    0.054755896574351996031381300244580, 0.075039674810919952767043140916190,
    0.093125454583697605535065465083366, 0.109387158802297641899210590325805,
    0.123491976262065851077958109831074, 0.134709217311473325928054001771707,
    0.142775938577060080797094273138717, 0.147739104901338491374841515972068,
    0.149445554002916905664936468389821};
constexpr double kGaussWeights[5] = {
    0.066671344308688137593568809893332, 0.149451349150580593145776339657697,
    0.219086362515982043995534934228163, 0.269266719309996355091226921569469,
    0.295524224714752870173892994651338};

struct Panel {
  double a;
  double b;
  double value;
  double error;
  bool operator<(const Panel& other) const { return error < other.error; }
};

double evaluate(const std::function<double(double)>& f, double x) {
  const double y = f(x);
  if (!std::isfinite(y)) {
    std::ostringstream message;
    message.precision(17);
    message << "portamc::josephson::adaptive_integral: the integrand is " << y << " at x = " << x;
    throw std::domain_error(message.str());
  }
  return y;
}

Panel gauss_kronrod_21(const std::function<double(double)>& f, double a, double b) {
  const double centre = 0.5 * (a + b);
  const double half = 0.5 * (b - a);
  const double f_centre = evaluate(f, centre);
  double kronrod = kKronrodWeights[10] * f_centre;
  double gauss = 0.0;  // the 10-point rule has no node at the centre
  double absolute = std::fabs(kronrod);
  double f_minus[10];
  double f_plus[10];
  for (int j = 0; j < 10; ++j) {
    const double dx = half * kNodes[j];
    f_minus[j] = evaluate(f, centre - dx);
    f_plus[j] = evaluate(f, centre + dx);
    const double sum = f_minus[j] + f_plus[j];
    kronrod += kKronrodWeights[j] * sum;
    absolute += kKronrodWeights[j] * (std::fabs(f_minus[j]) + std::fabs(f_plus[j]));
    if (j % 2 == 1) gauss += kGaussWeights[j / 2] * sum;
  }
  // QUADPACK's error estimate: the Kronrod-Gauss difference, rescaled by the integrand's
  // variation about its mean (resasc) so that it tracks the asymptotic error of smooth
  // integrands, and kept above the rounding floor of the sum.
  const double mean = 0.5 * kronrod;
  double variation = kKronrodWeights[10] * std::fabs(f_centre - mean);
  for (int j = 0; j < 10; ++j) {
    variation += kKronrodWeights[j] * (std::fabs(f_minus[j] - mean) + std::fabs(f_plus[j] - mean));
  }
  const double scale = std::fabs(half);
  double error = std::fabs((kronrod - gauss) * half);
  variation *= scale;
  if (variation != 0.0 && error != 0.0) {
    error = variation * std::min(1.0, std::pow(200.0 * error / variation, 1.5));
  }
  constexpr double kEpsilon = std::numeric_limits<double>::epsilon();
  const double rounding = 50.0 * kEpsilon * absolute * scale;
  if (rounding > std::numeric_limits<double>::min()) error = std::max(error, rounding);
  return Panel{a, b, kronrod * half, error};
}

void check_options(const QuadratureOptions& options) {
  const auto bad = [](double t) { return !std::isfinite(t) || t < 0.0; };
  if (bad(options.relative_tolerance) || bad(options.absolute_tolerance) ||
      (options.relative_tolerance == 0.0 && options.absolute_tolerance == 0.0)) {
    throw std::invalid_argument(
        "portamc::josephson::adaptive_integral: tolerances must be finite, non-negative and not "
        "both "
        "zero, got relative_tolerance = " +
        std::to_string(options.relative_tolerance) +
        ", absolute_tolerance = " + std::to_string(options.absolute_tolerance));
  }
  if (options.max_subdivisions < 1) {
    throw std::invalid_argument(
        "portamc::josephson::adaptive_integral: max_subdivisions must be at least 1, got " +
        std::to_string(options.max_subdivisions));
  }
}

}  // namespace

QuadratureResult adaptive_integral(const std::function<double(double)>& f, double a, double b,
                                   const QuadratureOptions& options) {
  check_options(options);
  if (!std::isfinite(a) || !std::isfinite(b)) {
    throw std::invalid_argument(
        "portamc::josephson::adaptive_integral: the limits must be finite, got a = " +
        std::to_string(a) + ", b = " + std::to_string(b));
  }
  QuadratureResult result;
  if (a == b) {
    result.converged = true;
    return result;
  }
  std::priority_queue<Panel> panels;
  panels.push(gauss_kronrod_21(f, a, b));
  double value = panels.top().value;
  double error = panels.top().error;
  int evaluations = 21;
  const auto tolerance = [&]() {
    return std::max(options.absolute_tolerance, options.relative_tolerance * std::fabs(value));
  };
  while (error > tolerance() && static_cast<int>(panels.size()) < options.max_subdivisions) {
    const Panel worst = panels.top();
    const double middle = 0.5 * (worst.a + worst.b);
    // Stop bisecting where the panel can no longer be split in floating point.
    if (middle == worst.a || middle == worst.b) break;
    panels.pop();
    const Panel left = gauss_kronrod_21(f, worst.a, middle);
    const Panel right = gauss_kronrod_21(f, middle, worst.b);
    evaluations += 42;
    value += left.value + right.value - worst.value;
    error += left.error + right.error - worst.error;
    panels.push(left);
    panels.push(right);
  }
  // Re-add from the panels so that the running updates leave no accumulated cancellation.
  value = 0.0;
  error = 0.0;
  while (!panels.empty()) {
    value += panels.top().value;
    error += panels.top().error;
    panels.pop();
  }
  result.value = value;
  result.error_estimate = error;
  result.evaluations = evaluations;
  result.converged = error <= tolerance();
  return result;
}

QuadratureResult adaptive_integral_or_throw(const std::function<double(double)>& f, double a,
                                            double b, const QuadratureOptions& options,
                                            const char* what) {
  const QuadratureResult result = adaptive_integral(f, a, b, options);
  if (!result.converged) {
    std::ostringstream message;
    message.precision(6);
    message << "portamc::josephson: the quadrature for " << what << " over [" << a << ", " << b
            << "] did not reach the relative tolerance " << options.relative_tolerance << " (value "
            << result.value << ", error estimate " << result.error_estimate << " after "
            << result.evaluations << " evaluations)";
    throw std::runtime_error(message.str());
  }
  return result;
}

}  // namespace portamc::josephson
