#include "portamc/josephson/names.hpp"

namespace portamc::josephson {

const EnumNames<RunMode>& run_mode_names() {
  static const EnumNames<RunMode> names{{"escape", RunMode::escape},
                                        {"switching", RunMode::switching},
                                        {"arrhenius", RunMode::arrhenius}};
  return names;
}
const EnumNames<Dynamics>& dynamics_names() {
  static const EnumNames<Dynamics> names{{"underdamped", Dynamics::underdamped},
                                         {"overdamped", Dynamics::overdamped}};
  return names;
}
const EnumNames<Integrator>& integrator_names() {
  static const EnumNames<Integrator> names{{"euler", Integrator::euler},
                                           {"heun", Integrator::heun}};
  return names;
}
const EnumNames<Precision>& precision_names() {
  static const EnumNames<Precision> names{{"float", Precision::single_precision},
                                          {"double", Precision::double_precision}};
  return names;
}
const EnumNames<Schedule>& schedule_names() {
  static const EnumNames<Schedule> names{{"refill", Schedule::refill},
                                         {"one_per_thread", Schedule::one_per_thread}};
  return names;
}
const EnumNames<AdvanceLoop>& advance_loop_names() {
  static const EnumNames<AdvanceLoop> names{{"chunked", AdvanceLoop::chunked},
                                            {"reference", AdvanceLoop::reference},
                                            {"pipelined", AdvanceLoop::pipelined}};
  return names;
}
const EnumNames<TheoryRate>& theory_rate_names() {
  static const EnumNames<TheoryRate> names{{"auto", TheoryRate::automatic},
                                           {"exact", TheoryRate::exact},
                                           {"kramers", TheoryRate::kramers}};
  return names;
}
const EnumNames<RateFormula>& rate_formula_names() {
  static const EnumNames<RateFormula> names{{"overdamped", RateFormula::overdamped},
                                            {"kramers_moderate", RateFormula::kramers_moderate},
                                            {"energy_diffusion", RateFormula::energy_diffusion},
                                            {"melnikov_meshkov", RateFormula::melnikov_meshkov}};
  return names;
}

const char* to_string(RunMode mode) {
  return run_mode_names().name(mode);
}
const char* to_string(Dynamics dynamics) {
  return dynamics_names().name(dynamics);
}
const char* to_string(Integrator integrator) {
  return integrator_names().name(integrator);
}
const char* to_string(Precision precision) {
  return precision_names().name(precision);
}
const char* to_string(Schedule schedule) {
  return schedule_names().name(schedule);
}
const char* to_string(AdvanceLoop loop) {
  return advance_loop_names().name(loop);
}
const char* to_string(TheoryRate theory_rate) {
  return theory_rate_names().name(theory_rate);
}
const char* rate_formula_name(RateFormula formula) {
  return rate_formula_names().name(formula);
}

}  // namespace portamc::josephson
