#pragma once
// portamc::cvf, the CVF water model: the one header a user's program includes
// (examples/cvf_density.cpp). A run: RunParameters, Run (advance until done, points), analyse
// (density, enthalpy, hydrogen bonds, C_P, kappa_T, alpha_P with errors) and checkpoints
// (checkpoint.hpp). The other headers of portamc/cvf/ are the pieces these are built from.
#include "portamc/cvf/checkpoint.hpp"
#include "portamc/cvf/run.hpp"
#include "portamc/cvf/run_output.hpp"
