#include "portamc/tilings/names.hpp"

namespace portamc::tilings {

const EnumNames<TilingModel>& tiling_model_names() {
  static const EnumNames<TilingModel> names{{"domino", TilingModel::domino},
                                            {"lozenge", TilingModel::lozenge},
                                            {"six_vertex", TilingModel::six_vertex},
                                            {"bibone", TilingModel::bibone},
                                            {"rect_triangle", TilingModel::rect_triangle}};
  return names;
}
const EnumNames<SamplingMode>& sampling_mode_names() {
  static const EnumNames<SamplingMode> names{{"cftp", SamplingMode::cftp},
                                             {"glauber", SamplingMode::glauber},
                                             {"shuffling", SamplingMode::shuffling}};
  return names;
}
const EnumNames<UpdateRule>& update_rule_names() {
  static const EnumNames<UpdateRule> names{{"heat_bath", UpdateRule::heat_bath},
                                           {"metropolis", UpdateRule::metropolis}};
  return names;
}
// kokkos_kernels first: the order --help has always listed them in.
const EnumNames<MoveColouring>& move_colouring_names() {
  static const EnumNames<MoveColouring> names{{"kokkos_kernels", MoveColouring::kokkos_kernels},
                                              {"periodic", MoveColouring::periodic}};
  return names;
}
const EnumNames<ClassOrder>& class_order_names() {
  static const EnumNames<ClassOrder> names{{"random", ClassOrder::random},
                                           {"cyclic", ClassOrder::cyclic}};
  return names;
}
const EnumNames<Start>& start_names() {
  static const EnumNames<Start> names{{"maximal", Start::maximal}, {"minimal", Start::minimal}};
  return names;
}

const char* to_string(TilingModel model) {
  return tiling_model_names().name(model);
}
const char* to_string(SamplingMode mode) {
  return sampling_mode_names().name(mode);
}
const char* to_string(UpdateRule rule) {
  return update_rule_names().name(rule);
}
const char* to_string(MoveColouring colouring) {
  return move_colouring_names().name(colouring);
}
const char* to_string(ClassOrder order) {
  return class_order_names().name(order);
}

}  // namespace portamc::tilings
