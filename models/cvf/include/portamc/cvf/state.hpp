#pragma once
// The configuration of the CVF model on one execution space: the bonding variables sigma
// (arm-major, 6 N bytes, values 0..5), the checkerboard cube states that fix eta (N/4 bytes,
// values 0..8), the isotropic volume per cell v_iso and the MC step counter.
//
// The state also holds device-resident counters {N_HB raw, N_sigma}. The kernels reduce their
// changes into small device scalars and fold them in with a one-thread kernel, so nothing
// waits for the host during a run; counts() reads them (one synchronisation) only when asked.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/cvf/counts.hpp"
#include "portamc/cvf/geometry.hpp"
#include "portamc/rng.hpp"

namespace portamc::cvf {

enum class InitialState {
  random,   ///< sigma and cube states uniform, from purpose_initial_state
  ordered,  ///< every sigma 0, every cube in state 0
};

/// The volume per cell must be at least the hard core v0.
inline void validate_v_iso(double v_iso) {
  if (!(v_iso >= 1.0) || !(v_iso < 1e300))
    throw std::invalid_argument(
        "the isotropic volume per molecule v_iso must be >= 1 (v0, the "
        "hard core) and finite, got " +
        std::to_string(v_iso));
}

namespace detail {

/// Draws entity `first + i` at step 0 of purpose_initial_state for element i of `values`, a
/// uniform value in 0..states-1 (or 0 for an ordered start).
template <class Bytes>
struct InitialValues {
  Bytes values;
  bool random;
  std::uint64_t seed;
  std::int64_t first;
  int states;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    std::uint8_t value = 0;
    if (random) {
      const rng::Block w = rng::draw(seed, rng::purpose_initial_state, first + i, 0);
      value = static_cast<std::uint8_t>(rng::bounded(w[0], w[1], states));
    }
    values(i) = value;
  }
};

/// Adds the delta slots first..last-1 to the counters (one thread).
template <class Counter, class Deltas>
struct FoldCountDeltas {
  Counter counters;
  Deltas deltas;
  int first, last;
  KOKKOS_INLINE_FUNCTION void operator()(const int) const {
    BondCounts total = counters();
    for (int k = first; k < last; ++k) total += deltas(k);
    counters() = total;
  }
};

}  // namespace detail

/// Fills sigma and cube_state on `space`. Random: variable v draws entity v, cube c draws entity
/// 6 N + c, both at step 0 of purpose_initial_state, so the state depends on the seed alone.
template <class Space, class Bytes>
void initialize_configuration(const Space& space, const Geometry& g, const Bytes& sigma,
                              const Bytes& cube_state, InitialState initial, std::uint64_t seed) {
  using Policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
  const bool random = initial == InitialState::random;
  const std::int64_t variables = g.variables();
  Kokkos::parallel_for("cvf::initial_sigma", Policy(space, 0, variables),
                       detail::InitialValues<Bytes>{sigma, random, seed, 0, arms});
  Kokkos::parallel_for(
      "cvf::initial_cubes", Policy(space, 0, g.cubes()),
      detail::InitialValues<Bytes>{cube_state, random, seed, variables, cube_states});
}

/// The configuration on execution space `Space`: every kernel runs on the instance given to the
/// constructor, and the arrays live in its memory space.
template <class Space>
class State {
 public:
  using execution_space = Space;
  using memory_space = typename Space::memory_space;
  using Bytes = Kokkos::View<std::uint8_t*, Space>;
  using Counter = Kokkos::View<BondCounts, Space>;
  /// Slots for the partial changes of one sweep: six Metropolis passes and the eta update.
  static constexpr int delta_slots = 8;

  /// Throws std::invalid_argument for a bad L (Geometry) or v_iso < 1.
  State(const Space& space, int L, double v_iso, InitialState initial, std::uint64_t seed)
      : space_(space),
        geometry_(L),
        sigma_("cvf::sigma", geometry_.variables()),
        cube_state_("cvf::cube_state", geometry_.cubes()),
        counters_("cvf::counters"),
        deltas_("cvf::count_deltas", delta_slots),
        v_iso_(v_iso) {
    validate_v_iso(v_iso);
    initialize_configuration(space_, geometry_, sigma_, cube_state_, initial, seed);
    recount();
  }

  /// The execution space instance every kernel of this state runs on.
  const Space& space() const { return space_; }
  const Geometry& geometry() const { return geometry_; }
  /// Arm-major bonding variables (Geometry::variable()); after changing them call recount().
  const Bytes& sigma() const { return sigma_; }
  const Bytes& cube_state() const { return cube_state_; }

  double v_iso() const { return v_iso_; }
  void set_v_iso(double v) {
    validate_v_iso(v);
    v_iso_ = v;
  }

  /// The MC step whose random numbers the next updates draw.
  std::uint64_t step() const { return step_; }
  void set_step(std::uint64_t s) {
    if (s > rng::max_step / 8)
      throw std::invalid_argument("CVF step counter beyond the RNG counter range");
    step_ = s;
  }
  void advance_step() { set_step(step_ + 1); }

  /// Device counters {N_HB raw, N_sigma}, kept exact by the kernels.
  const Counter& counters() const { return counters_; }
  /// Device slot k for a kernel's change of the counters (see fold_deltas()).
  Kokkos::View<BondCounts, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>> delta_slot(
      int k) const {
    return Kokkos::View<BondCounts, memory_space, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
        deltas_.data() + k);
  }
  /// Adds slots first..last-1 to the counters on the device, without waiting.
  void fold_deltas(int first, int last) const {
    Kokkos::parallel_for(
        "cvf::fold_counts", Kokkos::RangePolicy<Space>(space_, 0, 1),
        detail::FoldCountDeltas<Counter, decltype(deltas_)>{counters_, deltas_, first, last});
  }

  /// The maintained counters, read on the host (synchronises).
  BondCounts counts() const {
    BondCounts host;
    Kokkos::deep_copy(host, counters_);
    return host;
  }
  /// A full recount, leaving the counters alone (tests compare the two).
  BondCounts recount_exact() const { return count_bonds(space_, geometry_, sigma_, cube_state_); }
  /// Resets the counters to a full recount: call after changing sigma or cube_state directly.
  void recount() { Kokkos::deep_copy(counters_, recount_exact()); }

  /// Host copies, and restoring from them (checkpoints); set_* validate and recount.
  std::vector<std::uint8_t> sigma_to_host() const { return to_host(sigma_); }
  std::vector<std::uint8_t> cube_state_to_host() const { return to_host(cube_state_); }
  void set_configuration(const std::vector<std::uint8_t>& sigma,
                         const std::vector<std::uint8_t>& cube_state) {
    from_host(sigma, sigma_, arms, "sigma");
    from_host(cube_state, cube_state_, cube_states, "cube_state");
    recount();
  }

 private:
  static std::vector<std::uint8_t> to_host(const Bytes& view) {
    std::vector<std::uint8_t> out(view.extent(0));
    Kokkos::View<std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> host(
        out.data(), out.size());
    Kokkos::deep_copy(host, view);
    return out;
  }
  static void from_host(const std::vector<std::uint8_t>& in, const Bytes& view, int states,
                        const char* name) {
    if (in.size() != view.extent(0))
      throw std::invalid_argument(std::string("CVF ") + name + " has " + std::to_string(in.size()) +
                                  " entries, expected " + std::to_string(view.extent(0)));
    for (std::uint8_t value : in)
      if (value >= states)
        throw std::invalid_argument(std::string("CVF ") + name + " value " +
                                    std::to_string(int(value)) + " out of range 0.." +
                                    std::to_string(states - 1));
    Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>
        host(in.data(), in.size());
    Kokkos::deep_copy(view, host);
  }

  Space space_;
  Geometry geometry_;
  Bytes sigma_;
  Bytes cube_state_;
  Counter counters_;
  Kokkos::View<BondCounts*, Space> deltas_;
  double v_iso_;
  std::uint64_t step_ = 0;
};

}  // namespace portamc::cvf
