#pragma once
// The names of the josephson enumerations, one table each (portamc/enum_names.hpp): the choices
// of portamc-josephson's keys, the to_string functions (and rate_formula_name) and the
// attributes of its output files come from these.
#include "portamc/enum_names.hpp"
#include "portamc/josephson/detail/ensemble_kernels.hpp"
#include "portamc/josephson/ensemble.hpp"
#include "portamc/josephson/kramers.hpp"
#include "portamc/josephson/parameters.hpp"
#include "portamc/josephson/run.hpp"

namespace portamc::josephson {

const EnumNames<RunMode>& run_mode_names();
const EnumNames<Dynamics>& dynamics_names();
const EnumNames<Integrator>& integrator_names();
const EnumNames<Precision>& precision_names();
const EnumNames<Schedule>& schedule_names();
const EnumNames<AdvanceLoop>& advance_loop_names();
const EnumNames<TheoryRate>& theory_rate_names();
const EnumNames<RateFormula>& rate_formula_names();

}  // namespace portamc::josephson
