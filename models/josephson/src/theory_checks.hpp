#pragma once
// Input validation shared by the host-side theory files (washboard, kramers, first-passage,
// switching, arrhenius, units): one message format, naming the function, the parameter, the
// value and what was expected. Private to the library (lives in src/).
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

namespace portamc::josephson::detail {

[[noreturn]] inline void throw_invalid(const char* function, const char* parameter, double value,
                                       const char* expected) {
  std::ostringstream message;
  message.precision(17);
  message << "portamc::josephson::" << function << ": " << parameter << " must be " << expected
          << ", got " << value;
  throw std::invalid_argument(message.str());
}

inline void check_positive(double value, const char* parameter, const char* function) {
  if (!std::isfinite(value) || !(value > 0.0)) {
    throw_invalid(function, parameter, value, "finite and positive");
  }
}

inline void check_finite(double value, const char* parameter, const char* function) {
  if (!std::isfinite(value)) throw_invalid(function, parameter, value, "finite");
}

inline void check_v0(double v0, const char* function) {
  check_positive(v0, "V0", function);
}

// The escape theory needs a well and a barrier: 0 <= gamma < 1.
inline void check_gamma(double gamma, const char* function) {
  if (!std::isfinite(gamma) || gamma < 0.0 || gamma >= 1.0) {
    throw_invalid(function, "gamma", gamma, "in [0, 1) (a tilted washboard with a barrier)");
  }
}

}  // namespace portamc::josephson::detail
