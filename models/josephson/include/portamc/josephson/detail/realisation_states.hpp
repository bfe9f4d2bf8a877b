#pragma once
// The state of an ensemble per realisation instead of per slot, for checkpoints that do not
// depend on how the realisations were spread over slots and MPI ranks.
//
// An Ensemble's own checkpoint (EnsembleCheckpoint) is the state of its slots plus a counter
// (the next unstarted realisation): it only fits an ensemble of the same realisations and slot
// count. RealisationStates says of every realisation of a range whether it is finished (its
// result), in flight (phase, velocity and step count) or not started yet (pending and not in
// flight: a realisation at rest at step 0 is the same thing). A trajectory depends only on
// (seed, realisation) and its state, so any slot of any rank may continue an in-flight
// realisation: ranges concatenate (the shares of the ranks, gathered on rank 0 for the
// checkpoint file) and split (the shares of another rank count) freely, and deal_to_slots
// turns a range back into the slots of an Ensemble, bit for bit.
#include <cstdint>
#include <vector>

#include "portamc/josephson/ensemble_results.hpp"
#include "portamc/parallel.hpp"

namespace portamc::josephson {

struct RealisationStates {
  /// Every realisation of the range (index i = realisation begin + i); Outcome::pending for
  /// those in flight or not started.
  EnsembleResults results;
  /// The realisations in flight, ascending indices into `results`, with their state (phi and
  /// v hold the ensemble's float values exactly); not started ones are not listed.
  std::vector<std::uint64_t> in_flight;
  std::vector<double> in_flight_phi, in_flight_v;
  std::vector<std::uint64_t> in_flight_step;

  std::size_t size() const { return results.size(); }
  /// Every realisation finished.
  bool complete() const;
  /// Nothing finished and nothing in flight.
  bool untouched() const;
  /// Realisations finished.
  std::size_t finished() const;
};

/// Throws std::invalid_argument (naming `what`) unless the arrays agree in size, in_flight is
/// ascending, below size() and names pending realisations only.
void validate(const RealisationStates& states, const char* what = "realisation states");

/// A range of `count` realisations none of which has started.
RealisationStates unstarted_realisations(std::uint64_t count, double h);
/// The states of an ensemble's realisations from its slot checkpoint.
RealisationStates realisation_states(const EnsembleCheckpoint& checkpoint);
/// Realisations [begin, end) of `all`, renumbered from 0.
RealisationStates select_realisations(const RealisationStates& all, std::uint64_t begin,
                                      std::uint64_t end);
/// Consecutive ranges joined in order (the inverse of select_realisations over a partition).
RealisationStates concatenate_realisations(const std::vector<RealisationStates>& parts);

/// Slots an Ensemble needs to take `states` over: the realisations in flight, and with
/// `refill` the unstarted ones below the last unstarted suffix too (the ensemble's counter
/// hands out only a suffix); without refill (one slot per realisation) every unfinished one.
std::int64_t slots_needed(const RealisationStates& states, bool refill);
/// The slot checkpoint of an Ensemble with `slots` (>= slots_needed) slots continuing
/// `states`: the realisations of slots_needed first (unstarted ones at rest: phase
/// `start_phase`, already rounded to the ensemble's precision), the next unstarted ones after
/// them, the counter at the first realisation not placed. std::invalid_argument if too few.
EnsembleCheckpoint deal_to_slots(const RealisationStates& states, std::int64_t slots, bool refill,
                                 double start_phase);

/// Collective: each rank's results, concatenated in rank order on rank 0 (empty elsewhere).
EnsembleResults gather_results(const EnsembleResults& local, const parallel::Communicator& comm);
/// Collective: each rank's consecutive range, concatenated in rank order on rank 0 (empty
/// elsewhere); the identity on one rank.
RealisationStates gather_realisations(const RealisationStates& local,
                                      const parallel::Communicator& comm);

}  // namespace portamc::josephson
