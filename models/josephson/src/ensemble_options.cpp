#include <sstream>
#include <stdexcept>

#include "portamc/josephson/ensemble.hpp"

namespace portamc::josephson {

void EnsembleOptions::validate() const {
  auto reject = [](const std::string& name, const std::string& value, const std::string& expected) {
    throw std::invalid_argument("josephson ensemble options: " + name + " = " + value + ": " +
                                expected);
  };
  if (slots < 0) reject("slots", std::to_string(slots), "expected >= 1, or 0 for the default");
  if (loop != AdvanceLoop::chunked && loop != AdvanceLoop::reference &&
      loop != AdvanceLoop::pipelined)
    reject("loop", std::to_string(static_cast<int>(loop)),
           "expected chunked, pipelined or reference");
  if (steps_per_launch < 1) reject("steps_per_launch", "0", "expected >= 1");
  if (!(compact_below >= 0 && compact_below <= 1)) {
    std::ostringstream s;
    s << compact_below;
    reject("compact_below", s.str(), "expected a fraction in [0, 1]");
  }
}

}  // namespace portamc::josephson
