#pragma once
// Coupling from the past (Propp & Wilson 1996): the one driver for every family whose dynamics
// has a monotone coupling, dominoes and lozenges (GlauberSampler) and the six-vertex model
// (SixVertexCftp). The family supplies the coupled chains; this file holds the algorithm.
//
// A pass from time -T starts the upper chain at the maximal and the lower chain at the minimal
// state and runs time slots n, n - 1, ..., 1 (n = slots(T); a slot is one step, or one tiled
// launch of several). Slot l's randomness is keyed by l, so doubling T reruns the most recent
// slots with the same randomness, as Propp-Wilson requires. By monotonicity every chain
// started at -T lies between the two, so when they agree at time 0 that state is the chain
// run from the infinite past: an exact sample. Otherwise T doubles, up to max_horizon.
//
// The driver stops after any slot and continues from there (a checkpoint holds its CftpPass
// and the chains); the pieces do not change the result, since the randomness is keyed by the
// slot, not by when it runs.
//
// The driver keeps only the pass; the chains stay with the family, which hands them to run()
// as `Coupled`, a view with:
//   const char* name() const                           for messages
//   std::uint64_t slots(std::uint64_t horizon) const   time slots of a pass from -horizon
//   void start()                                       upper := maximal, lower := minimal
//   void apply(std::uint64_t slot, bool both)          slot `slot` on both chains, or on the
//                                                      upper only (they met; moving both is
//                                                      also right)
//   std::uint64_t check_every(std::uint64_t slots) const   slots between coalescence tests
//                                                      inside a pass (its end is always tested)
//   bool coalesced(std::uint64_t horizon)              whether the chains agree now
#include <cstdint>
#include <stdexcept>
#include <string>

#include "portamc/rng.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"

namespace portamc::tilings {

class MonotoneCftp {
 public:
  /// Throws std::invalid_argument, naming `what`, unless 1 <= initial_horizon <= max_horizon
  /// <= 2^56 - 1 (the step indices of the random streams).
  void set_options(const CftpOptions& options, const char* what) {
    if (options.initial_horizon < 1 || options.max_horizon < options.initial_horizon ||
        options.max_horizon > rng::max_step) {
      throw std::invalid_argument(std::string(what) +
                                  ": coupling from the past needs 1 <= initial_horizon (" +
                                  std::to_string(options.initial_horizon) + ") <= max_horizon (" +
                                  std::to_string(options.max_horizon) + ") <= 2^56 - 1");
    }
    options_ = options;
  }
  const CftpOptions& options() const { return options_; }
  /// The sample under way (horizon 0: none).
  const CftpPass& pass() const { return pass_; }

  /// Runs at most `budget` slots of the sample under way, beginning one when none is. True
  /// once a pass has ended with the chains met: the sample is then the upper chain, pass()
  /// says what it cost, and run() keeps answering true until reset(). Throws
  /// std::runtime_error (and forgets the sample) when the horizon would pass max_horizon.
  template <class Coupled>
  bool run(Coupled&& chains, std::uint64_t budget) {
    if (pass_.horizon == 0) begin_pass(chains, options_.initial_horizon);
    for (;;) {
      budget -= run_slots(chains, budget);
      if (pass_.next_slot > 0) return false;  // the budget ran out inside the pass
      if (pass_.met) return true;
      if (pass_.horizon > options_.max_horizon / 2) {
        const std::uint64_t horizon = pass_.horizon;
        pass_ = CftpPass{};
        throw std::runtime_error(std::string(chains.name()) +
                                 ": coupling from the past did not coalesce within " +
                                 std::to_string(horizon) + " steps (max_horizon " +
                                 std::to_string(options_.max_horizon) + ")");
      }
      begin_pass(chains, 2 * pass_.horizon);
      if (budget == 0) return false;
    }
  }

  /// Forgets the sample (taken): the next run() begins a new one.
  void reset() { pass_ = CftpPass{}; }

  /// Continues a sample from a checkpoint; the family puts the chains back. Throws
  /// std::invalid_argument for a pass no run can have.
  template <class Coupled>
  void restore(const Coupled& chains, const CftpPass& pass) {
    if (pass.horizon != 0 && (pass.next_slot > chains.slots(pass.horizon) || pass.passes == 0 ||
                              pass.steps_run < pass.horizon))
      throw std::invalid_argument(std::string(chains.name()) + ": a cftp pass at slot " +
                                  std::to_string(pass.next_slot) + " of horizon " +
                                  std::to_string(pass.horizon) + " after " +
                                  std::to_string(pass.steps_run) + " steps: no run has it");
    pass_ = pass;
  }

 private:
  template <class Coupled>
  void begin_pass(Coupled& chains, std::uint64_t horizon) {
    chains.start();
    pass_.horizon = horizon;
    pass_.next_slot = chains.slots(horizon);
    pass_.met = false;
    ++pass_.passes;
    pass_.steps_run += horizon;
  }

  /// Runs at most `budget` slots (next_slot down to 1); returns how many. Once the chains have
  /// met they stay together, so the rest of the pass moves the upper chain only.
  template <class Coupled>
  std::uint64_t run_slots(Coupled& chains, std::uint64_t budget) {
    const std::uint64_t slots = chains.slots(pass_.horizon);
    const std::uint64_t check_every = chains.check_every(slots);
    std::uint64_t ran = 0;
    for (; pass_.next_slot >= 1 && ran < budget; --pass_.next_slot, ++ran) {
      const std::uint64_t l = pass_.next_slot;
      chains.apply(l, !pass_.met);
      if (!pass_.met && ((slots - l + 1) % check_every == 0 || l == 1))
        pass_.met = chains.coalesced(pass_.horizon);
    }
    return ran;
  }

  CftpOptions options_;
  CftpPass pass_;
};

}  // namespace portamc::tilings
