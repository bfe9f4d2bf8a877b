#pragma once
// HDF5 layout of portamc-muca results and checkpoints (documented in docs/output.md).
#include <string>

#include "portamc/hdf5_file.hpp"
#include "portamc/muca/analysis.hpp"
#include "portamc/muca/production_analysis.hpp"
#include "portamc/muca/simulation.hpp"

namespace portamc::muca {

/// Writes the checkpoint atomically (temporary file, then rename), sealed with the checksum
/// of its contents (portamc/checkpoint_file.hpp).
void write_checkpoint(const std::string& path, const Checkpoint& checkpoint,
                      const std::string& config_yaml);
/// h5::BadCheckpoint (a std::invalid_argument: exit code 2 in the app) naming the file and what
/// is wrong unless it is an intact portamc-muca checkpoint with values a run can have written.
Checkpoint read_checkpoint(const std::string& path);

struct Timing {
  double iteration_seconds = 0, production_seconds = 0;
  double iteration_attempts = 0, production_attempts = 0;  ///< summed over walkers
};

/// Group /muca of a result file: the model, iterations, final weights, production
/// histograms, the production's thermalisation and stationarity check, ln g(E) with errors (and
/// the exact one where known), canonical tables (and exact values where known: Ferdinand–Fisher
/// for the 2D Ising model, exact counts of small lattices), and the double-peak analysis when
/// it was attempted. For a Simulation on any backend of the build and either engine.
template <class Space, class Engine>
void write_results(h5::Group root, const Simulation<Space, Engine>& simulation,
                   const ProductionAnalysis& analysis, const Timing& timing);

}  // namespace portamc::muca
