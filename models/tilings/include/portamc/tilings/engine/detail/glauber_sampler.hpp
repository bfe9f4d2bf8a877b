#pragma once
// Glauber dynamics with cluster moves over colour classes, and coupling from the past, for a
// tiling model on one Kokkos execution space (Keating-Sridhar's GPU sampler; Propp-Wilson).
//
// The state is the model's host byte array (DominoTiling::partner, LozengeTiling::partners)
// in a View of the same layout, so host <-> device copies are plain deep copies. Step t:
//   class c = step_class(order, seed, t, classes) (class_order.hpp; random order by default:
//     bounded(draw(seed, purpose_tiling_class, 0, t), classes));
//   every movable vertex v of class c draws u = draw(seed, purpose_tiling_update, v, t)[0]
//   and ends in configuration B as ends_in_b(u, threshold) says (glauber_weights.hpp).
// Forward runs use t = 1, 2, ... (steps_done() + 1 next). Coupling from the past
// (monotone_cftp.hpp) uses its own seed and applies step s at time -s, so a pass from -T runs
// s = T, T-1, ..., 1; this sampler supplies the two coupled chains.
//
// Model (DominoModel, LozengeModel) supplies the domain, tiling and weights types, the number
// of classes and tile types, the kernel, and the host-side helpers (extremal tilings, heights,
// validation). A "flip attempt" is one vertex of the chosen class in one step.
#include <Kokkos_Core.hpp>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "portamc/device_info.hpp"
#include "portamc/parallel.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/engine/detail/monotone_cftp.hpp"
#include "portamc/tilings/engine/detail/slab_decomposition.hpp"
#include "portamc/tilings/engine/detail/slab_type_counts.hpp"
#include "portamc/tilings/engine/detail/tile_attempts.hpp"
#include "portamc/tilings/engine/detail/vertex_runs.hpp"
#include "portamc/tilings/engine/glauber_results.hpp"
#include "portamc/tilings/engine/glauber_weights.hpp"

namespace portamc::tilings {

template <class Model, class Space>
class GlauberSampler {
 public:
  using Domain = typename Model::Domain;
  using Tiling = typename Model::Tiling;
  using Weights = typename Model::Weights;
  using Geometry = typename Model::Geometry;
  using State = Kokkos::View<std::uint8_t*, Space>;
  static constexpr int classes = Model::classes;
  static constexpr int tile_types = Model::tile_types;

  /// Starts from the maximal or minimal tiling (Thurston; throws std::invalid_argument with its
  /// reason if the domain is not tileable).
  /// All kernels run on `space` (an instance of Space).
  GlauberSampler(const Space& space, const Domain& domain, const Weights& weights,
                 std::uint64_t seed, Start start = Start::maximal,
                 UpdateRule rule = UpdateRule::heat_bath)
      : GlauberSampler(space, domain, weights, seed, rule, nullptr) {
    set_tiling(start == Start::maximal ? Model::maximal(domain_) : Model::minimal(domain_));
  }
  /// Starts from a given valid tiling (no extremal tilings are computed until CFTP needs them).
  GlauberSampler(const Space& space, const Domain& domain, const Weights& weights,
                 std::uint64_t seed, const Tiling& initial, UpdateRule rule = UpdateRule::heat_bath)
      : GlauberSampler(space, domain, weights, seed, rule, nullptr) {
    set_tiling(initial);
  }

  const Space& space() const { return space_; }
  const Domain& domain() const { return domain_; }
  UpdateRule rule() const { return rule_; }
  std::uint64_t seed() const { return seed_; }
  std::uint64_t steps_done() const { return steps_done_; }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_steps_done(std::uint64_t steps) { steps_done_ = steps; }
  std::size_t cell_count() const { return cells_; }
  /// Movable vertices of a class: the flip attempts of one step that chooses it.
  std::int64_t class_size(int c) const { return runs_[static_cast<std::size_t>(c)].vertices; }
  std::int64_t movable_vertices() const {
    std::int64_t n = 0;
    for (const auto& r : runs_) n += r.vertices;
    return n;
  }
  const State& state() const { return state_; }

  /// Replaces the state (validated on the host) and keeps the step counter.
  void set_tiling(const Tiling& tiling) {
    Model::validate(domain_, tiling);
    copy_to(state_, Model::bytes(tiling));
  }
  void restart(Start start) {
    ensure_extremal();
    Kokkos::deep_copy(state_, start == Start::maximal ? maximal_ : minimal_);
  }

  /// Class chosen by step t of the stream keyed by seed.
  static int class_of_step(std::uint64_t seed, std::uint64_t t,
                           ClassOrder order = ClassOrder::random) {
    return step_class(order, seed, t, classes);
  }
  /// Order of the classes over the steps (class_order.hpp); random unless set.
  void set_class_order(ClassOrder order) { class_order_ = order; }
  ClassOrder class_order() const { return class_order_; }

  /// Switches between one launch per step and tiled launches of several steps
  /// (domino_tiled_kernel.hpp; models with Model::tiled only). Throws std::invalid_argument
  /// naming the bad value.
  void set_schedule(const TileSchedule& schedule) {
    if (schedule.tiled()) {
      if constexpr (!Model::tiled) {
        throw std::invalid_argument(std::string(Model::name) +
                                    ": tiled steps are implemented for domino tilings only");
      } else {
        const auto pow2 = [](int v) { return v >= 4 && v <= 1024 && (v & (v - 1)) == 0; };
        if (!pow2(schedule.tile_rows) || !pow2(schedule.tile_cols)) {
          throw std::invalid_argument("tiled steps: tile_rows (" +
                                      std::to_string(schedule.tile_rows) + ") and tile_cols (" +
                                      std::to_string(schedule.tile_cols) +
                                      ") must be powers of two from 4 to 1024");
        }
        if (schedule.substeps < 1 || schedule.substeps > 64) {
          throw std::invalid_argument("tiled steps: substeps (" +
                                      std::to_string(schedule.substeps) + ") must be 1 .. 64");
        }
        if (schedule.bit_sliced) require_bit_sliced(schedule);
        // The bit-sliced kernel also skips the vertices whose block crosses a 64-face word,
        // i.e. tile edges every 64 columns for the attempt count.
        tile_attempts_ =
            TileAttemptCounter(Model::vertex_runs(domain_), classes, schedule.tile_rows,
                               schedule.bit_sliced ? 64 : schedule.tile_cols);
      }
    } else if (schedule.bit_sliced) {
      throw std::invalid_argument("bit-sliced steps need tiled steps (tile_rows, tile_cols)");
    }
    schedule_ = schedule;
  }
  const TileSchedule& schedule() const { return schedule_; }

  /// Runs steps steps_done()+1 .. steps_done()+n (tiled: whole launches, n rounded up to a
  /// multiple of substeps); returns the flip attempts made.
  std::uint64_t run_steps(std::uint64_t n) {
    std::uint64_t attempts = 0;
    if (schedule_.tiled()) {
      const auto k = static_cast<std::uint64_t>(schedule_.substeps);
      for (std::uint64_t s = 0; s < n; s += k) {
        attempts += launch_tiled<false>(state_, state_, seed_, steps_done_ + 1);
        steps_done_ += k;
      }
      return attempts;
    }
    for (std::uint64_t s = 0; s < n; ++s) {
      const std::uint64_t t = ++steps_done_;
      attempts += launch<false>(state_, state_, seed_, t);
    }
    return attempts;
  }
  /// One sweep = `classes` steps (each vertex is chosen once per sweep on average).
  std::uint64_t run_sweeps(std::uint64_t sweeps) { return run_steps(sweeps * classes); }

  /// Host copy of the current tiling; its height function (the model's convention).
  Tiling tiling() const { return Model::from_bytes(domain_, copy_from(state_)); }
  auto heights() const { return Model::heights(domain_, tiling()); }

  /// Adds the current state to the per-cell tile-type counts.
  void accumulate_densities() {
    counts_.accumulate(state_, 0, all_cells(), tile_types, Model::name);
  }
  /// The per-cell tile-type counts behind densities() (index type * cells + cell; zeros
  /// before the first sample), for sums over ranks of samples taken apart.
  std::vector<std::uint64_t> type_counts() const {
    return counts_.host_counts(all_cells(), tile_types);
  }
  void reset_densities() { counts_ = SlabTypeCounts<Space>(space_); }
  TypeDensities densities() const {
    return counts_.on_root(all_cells(), tile_types, parallel::Communicator());
  }

  /// Exact sample by coupling from the past with randomness keyed by cftp_seed (independent
  /// of the forward chain's seed and step counter). The sample also becomes the current state.
  CftpSample<Tiling> exact_sample(std::uint64_t cftp_seed, const CftpOptions& options = {}) {
    for (;;) {
      auto sample = exact_sample_part(cftp_seed, options, ~std::uint64_t{0});
      if (sample) return *std::move(sample);
    }
  }

  /// exact_sample cut into pieces of at most `max_slots` time slots (launches), so that a long
  /// pass can be checkpointed (cftp_pass, cftp_chains) and continued (restore_cftp_pass): the
  /// sample once it has coalesced, else nothing. Begins a sample when none is under way. The
  /// pieces do not change the result: every slot's randomness is keyed by (cftp_seed, slot).
  std::optional<CftpSample<Tiling>> exact_sample_part(std::uint64_t cftp_seed,
                                                      const CftpOptions& options,
                                                      std::uint64_t max_slots) {
    if (rule_ != UpdateRule::heat_bath) {
      throw std::invalid_argument(
          std::string("coupling from the past needs a monotone update rule; '") + to_string(rule_) +
          "' is not monotone (coupled chains can cross), use UpdateRule::heat_bath");
    }
    cftp_.set_options(options, Model::name);
    if (cftp_.pass().horizon == 0) prepare_cftp();
    if (!cftp_.run(Coupling{*this, cftp_seed}, max_slots)) return std::nullopt;
    Kokkos::deep_copy(state_, upper_);
    CftpSample<Tiling> out;
    out.horizon = cftp_.pass().horizon;
    out.steps_run = cftp_.pass().steps_run;
    out.passes = static_cast<int>(cftp_.pass().passes);
    out.tiling = tiling();
    cftp_.reset();
    return out;
  }

  /// The sample under way (horizon 0: none).
  const CftpPass& cftp_pass() const { return cftp_.pass(); }
  /// Its two chains on the host: the upper chain's bytes, then the lower's (empty: none).
  std::vector<std::uint8_t> cftp_chains() const {
    if (cftp_.pass().horizon == 0) return {};
    std::vector<std::uint8_t> both = copy_from(upper_);
    const std::vector<std::uint8_t> lower = copy_from(lower_);
    both.insert(both.end(), lower.begin(), lower.end());
    return both;
  }
  /// Continues a sample under way from a checkpoint. Throws std::invalid_argument naming the
  /// problem for a pass no run can have (sizes, slots beyond the horizon, chains that are no
  /// tilings of the domain).
  void restore_cftp_pass(const CftpPass& pass, const std::vector<std::uint8_t>& chains) {
    if (pass.horizon == 0) {
      cftp_.reset();
      return;
    }
    if (chains.size() != 2 * cells_)
      throw std::invalid_argument("cftp chains of " + std::to_string(chains.size()) +
                                  " bytes, expected " + std::to_string(2 * cells_));
    // Both chains hold tilings at every slot boundary (each is a chain of the dynamics).
    const auto half = static_cast<std::ptrdiff_t>(cells_);
    Model::validate(domain_, Model::from_bytes(domain_, {chains.begin(), chains.begin() + half}));
    Model::validate(domain_, Model::from_bytes(domain_, {chains.begin() + half, chains.end()}));
    cftp_.restore(Coupling{*this, 0}, pass);  // the seed is the caller's, on the next part
    prepare_cftp();
    using Host = Kokkos::View<const std::uint8_t*, Kokkos::HostSpace,
                              Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    Kokkos::deep_copy(upper_, Host(chains.data(), cells_));
    Kokkos::deep_copy(lower_, Host(chains.data() + cells_, cells_));
  }

  /// Number of bytes in which two states differ (0: identical tilings).
  std::int64_t count_differences(const State& a, const State& b) const {
    std::int64_t differ = 0;
    Kokkos::parallel_reduce("portamc::tilings::byte_differences", policy(cells_),
                            ByteDifferences<Space>{a, b}, differ);
    return differ;
  }

 private:
  GlauberSampler(const Space& space, const Domain& domain, const Weights& weights,
                 std::uint64_t seed, UpdateRule rule, std::nullptr_t)
      : space_(space),
        domain_(domain),
        rule_(rule),
        seed_(seed),
        geometry_(Model::geometry(domain, weights)),
        counts_(space) {
    cells_ = Model::cell_count(domain_);
    if (cells_ > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
      throw std::invalid_argument(std::string(Model::name) + ": " + std::to_string(cells_) +
                                  " cells exceed the 2^31 - 1 of the kernels' 32-bit indices");
    }
    const std::vector<std::uint64_t> thresholds = Model::thresholds(weights, rule);
    const auto host_runs = Model::vertex_runs(domain_);
    // The state, CFTP's two chains and the two extremal tilings; runs and tables are small.
    std::size_t run_bytes = 0;
    for (const auto& r : host_runs) run_bytes += 4 * (3 * r.row.size() + 1 + r.hint.size());
    require_memory<Space>(5 * cells_ + run_bytes, std::string(Model::name) + " sampler");
    state_ = State("portamc::tilings::state", cells_);
    for (int c = 0; c < classes; ++c) {
      runs_[static_cast<std::size_t>(c)] =
          to_device<Space>(host_runs[static_cast<std::size_t>(c)], classes);
    }
    Kokkos::View<std::uint64_t*, Space> t("portamc::tilings::thresholds", thresholds.size());
    Kokkos::deep_copy(t, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace,
                                      Kokkos::MemoryTraits<Kokkos::Unmanaged>>(thresholds.data(),
                                                                               thresholds.size()));
    thresholds_ = t;
    const std::uint64_t half = probability_threshold(0.5);
    fair_coin_ = rule == UpdateRule::heat_bath;
    for (const std::uint64_t v : thresholds) fair_coin_ = fair_coin_ && v == half;
  }

  /// The whole state as one row of a one-rank slab, for the counts the slab chains share.
  RowSlab all_cells() const {
    RowSlab s;
    s.rows = 1;
    s.row_length = static_cast<int>(cells_);
    s.own_end = s.local_end = 1;
    return s;
  }

  Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>> policy(std::size_t n) const {
    return Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(
        space_, 0, static_cast<std::int32_t>(n));
  }

  /// One step of the stream (seed, t) on upper (and lower when Coupled); returns attempts.
  template <bool Coupled>
  std::uint64_t launch(const State& upper, const State& lower, std::uint64_t seed,
                       std::uint64_t t) const {
    const int colour = class_of_step(seed, t, class_order_);
    const VertexRuns<Space>& runs = runs_[static_cast<std::size_t>(colour)];
    if (runs.vertices == 0) return 0;
    using Kernel = typename Model::template Kernel<Space, Coupled>;
    Kokkos::parallel_for("portamc::tilings::glauber_step",
                         policy(static_cast<std::size_t>(Kernel::threads(runs, geometry_))),
                         Kernel{upper, lower, runs, thresholds_, geometry_, seed, t, colour});
    return static_cast<std::uint64_t>(runs.vertices);
  }

  /// The extremal tilings and the two chains (allocated once).
  void prepare_cftp() {
    ensure_extremal();
    if (upper_.extent(0) == 0) {
      require_memory<Space>(2 * cells_, std::string(Model::name) + " CFTP chains");
      upper_ = State("portamc::tilings::cftp_upper", cells_);
      lower_ = State("portamc::tilings::cftp_lower", cells_);
    }
  }

  /// Steps per time slot of CFTP: one launch (tiled: substeps steps, a fixed random map per
  /// slot, so doubling the horizon reuses the randomness as it must).
  std::uint64_t slot_steps() const {
    return schedule_.tiled() ? static_cast<std::uint64_t>(schedule_.substeps) : std::uint64_t{1};
  }

  /// CFTP's coupled chains (monotone_cftp.hpp): upper_ and lower_ on the stream cftp_seed;
  /// slot l holds steps (l - 1) K + 1 .. l K for K = slot_steps().
  struct Coupling {
    GlauberSampler& s;
    std::uint64_t seed;
    const char* name() const { return Model::name; }
    std::uint64_t slots(std::uint64_t horizon) const {
      return (horizon + s.slot_steps() - 1) / s.slot_steps();
    }
    void start() const {
      Kokkos::deep_copy(s.upper_, s.maximal_);
      Kokkos::deep_copy(s.lower_, s.minimal_);
    }
    void apply(std::uint64_t slot, bool both) const {
      const std::uint64_t first = (slot - 1) * s.slot_steps() + 1;
      if (s.schedule_.tiled() && both)
        s.template launch_tiled<true>(s.upper_, s.lower_, seed, first);
      else if (s.schedule_.tiled())
        s.template launch_tiled<false>(s.upper_, s.upper_, seed, first);
      else if (both)
        s.template launch<true>(s.upper_, s.lower_, seed, first);
      else
        s.template launch<false>(s.upper_, s.upper_, seed, first);
    }
    /// Every eighth of the pass, at least 16 slots apart: a test costs a reduction.
    std::uint64_t check_every(std::uint64_t slots) const { return slots / 8 > 16 ? slots / 8 : 16; }
    bool coalesced(std::uint64_t) const { return s.count_differences(s.upper_, s.lower_) == 0; }
  };

  /// One team per tile with `scratch` bytes of team scratch; host backends run teams of one.
  template <class Kernel>
  void launch_teams(const char* label, int tiles, int device_team_size, std::size_t scratch,
                    const Kernel& kernel) const {
    constexpr bool host = Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible;
    Kokkos::TeamPolicy<Space> policy(space_, tiles, host ? 1 : device_team_size);
    Kokkos::parallel_for(label, policy.set_scratch_size(0, Kokkos::PerTeam(scratch)), kernel);
  }

  /// One tiled launch of schedule_.substeps steps from global step `first`; returns attempts.
  template <bool Coupled>
  std::uint64_t launch_tiled(const State& upper, const State& lower, std::uint64_t seed,
                             std::uint64_t first) const {
    if constexpr (!Model::tiled) {
      throw std::logic_error("tiled launch for a model without tiled steps");
    } else {
      std::int64_t tiles_down = 0;
      const typename Model::TileLaunch l =
          Model::tile_launch(seed, first, schedule_, Model::box_rows(domain_),
                             Model::box_cols(domain_), tiles_down, class_order_);
      const int tiles = static_cast<int>(tiles_down * l.tiles_across);
      if (schedule_.bit_sliced) {
        using Kernel = typename Model::template BitslicedKernel<Space, Coupled>;
        launch_teams("portamc::tilings::bitsliced_glauber_steps", tiles, Kernel::team_size(l),
                     Kernel::scratch_bytes(l),
                     Kernel{upper, lower, static_cast<std::int32_t>(Model::box_rows(domain_)),
                            static_cast<std::int32_t>(Model::box_cols(domain_)), l, seed});
      } else {
        using Kernel = typename Model::template TiledKernel<Space, Coupled>;
        launch_teams("portamc::tilings::tiled_glauber_steps", tiles, 256, Kernel::scratch_bytes(l),
                     Kernel{upper, lower, thresholds_, geometry_, l, seed});
      }
      const int count_cols = schedule_.bit_sliced ? 64 : schedule_.tile_cols;
      std::uint64_t attempts = 0;
      for (int s = 0; s < l.substeps; ++s) {
        attempts += static_cast<std::uint64_t>(tile_attempts_.attempts(
            static_cast<int>((l.class_bits >> s) & 1u), l.row_shift, l.col_shift % count_cols));
      }
      return attempts;
    }
  }

  /// The bit-sliced kernel draws one fair bit per vertex: uniform weights, heat-bath rule.
  void require_bit_sliced(const TileSchedule& schedule) const {
    if constexpr (!Model::bit_sliced) {
      throw std::invalid_argument(std::string(Model::name) +
                                  ": bit-sliced steps are implemented for domino tilings only");
    } else {
      if (schedule.tile_cols < 64) {
        throw std::invalid_argument("bit-sliced steps: tile_cols (" +
                                    std::to_string(schedule.tile_cols) +
                                    ") must be at least 64 (one 64-bit word per tile row)");
      }
      if (!fair_coin_) {
        throw std::invalid_argument(
            "bit-sliced steps: need uniform weights and the heat-bath rule (every move a fair "
            "coin); use the byte kernel (bit_sliced off) for weighted or Metropolis chains");
      }
    }
  }

  void ensure_extremal() {
    if (maximal_.extent(0) != 0) return;
    State high("portamc::tilings::maximal", cells_), low("portamc::tilings::minimal", cells_);
    copy_to(high, Model::bytes(Model::maximal(domain_)));
    copy_to(low, Model::bytes(Model::minimal(domain_)));
    maximal_ = high;
    minimal_ = low;
  }

  static void copy_to(const State& target, const std::vector<std::uint8_t>& bytes) {
    Kokkos::deep_copy(
        target, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>(bytes.data(), bytes.size()));
  }
  std::vector<std::uint8_t> copy_from(const State& source) const {
    std::vector<std::uint8_t> bytes(cells_);
    Kokkos::deep_copy(
        Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
            bytes.data(), bytes.size()),
        source);
    return bytes;
  }

  Space space_;
  Domain domain_;
  UpdateRule rule_;
  std::uint64_t seed_;
  Geometry geometry_;
  std::size_t cells_ = 0;
  std::array<VertexRuns<Space>, classes> runs_;
  Kokkos::View<const std::uint64_t*, Space> thresholds_;
  State state_, upper_, lower_, maximal_, minimal_;
  SlabTypeCounts<Space> counts_;
  TileSchedule schedule_;
  ClassOrder class_order_ = ClassOrder::random;
  TileAttemptCounter tile_attempts_;
  std::uint64_t steps_done_ = 0;
  MonotoneCftp cftp_;
  bool fair_coin_ = false;  ///< uniform weights and heat bath: every move a fair coin
};

}  // namespace portamc::tilings
