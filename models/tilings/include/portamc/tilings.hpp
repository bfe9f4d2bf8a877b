#pragma once
// portamc::tilings, random tilings and the six-vertex model: the one header a user's program
// includes (examples/tilings_aztec.cpp). A run: RunParameters, prepare_run (the domain, checked
// for tileability), run_sampling (CFTP, shuffling or Glauber samples) and
// observable_statistics. The other headers of portamc/tilings/ are the samplers and domains
// these are built from.
#include "portamc/tilings/run.hpp"
#include "portamc/tilings/run_output.hpp"
