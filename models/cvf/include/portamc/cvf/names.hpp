#pragma once
// The names of the cvf enumerations, one table each (portamc/enum_names.hpp): the choices of
// portamc-cvf's keys, the to_string functions and the attributes of the output file all come
// from these.
#include "portamc/cvf/detail/cluster_labels.hpp"
#include "portamc/cvf/detail/metropolis_packed.hpp"
#include "portamc/cvf/parameters.hpp"
#include "portamc/cvf/run.hpp"
#include "portamc/enum_names.hpp"

namespace portamc::cvf {

const EnumNames<SigmaAlgorithm>& sigma_algorithm_names();
const EnumNames<StartKind>& start_kind_names();
const EnumNames<Labelling>& labelling_names();
const EnumNames<MetropolisKernel>& metropolis_kernel_names();
const EnumNames<GasLikeCells>& gas_like_cells_names();

const char* to_string(GasLikeCells cells);

}  // namespace portamc::cvf
