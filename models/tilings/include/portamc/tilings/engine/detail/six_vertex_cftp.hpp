#pragma once
// Exact samples of the six-vertex model by coupling from the past (monotone_cftp.hpp) for
// monotone weights c >= max(a, b) (six_vertex_weights.hpp says why), on `chains` independent
// copies at once.
//
// Each copy runs a top chain from the maximal and a bottom chain from the minimal state, both
// fed the same randomness: the 2 copies chains of one slab chain on one rank
// (six_vertex_slab_family.hpp; chains c and c + copies share a stream); a time slot is one
// step. The pass ends when every copy's two chains agree. A copy that has
// coalesced at T stays coalesced for every larger T with the same final state, so running all
// copies to the largest horizon any of them needs changes nothing; and given the shared class
// sequence the copies use independent randomness, each output being exact whatever the
// classes were, so the samples are independent.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/device_info.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/detail/monotone_cftp.hpp"
#include "portamc/tilings/engine/detail/row_slab_chain.hpp"
#include "portamc/tilings/engine/detail/six_vertex_slab_family.hpp"

namespace portamc::tilings {

struct SixVertexCftpResult {
  std::vector<SixVertexHeights> samples;  ///< one exact, independent sample per copy
  /// Per copy: the first horizon tried at which its chains had met.
  std::vector<std::uint64_t> coalescence_horizons;
  std::uint64_t horizon = 0;    ///< the horizon at which every copy had coalesced
  std::uint64_t steps_run = 0;  ///< steps over all passes (one step moves all chains)
  int passes = 0;
};

/// Coupling from the past for `copies` copies, cut into pieces of at most a given number of
/// steps so that a long pass can be checkpointed: position() and chains() are the whole state,
/// restore() continues it exactly (every step's randomness is keyed by its index).
///
/// Throws std::invalid_argument for non-monotone or bad weights, bad options or sizes that do
/// not fit the device, std::runtime_error if max_horizon is reached first.
///
/// first_copy: the copies are copies first_copy .. first_copy + copies - 1 of a larger run
/// (a share on one MPI rank). Copy k draws the randomness of copy k of the whole run, and a
/// copy's sample and coalescence horizon do not depend on the horizons the other copies need
/// (see above), so the shares put together are bitwise the one-run result.
template <class ExecutionSpace>
class SixVertexCftp {
 public:
  using Chains = RowSlabChain<SixVertexSlabFamily, ExecutionSpace>;
  using memory_space = typename Chains::memory_space;
  using Policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int32_t>>;

  /// The pass under way (horizon 0: none begun), the next step it applies (counting down to
  /// 1), and what the run has cost and found so far.
  struct Position {
    std::uint64_t horizon = 0, next_step = 0, passes = 0, steps_run = 0;
    std::vector<std::uint64_t> coalescence_horizons;  ///< per copy, 0 until it met
  };

  /// All kernels run on `space`.
  SixVertexCftp(const ExecutionSpace& space, const SixVertexBoundary& boundary,
                const SixVertexWeights& weights, std::uint64_t seed, int copies = 1,
                const CftpOptions& options = {}, int first_copy = 0,
                ClassOrder order = ClassOrder::random)
      : copies_(check_copies(copies, first_copy)),
        cftp_(with_options(options)),
        chains_(
            space,
            SixVertexSlabFamily(
                boundary, (require_monotone(weights, "six-vertex coupling from the past"), weights),
                2 * copies, copies, first_copy),
            seed, parallel::Communicator(),
            "six-vertex coupling from the past (top and bottom chains)") {
    chains_.set_class_order(order);
    // Cannot happen for c >= max(a, b); guards rounding.
    if (!is_monotone(chains_.family().table)) {
      throw std::invalid_argument(
          "six-vertex coupling from the past: heat-bath table not monotone");
    }
    require_memory<ExecutionSpace>(static_cast<std::size_t>(copies) * sizeof(std::int32_t),
                                   "six-vertex coupling from the past (per-copy flags)");
    unmatched_ = Kokkos::View<std::int32_t*, memory_space>("portamc::tilings::unmatched", copies);
    top_ = upload(maximal_six_vertex_heights(boundary));
    bottom_ = upload(minimal_six_vertex_heights(boundary));
    horizons_.assign(static_cast<std::size_t>(copies), 0);
  }

  int copies() const { return copies_; }
  bool done() const { return done_; }

  /// Applies at most `max_steps` steps (one step moves every chain); true once every copy has
  /// coalesced (then result() holds the samples).
  bool run(std::uint64_t max_steps) {
    if (!done_) done_ = cftp_.run(Coupling{*this}, max_steps);
    return done_;
  }

  SixVertexCftpResult result() const {
    SixVertexCftpResult r;
    r.samples = chains_.family().split(chains_.whole_state(), 0, copies_);
    r.coalescence_horizons = horizons_;
    r.horizon = cftp_.pass().horizon;
    r.steps_run = cftp_.pass().steps_run;
    r.passes = static_cast<int>(cftp_.pass().passes);
    return r;
  }

  Position position() const {
    const CftpPass& p = cftp_.pass();
    return {p.horizon, p.next_slot, p.passes, p.steps_run, horizons_};
  }
  /// Every chain's heights, chain by chain (top chains of the copies, then bottom chains).
  std::vector<std::int32_t> chains() const {
    std::vector<std::int32_t> out;
    for (const SixVertexHeights& h : chains_.family().split(chains_.whole_state(), 0, 2 * copies_))
      out.insert(out.end(), h.values().begin(), h.values().end());
    return out;
  }
  /// Continues from a checkpoint's position and chains. Throws std::invalid_argument naming the
  /// problem for a position no run can have or chains that are no height functions, and then
  /// changes nothing.
  void restore(const Position& p, const std::vector<std::int32_t>& chains) {
    if (p.horizon == 0) return;  // nothing begun: start as new
    const SixVertexBoundary& b = chains_.family().boundary;
    const std::size_t faces = b.face_count();
    if (p.coalescence_horizons.size() != static_cast<std::size_t>(copies_) ||
        chains.size() != 2 * static_cast<std::size_t>(copies_) * faces)
      throw std::invalid_argument("a six-vertex cftp position (horizon " +
                                  std::to_string(p.horizon) + ", step " +
                                  std::to_string(p.next_step) + ") that no run of " +
                                  std::to_string(copies_) + " copies can have");
    MonotoneCftp restored = cftp_;  // the pass is checked before anything changes
    restored.restore(Coupling{*this}, {p.horizon, p.next_step, false, p.passes, p.steps_run});
    std::vector<SixVertexHeights> states;
    for (int c = 0; c < 2 * copies_; ++c) {
      const auto first = chains.begin() + static_cast<std::ptrdiff_t>(c * faces);
      states.emplace_back(b.rows(), b.cols(),
                          std::vector<int>(first, first + static_cast<std::ptrdiff_t>(faces)));
    }
    chains_.set_whole_state(chains_.family().interleave(states));  // validates every chain
    cftp_ = restored;
    horizons_ = p.coalescence_horizons;
  }

 private:
  static int check_copies(int copies, int first_copy) {
    if (first_copy < 0 || first_copy > INT32_MAX / 2) {
      throw std::invalid_argument("six-vertex coupling from the past: first copy " +
                                  std::to_string(first_copy) + " (need 0 .. 2^30)");
    }
    if (copies < 1 || copies > INT32_MAX / 2) {
      throw std::invalid_argument("six-vertex coupling from the past: " + std::to_string(copies) +
                                  " copies (need 1 .. 2^30)");
    }
    return copies;
  }
  static MonotoneCftp with_options(const CftpOptions& options) {
    MonotoneCftp cftp;
    cftp.set_options(options, "six-vertex");
    return cftp;
  }

  /// The coupled chains of monotone_cftp.hpp: every copy's top and bottom chains, in one array.
  struct Coupling {
    SixVertexCftp& c;
    const char* name() const { return "six-vertex"; }
    std::uint64_t slots(std::uint64_t horizon) const { return horizon; }
    void start() const { c.fill(); }
    void apply(std::uint64_t step, bool) const { c.chains_.launch_at(step); }
    /// Only at a pass's end, where every copy that has met records the pass's horizon (the
    /// chains of copies that met move on with the others: they share the array).
    std::uint64_t check_every(std::uint64_t slots) const { return slots; }
    bool coalesced(std::uint64_t horizon) const { return c.end_pass(horizon) == 0; }
  };

  /// A validated state on the device, an extremal start for fill().
  Kokkos::View<const six_vertex_height*, memory_space> upload(const SixVertexHeights& state) const {
    validate_six_vertex_heights(chains_.family().boundary, state);
    Kokkos::View<six_vertex_height*, memory_space> view("portamc::tilings::six_vertex_state",
                                                        state.values().size());
    auto host = Kokkos::create_mirror_view(view);
    for (std::size_t f = 0; f < state.values().size(); ++f)
      host(f) = static_cast<six_vertex_height>(state.values()[f]);
    Kokkos::deep_copy(view, host);
    return view;
  }
  /// Top chains (c < copies) from the maximal state, bottom chains from the minimal one.
  void fill() const {
    const std::int32_t entries =
        static_cast<std::int32_t>(chains_.family().boundary.face_count()) * 2 * copies_;
    Kokkos::parallel_for("portamc::tilings::six_vertex_fill", Policy(chains_.space(), 0, entries),
                         SixVertexFillChains<memory_space>{chains_.local_state(), top_, bottom_,
                                                           2 * copies_, copies_});
  }

  // The faces where a copy's chains differ, summed; each copy that met gets `horizon`.
  std::int64_t end_pass(std::uint64_t horizon) {
    Kokkos::deep_copy(unmatched_, 0);
    SixVertexPairMismatch<memory_space> mismatch{chains_.local_state(), unmatched_, copies_};
    std::int64_t differ = 0;
    Kokkos::parallel_reduce(
        "portamc::tilings::six_vertex_coalescence",
        Policy(chains_.space(), 0,
               static_cast<std::int32_t>(chains_.family().boundary.face_count()) * copies_),
        mismatch, differ);
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), unmatched_);
    for (int c = 0; c < copies_; ++c) {
      std::uint64_t& at = horizons_[static_cast<std::size_t>(c)];
      if (at == 0 && host(c) == 0) at = horizon;
    }
    return differ;
  }

  int copies_;
  MonotoneCftp cftp_;
  Chains chains_;  ///< every copy's top chain, then every copy's bottom chain
  Kokkos::View<std::int32_t*, memory_space> unmatched_;
  Kokkos::View<const six_vertex_height*, memory_space> top_, bottom_;
  std::vector<std::uint64_t> horizons_;  ///< per copy: the horizon at which it met, 0 until then
  bool done_ = false;
};

/// All of it at once: `copies` exact samples (SixVertexCftp above).
template <class ExecutionSpace>
SixVertexCftpResult six_vertex_cftp(const ExecutionSpace& space, const SixVertexBoundary& boundary,
                                    const SixVertexWeights& weights, std::uint64_t seed,
                                    int copies = 1, const CftpOptions& options = {},
                                    int first_copy = 0, ClassOrder order = ClassOrder::random) {
  SixVertexCftp<ExecutionSpace> cftp(space, boundary, weights, seed, copies, options, first_copy,
                                     order);
  cftp.run(~std::uint64_t{0});
  return cftp.result();
}

// Compiled in the library for every backend of the build (six_vertex_instantiations.cpp).
#define PORTAMC_TILINGS_EXTERN_CFTP_(Space)                                                \
  extern template class SixVertexCftp<Space>;                                              \
  extern template SixVertexCftpResult six_vertex_cftp<Space>(                              \
      const Space&, const SixVertexBoundary&, const SixVertexWeights&, std::uint64_t, int, \
      const CftpOptions&, int, ClassOrder);
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_EXTERN_CFTP_)
#undef PORTAMC_TILINGS_EXTERN_CFTP_

}  // namespace portamc::tilings
