// The Wilson flow and its observables (flow.hpp): one kernel computes the Runge-Kutta
// accumulator of every link from the current field, a second applies exp(X) to every link,
// so a stage reads one field and writes the next whatever order threads run in.
#include "portamc/su2/flow.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "portamc/device_info.hpp"
#include "portamc/kokkos_compat.hpp"
#include "portamc/su2/detail/geometry.hpp"
#include "portamc/su2/detail/link_storage.hpp"
#include "portamc/su2/detail/reductions.hpp"
#include "portamc/su2/detail/staple.hpp"
#include "portamc/su2/quaternion.hpp"

namespace portamc::su2 {

/// X(n) = force_weight Z(n) + keep X(n) for link slot n, Z = (0, -q) with (q0, q) = U W; on
/// a rank's padded block (Embedding = SubLattice) the halo links are left to the exchange.
template <class Space, class Real, int D, class Embedding>
struct FlowForceKernel {
  using memory_space = typename Space::memory_space;
  ConstLinkView<Real, memory_space> links;
  Kokkos::View<Real* [3], memory_space> x;
  Geometry geometry;
  Embedding embedding;
  double force_weight = 0;
  double keep = 0;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t n) const {
    const std::int64_t half = geometry.half_volume();
    const int mu = static_cast<int>(n / geometry.volume());
    const int parity = static_cast<int>((n / half) & 1);
    const LatticeSite<D> at(geometry, parity, n % half);
    if (embedding.outside(geometry, at)) return;
    const Quaternion<double> w =
        staple_sum<D>(links, geometry, at, mu, parity).template cast<double>();
    const Quaternion<double> omega = load_link(links, n).template cast<double>() * w;
    x(n, 0) = static_cast<Real>(-force_weight * omega.a1 + keep * x(n, 0));
    x(n, 1) = static_cast<Real>(-force_weight * omega.a2 + keep * x(n, 1));
    x(n, 2) = static_cast<Real>(-force_weight * omega.a3 + keep * x(n, 2));
  }
};

/// U(n) <- exp(X(n)) U(n), renormalised; halo links of a padded block are left alone.
template <class Space, class Real, int D, class Embedding>
struct FlowExpKernel {
  using memory_space = typename Space::memory_space;
  LinkView<Real, memory_space> links;
  Kokkos::View<const Real* [3], memory_space> x;
  Geometry geometry;
  Embedding embedding;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t n) const {
    if constexpr (!std::is_same_v<Embedding, WholeLattice>) {
      const std::int64_t half = geometry.half_volume();
      if (embedding.outside(geometry,
                            LatticeSite<D>(geometry, static_cast<int>((n / half) & 1), n % half)))
        return;
    }
    const double v1 = x(n, 0), v2 = x(n, 1), v3 = x(n, 2);
    const double angle = kmath::sqrt(v1 * v1 + v2 * v2 + v3 * v3);
    // sin(a)/a, by its series where dividing would lose digits.
    const double sinc = angle < 1e-4 ? 1.0 - angle * angle / 6.0 : kmath::sin(angle) / angle;
    const Quaternion<double> e{kmath::cos(angle), sinc * v1, sinc * v2, sinc * v3};
    store_link(links, n, normalised(e * load_link(links, n).template cast<double>()));
  }
};

/// Per site: the plaquettes and the clover sums c_mu_nu of the D(D-1)/2 planes (interior
/// sites only on a padded block, so that each site is counted on one rank).
template <class Space, class Real, int D, class Embedding>
struct FlowObservablesKernel {
  ConstLinkView<Real, typename Space::memory_space> links;
  Geometry geometry;
  Embedding embedding;

  KOKKOS_INLINE_FUNCTION Quaternion<double> link(int mu, int parity, std::int64_t site) const {
    return load_link(links, geometry.slot(mu, parity, site)).template cast<double>();
  }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t site, FlowSums& sums) const {
    const LatticeSite<D> at(geometry, site);
    if (embedding.outside(geometry, at)) return;
    const int p = at.parity(), q = p ^ 1;
    double c[D][D][3] = {};
    for (int mu = 0; mu < D; ++mu) {
      for (int nu = mu + 1; nu < D; ++nu) {
        const std::int64_t x_mu = at.forward(geometry, site, mu);
        const std::int64_t x_nu = at.forward(geometry, site, nu);
        const std::int64_t x_mmu = at.backward(geometry, site, mu);
        const std::int64_t x_mnu = at.backward(geometry, site, nu);
        const std::int64_t x_mmu_nu = at.forward(geometry, x_mmu, nu);
        const std::int64_t x_mmu_mnu = at.backward(geometry, x_mmu, nu);
        const std::int64_t x_mu_mnu = at.backward(geometry, x_mu, nu);
        const Quaternion<double> u_mu = link(mu, p, site), u_nu = link(nu, p, site);
        const Quaternion<double> plaquette =
            u_mu * link(nu, q, x_mu) * dagger(link(mu, q, x_nu)) * dagger(u_nu);
        const Quaternion<double> leaves =
            plaquette +
            u_nu * dagger(link(mu, p, x_mmu_nu)) * dagger(link(nu, q, x_mmu)) * link(mu, q, x_mmu) +
            dagger(link(mu, q, x_mmu)) * dagger(link(nu, p, x_mmu_mnu)) * link(mu, p, x_mmu_mnu) *
                link(nu, q, x_mnu) +
            dagger(link(nu, q, x_mnu)) * link(mu, q, x_mnu) * link(nu, p, x_mu_mnu) * dagger(u_mu);
        sums.plaquette += 1.0 - plaquette.a0;
        c[mu][nu][0] = leaves.a1, c[mu][nu][1] = leaves.a2, c[mu][nu][2] = leaves.a3;
        sums.clover += (leaves.a1 * leaves.a1 + leaves.a2 * leaves.a2 + leaves.a3 * leaves.a3) / 8;
      }
    }
    if constexpr (D == 4) {
      const auto dot = [&](int a, int b, int r, int s) {
        return c[a][b][0] * c[r][s][0] + c[a][b][1] * c[r][s][1] + c[a][b][2] * c[r][s][2];
      };
      sums.charge += dot(0, 1, 2, 3) - dot(0, 2, 1, 3) + dot(0, 3, 1, 2);
    }
  }
};

// The sums of FlowObservablesKernel over the sites of `field` that `embedding` keeps.
template <class Space, class Real, class Embedding>
FlowSums flow_sums(const GaugeField<Space, Real>& field, const Embedding& embedding) {
  const Geometry& g = field.geometry();
  FlowSums sums;
  dispatch_dimensions(g.dimensions(), [&](auto dim) {
    constexpr int D = decltype(dim)::value;
    Kokkos::parallel_reduce(
        "su2::flow_observables",
        Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(field.space(), 0, g.volume()),
        FlowObservablesKernel<Space, Real, D, Embedding>{field.links(), g, embedding}, sums);
  });
  field.space().fence();
  return sums;
}

// Per site over the whole lattice of `dimensions` directions and `volume` sites.
FlowObservables observables_of(const FlowSums& sums, int dimensions, double volume) {
  constexpr double pi = 3.14159265358979323846;
  FlowObservables o;
  // Re tr(1 - P) = 2 (1 - a0): E_plaq = 4 sum (1 - a0) per site.
  o.energy_plaquette = 4 * sums.plaquette / volume;
  o.energy_clover = sums.clover / volume;
  o.charge =
      dimensions == 4 ? sums.charge / (32 * pi * pi) : std::numeric_limits<double>::quiet_NaN();
  return o;
}

template <class Space, class Real>
FlowObservables flow_observables(const GaugeField<Space, Real>& field) {
  return observables_of(flow_sums(field, WholeLattice{}), field.dimensions(),
                        static_cast<double>(field.volume()));
}

// The Runge-Kutta accumulator, 3 reals per link, checked against the space's memory first.
template <class Space, class Real>
Kokkos::View<Real* [3], typename Space::memory_space> accumulator(const Space& space,
                                                                  std::int64_t links) {
  require_memory<Space>(static_cast<std::size_t>(links) * 3 * sizeof(Real),
                        "the gradient flow's Runge-Kutta accumulator");
  return Kokkos::View<Real* [3], typename Space::memory_space>(
      Kokkos::view_alloc(space, "su2::flow_accumulator"), links);
}

template <class Space, class Real>
WilsonFlow<Space, Real>::WilsonFlow(const Space& space, const GaugeField<Space, Real>& start)
    : field_(std::make_unique<GaugeField<Space, Real>>(space, start.extents())),
      x_(accumulator<Space, Real>(space, start.link_count())) {
  Kokkos::deep_copy(space, field_->links(), start.links());
  space.fence();
}

template <class Space, class Real>
WilsonFlow<Space, Real>::WilsonFlow(const Space& space, const DistributedField<Space, Real>& start,
                                    const ParallelOptions& options)
    : distributed_(std::make_unique<DistributedField<Space, Real>>(space, start.extents(),
                                                                   start.communicator(), options)),
      x_(accumulator<Space, Real>(space, start.local().link_count())) {
  // The same decomposition, so the padded blocks match: copy this rank's, halos included.
  Kokkos::deep_copy(space, distributed_->local().links(), start.local().links());
  space.fence();
  // A DistributedField keeps its halos current, so this refresh only costs one exchange per
  // flow; it protects the first stage from a caller that wrote links by other means.
  distributed_->exchange_halos();
}

// Calls f(embedding): WholeLattice on one rank, the block's SubLattice when split.
template <class Space, class Real>
template <class F>
void WilsonFlow<Space, Real>::with_embedding(F&& f) const {
  if (distributed_)
    f(distributed_->embedding());
  else
    f(WholeLattice{});
}

template <class Space, class Real>
void WilsonFlow<Space, Real>::exchange_halos() {
  if (distributed_) distributed_->exchange_halos();
}

template <class Space, class Real>
double WilsonFlow<Space, Real>::max_over_ranks(double value) const {
  return distributed_ ? distributed_->communicator().max(value) : value;
}

template <class Space, class Real>
void WilsonFlow<Space, Real>::step(double epsilon) {
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    throw std::invalid_argument("Wilson flow: the step epsilon must be positive and finite, got " +
                                std::to_string(epsilon));
  GaugeField<Space, Real>& field = block();
  const Geometry& g = field.geometry();
  const Space& space = field.space();
  const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> links(space, 0, g.link_count());
  // (weight of eps Z, weight of the previous X) per stage.
  constexpr double stages[3][2] = {{0.25, 0.0}, {8.0 / 9.0, -17.0 / 9.0}, {0.75, -1.0}};
  with_embedding([&](const auto& embedding) {
    using Embedding = std::decay_t<decltype(embedding)>;
    dispatch_dimensions(g.dimensions(), [&](auto dim) {
      constexpr int D = decltype(dim)::value;
      for (const auto& stage : stages) {
        Kokkos::parallel_for("su2::flow_force", links,
                             FlowForceKernel<Space, Real, D, Embedding>{
                                 field.links(), x_, g, embedding, stage[0] * epsilon, stage[1]});
        Kokkos::parallel_for(
            "su2::flow_exp", links,
            FlowExpKernel<Space, Real, D, Embedding>{field.links(), x_, g, embedding});
        // The next stage's staples read the neighbours' new links.
        exchange_halos();
      }
    });
  });
  space.fence();
  t_ += epsilon;
}

template <class Space, class Real>
void WilsonFlow<Space, Real>::flow_to(double t_end, double epsilon) {
  if (!(epsilon > 0) || !std::isfinite(t_end))
    throw std::invalid_argument("Wilson flow: flow_to needs a finite end time and epsilon > 0");
  // A step within a millionth of epsilon of the end lands on it.
  while (t_end - t_ > 1e-6 * epsilon) {
    const double t = t_;
    step(std::min(epsilon, t_end - t));
    if (t_end - t_ <= 1e-6 * epsilon) t_ = t_end;
  }
}

/// max over links and components of |a - b|.
template <class Space, class Real>
struct LinkDistanceKernel {
  ConstLinkView<Real, typename Space::memory_space> a, b;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t n, double& worst) const {
    const Quaternion<double> p = load_link(a, n).template cast<double>();
    const Quaternion<double> q = load_link(b, n).template cast<double>();
    const double d[4] = {p.a0 - q.a0, p.a1 - q.a1, p.a2 - q.a2, p.a3 - q.a3};
    for (double x : d) worst = kmath::fabs(x) > worst ? kmath::fabs(x) : worst;
  }
};

template <class Space, class Real>
long long WilsonFlow<Space, Real>::flow_to_adaptive(double t_end, double tolerance,
                                                    double epsilon) {
  if (!(tolerance > 0) || !(epsilon > 0) || !std::isfinite(t_end))
    throw std::invalid_argument(
        "Wilson flow: adaptive steps need a positive tolerance and initial step, and a finite "
        "end time");
  GaugeField<Space, Real>& field = block();
  const Space& space = field.space();
  if (!before_) {
    before_ = std::make_unique<GaugeField<Space, Real>>(space, field.extents());
    full_step_ = std::make_unique<GaugeField<Space, Real>>(space, field.extents());
  }
  if (adaptive_epsilon_ == 0) adaptive_epsilon_ = epsilon;
  const Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>> links(
      space, 0, field.geometry().link_count());
  long long accepted = 0;
  while (t_end - t_ > 1e-12 * std::max(1.0, t_end)) {
    const double t = t_, e = std::min(adaptive_epsilon_, t_end - t);
    // Halos are copied with the blocks, so every restored block is consistent.
    Kokkos::deep_copy(space, before_->links(), field.links());
    step(e);
    Kokkos::deep_copy(space, full_step_->links(), field.links());
    Kokkos::deep_copy(space, field.links(), before_->links());
    step(0.5 * e);
    step(0.5 * e);
    double difference = 0;
    Kokkos::parallel_reduce("su2::flow_step_difference", links,
                            LinkDistanceKernel<Space, Real>{field.links(), full_step_->links()},
                            Kokkos::Max<double>(difference));
    space.fence();
    // Every rank takes the same decision.
    const double error = max_over_ranks(difference) / 7;
    const double factor =
        error > 0 ? std::clamp(0.9 * std::pow(tolerance / error, 0.25), 0.2, 2.0) : 2.0;
    if (error <= tolerance) {
      t_ = t + e;
      if (t_end - t_ <= 1e-12 * std::max(1.0, t_end)) t_ = t_end;
      ++accepted;
      // A step shortened to land on t_end says nothing about the step the field allows.
      if (e == adaptive_epsilon_ || factor < 1) adaptive_epsilon_ = e * factor;
    } else {
      Kokkos::deep_copy(space, field.links(), before_->links());
      space.fence();
      t_ = t;
      adaptive_epsilon_ = e * factor;
      // Rounding of the links bounds the error from below (about 1e-7 in float).
      if (adaptive_epsilon_ < 1e-10)
        throw std::runtime_error("Wilson flow: the tolerance " + std::to_string(tolerance) +
                                 " is not reached even by steps of 1e-10: below the rounding "
                                 "of the links in this precision");
    }
  }
  return accepted;
}

template <class Space, class Real>
FlowObservables WilsonFlow<Space, Real>::measure() const {
  FlowObservables o;
  if (distributed_) {
    const FlowSums local = flow_sums(distributed_->local(), distributed_->embedding());
    double sums[3] = {local.plaquette, local.clover, local.charge};
    distributed_->communicator().sum(sums, 3);
    o = observables_of(FlowSums{sums[0], sums[1], sums[2]},
                       static_cast<int>(distributed_->extents().size()),
                       static_cast<double>(distributed_->volume()));
  } else {
    o = flow_observables(*field_);
  }
  o.t = t_;
  return o;
}

#define PORTAMC_SU2_FLOW_(Space)                                              \
  template class WilsonFlow<Space, float>;                                    \
  template class WilsonFlow<Space, double>;                                   \
  template FlowObservables flow_observables(const GaugeField<Space, float>&); \
  template FlowObservables flow_observables(const GaugeField<Space, double>&);
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_FLOW_)
#undef PORTAMC_SU2_FLOW_

}  // namespace portamc::su2
