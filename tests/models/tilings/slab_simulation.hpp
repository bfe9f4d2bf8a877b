#pragma once
// For test_slab_decomposition.cpp: the distributed Glauber chain's arithmetic without MPI.
// R "ranks" live in one process, each with its slab (slab_decomposition.hpp) in its own
// View; a step runs the slab kernel (slab_glauber_kernels.hpp) on every slab and then copies
// each slab's boundary rows into its neighbours' halo rows, as RowHaloExchange would.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include "portamc/tilings/detail/distributed_glauber.hpp"

namespace portamc::tilings::testing {

template <class Model, class Space = Kokkos::DefaultHostExecutionSpace>
class SlabSimulation {
 public:
  using State = Kokkos::View<std::uint8_t*, Space>;
  SlabSimulation(const typename Model::Domain& domain, const typename Model::Weights& weights,
                 std::uint64_t seed, int ranks, UpdateRule rule)
      : domain_(domain), seed_(seed), geometry_(Model::geometry(domain, weights)) {
    const auto bytes = Model::bytes(Model::maximal(domain));
    const auto all_runs = Model::vertex_runs(domain);
    const auto t = Model::thresholds(weights, rule);
    thresholds_ = Kokkos::View<std::uint64_t*, Space>("thresholds", t.size());
    for (std::size_t i = 0; i < t.size(); ++i) thresholds_(i) = t[i];
    for (int r = 0; r < ranks; ++r) {
      const RowSlab s = model_slab<Model>(domain, r, ranks);
      State state("slab", static_cast<std::size_t>(s.local_cells()));
      const auto first = static_cast<std::size_t>(s.local_begin) * s.row_length;
      for (std::size_t i = 0; i < state.extent(0); ++i) state(i) = bytes[first + i];
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
            Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int32_t>>(0, runs.vertices),
            Kernel{states_[r], runs, thresholds_, geometry_, seed_, t, slabs_[r].local_begin});
      }
      Kokkos::fence();
      for (std::size_t r = 0; r + 1 < slabs_.size(); ++r) {  // rows across each boundary
        const RowSlab &a = slabs_[r], &b = slabs_[r + 1];
        for (int c = 0; c < a.row_length; ++c) {
          states_[r + 1](b.local_offset(b.local_begin) + c) =
              states_[r](a.local_offset(a.own_end - 1) + c);
          states_[r](a.local_offset(a.local_end - 1) + c) =
              states_[r + 1](b.local_offset(b.own_begin) + c);
        }
      }
    }
  }

  /// The owned rows put together.
  std::vector<std::uint8_t> bytes() const {
    std::vector<std::uint8_t> out;
    for (std::size_t r = 0; r < slabs_.size(); ++r)
      for (std::int64_t i = slabs_[r].local_offset(slabs_[r].own_begin);
           i < slabs_[r].local_offset(slabs_[r].own_end); ++i)
        out.push_back(states_[r](i));
    return out;
  }

 private:
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
