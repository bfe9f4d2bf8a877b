#pragma once
// Forward heat-bath Glauber dynamics of the six-vertex model for any positive weights (also
// where coupling from the past does not apply), on `chains` independent copies of the block at
// once (many small systems fill a GPU as well as one large one), with per-face mean heights and
// per-vertex type densities accumulated over samples.
//
// Steps are numbered 1, 2, ... (step_count() + 1 next); one sweep is class_count() steps, so
// every interior face is visited once per sweep on average. Chains share the class sequence
// and draw independent face randomness: they are independent given the classes, and after
// equilibration each follows the Gibbs measure whatever the class sequence was.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/device_info.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/tilings/engine/detail/six_vertex_dynamics.hpp"

namespace portamc::tilings {

/// Averages over the accumulated samples (each sample counts every chain once).
struct SixVertexAverages {
  std::uint64_t samples = 0;
  std::vector<double> mean_heights;    ///< per face, index i * (cols + 1) + j
  std::vector<double> type_densities;  ///< (r * cols + c) * vertex_type_count + type
};

template <class ExecutionSpace>
class SixVertexGlauber {
 public:
  using Dynamics = SixVertexDynamics<ExecutionSpace>;
  using memory_space = typename Dynamics::memory_space;
  using HeightView = typename Dynamics::HeightView;
  using Policy = typename Dynamics::Policy;

  /// Every chain starts from `initial` (e.g. maximal_six_vertex_heights(boundary)). All
  /// kernels run on `space`.
  SixVertexGlauber(const ExecutionSpace& space, const SixVertexBoundary& boundary,
                   const SixVertexWeights& weights, std::uint64_t seed,
                   const SixVertexHeights& initial, int chains = 1)
      : dynamics_(space, boundary, weights, chains, chains, seed),
        heights_(dynamics_.allocate("six-vertex Glauber heights")) {
    set_state(initial);
  }
  /// Every chain starts from the maximal state.
  SixVertexGlauber(const ExecutionSpace& space, const SixVertexBoundary& boundary,
                   const SixVertexWeights& weights, std::uint64_t seed, int chains = 1)
      : SixVertexGlauber(space, boundary, weights, seed, maximal_six_vertex_heights(boundary),
                         chains) {}

  const ExecutionSpace& space() const { return dynamics_.space(); }
  const SixVertexBoundary& boundary() const { return dynamics_.boundary(); }
  int chains() const { return dynamics_.chains(); }
  int class_count() const { return dynamics_.class_count(); }
  /// Order of the classes over the steps (class_order.hpp); random unless set.
  void set_class_order(ClassOrder order) { dynamics_.set_class_order(order); }
  std::uint64_t step_count() const { return steps_; }
  /// Continues the step counter from `steps` (a restored checkpoint: step t's random numbers
  /// are keyed by t, so the chain goes on as it would have).
  void set_step_count(std::uint64_t steps) { steps_ = steps; }
  /// Class updated by the last step (-1 before the first).
  int last_class() const { return last_class_; }
  const HeightView& device_heights() const { return heights_; }

  void set_state(const SixVertexHeights& state) {
    const auto view = dynamics_.upload(state);
    dynamics_.fill(heights_, view, view, chains());
  }
  void set_states(const std::vector<SixVertexHeights>& states) {
    dynamics_.assign(heights_, states);
  }

  void step() { last_class_ = dynamics_.apply(heights_, ++steps_); }
  void run_steps(std::uint64_t n) {
    for (std::uint64_t s = 0; s < n; ++s) step();
  }
  void run_sweeps(std::uint64_t sweeps) {
    run_steps(sweeps * static_cast<std::uint64_t>(class_count()));
  }

  SixVertexHeights state(int chain = 0) const {
    return dynamics_.states(heights_, chain, 1).front();
  }
  std::vector<SixVertexHeights> states() const { return dynamics_.states(heights_, 0, chains()); }

  /// Adds the current state of every chain to the sums behind averages().
  void accumulate() {
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
    SixVertexSumHeights<memory_space> sum{heights_, height_sums_, chains()};
    Kokkos::parallel_for("portamc::tilings::six_vertex_sum_heights",
                         Policy(space(), 0, static_cast<std::int32_t>(b.face_count())), sum);
    SixVertexCountTypes<memory_space> count{heights_, type_counts_, chains(), b.cols()};
    Kokkos::parallel_for("portamc::tilings::six_vertex_count_types", Policy(space(), 0, vertices),
                         count);
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
  Dynamics dynamics_;
  HeightView heights_;
  std::uint64_t steps_ = 0;
  int last_class_ = -1;
  Kokkos::View<std::int64_t*, memory_space> height_sums_;
  Kokkos::View<std::int64_t**, memory_space> type_counts_;
  std::uint64_t accumulated_ = 0;
};

// Compiled in the library for every backend of the build (six_vertex_instantiations.cpp).
#define PORTAMC_TILINGS_EXTERN_GLAUBER_(Space) extern template class SixVertexGlauber<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_EXTERN_GLAUBER_)
#undef PORTAMC_TILINGS_EXTERN_GLAUBER_

}  // namespace portamc::tilings
