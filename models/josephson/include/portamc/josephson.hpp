#pragma once
// portamc::josephson, Langevin ensembles of a current-biased Josephson junction: the one header
// a user's program includes (examples/josephson_escape.cpp). A run: RunParameters, resolve
// (the ensembles and their theory), Simulation (advance until done, gathered_points),
// analyse_run (escape times, switching biases, Arrhenius fits) and checkpoints
// (run_output.hpp). The other headers of portamc/josephson/ are the pieces these are built from.
#include "portamc/josephson/run.hpp"
#include "portamc/josephson/run_analysis.hpp"
#include "portamc/josephson/run_output.hpp"
