#pragma once
// The Wilson (gradient) flow of an SU(2) gauge field (Lüscher, JHEP 08 (2010) 071):
//   dV_mu(x, t)/dt = Z_mu(x) V_mu(x, t),   Z = -(Omega - Omega^dagger)/2,   Omega = V_mu(x) W,
// W the staple sum of the link (staple.hpp: Tr(V W) is the sum of the traces of the plaquettes
// through it), i.e. Z = -g0^2 times the Lie-algebra derivative of the Wilson action, so t has
// Lüscher's normalisation (a smooth mode of lattice momentum p decays as exp(-p^2 t), p^2 =
// sum 4 sin^2(p_mu / 2); tested). For SU(2) quaternions (q0, q) = Omega, Z = (0, -q): the
// flow raises Tr(V W) at rate |q|^2, so the action never grows.
//
// Integrator: Lüscher's third-order Runge-Kutta scheme in its low-storage form, every link
// updated from the same field at each stage (no checkerboard):
//   X = eps/4 Z(W0);                     W1 = exp(X) W0
//   X = 8/9 eps Z(W1) - 17/9 X;          W2 = exp(X) W1
//   X = 3/4 eps Z(W2) - X;               V(t + eps) = exp(X) W2
// with exp of (0, x) = (cos|x|, sin|x| x/|x|) exact in SU(2). Products in double; the links
// and X are stored in the field's precision, and each new link is renormalised.
//
// Observables, per site (summed over the lattice and divided by its volume):
//   E_plaq = 2 sum_{mu<nu} Re tr(1 - P_mu_nu(x))          (the plaquette at x)
//   E_clov = -1/2 sum_{mu,nu} tr(G_mu_nu G_mu_nu) = sum_{mu<nu} |c_mu_nu|^2 / 8,
//   G_mu_nu = (Q_mu_nu - Q_nu_mu) / 8 = (0, c_mu_nu / 4), with Q_mu_nu = (q0, c_mu_nu) the sum
//   of the four plaquettes (leaves) at x in the plane, all starting at x counter-clockwise;
//   q(x) = -1/(32 pi^2) eps_munurhosigma tr(G_mu_nu G_rho_sigma)
//        = (c_01 . c_23 - c_02 . c_13 + c_03 . c_12) / (32 pi^2)   (4D only, eps_0123 = +1),
// and Q = sum_x q(x). Both energies agree up to O(a^2) on smooth fields.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <memory>

#include "portamc/backends.hpp"
#include "portamc/su2/distributed_field.hpp"
#include "portamc/su2/gauge_field.hpp"

namespace portamc::su2 {

/// Gradient-flow observables of a field at flow time t.
struct FlowObservables {
  double t = 0;
  double energy_plaquette = 0;  ///< E_plaq per site
  double energy_clover = 0;     ///< E_clov per site
  double charge = 0;            ///< Q, clover definition (NaN unless the lattice is 4D)
};

/// The observables of `field` (with t = 0), run on field.space().
template <class Space, class Real>
FlowObservables flow_observables(const GaugeField<Space, Real>& field);

template <class Space, class Real = double>
class WilsonFlow {
 public:
  /// Flows a copy of `start` (which stays unchanged) on the instance `space`.
  WilsonFlow(const Space& space, const GaugeField<Space, Real>& start);
  /// Flows a copy of a field split over ranks, as `options` split it (the same decomposition
  /// as `start`'s): kernels run on the interior of each rank's block and the halos are
  /// refreshed after every stage, so the configuration is the one-rank flow's to rounding.
  /// Collective, and so is every member below then; measure() sums over ranks.
  WilsonFlow(const Space& space, const DistributedField<Space, Real>& start,
             const ParallelOptions& options);

  /// One Runge-Kutta step of size epsilon > 0 (std::invalid_argument otherwise).
  void step(double epsilon);
  /// Steps of epsilon until time() is t_end; the last step is shortened to land on it.
  void flow_to(double t_end, double epsilon);
  /// Flows to t_end with adaptive steps (step doubling): each step of size e is compared with
  /// two of e/2, and the two half steps are kept when their estimated local error, the
  /// largest difference of any link component divided by 7 (2^3 - 1 for a third-order
  /// integrator), is at most `tolerance`; otherwise the step is retried smaller. The next
  /// step is e * clamp(0.9 (tolerance / error)^(1/4), 0.2, 2), never past t_end. Starts from
  /// `epsilon` on the first call and from the controller's last step afterwards. Returns the
  /// accepted steps. std::invalid_argument for a non-positive tolerance or epsilon;
  /// std::runtime_error when steps below 1e-10 still miss the tolerance (rounding).
  long long flow_to_adaptive(double t_end, double tolerance, double epsilon);
  /// The step the adaptive controller tries next (0 before its first call).
  double adaptive_epsilon() const { return adaptive_epsilon_; }
  double time() const { return t_; }

  /// The observables of the flowed field at time().
  FlowObservables measure() const;
  /// The flowed field: the whole lattice on one rank, this rank's padded block when split.
  const GaugeField<Space, Real>& field() const {
    return distributed_ ? distributed_->local() : *field_;
  }

 private:
  GaugeField<Space, Real>& block() { return distributed_ ? distributed_->local() : *field_; }
  template <class F>
  void with_embedding(F&& f) const;
  void exchange_halos();
  double max_over_ranks(double value) const;

  std::unique_ptr<GaugeField<Space, Real>> field_;              ///< one rank
  std::unique_ptr<DistributedField<Space, Real>> distributed_;  ///< several
  Kokkos::View<Real* [3], typename Space::memory_space> x_;     ///< the Runge-Kutta accumulator
  double t_ = 0;
  double adaptive_epsilon_ = 0;
  /// The field before a trial step and after one full step (allocated on first use).
  std::unique_ptr<GaugeField<Space, Real>> before_, full_step_;
};

#define PORTAMC_SU2_FLOW_(Space)                                                     \
  extern template class WilsonFlow<Space, float>;                                    \
  extern template class WilsonFlow<Space, double>;                                   \
  extern template FlowObservables flow_observables(const GaugeField<Space, float>&); \
  extern template FlowObservables flow_observables(const GaugeField<Space, double>&);
PORTAMC_FOR_EACH_SPACE(PORTAMC_SU2_FLOW_)
#undef PORTAMC_SU2_FLOW_

}  // namespace portamc::su2
