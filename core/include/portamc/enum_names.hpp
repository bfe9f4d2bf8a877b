#pragma once
// The names of an enumeration's values in one table, so that an input's choices, --help, the
// enumeration's to_string and the names written to output files cannot drift apart.
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc {

/// The names of an enumeration's values, in the order --help lists them.
template <class E>
class EnumNames {
 public:
  EnumNames(std::initializer_list<std::pair<const char*, E>> entries)
      : entries_(entries.begin(), entries.end()) {}

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& entry : entries_) out.emplace_back(entry.first);
    return out;
  }
  /// The name of `value`; std::logic_error for a value without one (a table missing an entry).
  const char* name(E value) const {
    for (const auto& entry : entries_)
      if (entry.second == value) return entry.first;
    throw std::logic_error("an enumeration value without a name in its EnumNames table");
  }
  /// The value named `name`; std::invalid_argument listing the names otherwise.
  E value(const std::string& name) const {
    for (const auto& entry : entries_)
      if (name == entry.first) return entry.second;
    std::string list;
    for (const auto& entry : entries_)
      list += (list.empty() ? "" : ", ") + std::string(entry.first);
    throw std::invalid_argument("'" + name + "' is none of " + list);
  }

 private:
  std::vector<std::pair<const char*, E>> entries_;
};

}  // namespace portamc
