#include "portamc/josephson/ensemble_results.hpp"

#include <algorithm>

namespace portamc::josephson {

std::size_t EnsembleResults::count(Outcome which) const {
  return static_cast<std::size_t>(std::count(outcome.begin(), outcome.end(), which));
}

std::vector<double> EnsembleResults::escape_times() const {
  std::vector<double> out;
  out.reserve(count(Outcome::escaped));
  for (std::size_t i = 0; i < outcome.size(); ++i)
    if (outcome[i] == Outcome::escaped) out.push_back(static_cast<double>(steps[i]) * h);
  return out;
}

std::vector<double> EnsembleResults::escape_biases() const {
  std::vector<double> out;
  out.reserve(count(Outcome::escaped));
  for (std::size_t i = 0; i < outcome.size(); ++i)
    if (outcome[i] == Outcome::escaped) out.push_back(bias[i]);
  return out;
}

}  // namespace portamc::josephson
