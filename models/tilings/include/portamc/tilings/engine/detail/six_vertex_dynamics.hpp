#pragma once
// The heat-bath Glauber dynamics of the six-vertex model on one Kokkos execution space, the
// engine under SixVertexGlauber (forward runs) and six_vertex_cftp (exact samples).
//
// Step t: the colour class is step_class(order, seed, t, classes) (class_order.hpp; random
// order by default, computed on the host), and every face of that class in every chain makes one
// heat-bath move (six_vertex_kernels.hpp). Every move leaves the Gibbs measure invariant and moves
// in one class commute, so each step does; a face keeps its height with positive probability, so
// the chain is aperiodic. Irreducible: if h != h_min, take among the faces maximising h - h_min (>
// 0, so interior) one with the largest h. A neighbour one above it would share that maximal
// difference with a larger h, so all four neighbours are one below: the face can move down, staying
// >= h_min. Hence every state reaches h_min by c-flips at interior faces, and back by
// reversibility.
#include <Kokkos_Core.hpp>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/backends.hpp"
#include "portamc/device_info.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"
#include "portamc/tilings/engine/class_order.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_colouring.hpp"
#include "portamc/tilings/six_vertex/detail/six_vertex_kernels.hpp"
#include "portamc/tilings/six_vertex/six_vertex_boundary.hpp"
#include "portamc/tilings/six_vertex/six_vertex_heights.hpp"
#include "portamc/tilings/six_vertex/six_vertex_weights.hpp"

namespace portamc::tilings {

template <class ExecutionSpace>
class SixVertexDynamics {
 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using HeightView = Kokkos::View<six_vertex_height*, memory_space>;
  using StateView = Kokkos::View<const six_vertex_height*, memory_space>;
  using Policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int32_t>>;

  /// chains height functions side by side; chain c draws the randomness of stream
  /// first_stream + c % rng_chains (first_stream > 0: a share of copies run on another rank).
  /// Throws std::invalid_argument for bad weights, heights beyond int16, or arrays past the
  /// kernels' 32-bit indices. All kernels run on `space`.
  SixVertexDynamics(const ExecutionSpace& space, const SixVertexBoundary& boundary,
                    const SixVertexWeights& weights, int chains, int rng_chains, std::uint64_t seed,
                    int first_stream = 0)
      : space_(space),
        boundary_(boundary),
        table_(heat_bath_thresholds(weights)),
        classes_(
            six_vertex_colour_classes(boundary.rows(), boundary.cols(), is_diagonal_free(table_))),
        chains_(chains),
        rng_chains_(rng_chains),
        first_stream_(first_stream),
        seed_(seed) {
    if (chains < 1 || rng_chains < 1 || chains % rng_chains != 0 || first_stream < 0 ||
        first_stream > INT32_MAX - rng_chains) {
      throw std::invalid_argument("six-vertex dynamics: " + std::to_string(chains) + " chains, " +
                                  std::to_string(rng_chains) +
                                  " random streams (need >= 1, chains a multiple of streams)");
    }
    if (boundary.max_abs_height() > 32767) {
      throw std::invalid_argument("six-vertex dynamics: heights up to " +
                                  std::to_string(boundary.max_abs_height()) +
                                  " do not fit the int16 height arrays (|h| <= 32767)");
    }
    if (static_cast<double>(boundary.face_count()) * chains > static_cast<double>(INT32_MAX)) {
      throw std::invalid_argument("six-vertex dynamics: " + std::to_string(boundary.face_count()) +
                                  " faces x " + std::to_string(chains) +
                                  " chains exceed the 2^31 - 1 entries of 32-bit kernel indices");
    }
  }

  const ExecutionSpace& space() const { return space_; }
  const SixVertexBoundary& boundary() const { return boundary_; }
  int chains() const { return chains_; }
  int class_count() const { return static_cast<int>(classes_.size()); }
  const HeatBathTable& table() const { return table_; }
  std::int32_t entries() const {
    return static_cast<std::int32_t>(boundary_.face_count()) * chains_;
  }

  /// Order of the classes over the steps (class_order.hpp); random unless set.
  void set_class_order(ClassOrder order) { class_order_ = order; }
  ClassOrder class_order() const { return class_order_; }
  int class_of_step(std::uint64_t step) const {
    return step_class(class_order_, seed_, step, class_count());
  }

  /// Applies step `step` to all chains of `heights`; returns the class it updated.
  int apply(const HeightView& heights, std::uint64_t step) const {
    const int c = class_of_step(step);
    const SixVertexColourClass& colour = classes_[static_cast<std::size_t>(c)];
    if (colour.size == 0) return c;
    SixVertexHeatBathStep<memory_space> kernel;
    kernel.heights = heights;
    kernel.table = table_;
    kernel.colour = colour;
    kernel.chains = chains_;
    kernel.rng_chains = rng_chains_;
    kernel.first_stream = first_stream_;
    kernel.face_cols = boundary_.face_cols();
    kernel.faces = static_cast<std::int32_t>(boundary_.face_count());
    kernel.seed = seed_;
    kernel.step = step;
    Kokkos::parallel_for("portamc::tilings::six_vertex_heat_bath",
                         Policy(space_, 0, colour.size * chains_), kernel);
    return c;
  }

  /// A height array for all chains, after require_memory for `what`.
  HeightView allocate(const std::string& what) const {
    require_memory<ExecutionSpace>(static_cast<std::size_t>(entries()) * sizeof(six_vertex_height),
                                   what);
    return HeightView("portamc::tilings::six_vertex_heights", entries());
  }

  /// One validated state on the device, e.g. an extremal start for fill.
  StateView upload(const SixVertexHeights& state) const {
    validate_six_vertex_heights(boundary_, state);
    Kokkos::View<six_vertex_height*, memory_space> view("portamc::tilings::six_vertex_state",
                                                        state.values().size());
    auto host = Kokkos::create_mirror_view(view);
    for (std::size_t f = 0; f < state.values().size(); ++f) {
      host(f) = static_cast<six_vertex_height>(state.values()[f]);
    }
    Kokkos::deep_copy(view, host);
    return view;
  }

  /// Chains c < split start from `upper`, the others from `lower` (views from upload).
  void fill(const HeightView& heights, const StateView& upper, const StateView& lower,
            int split) const {
    SixVertexFillChains<memory_space> kernel;
    kernel.heights = heights;
    kernel.upper = upper;
    kernel.lower = lower;
    kernel.chains = chains_;
    kernel.split = split;
    Kokkos::parallel_for("portamc::tilings::six_vertex_fill", Policy(space_, 0, entries()), kernel);
  }

  /// Chain c of heights gets states[c] (validated).
  void assign(const HeightView& heights, const std::vector<SixVertexHeights>& states) const {
    if (states.size() != static_cast<std::size_t>(chains_)) {
      throw std::invalid_argument("six-vertex dynamics: " + std::to_string(states.size()) +
                                  " states for " + std::to_string(chains_) + " chains");
    }
    auto host = Kokkos::create_mirror_view(heights);
    for (int c = 0; c < chains_; ++c) {
      validate_six_vertex_heights(boundary_, states[static_cast<std::size_t>(c)]);
      const std::vector<int>& values = states[static_cast<std::size_t>(c)].values();
      for (std::size_t f = 0; f < values.size(); ++f) {
        host(f * chains_ + c) = static_cast<six_vertex_height>(values[f]);
      }
    }
    Kokkos::deep_copy(heights, host);
  }

  /// Host copies of chains first .. first + count - 1.
  std::vector<SixVertexHeights> states(const HeightView& heights, int first, int count) const {
    const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), heights);
    std::vector<SixVertexHeights> out;
    out.reserve(static_cast<std::size_t>(count));
    const std::size_t faces = boundary_.face_count();
    for (int c = first; c < first + count; ++c) {
      std::vector<int> values(faces);
      for (std::size_t f = 0; f < faces; ++f) values[f] = host(f * chains_ + c);
      out.emplace_back(boundary_.rows(), boundary_.cols(), std::move(values));
    }
    return out;
  }

 private:
  ExecutionSpace space_;
  SixVertexBoundary boundary_;
  HeatBathTable table_;
  std::vector<SixVertexColourClass> classes_;
  int chains_ = 1;
  int rng_chains_ = 1;
  int first_stream_ = 0;
  std::uint64_t seed_ = 0;
  ClassOrder class_order_ = ClassOrder::random;
};

// Compiled in the library for every backend of the build (six_vertex_instantiations.cpp).
#define PORTAMC_TILINGS_EXTERN_DYNAMICS_(Space) extern template class SixVertexDynamics<Space>;
PORTAMC_FOR_EACH_SPACE(PORTAMC_TILINGS_EXTERN_DYNAMICS_)
#undef PORTAMC_TILINGS_EXTERN_DYNAMICS_

}  // namespace portamc::tilings
