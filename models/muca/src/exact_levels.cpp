// Exact level counts of small lattices; see the header.
#include "portamc/muca/exact_levels.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace portamc::muca::exact {

namespace {

Levels empty_levels(const Hamiltonian& h) {
  Levels out;
  out.sites = h.sites();
  const long long bonds = h.bonds();
  out.bond_min = static_cast<int>(bonds * h.min_bond_energy());
  out.bond_levels = static_cast<int>(bonds * (h.max_bond_energy() - h.min_bond_energy())) + 1;
  out.field_levels = h.field_levels();
  out.counts.assign(static_cast<std::size_t>(out.bond_levels) * out.field_levels, 0);
  return out;
}

// Offset of (bond, field) in Levels::counts relative to (0, 0): partial sums of bond
// energies stay in [bond_min, bond_max] because min_bond_energy <= 0 <= max_bond_energy, so
// adding a layer is a shift of the whole array.
long long level_offset(const Levels& l, int bond, int field) {
  return static_cast<long long>(bond) * l.field_levels + field;
}

long long power(long long base, long long exponent, long long cap) {
  long long p = 1;
  for (long long k = 0; k < exponent; ++k) {
    if (p > cap / base) return cap + 1;
    p *= base;
  }
  return p;
}

// The periodic L^d lattice, sites numbered with x fastest.
struct Torus {
  int L, d;
  // The neighbour of `site` in direction mu (+1 along that axis, periodic).
  long long up(long long site, int mu) const {
    long long stride = 1;
    for (int k = 0; k < mu; ++k) stride *= L;
    const long long coordinate = (site / stride) % L;
    return coordinate == L - 1 ? site - (L - 1) * stride : site + stride;
  }
};

}  // namespace

Count Levels::at(int bond, int field) const {
  if (bond < bond_min || bond >= bond_min + bond_levels || field < 0 || field >= field_levels)
    return 0;
  return counts[static_cast<std::size_t>(bond - bond_min) * field_levels + field];
}

Count Levels::total() const {
  Count sum = 0;
  for (Count c : counts) sum += c;
  return sum;
}

void enumerate_configurations(const Hamiltonian& h, const ConfigurationVisitor& visit) {
  validate(h);
  const int s = h.site_states();
  const long long n = h.sites();
  constexpr long long kMaxConfigurations = 50'000'000;
  if (power(s, n, kMaxConfigurations) > kMaxConfigurations)
    throw std::invalid_argument("exact levels of " + h.describe() + ": " + std::to_string(s) + "^" +
                                std::to_string(n) +
                                " configurations are too many to enumerate one by one "
                                "(at most 5e7); use the transfer matrix");
  const Torus torus{h.L, h.dimension};
  std::vector<long long> neighbour(static_cast<std::size_t>(n * h.dimension));
  for (long long i = 0; i < n; ++i)
    for (int mu = 0; mu < h.dimension; ++mu)
      neighbour[static_cast<std::size_t>(i * h.dimension + mu)] = torus.up(i, mu);
  std::vector<int> state(static_cast<std::size_t>(n), 0);
  while (true) {
    int bond = 0, field = 0;
    for (long long i = 0; i < n; ++i) {
      const int a = state[static_cast<std::size_t>(i)];
      field += h.field_count(a);
      for (int mu = 0; mu < h.dimension; ++mu)
        bond += h.bond_energy(a, state[static_cast<std::size_t>(
                                     neighbour[static_cast<std::size_t>(i * h.dimension + mu)])]);
    }
    visit(state, bond, field);
    // Next configuration: a base-s counter over the sites.
    long long i = 0;
    while (i < n && ++state[static_cast<std::size_t>(i)] == s)
      state[static_cast<std::size_t>(i++)] = 0;
    if (i == n) break;
  }
}

Levels levels_by_enumeration(const Hamiltonian& h) {
  Levels out = empty_levels(h);
  enumerate_configurations(h, [&out](const std::vector<int>&, int bond, int field) {
    ++out.counts[static_cast<std::size_t>(bond - out.bond_min) * out.field_levels + field];
  });
  return out;
}

Levels levels_by_transfer_matrix(const Hamiltonian& h) {
  validate(h);
  const int s = h.site_states();
  const int layer_sites = h.dimension == 2 ? h.L : h.L * h.L;
  Levels out = empty_levels(h);
  const auto levels = static_cast<long long>(out.counts.size());
  constexpr long long kMaxStates = 1 << 16;
  constexpr double kMaxCost = 2e10;
  const long long S = power(s, layer_sites, kMaxStates);
  if (S > kMaxStates ||
      static_cast<double>(S) * S * S * (h.L - 1) * static_cast<double>(levels) > kMaxCost)
    throw std::invalid_argument("exact levels of " + h.describe() + ": a transfer matrix over " +
                                std::to_string(s) + "^" + std::to_string(layer_sites) +
                                " layer states costs more than 2e10 operations");
  // Layer state a: digit k (site k of the layer, x fastest) = (a / s^k) mod s.
  std::vector<int> digit(static_cast<std::size_t>(S * layer_sites));
  for (long long a = 0; a < S; ++a) {
    long long rest = a;
    for (int k = 0; k < layer_sites; ++k, rest /= s)
      digit[static_cast<std::size_t>(a * layer_sites + k)] = static_cast<int>(rest % s);
  }
  const auto site_of = [&](long long a, int k) {
    return digit[static_cast<std::size_t>(a * layer_sites + k)];
  };
  // In-layer bonds (the first d - 1 directions, a (d-1)-torus), field, and between-layer bonds.
  const Torus layer{h.L, h.dimension - 1};
  std::vector<int> intra(static_cast<std::size_t>(S), 0), field(static_cast<std::size_t>(S), 0);
  std::vector<int> inter(static_cast<std::size_t>(S * S), 0);
  for (long long a = 0; a < S; ++a) {
    for (int k = 0; k < layer_sites; ++k) {
      field[static_cast<std::size_t>(a)] += h.field_count(site_of(a, k));
      for (int mu = 0; mu < h.dimension - 1; ++mu)
        intra[static_cast<std::size_t>(a)] +=
            h.bond_energy(site_of(a, k), site_of(a, static_cast<int>(layer.up(k, mu))));
    }
    for (long long b = 0; b < S; ++b)
      for (int k = 0; k < layer_sites; ++k)
        inter[static_cast<std::size_t>(a * S + b)] += h.bond_energy(site_of(a, k), site_of(b, k));
  }
  const long long zero = level_offset(out, -out.bond_min, 0);  // index of (bond 0, field 0)
  std::vector<Count> current(static_cast<std::size_t>(S * levels)), next(current.size());
  // Adds row `from` of `source`, shifted by (bond, field), to row `to` of `target`.
  const auto add_shifted = [&](const std::vector<Count>& source, long long from,
                               std::vector<Count>& target, long long to, long long shift) {
    const Count* src = source.data() + from * levels;
    Count* dst = target.data() + to * levels;
    const long long begin = std::max(0LL, -shift), end = std::min(levels, levels - shift);
    for (long long i = begin; i < end; ++i)
      if (src[i] != 0) dst[i + shift] += src[i];
  };
  for (long long first = 0; first < S; ++first) {
    std::fill(current.begin(), current.end(), 0);
    current[static_cast<std::size_t>(first * levels + zero +
                                     level_offset(out, intra[static_cast<std::size_t>(first)],
                                                  field[static_cast<std::size_t>(first)]))] = 1;
    for (int layer_index = 1; layer_index < h.L; ++layer_index) {
      std::fill(next.begin(), next.end(), 0);
      for (long long a = 0; a < S; ++a)
        for (long long b = 0; b < S; ++b)
          add_shifted(current, a, next, b,
                      level_offset(out,
                                   inter[static_cast<std::size_t>(a * S + b)] +
                                       intra[static_cast<std::size_t>(b)],
                                   field[static_cast<std::size_t>(b)]));
      current.swap(next);
    }
    // Close the torus: bonds from the last layer back to the first.
    std::vector<Count> closed(static_cast<std::size_t>(levels), 0);
    for (long long a = 0; a < S; ++a)
      add_shifted(current, a, closed, 0,
                  level_offset(out, inter[static_cast<std::size_t>(a * S + first)], 0));
    for (long long i = 0; i < levels; ++i)
      out.counts[static_cast<std::size_t>(i)] += closed[static_cast<std::size_t>(i)];
  }
  return out;
}

LogDensity log_density(const Levels& levels, double crystal_field) {
  struct Level {
    double energy;
    long double count;
  };
  std::vector<Level> occupied;
  for (int b = 0; b < levels.bond_levels; ++b) {
    for (int f = 0; f < levels.field_levels; ++f) {
      const Count c = levels.at(levels.bond_min + b, f);
      if (c != 0)
        occupied.push_back({levels.bond_min + b + crystal_field * f, static_cast<long double>(c)});
    }
  }
  std::sort(occupied.begin(), occupied.end(),
            [](const Level& x, const Level& y) { return x.energy < y.energy; });
  LogDensity out;
  for (std::size_t i = 0; i < occupied.size();) {
    // Equal energies (a rational D can make different (bond, field) pairs coincide) merge.
    long double sum = 0;
    std::size_t j = i;
    const double tolerance = 1e-12 * std::max(1.0, std::fabs(occupied[i].energy));
    while (j < occupied.size() && occupied[j].energy - occupied[i].energy <= tolerance)
      sum += occupied[j++].count;
    out.energy.push_back(occupied[i].energy);
    out.log_g.push_back(static_cast<double>(std::log(sum)));
    i = j;
  }
  return out;
}

std::vector<double> log_partition_by_field(const Levels& levels, double beta) {
  std::vector<double> out(static_cast<std::size_t>(levels.field_levels),
                          -std::numeric_limits<double>::infinity());
  for (int field = 0; field < levels.field_levels; ++field) {
    double top = -std::numeric_limits<double>::infinity();
    for (int b = 0; b < levels.bond_levels; ++b)
      if (levels.at(levels.bond_min + b, field) != 0)
        top = std::max(top, -beta * (levels.bond_min + b));
    if (top == -std::numeric_limits<double>::infinity()) continue;
    double sum = 0;
    for (int b = 0; b < levels.bond_levels; ++b) {
      const Count c = levels.at(levels.bond_min + b, field);
      if (c != 0) sum += static_cast<double>(c) * std::exp(-beta * (levels.bond_min + b) - top);
    }
    out[static_cast<std::size_t>(field)] = top + std::log(sum);
  }
  return out;
}

LevelAverages canonical_averages(const Levels& levels, double beta, double crystal_field) {
  if (!std::isfinite(beta)) throw std::invalid_argument("canonical averages: beta must be finite");
  if (levels.sites <= 0 || levels.total() == 0)
    throw std::invalid_argument("canonical averages: no configuration is counted");
  // Weights relative to the largest, in long double: ln w = ln g - beta E.
  struct Term {
    double energy, field;
    long double log_weight;
  };
  std::vector<Term> terms;
  long double top = -std::numeric_limits<long double>::infinity();
  for (int b = 0; b < levels.bond_levels; ++b) {
    for (int f = 0; f < levels.field_levels; ++f) {
      const Count c = levels.at(levels.bond_min + b, f);
      if (c == 0) continue;
      const double e = levels.bond_min + b + crystal_field * f;
      terms.push_back({e, static_cast<double>(f),
                       std::log(static_cast<long double>(c)) - static_cast<long double>(beta) * e});
      top = std::max(top, terms.back().log_weight);
    }
  }
  long double z = 0, e1 = 0, f1 = 0;
  for (const Term& t : terms) {
    const long double w = std::exp(t.log_weight - top);
    z += w;
    e1 += w * t.energy;
    f1 += w * t.field;
  }
  const long double mean = e1 / z;
  long double variance = 0;  // two passes: no cancellation of <E^2> - <E>^2
  for (const Term& t : terms) {
    const long double deviation = t.energy - mean;
    variance += std::exp(t.log_weight - top) * deviation * deviation;
  }
  variance /= z;
  const auto n = static_cast<long double>(levels.sites);
  LevelAverages out;
  out.energy_per_site = static_cast<double>(mean / n);
  out.specific_heat_per_site = static_cast<double>(beta * beta * variance / n);
  out.field_per_site = static_cast<double>(f1 / z / n);
  return out;
}

}  // namespace portamc::muca::exact
