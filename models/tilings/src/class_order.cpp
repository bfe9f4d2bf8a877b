#include "portamc/tilings/class_order.hpp"

#include <stdexcept>

namespace portamc::tilings {

const char* to_string(ClassOrder order) {
  return order == ClassOrder::cyclic ? "cyclic" : "random";
}

ClassOrder class_order_from_string(const std::string& name) {
  if (name == "random") return ClassOrder::random;
  if (name == "cyclic") return ClassOrder::cyclic;
  throw std::invalid_argument("unknown class order '" + name + "' (expected random or cyclic)");
}

}  // namespace portamc::tilings
