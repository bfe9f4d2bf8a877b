#pragma once
// The names of the su2 enumerations, one table each (portamc/enum_names.hpp): the choices of
// portamc-su2's keys, the to_string functions and the attributes of its files come from these.
#include "portamc/enum_names.hpp"
#include "portamc/su2/config_file.hpp"
#include "portamc/su2/detail/heatbath_sampling.hpp"
#include "portamc/su2/run.hpp"

namespace portamc::su2 {

const EnumNames<StoragePrecision>& precision_names();
const EnumNames<StartKind>& start_kind_names();
const EnumNames<HeatbathMethod>& heatbath_method_names();

}  // namespace portamc::su2
