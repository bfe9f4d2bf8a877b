#include "portamc/backends.hpp"

#include <algorithm>
#include <cctype>

namespace portamc {

std::string detail::lower_case(const char* name) {
  std::string s(name);
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::vector<std::string> enabled_backends() {
  std::vector<std::string> names;
#define PORTAMC_ADD_NAME_(S) names.push_back(backend_name<S>());
  PORTAMC_FOR_EACH_SPACE(PORTAMC_ADD_NAME_)
#undef PORTAMC_ADD_NAME_
  return names;
}

std::string default_backend() {
  return backend_name<Kokkos::DefaultExecutionSpace>();
}

bool backend_enabled(const std::string& name) {
  const std::vector<std::string> names = enabled_backends();
  return std::find(names.begin(), names.end(), name) != names.end();
}

void require_backend(const std::string& name) {
  if (backend_enabled(name)) return;
  std::string list;
  for (const std::string& n : enabled_backends()) list += (list.empty() ? "" : ", ") + n;
  throw std::invalid_argument("backend '" + name + "' is not one this build enabled (" + list +
                              "); a GPU backend needs a build of Kokkos with it");
}

}  // namespace portamc
