#pragma once
// Host-side results and checkpoints of an Ensemble: plain vectors indexed by realisation.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace portamc::josephson {

/// What became of a realisation. The values are stored on the device as std::uint8_t.
enum class Outcome : std::uint8_t {
  pending = 0,   ///< not started or still running
  escaped = 1,   ///< phi exceeded the threshold after `steps` steps
  censored = 2,  ///< reached max_steps without escaping: not an escape time
};

struct EnsembleResults {
  double h = 0;  ///< time step, to turn step counts into times
  /// Per realisation (index i, RNG entity first_realisation + i); entries of pending
  /// realisations are 0.
  std::vector<std::uint64_t> steps;  ///< steps integrated: escape step or max_steps
  std::vector<Outcome> outcome;
  std::vector<double> bias;       ///< gamma0 + nu steps h: the switching bias when escaped
  std::vector<double> final_phi;  ///< state after the last step
  std::vector<double> final_v;    ///< (0 in overdamped dynamics)

  std::size_t size() const { return outcome.size(); }
  std::size_t count(Outcome which) const;
  /// steps h of the escaped realisations, in realisation order; censored ones are left out.
  std::vector<double> escape_times() const;
  /// The bias at escape of the escaped realisations (switching currents in units of I_c).
  std::vector<double> escape_biases() const;
};

/// Everything an Ensemble needs to continue bit for bit (Ensemble::checkpoint / restore).
/// phi and v are stored as double, which holds a float exactly.
struct EnsembleCheckpoint {
  std::vector<std::int64_t> slot_realisation;  ///< -1: idle
  std::vector<double> slot_phi, slot_v;
  std::vector<std::uint64_t> slot_step;
  std::int64_t active_slots = 0;       ///< slots [0, active_slots) are launched
  std::uint64_t next_realisation = 0;  ///< device counter: the next unstarted realisation
  EnsembleResults results;
};

}  // namespace portamc::josephson
