#include "portamc/su2/names.hpp"

namespace portamc::su2 {

const EnumNames<StoragePrecision>& precision_names() {
  static const EnumNames<StoragePrecision> names{{"float", StoragePrecision::kFloat},
                                                 {"double", StoragePrecision::kDouble}};
  return names;
}
const EnumNames<StartKind>& start_kind_names() {
  static const EnumNames<StartKind> names{
      {"cold", StartKind::cold}, {"hot", StartKind::hot}, {"file", StartKind::file}};
  return names;
}
const EnumNames<HeatbathMethod>& heatbath_method_names() {
  static const EnumNames<HeatbathMethod> names{
      {"auto", HeatbathMethod::automatic},
      {"creutz", HeatbathMethod::creutz},
      {"kennedy_pendleton", HeatbathMethod::kennedy_pendleton}};
  return names;
}

const char* to_string(StoragePrecision precision) {
  return precision_names().name(precision);
}
const char* to_string(StartKind start) {
  return start_kind_names().name(start);
}
const char* to_string(HeatbathMethod method) {
  return heatbath_method_names().name(method);
}

}  // namespace portamc::su2
