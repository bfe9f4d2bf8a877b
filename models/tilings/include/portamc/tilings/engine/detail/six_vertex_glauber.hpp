#pragma once
// Forward heat-bath Glauber dynamics of the six-vertex model for any positive weights (also
// where coupling from the past does not apply): the slab chain (row_slab_chain.hpp) of the
// six-vertex family (six_vertex_slab_family.hpp), on one rank or in face-row slabs over the
// ranks of a Communicator, on `chains` independent copies of the block at once (many small
// systems fill a GPU as well as one large one), with per-face mean heights and per-vertex
// type densities accumulated over samples (one rank).
//
// Steps are numbered 1, 2, ... (step_count() + 1 next); one sweep is class_count() steps, so
// every interior face is visited once per sweep on average. Chains share the class sequence
// and draw independent face randomness: they are independent given the classes, and after
// equilibration each follows the Gibbs measure whatever the class sequence was.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/device_info.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/parallel.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/engine/detail/row_slab_chain.hpp"
#include "portamc/tilings/engine/detail/six_vertex_slab_family.hpp"

namespace portamc::tilings {

/// Averages over the accumulated samples (each sample counts every chain once).
struct SixVertexAverages {
  std::uint64_t samples = 0;
  std::vector<double> mean_heights;    ///< per face, index i * (cols + 1) + j
  std::vector<double> type_densities;  ///< (r * cols + c) * vertex_type_count + type
};

template <class ExecutionSpace>
class SixVertexGlauber : public RowSlabChain<SixVertexSlabFamily, ExecutionSpace> {
  using Chain = RowSlabChain<SixVertexSlabFamily, ExecutionSpace>;

 public:
  using memory_space = typename Chain::memory_space;
  using Policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int32_t>>;

  /// Collective. Every chain starts from `initial` (e.g. maximal_six_vertex_heights(boundary)).
  /// Throws std::invalid_argument (on every rank alike) for bad weights or states, heights
  /// beyond int16, arrays past 32-bit indices, or fewer face rows than ranks. All kernels run
  /// on `space`.
  SixVertexGlauber(const ExecutionSpace& space, const SixVertexBoundary& boundary,
                   const SixVertexWeights& weights, std::uint64_t seed,
                   const SixVertexHeights& initial, int chains = 1,
                   const parallel::Communicator& comm = parallel::Communicator())
      : Chain(space, SixVertexSlabFamily(boundary, weights, chains, chains, 0), seed, comm,
              "six-vertex model") {
    set_state(initial);
  }
  /// Every chain starts from the maximal state.
  SixVertexGlauber(const ExecutionSpace& space, const SixVertexBoundary& boundary,
                   const SixVertexWeights& weights, std::uint64_t seed, int chains = 1)
      : SixVertexGlauber(space, boundary, weights, seed, maximal_six_vertex_heights(boundary),
                         chains) {}

  const SixVertexBoundary& boundary() const { return this->family().boundary; }
  int chains() const { return this->family().chains; }
  int class_count() const { return this->family().classes(); }
  std::uint64_t step_count() const { return this->steps_done(); }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_step_count(std::uint64_t steps) { this->set_steps_done(steps); }
  /// Class updated by the last step (-1 before the first).
  int last_class() const {
    return step_count() == 0
               ? -1
               : step_class(this->class_order(), this->seed(), step_count(), class_count());
  }

  void set_state(const SixVertexHeights& state) {
    set_states(std::vector<SixVertexHeights>(static_cast<std::size_t>(chains()), state));
  }
  void set_states(const std::vector<SixVertexHeights>& states) {
    this->set_whole_state(this->family().interleave(states));
  }

  void step() { this->run_steps(1); }

  /// Collective: every chain's state on rank 0, nothing on the other ranks.
  std::vector<SixVertexHeights> states() const {
    const std::vector<six_vertex_height> all = Chain::state_on_root();
    if (!this->communicator().is_root()) return {};
    return this->family().split(all, 0, chains());
  }
  /// Collective: chain `chain` on rank 0; an empty SixVertexHeights on the other ranks.
  /// Throws std::out_of_range unless 0 <= chain < chains().
  SixVertexHeights state(int chain = 0) const {
    if (chain < 0 || chain >= chains())
      throw std::out_of_range("six-vertex chain " + std::to_string(chain) + " of " +
                              std::to_string(chains()));
    std::vector<SixVertexHeights> all = states();
    return all.empty() ? SixVertexHeights() : all[static_cast<std::size_t>(chain)];
  }
  SixVertexHeights state_on_root() const { return state(0); }

  /// Adds the current state of every chain to the sums behind averages() (one rank).
  void accumulate() {
    if (this->communicator().size() > 1)
      throw std::logic_error("six-vertex averages are accumulated on one rank only");
    const SixVertexBoundary& b = boundary();
    const auto vertices = static_cast<std::int32_t>(b.rows() * b.cols());
    if (height_sums_.extent(0) == 0) {
      require_memory<ExecutionSpace>(
          (b.face_count() + static_cast<std::size_t>(vertices) * vertex_type_count) *
              sizeof(std::int64_t),
          "six-vertex averages");
      height_sums_ = Kokkos::View<std::int64_t*, memory_space>("portamc::tilings::height_sums",
                                                               b.face_count());
      type_counts_ = Kokkos::View<std::int64_t**, memory_space>("portamc::tilings::type_counts",
                                                                vertices, vertex_type_count);
    }
    const auto& heights = this->local_state();
    SixVertexSumHeights<memory_space> sum{heights, height_sums_, chains()};
    Kokkos::parallel_for("portamc::tilings::six_vertex_sum_heights",
                         Policy(this->space(), 0, static_cast<std::int32_t>(b.face_count())), sum);
    SixVertexCountTypes<memory_space> count{heights, type_counts_, chains(), b.cols()};
    Kokkos::parallel_for("portamc::tilings::six_vertex_count_types",
                         Policy(this->space(), 0, vertices), count);
    ++accumulated_;
  }
  void reset_averages() {
    height_sums_ = Kokkos::View<std::int64_t*, memory_space>();
    type_counts_ = Kokkos::View<std::int64_t**, memory_space>();
    accumulated_ = 0;
  }
  SixVertexAverages averages() const {
    SixVertexAverages out;
    out.samples = accumulated_ * static_cast<std::uint64_t>(chains());
    if (accumulated_ == 0) return out;
    const double n = static_cast<double>(out.samples);
    const auto sums = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), height_sums_);
    const auto counts = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), type_counts_);
    for (std::size_t f = 0; f < sums.extent(0); ++f) out.mean_heights.push_back(sums(f) / n);
    for (std::size_t v = 0; v < counts.extent(0); ++v) {
      for (int t = 0; t < vertex_type_count; ++t) out.type_densities.push_back(counts(v, t) / n);
    }
    return out;
  }

 private:
  Kokkos::View<std::int64_t*, memory_space> height_sums_;
  Kokkos::View<std::int64_t**, memory_space> type_counts_;
  std::uint64_t accumulated_ = 0;
};

// Compiled in the library for every backend of the build (six_vertex_instantiations.cpp).
#define PORTAMC_TILINGS_EXTERN_GLAUBER_(Space) extern template class SixVertexGlauber<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_EXTERN_GLAUBER_)
#undef PORTAMC_TILINGS_EXTERN_GLAUBER_

}  // namespace portamc::tilings
