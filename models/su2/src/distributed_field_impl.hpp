#pragma once
// Definitions of DistributedField and DistributedUpdater (HaloExchange: halo_exchange_impl.hpp);
// included once by distributed_field.cpp, which instantiates them for float and double on
// every execution space of the build.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "halo_exchange_impl.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/rng.hpp"
#include "portamc/su2/detail/field_kernels.hpp"
#include "portamc/su2/detail/random_su2.hpp"
#include "portamc/su2/detail/update_kernels.hpp"
#include "portamc/su2/distributed_field.hpp"

namespace portamc::su2 {

// ---- kernels -----------------------------------------------------------------------------------

/// Haar-random links of the padded block keyed by the global link (halos included, so no
/// exchange is needed after a hot start).
template <class ExecutionSpace, class Real>
struct SubLatticeHotStartKernel {
  LinkView<Real, typename ExecutionSpace::memory_space> links;
  Geometry geometry;
  SubLattice embedding;
  std::uint64_t seed = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t link) const {
    const std::int64_t site = link / geometry.dimensions();
    const int mu = static_cast<int>(link % geometry.dimensions());
    const auto global = static_cast<std::uint64_t>(embedding.global_link(geometry, site, mu));
    const auto u = haar_random(rng::draw(seed, rng::purpose_initial_state, global, 0));
    store_link(links, geometry.slot(mu, geometry.parity(site), site), u);
  }
};

/// PlaquetteKernel over the interior sites of a padded block: each plaquette of the whole
/// lattice is counted on exactly one rank.
template <class ExecutionSpace, class Real, int D>
struct InteriorPlaquetteKernel {
  PlaquetteKernel<ExecutionSpace, Real, D> plaquette;
  SubLattice embedding;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t site, PlaquetteSums& sums) const {
    const LatticeSite<D> at(plaquette.geometry, site);
    if (embedding.outside(plaquette.geometry, at)) return;
    plaquette(site, sums);
  }
};

/// The ordered product of the interior time links (direction D-1) of a padded block at each
/// interior spatial site i (lexicographic in the block's x_0 .. x_{D-2}), in double, as
/// PolyakovKernel multiplies them.
template <class ExecutionSpace, class Real, int D>
struct BlockPolyakovKernel {
  using memory_space = typename ExecutionSpace::memory_space;
  ConstLinkView<Real, memory_space> links;
  Kokkos::View<double* [4], Kokkos::LayoutRight, memory_space> products;
  Geometry geometry;                                              ///< padded
  Kokkos::Array<int, Geometry::max_dimensions> extent{}, halo{};  ///< block extents, halo layers

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i) const {
    std::int64_t rest = i;
    std::int64_t site = halo[D - 1] * geometry.stride(D - 1);
    int parity = halo[D - 1];
    for (int mu = 0; mu + 1 < D; ++mu) {
      const std::int64_t next = rest / extent[mu];
      const int y = static_cast<int>(rest - next * extent[mu]) + halo[mu];
      rest = next;
      site += y * geometry.stride(mu);
      parity += y;
    }
    parity &= 1;
    Quaternion<double> p = Quaternion<double>::identity();
    for (int t = 0; t < extent[D - 1]; ++t, parity ^= 1) {
      p = p * load_link(links, geometry.slot(D - 1, parity, site)).template cast<double>();
      site += geometry.stride(D - 1);
    }
    products(i, 0) = p.a0;
    products(i, 1) = p.a1;
    products(i, 2) = p.a2;
    products(i, 3) = p.a3;
  }
};

namespace detail {

// Interior links of a padded canonical configuration, in the local lexicographic order.
inline std::vector<double> interior_of(const Decomposition& d, const Geometry& padded,
                                       const std::vector<double>& canonical) {
  const int dims = d.dimensions();
  std::vector<double> out(static_cast<std::size_t>(d.local_volume()) * dims * 4);
  std::size_t k = 0;
  for (std::int64_t s = 0; s < padded.volume(); ++s) {
    const auto x = padded.coords(s);
    bool halo = false;
    for (int mu = 0; mu < dims; ++mu)
      halo |= d.split(mu) && (x[mu] == 0 || x[mu] == padded.extent(mu) - 1);
    if (halo) continue;
    const double* q = &canonical[static_cast<std::size_t>(s) * dims * 4];
    std::memcpy(&out[k], q, sizeof(double) * dims * 4);
    k += static_cast<std::size_t>(dims) * 4;
  }
  return out;
}

}  // namespace detail

// ---- DistributedField --------------------------------------------------------------------------

template <class ExecutionSpace, class Real>
DistributedField<ExecutionSpace, Real>::DistributedField(const ExecutionSpace& space,
                                                         const std::vector<int>& extents,
                                                         const parallel::Communicator& comm,
                                                         const ParallelOptions& options)
    : comm_(comm),
      decomposition_(extents, comm.size(), comm.rank(), options.grid),
      embedding_(decomposition_),
      transport_(parallel::resolve_halo_transport(
          options.transport,
          Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                     typename ExecutionSpace::memory_space>::accessible,
          comm)),
      local_(space, decomposition_.padded_extents()) {
  halo_ = std::make_unique<HaloExchange<ExecutionSpace, Real>>(
      space, decomposition_, local_.geometry(), comm_, transport_);
}

template <class ExecutionSpace, class Real>
void DistributedField<ExecutionSpace, Real>::cold_start() {
  local_.cold_start();  // halos included
}

template <class ExecutionSpace, class Real>
void DistributedField<ExecutionSpace, Real>::hot_start(std::uint64_t seed) {
  const Geometry& g = local_.geometry();
  Kokkos::parallel_for(
      "su2::hot_start_block",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(local_.space(), 0,
                                                                           g.link_count()),
      SubLatticeHotStartKernel<ExecutionSpace, Real>{local_.links(), g, embedding_, seed});
  local_.space().fence();
}

template <class ExecutionSpace, class Real>
void DistributedField<ExecutionSpace, Real>::from_canonical(const std::vector<double>& canonical) {
  const int dims = decomposition_.dimensions();
  const Geometry& g = local_.geometry();
  const std::size_t per_site = static_cast<std::size_t>(dims) * 4;
  const auto padded_size = static_cast<std::size_t>(g.volume()) * per_site;
  // The padded block of rank r, halos included (periodic), cut from the whole lattice.
  auto block_of = [&](int r) {
    const Decomposition dr(decomposition_.global_extents(), decomposition_.ranks(), r,
                           decomposition_.grid());
    const SubLattice e(dr);
    std::vector<double> block(padded_size);
    for (std::int64_t s = 0; s < g.volume(); ++s)
      std::memcpy(&block[static_cast<std::size_t>(s) * per_site],
                  &canonical[static_cast<std::size_t>(e.global_site(g, s)) * per_site],
                  sizeof(double) * per_site);
    return block;
  };
  const std::size_t expected = static_cast<std::size_t>(volume()) * per_site;
  if (comm_.is_root() && canonical.size() != expected)
    throw std::invalid_argument("su2 configuration: " + std::to_string(canonical.size()) +
                                " numbers given, the " + decomposition_.global_text() +
                                " lattice needs " + std::to_string(expected) + " (V D 4)");
  std::vector<double> mine;
  if (comm_.size() == 1) {
    mine = block_of(0);
  } else {
#ifdef PORTAMC_HAVE_MPI
    if (padded_size > std::size_t(2147483647))
      throw std::runtime_error("su2 configuration: a block of more than 2^31 numbers");
    const int count = static_cast<int>(padded_size);
    if (comm_.is_root()) {
      for (int r = 1; r < comm_.size(); ++r) {
        const std::vector<double> block = block_of(r);
        detail::check_mpi(MPI_Send(block.data(), count, MPI_DOUBLE, r, 0, comm_.native()),
                          "MPI_Send");
      }
      mine = block_of(0);
    } else {
      mine.resize(padded_size);
      detail::check_mpi(
          MPI_Recv(mine.data(), count, MPI_DOUBLE, 0, 0, comm_.native(), MPI_STATUS_IGNORE),
          "MPI_Recv");
    }
#endif
  }
  local_.from_canonical(mine);
}

template <class ExecutionSpace, class Real>
std::vector<double> DistributedField<ExecutionSpace, Real>::to_canonical() const {
  const std::vector<double> interior =
      detail::interior_of(decomposition_, local_.geometry(), local_.to_canonical());
  const std::vector<double> all = comm_.gather(interior);
  if (!comm_.is_root()) return {};
  const int dims = decomposition_.dimensions();
  const std::size_t per_site = static_cast<std::size_t>(dims) * 4;
  const Geometry whole(decomposition_.global_extents());
  const Geometry block(decomposition_.local_extents());
  std::vector<double> canonical(static_cast<std::size_t>(whole.volume()) * per_site);
  for (int r = 0; r < comm_.size(); ++r) {
    const Decomposition dr(decomposition_.global_extents(), decomposition_.ranks(), r,
                           decomposition_.grid());
    const std::size_t base = static_cast<std::size_t>(r) * interior.size();
    for (std::int64_t s = 0; s < block.volume(); ++s) {
      const auto x = block.coords(s);
      std::int64_t global = 0;
      for (int mu = 0; mu < dims; ++mu) global += (x[mu] + dr.origin(mu)) * whole.stride(mu);
      std::memcpy(&canonical[static_cast<std::size_t>(global) * per_site],
                  &all[base + static_cast<std::size_t>(s) * per_site], sizeof(double) * per_site);
    }
  }
  return canonical;
}

template <class ExecutionSpace, class Real>
void DistributedField<ExecutionSpace, Real>::exchange_halos() {
  halo_->exchange_all(local_.links());
}

template <class ExecutionSpace, class Real>
void DistributedField<ExecutionSpace, Real>::reunitarise() {
  // Halo copies are normalised alike, bit for bit: no exchange needed.
  local_.reunitarise();
}

template <class ExecutionSpace, class Real>
double DistributedField<ExecutionSpace, Real>::max_unitarity_violation() const {
  return comm_.max(local_.max_unitarity_violation());
}

template <class ExecutionSpace, class Real>
PlaquetteSums DistributedField<ExecutionSpace, Real>::plaquette_sums() const {
  PlaquetteSums sums;
  const Geometry& g = local_.geometry();
  dispatch_dimensions(g.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    InteriorPlaquetteKernel<ExecutionSpace, Real, D> kernel{{local_.links(), g}, embedding_};
    Kokkos::parallel_reduce("su2::plaquette_block",
                            Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                                local_.space(), 0, g.volume()),
                            kernel, Kokkos::Sum<PlaquetteSums>(sums));
  });
  double both[2] = {sums.spatial, sums.temporal};
  comm_.sum(both, 2);
  sums.spatial = both[0];
  sums.temporal = both[1];
  return sums;
}

template <class ExecutionSpace, class Real>
PlaquetteAverage DistributedField<ExecutionSpace, Real>::plaquette() const {
  const PlaquetteSums sums = plaquette_sums();
  return plaquette_average(sums.spatial, sums.temporal, Geometry(decomposition_.global_extents()));
}

template <class ExecutionSpace, class Real>
double DistributedField<ExecutionSpace, Real>::action(double beta) const {
  const PlaquetteSums sums = plaquette_sums();
  return beta * (sums.spatial + sums.temporal);
}

template <class ExecutionSpace, class Real>
double DistributedField<ExecutionSpace, Real>::polyakov_loop() const {
  const Decomposition& d = decomposition_;
  const int dims = d.dimensions();
  const int time = dims - 1;
  std::int64_t slice = 1;  // interior spatial sites of the block
  for (int mu = 0; mu < time; ++mu) slice *= d.local_extent(mu);
  // LayoutRight: rank 0 reads four numbers per site, contiguous.
  Kokkos::View<double* [4], Kokkos::LayoutRight, typename ExecutionSpace::memory_space> products(
      "su2::block_polyakov", slice);
  dispatch_dimensions(dims, [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    BlockPolyakovKernel<ExecutionSpace, Real, D> kernel{
        local_.links(), products, local_.geometry(), {}, {}};
    for (int mu = 0; mu < D; ++mu)
      kernel.extent[mu] = d.local_extent(mu), kernel.halo[mu] = d.halo(mu);
    Kokkos::parallel_for("su2::block_polyakov",
                         Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(
                             local_.space(), 0, slice),
                         kernel);
  });
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), products);
  const std::vector<double> mine(host.data(), host.data() + 4 * slice);
  const std::vector<double> all = comm_.gather(mine);
  double average = 0;
  if (comm_.is_root()) {
    // Whole-lattice spatial sites in lexicographic order (the one-rank summation order);
    // at each, the block products of the ranks along time, in time order.
    const std::vector<int>& n = d.global_extents();
    std::int64_t sites = 1;
    for (int mu = 0; mu < time; ++mu) sites *= n[mu];
    std::vector<int> coords(dims, 0);
    double sum = 0;
    for (std::int64_t x = 0; x < sites; ++x) {
      std::int64_t rest = x, local = 0, stride = 1;
      for (int mu = 0; mu < time; ++mu) {
        const int xm = static_cast<int>(rest % n[mu]);
        rest /= n[mu];
        coords[mu] = xm / d.local_extent(mu);
        local += (xm % d.local_extent(mu)) * stride;
        stride *= d.local_extent(mu);
      }
      Quaternion<double> p = Quaternion<double>::identity();
      for (int c = 0; c < d.grid(time); ++c) {
        coords[time] = c;
        const double* q = &all[(static_cast<std::size_t>(d.rank_at(coords)) * slice + local) * 4];
        const Quaternion<double> block{q[0], q[1], q[2], q[3]};
        p = c == 0 ? block : p * block;
      }
      sum += p.half_trace();
    }
    average = sum / static_cast<double>(sites);
  }
  return comm_.sum(comm_.is_root() ? average : 0.0);  // rank 0's value everywhere, exactly
}

// ---- DistributedUpdater ------------------------------------------------------------------------

template <class ExecutionSpace, class Real>
DistributedUpdater<ExecutionSpace, Real>::DistributedUpdater(const ExecutionSpace& space,
                                                             const UpdateParameters& params)
    : space_(space), params_(params) {
  params_.validate();
  failures_ = Kokkos::View<count_type, memory_space>("su2::heatbath_failures");
}

template <class ExecutionSpace, class Real>
void DistributedUpdater<ExecutionSpace, Real>::set_heatbath_sweeps_done(std::uint64_t sweeps) {
  if (sweeps > rng::max_step / calls_per_link_update)
    throw std::invalid_argument("su2 update: heatbath sweep counter " + std::to_string(sweeps) +
                                " exceeds the RNG step range");
  heatbath_sweeps_ = sweeps;
}

template <class ExecutionSpace, class Real>
HeatbathTally DistributedUpdater<ExecutionSpace, Real>::tally(
    const parallel::Communicator& comm) const {
  count_type failures = 0;
  Kokkos::deep_copy(failures, failures_);
  HeatbathTally t;
  t.links = links_updated_;
  t.failures = comm.sum(static_cast<std::uint64_t>(failures));
  return t;
}

template <class ExecutionSpace, class Real>
void DistributedUpdater<ExecutionSpace, Real>::reset_tally() {
  links_updated_ = 0;
  Kokkos::deep_copy(failures_, count_type(0));
}

namespace detail {

// A launch of an update kernel: half-site range and region (SubLattice::Region).
struct Launch {
  std::int64_t begin, end;
  int region;
};

// The launches of one pass. The halo layers of direction D-1 (when split) are whole ranges
// at both ends of the half-site range (h = x_{D-1} half_stride + ...); other halos, and sites
// outside the region, are skipped inside the kernel.
//   plain:   all interior sites.
//   overlap: first the boundary sites (whose links the exchange sends), then the inner ones.
//            With only D-1 split both are ranges without skipped threads.
inline std::vector<Launch> boundary_launches(const Decomposition& d, const Geometry& g) {
  const int last = g.dimensions() - 1;
  const std::int64_t hs = g.half_stride(last);
  const std::int64_t l = g.extent(last) - 2;
  if (d.split_mask() == (1u << last))
    return {{hs, 2 * hs, SubLattice::all},
            {std::max<std::int64_t>(2, l) * hs, (l + 1) * hs, SubLattice::all}};
  if (d.split(last)) return {{hs, (l + 1) * hs, SubLattice::boundary}};
  return {{0, g.half_volume(), SubLattice::boundary}};
}
inline Launch inner_launch(const Decomposition& d, const Geometry& g) {
  const int last = g.dimensions() - 1;
  const std::int64_t hs = g.half_stride(last);
  const std::int64_t l = g.extent(last) - 2;
  if (d.split_mask() == (1u << last))
    return {2 * hs, std::max<std::int64_t>(2, l) * hs, SubLattice::all};
  if (d.split(last)) return {2 * hs, std::max<std::int64_t>(2, l) * hs, SubLattice::inner};
  return {0, g.half_volume(), SubLattice::inner};
}
inline Launch interior_launch(const Decomposition& d, const Geometry& g) {
  const int last = g.dimensions() - 1;
  if (!d.split(last)) return {0, g.half_volume(), SubLattice::all};
  const std::int64_t hs = g.half_stride(last);
  return {hs, (g.extent(last) - 1) * hs, SubLattice::all};
}

// One checkerboard pass (kernel.mu, kernel.parity) of a decomposed field and the exchange of
// the group it wrote.
template <int D, class ExecutionSpace, class Real, class Kernel>
void decomposed_pass(const ExecutionSpace& space, DistributedField<ExecutionSpace, Real>& field,
                     Kernel kernel, bool overlap, const char* label) {
  const Decomposition& dec = field.decomposition();
  const Geometry& g = field.geometry();
  auto launch = [&](const Launch& l) {
    if (l.end <= l.begin) return;
    kernel.embedding.region = l.region;
    dispatch_direction<D>(kernel.mu, [&](auto m) {
      Kokkos::parallel_for(label, UpdatePolicy<ExecutionSpace>(space, l.begin, l.end),
                           FixedDirection<Kernel, decltype(m)::value>{kernel});
    });
  };
  if (!overlap || dec.split_count() == 0) {
    launch(interior_launch(dec, g));
    field.exchange_halos(kernel.mu, kernel.parity);
    return;
  }
  for (const Launch& l : boundary_launches(dec, g)) launch(l);
  space.fence();
  // The inner sites read no halo of (mu, parity) and write no face: they run during the
  // exchange, which is done when exchange() returns (the next pass reads the halos).
  launch(inner_launch(dec, g));
  field.halo().exchange(field.local().links(), kernel.mu, kernel.parity, false);
}

}  // namespace detail

template <class ExecutionSpace, class Real>
void DistributedUpdater<ExecutionSpace, Real>::heatbath_sweep(field_type& field) {
  if (heatbath_sweeps_ >= rng::max_step / calls_per_link_update)
    throw std::runtime_error("su2 update: the heatbath sweep counter reached the RNG step range");
  const Geometry& g = field.geometry();
  const Decomposition& dec = field.decomposition();
  dispatch_dimensions(g.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    HeatbathKernel<ExecutionSpace, Real, D, SubLattice> kernel;
    kernel.links = field.local().links();
    kernel.staple_links = field.local().links();
    kernel.failures = failures_;
    kernel.geometry = g;
    kernel.beta = static_cast<Real>(params_.beta);
    kernel.kp_threshold = static_cast<Real>(params_.kp_threshold);
    kernel.method = params_.method;
    kernel.max_attempts = params_.max_attempts;
    kernel.seed = params_.seed;
    kernel.step_base = heatbath_sweeps_ * calls_per_link_update;
    kernel.embedding = field.embedding();
    for (int mu = 0; mu < D; ++mu) {
      for (int global_parity = 0; global_parity < 2; ++global_parity) {
        kernel.mu = mu;
        kernel.parity = global_parity ^ dec.parity_flip();
        detail::decomposed_pass<D>(space_, field, kernel, overlap_, "su2::heatbath_block");
      }
    }
  });
  links_updated_ += static_cast<std::uint64_t>(field.link_count());
  ++heatbath_sweeps_;
}

template <class ExecutionSpace, class Real>
void DistributedUpdater<ExecutionSpace, Real>::overrelaxation_sweep(field_type& field) {
  const Geometry& g = field.geometry();
  const Decomposition& dec = field.decomposition();
  dispatch_dimensions(g.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    OverrelaxationKernel<ExecutionSpace, Real, D, SubLattice> kernel;
    kernel.links = field.local().links();
    kernel.staple_links = field.local().links();
    kernel.geometry = g;
    kernel.embedding = field.embedding();
    for (int mu = 0; mu < D; ++mu) {
      for (int global_parity = 0; global_parity < 2; ++global_parity) {
        kernel.mu = mu;
        kernel.parity = global_parity ^ dec.parity_flip();
        detail::decomposed_pass<D>(space_, field, kernel, overlap_, "su2::overrelaxation_block");
      }
    }
  });
}

template <class ExecutionSpace, class Real>
void DistributedUpdater<ExecutionSpace, Real>::update(field_type& field) {
  run_update_schedule(*this, field, params_, updates_);
}

}  // namespace portamc::su2
