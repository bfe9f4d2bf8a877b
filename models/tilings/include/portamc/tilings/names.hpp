#pragma once
// The names of the tilings enumerations, one table each (portamc/enum_names.hpp): the choices of
// portamc-tilings' keys, the to_string functions (declared next to each enumeration) and the
// attributes of the output file all come from these.
#include "portamc/enum_names.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/engine/detail/move_colouring.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"
#include "portamc/tilings/run.hpp"

namespace portamc::tilings {

const EnumNames<TilingModel>& tiling_model_names();
const EnumNames<SamplingMode>& sampling_mode_names();
const EnumNames<UpdateRule>& update_rule_names();
const EnumNames<MoveColouring>& move_colouring_names();
const EnumNames<ClassOrder>& class_order_names();
/// glauber.start: the chain's first state.
const EnumNames<Start>& start_names();

}  // namespace portamc::tilings
