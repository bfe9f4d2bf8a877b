#include "portamc/cvf/names.hpp"

#include <stdexcept>
#include <string>

namespace portamc::cvf {

const EnumNames<SigmaAlgorithm>& sigma_algorithm_names() {
  static const EnumNames<SigmaAlgorithm> names{{"metropolis", SigmaAlgorithm::metropolis},
                                               {"swendsen_wang", SigmaAlgorithm::swendsen_wang}};
  return names;
}
const EnumNames<StartKind>& start_kind_names() {
  static const EnumNames<StartKind> names{{"random", StartKind::random},
                                          {"ordered", StartKind::ordered}};
  return names;
}
const EnumNames<Labelling>& labelling_names() {
  static const EnumNames<Labelling> names{{"union_find", Labelling::union_find},
                                          {"label_equivalence", Labelling::label_equivalence}};
  return names;
}
const EnumNames<MetropolisKernel>& metropolis_kernel_names() {
  static const EnumNames<MetropolisKernel> names{{"per_cell", MetropolisKernel::per_cell},
                                                 {"packed", MetropolisKernel::packed}};
  return names;
}
const EnumNames<GasLikeCells>& gas_like_cells_names() {
  static const EnumNames<GasLikeCells> names{{"no_hydrogen_bonds", GasLikeCells::no_hydrogen_bonds},
                                             {"ignore", GasLikeCells::ignore}};
  return names;
}

const char* to_string(SigmaAlgorithm algorithm) {
  return sigma_algorithm_names().name(algorithm);
}
const char* to_string(StartKind start) {
  return start_kind_names().name(start);
}
std::string to_string(Labelling labelling) {
  return labelling_names().name(labelling);
}
Labelling labelling_from_string(const std::string& name) {
  try {
    return labelling_names().value(name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("cvf labelling: ") + e.what());
  }
}
const char* to_string(MetropolisKernel kernel) {
  return metropolis_kernel_names().name(kernel);
}
MetropolisKernel metropolis_kernel_from_string(const std::string& name) {
  try {
    return metropolis_kernel_names().value(name);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("CVF Metropolis kernel: ") + e.what());
  }
}
const char* to_string(GasLikeCells cells) {
  return gas_like_cells_names().name(cells);
}

}  // namespace portamc::cvf
