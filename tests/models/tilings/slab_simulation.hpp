#pragma once
// For test_slab_decomposition.cpp: the distributed Glauber chain's arithmetic without MPI.
// R "ranks" live in one process, each with its slab (slab_decomposition.hpp) in its own
// View; a step runs the slab kernel (slab_glauber_kernels.hpp) on every slab and then copies
// each slab's boundary rows into its neighbours' halo rows, as RowHaloExchange would. Runs on
// the execution space instance it is given (any backend: the slabs live in its memory).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <utility>
#include <vector>

#include "portamc/tilings/engine/detail/distributed_glauber.hpp"

namespace portamc::tilings::testing {

template <class Model, class Space>
class SlabSimulation {
 public:
  using State = Kokkos::View<std::uint8_t*, Space>;
  SlabSimulation(const Space& space, const typename Model::Domain& domain,
                 const typename Model::Weights& weights, std::uint64_t seed, int ranks,
                 UpdateRule rule)
      : space_(space), domain_(domain), seed_(seed), geometry_(Model::geometry(domain, weights)) {
    const auto bytes = Model::bytes(Model::maximal(domain));
    const auto all_runs = Model::vertex_runs(domain);
    const auto t = Model::thresholds(weights, rule);
    thresholds_ = Kokkos::View<std::uint64_t*, Space>("thresholds", t.size());
    const auto host_thresholds = Kokkos::create_mirror_view(thresholds_);
    for (std::size_t i = 0; i < t.size(); ++i) host_thresholds(i) = t[i];
    Kokkos::deep_copy(thresholds_, host_thresholds);
    for (int r = 0; r < ranks; ++r) {
      const RowSlab s = model_slab<Model>(domain, r, ranks);
      State state("slab", static_cast<std::size_t>(s.local_cells()));
      const auto first = static_cast<std::size_t>(s.local_begin) * s.row_length;
      const auto host_state = Kokkos::create_mirror_view(state);
      for (std::size_t i = 0; i < state.extent(0); ++i) host_state(i) = bytes[first + i];
      Kokkos::deep_copy(state, host_state);
      std::vector<VertexRuns<Space>> runs;
      for (const auto& c : all_runs)
        runs.push_back(
            to_device<Space>(restrict_runs(c, s.vertex_begin, s.vertex_end), Model::classes));
      slabs_.push_back(s);
      states_.push_back(state);
      runs_.push_back(runs);
    }
  }

  void run_steps(std::uint64_t n) {
    using Kernel = typename SlabLayout<Model>::template Kernel<Space>;
    for (std::uint64_t k = 0; k < n; ++k) {
      const std::uint64_t t = ++steps_;
      const int colour = GlauberSampler<Model, Space>::class_of_step(seed_, t);
      for (std::size_t r = 0; r < slabs_.size(); ++r) {
        const auto& runs = runs_[r][static_cast<std::size_t>(colour)];
        if (runs.vertices == 0) continue;
        Kokkos::parallel_for(
            Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(space_, 0, runs.vertices),
            Kernel{states_[r], runs, thresholds_, geometry_, seed_, t, slabs_[r].local_begin});
      }
      space_.fence();
      for (std::size_t r = 0; r + 1 < slabs_.size(); ++r) {  // rows across each boundary
        const RowSlab &a = slabs_[r], &b = slabs_[r + 1];
        Kokkos::deep_copy(row(states_[r + 1], b.local_offset(b.local_begin), b.row_length),
                          row(states_[r], a.local_offset(a.own_end - 1), a.row_length));
        Kokkos::deep_copy(row(states_[r], a.local_offset(a.local_end - 1), a.row_length),
                          row(states_[r + 1], b.local_offset(b.own_begin), b.row_length));
      }
    }
  }

  /// The owned rows put together.
  std::vector<std::uint8_t> bytes() const {
    std::vector<std::uint8_t> out;
    for (std::size_t r = 0; r < slabs_.size(); ++r) {
      const auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), states_[r]);
      for (std::int64_t i = slabs_[r].local_offset(slabs_[r].own_begin);
           i < slabs_[r].local_offset(slabs_[r].own_end); ++i)
        out.push_back(host(i));
    }
    return out;
  }

 private:
  /// `length` bytes of `state` from byte `first` on (one row).
  static auto row(const State& state, std::int64_t first, int length) {
    return Kokkos::subview(state, std::make_pair(static_cast<std::size_t>(first),
                                                 static_cast<std::size_t>(first + length)));
  }

  Space space_;
  typename Model::Domain domain_;
  std::uint64_t seed_;
  typename Model::Geometry geometry_;
  Kokkos::View<std::uint64_t*, Space> thresholds_;
  std::vector<RowSlab> slabs_;
  std::vector<State> states_;
  std::vector<std::vector<VertexRuns<Space>>> runs_;
  std::uint64_t steps_ = 0;
};

}  // namespace portamc::tilings::testing
