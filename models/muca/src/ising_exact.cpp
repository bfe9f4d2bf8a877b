// Exact 2D Ising results on the periodic L x L lattice: enumeration, transfer matrix and the
// Ferdinand-Fisher closed form. See the header for conventions.
#include "portamc/muca/ising_exact.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace portamc::muca::exact {

namespace {

int popcount64(std::uint64_t x) {
  return __builtin_popcountll(x);
}

// The energy bookkeeping below counts unsatisfied bonds u = 0..2N; E = -2N + 2u, so bin k = u/2.
// An odd u with a non-zero count would mean a bond was missed or double counted.
std::vector<Count> bins_from_unsatisfied(const std::vector<Count>& by_unsat, int n) {
  std::vector<Count> g(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t u = 0; u < by_unsat.size(); ++u) {
    if (u % 2 == 1) {
      if (by_unsat[u] != 0) {
        throw std::logic_error("ising_exact: odd number of unsatisfied bonds on the torus");
      }
      continue;
    }
    g[u / 2] = by_unsat[u];
  }
  return g;
}

// Cyclic shift of an L-bit row by one column: bit c of the result is bit (c + 1) mod L of `row`,
// i.e. the right-hand neighbour of column c.
std::uint32_t right_neighbours(std::uint32_t row, int L) {
  const std::uint32_t mask = (1u << L) - 1u;
  return ((row >> 1) | (row << (L - 1))) & mask;
}

std::uint32_t reflect_row(std::uint32_t row, int L) {
  std::uint32_t r = 0;
  for (int c = 0; c < L; ++c) r |= ((row >> c) & 1u) << (L - 1 - c);
  return r;
}

// Counts by unsatisfied bonds for all configurations whose first row is r0. The front holds the
// L most recently placed spins: columns < c already belong to the row being built, columns >= c
// still to the row above. Fixing r0 is what makes the periodic vertical boundary cheap: closing
// it needs only the last front and r0, instead of a front that drags the first row along (2^(2L)
// states). CountT only has to hold 2^(N - L), the configurations sharing one first row.
template <class CountT>
void add_first_row_class(int L, std::uint32_t r0, Count multiplicity, std::vector<Count>& out) {
  const int n = L * L;
  const std::size_t states = std::size_t{1} << L;
  const std::size_t bins = static_cast<std::size_t>(2 * n + 1);
  std::vector<CountT> cur(states * bins, 0);
  std::vector<CountT> next(states * bins, 0);

  // Horizontal bonds inside the first row (L of them, also for L = 2 where the same pair is
  // bonded twice: each site keeps four bonds so that E = -2N + 2u holds for every L).
  cur[r0 * bins + static_cast<std::size_t>(popcount64(r0 ^ right_neighbours(r0, L)))] = 1;
  int max_unsat = L;  // bonds placed so far bound u, so loops skip the untouched upper bins

  for (int row = 1; row < L; ++row) {
    for (int c = 0; c < L; ++c) {
      // New bonds: up always, left for c > 0, and the horizontal wrap bond at the last column.
      const int new_max = max_unsat + 1 + (c > 0 ? 1 : 0) + (c == L - 1 ? 1 : 0);
      std::fill(next.begin(), next.end(), CountT{0});
      const std::uint32_t bit = 1u << c;
      for (std::uint32_t ns = 0; ns < states; ++ns) {
        const std::uint32_t s = (ns >> c) & 1u;
        int side = 0;
        if (c > 0) side += static_cast<int>(s != ((ns >> (c - 1)) & 1u));
        if (c == L - 1) side += static_cast<int>(s != (ns & 1u));
        CountT* dst = &next[ns * bins];
        for (std::uint32_t up = 0; up < 2; ++up) {
          // The previous front differs from the new one only in column c, which held the spin
          // directly above the one being placed.
          const std::uint32_t os = (ns & ~bit) | (up << c);
          const int d = side + static_cast<int>(s != up);
          const CountT* src = &cur[os * bins];
          for (int u = 0; u <= max_unsat; ++u) dst[u + d] += src[u];
        }
      }
      cur.swap(next);
      max_unsat = new_max;
    }
  }

  // Close the torus vertically: the last row's down-neighbours are the fixed first row.
  for (std::uint32_t f = 0; f < states; ++f) {
    const int closing = popcount64(f ^ r0);
    const CountT* src = &cur[f * bins];
    for (int u = 0; u <= max_unsat; ++u) {
      if (src[u] != 0) out[static_cast<std::size_t>(u + closing)] += multiplicity * Count{src[u]};
    }
  }
}

void check_beta(double beta) {
  if (!std::isfinite(beta)) throw std::invalid_argument("ising_exact: beta must be finite");
}

// ---------------------------------------------------------------------------------------------
// Ferdinand-Fisher. Everything is carried as Z_i = exp(ell) * v, Z_i' = exp(ell) * v1,
// Z_i'' = exp(ell) * v2 (derivatives in K = beta J), with ell a log scale and v, v1, v2 of order
// one: the products overflow double already around L ~ 40 at low temperature, and Z_4 changes
// sign at K_c so it cannot be handled purely in logs. long double buys a few digits against the
// cancellation between the prefactor and the products at small K.
using Real = long double;

struct Scaled {
  Real ell = 0;  // log scale
  Real v = 0, v1 = 0, v2 = 0;
};

struct Gamma {
  Real g, g1, g2;  // gamma_l and its first two K-derivatives
};

Real pi_l() {
  return std::acos(Real{-1});
}

// gamma_l for l >= 1 from cosh gamma_l = cosh 2K coth 2K - cos(pi l / L). Writing s = sinh 2K,
// cosh 2K coth 2K - 1 = (s - 1)^2 / s + 1, so cosh gamma_l - 1 = (s - 1)^2 / s + 2 sin^2(theta/2)
// is a sum of non-negative terms; evaluating acosh near 1 from that avoids the cancellation that
// costs digits at criticality for large L, where gamma_1 ~ pi/L is small.
Gamma gamma_l(int l, int L, Real K) {
  const Real s = std::sinh(2 * K);
  const Real ch = std::cosh(2 * K);
  const Real half_theta = pi_l() * static_cast<Real>(l) / static_cast<Real>(2 * L);
  const Real sn = std::sin(half_theta);
  const Real x = (s - 1) * (s - 1) / s + 2 * sn * sn;  // cosh gamma - 1 > 0 for l >= 1
  const Real cosh_g = 1 + x;
  const Real sinh_g = std::sqrt(x * (x + 2));
  // d/dK and d2/dK2 of c(K) = cosh 2K coth 2K = s + 1/s; cos(theta) does not depend on K.
  const Real c1 = 2 * ch * (1 - 1 / (s * s));
  const Real c2 = 4 * (s - 1 / s) + 8 * ch * ch / (s * s * s);
  Gamma r;
  r.g = std::log1p(x + sinh_g);
  r.g1 = c1 / sinh_g;
  r.g2 = (c2 - cosh_g * r.g1 * r.g1) / sinh_g;
  return r;
}

// gamma_0 = 2K + ln tanh K, with its sign: negative above T_c, positive below. Only through this
// sign does Z_4 = prod 2 sinh(L gamma_{2r} / 2) turn negative in the disordered phase.
Gamma gamma_0(Real K) {
  const Real s = std::sinh(2 * K);
  const Real ch = std::cosh(2 * K);
  Gamma r;
  r.g = 2 * K + std::log(std::tanh(K));
  r.g1 = 2 + 2 / s;  // d/dK ln tanh K = 1/(sinh K cosh K) = 2/sinh 2K
  r.g2 = -4 * ch / (s * s);
  return r;
}

// ln(2 cosh x) and ln(2 sinh x) (x > 0) without overflowing for large |x|.
Real log_2cosh(Real x) {
  const Real a = std::fabs(x);
  return a + std::log1p(std::exp(-2 * a));
}
Real log_2sinh(Real x) {
  return x + std::log1p(-std::exp(-2 * x));
}

// Product over the "regular" factors 2cosh(x_l) or 2sinh(x_l), x_l = (L/2) gamma_l with l >= 1,
// where x_l >~ pi/2 so coth and csch stay bounded. Returns ell = sum ln f and v = 1,
// v1 = D1, v2 = D2 + D1^2 with D1, D2 the first and second derivatives of sum ln f.
Scaled regular_product(int L, Real K, int l_first, bool use_sinh) {
  const Real half_m = static_cast<Real>(L) / 2;
  Real ell = 0, d1 = 0, d2 = 0;
  for (int r = 0; r < L; ++r) {
    const int l = l_first + 2 * r;
    if (l == 0) continue;  // the gamma_0 factor is handled by the caller
    const Gamma gm = gamma_l(l, L, K);
    const Real x = half_m * gm.g, x1 = half_m * gm.g1, x2 = half_m * gm.g2;
    const Real t = std::exp(-2 * x);
    if (use_sinh) {
      const Real coth = (1 + t) / (-std::expm1(-2 * x));
      const Real csch2 = 4 * t / ((1 - t) * (1 - t));
      ell += log_2sinh(x);
      d1 += coth * x1;
      d2 += coth * x2 - csch2 * x1 * x1;
    } else {
      const Real tanh = -std::expm1(-2 * x) / (1 + t);
      const Real sech2 = 4 * t / ((1 + t) * (1 + t));
      ell += log_2cosh(x);
      d1 += tanh * x1;
      d2 += tanh * x2 + sech2 * x1 * x1;
    }
  }
  Scaled p;
  p.ell = ell;
  p.v = 1;
  p.v1 = d1;
  p.v2 = d2 + d1 * d1;
  return p;
}

// Z_3 or Z_4: the regular product times the gamma_0 factor f0 = 2cosh(x0) or 2sinh(x0). Scaling
// by 2cosh(x0) keeps f0 and its derivatives finite and free of divisions even at K = K_c where
// x0 = 0 and Z_4 vanishes (a coth(x0) there would blow up and cancel catastrophically).
Scaled even_term(int L, Real K, bool use_sinh) {
  const Scaled p = regular_product(L, K, 0, use_sinh);
  const Gamma g0 = gamma_0(K);
  const Real half_m = static_cast<Real>(L) / 2;
  const Real x = half_m * g0.g, x1 = half_m * g0.g1, x2 = half_m * g0.g2;
  const Real th = std::tanh(x);
  Real f, f1, f2;  // f0, f0', f0'' divided by 2cosh(x0)
  if (use_sinh) {
    f = th;
    f1 = x1;
    f2 = th * x1 * x1 + x2;
  } else {
    f = 1;
    f1 = th * x1;
    f2 = x1 * x1 + th * x2;
  }
  Scaled z;
  z.ell = p.ell + log_2cosh(x);
  z.v = f * p.v;
  z.v1 = f1 * p.v + f * p.v1;
  z.v2 = f2 * p.v + 2 * f1 * p.v1 + f * p.v2;
  return z;
}

struct LogZDerivatives {
  Real log_z, d1, d2;  // ln Z and its first two derivatives in K
};

// Z = 1/2 (2 sinh 2K)^(N/2) (Z_1 + Z_2 + Z_3 + Z_4) for the L x L torus (m = n = L):
//   Z_1 = prod_{r=0}^{L-1} 2 cosh(L gamma_{2r+1} / 2),  Z_2 = same with sinh,
//   Z_3 = prod_{r=0}^{L-1} 2 cosh(L gamma_{2r} / 2),    Z_4 = same with sinh.
LogZDerivatives ff_log_z(int L, Real K) {
  const Real n = static_cast<Real>(L) * static_cast<Real>(L);
  const Scaled terms[4] = {regular_product(L, K, 1, false), regular_product(L, K, 1, true),
                           even_term(L, K, false), even_term(L, K, true)};
  Real ell_max = terms[0].ell;
  for (const Scaled& t : terms) ell_max = std::max(ell_max, t.ell);
  Real s0 = 0, s1 = 0, s2 = 0;
  for (const Scaled& t : terms) {
    const Real w = std::exp(t.ell - ell_max);
    s0 += w * t.v;
    s1 += w * t.v1;
    s2 += w * t.v2;
  }
  if (!(s0 > 0)) throw std::logic_error("ferdinand_fisher: non-positive partition sum");
  const Real s = std::sinh(2 * K);
  const Real ch = std::cosh(2 * K);
  LogZDerivatives r;
  r.log_z = -std::log(Real{2}) + n / 2 * std::log(2 * s) + ell_max + std::log(s0);
  r.d1 = n * ch / s + s1 / s0;  // d/dK (N/2) ln(2 sinh 2K) = N coth 2K
  r.d2 = -2 * n / (s * s) + s2 / s0 - (s1 / s0) * (s1 / s0);
  return r;
}

void check_ff_args(int L, double beta) {
  if (L < 2) throw std::invalid_argument("ferdinand_fisher: L must be >= 2");
  if (!std::isfinite(beta) || beta < 0) {
    throw std::invalid_argument("ferdinand_fisher: beta must be finite and >= 0");
  }
}

}  // namespace

std::vector<Count> dos_counts_enumeration(int L) {
  if (L < 2 || L > 5) {
    throw std::invalid_argument("ising_exact enumeration: L must be in [2, 5], got " +
                                std::to_string(L));
  }
  const int n = L * L;
  const std::uint64_t all = (std::uint64_t{1} << n) - 1;
  // Site i = row * L + col is bit i. Build, for every site at once, the bit of its right and its
  // lower neighbour; the unsatisfied bonds are then two popcounts per configuration.
  std::uint64_t last_col = 0;
  for (int r = 0; r < L; ++r) last_col |= std::uint64_t{1} << (r * L + L - 1);
  const std::uint64_t other_cols = all & ~last_col;
  std::vector<std::uint64_t> by_unsat(static_cast<std::size_t>(2 * n + 1), 0);
  // Global spin flip leaves the energy unchanged, so only states with the top spin down are
  // visited and each is counted twice.
  const std::uint64_t half = std::uint64_t{1} << (n - 1);
  for (std::uint64_t s = 0; s < half; ++s) {
    const std::uint64_t right = ((s >> 1) & other_cols) | ((s << (L - 1)) & last_col);
    const std::uint64_t down = ((s >> L) | (s << (n - L))) & all;
    ++by_unsat[static_cast<std::size_t>(popcount64(s ^ right) + popcount64(s ^ down))];
  }
  std::vector<Count> wide(by_unsat.size());
  for (std::size_t u = 0; u < by_unsat.size(); ++u) wide[u] = Count{2} * by_unsat[u];
  return bins_from_unsatisfied(wide, n);
}

std::vector<Count> dos_counts_transfer_matrix(int L) {
  if (L < 2 || L > 10) {
    throw std::invalid_argument("ising_exact transfer matrix: L must be in [2, 10], got " +
                                std::to_string(L));
  }
  const int n = L * L;
  const std::uint32_t rows = 1u << L;
  // The count for a fixed first row is invariant under the lattice symmetries that map the first
  // row to itself as a set: column translations, column reflection and the global spin flip. So
  // the transfer matrix runs once per orbit representative (256 rows -> 36 -> 30 -> 18
  // representatives at L = 8) and is weighted by the orbit size.
  std::vector<Count> multiplicity(rows, 0);
  for (std::uint32_t r0 = 0; r0 < rows; ++r0) {
    std::uint32_t rep = r0;
    std::uint32_t rot = r0;
    for (int k = 0; k < L; ++k) {
      const std::uint32_t refl = reflect_row(rot, L);
      const std::uint32_t mask = rows - 1u;
      rep = std::min({rep, rot, refl, rot ^ mask, refl ^ mask});
      rot = right_neighbours(rot, L);
    }
    ++multiplicity[rep];
  }
  std::vector<Count> by_unsat(static_cast<std::size_t>(2 * n + 1), 0);
  const bool fits_64 = n - L < 64;  // one first row leaves 2^(N - L) configurations
  for (std::uint32_t r0 = 0; r0 < rows; ++r0) {
    if (multiplicity[r0] == 0) continue;
    if (fits_64) {
      add_first_row_class<std::uint64_t>(L, r0, multiplicity[r0], by_unsat);
    } else {
      add_first_row_class<Count>(L, r0, multiplicity[r0], by_unsat);
    }
  }
  return bins_from_unsatisfied(by_unsat, n);
}

std::vector<double> log_dos_from_counts(const std::vector<Count>& counts) {
  std::vector<double> out(counts.size());
  for (std::size_t k = 0; k < counts.size(); ++k) {
    out[k] = counts[k] == 0 ? -std::numeric_limits<double>::infinity()
                            : std::log(static_cast<double>(counts[k]));
  }
  return out;
}

std::vector<double> log_dos_enumeration(int L) {
  return log_dos_from_counts(dos_counts_enumeration(L));
}

std::vector<double> log_dos_transfer_matrix(int L) {
  return log_dos_from_counts(dos_counts_transfer_matrix(L));
}

Canonical canonical_from_log_dos(const std::vector<double>& log_dos, int L, double beta) {
  check_beta(beta);
  if (L < 1) throw std::invalid_argument("canonical_from_log_dos: L must be positive");
  const int n = L * L;
  if (log_dos.size() != static_cast<std::size_t>(n) + 1) {
    throw std::invalid_argument("canonical_from_log_dos: need N + 1 = " + std::to_string(n + 1) +
                                " bins, got " + std::to_string(log_dos.size()));
  }
  std::vector<double> energy(log_dos.size());
  for (std::size_t k = 0; k < energy.size(); ++k)
    energy[k] = -2.0 * n + 4.0 * static_cast<double>(k);
  return canonical_from_log_dos(log_dos, energy, n, beta);
}

Canonical canonical_from_log_dos(const std::vector<double>& log_dos,
                                 const std::vector<double>& energy, double sites, double beta) {
  check_beta(beta);
  if (energy.size() != log_dos.size())
    throw std::invalid_argument("canonical_from_log_dos: " + std::to_string(log_dos.size()) +
                                " values of ln g for " + std::to_string(energy.size()) +
                                " energies");
  if (!(sites > 0)) throw std::invalid_argument("canonical_from_log_dos: sites must be positive");
  const double n = sites;
  // Shift by the largest Boltzmann log-weight so that no exponential overflows or all underflow,
  // whatever beta does to the range of ln g - beta E.
  double w_max = -std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < log_dos.size(); ++k) {
    if (std::isfinite(log_dos[k])) w_max = std::max(w_max, log_dos[k] - beta * energy[k]);
  }
  if (!std::isfinite(w_max)) {
    throw std::invalid_argument("canonical_from_log_dos: density of states has no finite bin");
  }
  double z = 0, e_sum = 0;
  std::vector<double> p(log_dos.size(), 0.0);
  for (std::size_t k = 0; k < log_dos.size(); ++k) {
    if (!std::isfinite(log_dos[k])) continue;
    p[k] = std::exp(log_dos[k] - beta * energy[k] - w_max);
    z += p[k];
    e_sum += p[k] * energy[k];
  }
  const double mean = e_sum / z;
  // Two-pass variance: <E^2> - <E>^2 cancels catastrophically at low temperature, where the
  // fluctuations are tiny compared with E^2 ~ 4 N^2.
  double var = 0;
  for (std::size_t k = 0; k < log_dos.size(); ++k) {
    const double d = energy[k] - mean;
    var += p[k] * d * d;
  }
  var /= z;
  const double log_z = w_max + std::log(z);
  Canonical c;
  c.energy_per_spin = mean / n;
  c.specific_heat_per_spin = beta * beta * var / n;
  c.free_energy_per_spin =
      beta == 0 ? -std::numeric_limits<double>::infinity() : -log_z / (beta * n);
  c.entropy_per_spin = log_z / n + beta * c.energy_per_spin;  // finite at beta = 0 too
  return c;
}

double ferdinand_fisher_log_z(int L, double beta) {
  check_ff_args(L, beta);
  const Real n = static_cast<Real>(L) * static_cast<Real>(L);
  // At K = 0 the closed form is 0 * infinity; the limit is simply 2^N.
  if (beta == 0) return static_cast<double>(n * std::log(Real{2}));
  return static_cast<double>(ff_log_z(L, static_cast<Real>(beta)).log_z);
}

Canonical ferdinand_fisher(int L, double beta) {
  check_ff_args(L, beta);
  const Real n = static_cast<Real>(L) * static_cast<Real>(L);
  Canonical c;
  if (beta == 0) {
    c.energy_per_spin = 0;
    c.specific_heat_per_spin = 0;
    c.free_energy_per_spin = -std::numeric_limits<double>::infinity();
    c.entropy_per_spin = static_cast<double>(std::log(Real{2}));
    return c;
  }
  const Real b = static_cast<Real>(beta);
  const LogZDerivatives z = ff_log_z(L, b);
  // With J = 1, K = beta: U = -d ln Z / d beta, C = beta^2 d^2 ln Z / d beta^2.
  const Real u = -z.d1 / n;
  c.energy_per_spin = static_cast<double>(u);
  c.specific_heat_per_spin = static_cast<double>(b * b * z.d2 / n);
  c.free_energy_per_spin = static_cast<double>(-z.log_z / (b * n));
  c.entropy_per_spin = static_cast<double>(z.log_z / n + b * u);
  return c;
}

}  // namespace portamc::muca::exact
