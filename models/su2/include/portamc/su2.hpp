#pragma once
// portamc::su2, SU(2) lattice gauge theory: the one header a user's program includes
// (examples/su2_plaquette.cpp). A run: RunParameters, Simulation (start, advance until done,
// points), analyse_point (plaquette, Polyakov loop, Wilson loops and the static potential with
// errors) and checkpoints (run_output.hpp). The other headers of portamc/su2/ are the pieces
// these are built from (kernels, decomposition, smearing, ...), and the gradient flow
// (flow.hpp: WilsonFlow and its observables; flow_scales.hpp: t0 and w0 with errors).
#include "portamc/su2/flow.hpp"
#include "portamc/su2/flow_scales.hpp"
#include "portamc/su2/run.hpp"
#include "portamc/su2/run_analysis.hpp"
#include "portamc/su2/run_output.hpp"
