#include "portamc/su2/run_analysis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace portamc::su2 {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool all_finite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

// The transient of one primary series (0 for a series with non-finite values, which the
// equilibration rule cannot judge).
std::size_t transient_of(const std::vector<double>& series) {
  return all_finite(series) ? stats::detect_equilibration(series).discarded : 0;
}

std::vector<double> absolute(const std::vector<double>& v) {
  std::vector<double> out(v.size());
  std::transform(v.begin(), v.end(), out.begin(), [](double x) { return std::abs(x); });
  return out;
}

// Per-bin sums of f(x) for the jackknife, each bin {sum f_1(x), sum f_2(x), ..., count}.
template <class F>
std::vector<std::vector<double>> block_sums(const std::vector<double>& series, const Blocking& b,
                                            std::size_t components, F f) {
  std::vector<std::vector<double>> blocks(b.blocks, std::vector<double>(components + 1, 0.0));
  for (std::size_t k = 0; k < b.blocks; ++k) {
    auto& row = blocks[k];
    const std::size_t first = b.start + k * b.block_size;
    for (std::size_t i = first; i < first + b.block_size; ++i) {
      const auto values = f(series[i]);
      for (std::size_t c = 0; c < components; ++c) row[c] += values[c];
    }
    row[components] = static_cast<double>(b.block_size);
  }
  return blocks;
}

std::vector<SeriesSummary> summarise_loops(const std::vector<double>& flat, std::size_t loops,
                                           std::size_t start) {
  std::vector<SeriesSummary> out;
  if (loops == 0) return out;
  const std::size_t n = flat.size() / loops;
  std::vector<double> series(n);
  for (std::size_t l = 0; l < loops; ++l) {
    for (std::size_t m = 0; m < n; ++m) series[m] = flat[m * loops + l];
    out.push_back(stats::analyse_series_from(series, start));
  }
  return out;
}

std::vector<std::string> blocking_reasons(const Blocking& b, double effective_samples) {
  return stats::jackknife_bin_warnings(b, effective_samples, "analysis.blocks");
}

double effective_samples(std::size_t used, double tau_int) {
  return static_cast<double>(used) / (2.0 * tau_int);
}

PotentialResult potential_of(const std::vector<double>& flat, const std::vector<SeriesSummary>& w,
                             const PointAnalysis& a, const RunParameters& p) {
  const std::size_t start = a.equilibration.discarded, used = a.equilibration.used;
  // The loops are jackknifed together, so the bins must be long for the slowest of them too.
  double tau = a.tau_max;
  for (const auto& s : w)
    if (std::isfinite(s.tau.tau_int)) tau = std::max(tau, s.tau.tau_int);
  PotentialResult r;
  r.blocking = blocking_for(start, used, tau, p.jackknife_blocks);
  WilsonLoopSamples samples;
  samples.r_max = p.wilson_r_max;
  samples.t_max = p.wilson_t_max;
  const std::size_t loops = p.loops_per_measurement();
  // Whole bins only, as for the susceptibility (a trailing partial bin is dropped).
  const std::size_t n =
      r.blocking.block_size > 0 ? r.blocking.blocks * r.blocking.block_size : used;
  samples.samples.reserve(n);
  for (std::size_t m = start; m < start + n; ++m)
    samples.samples.emplace_back(flat.begin() + m * loops, flat.begin() + (m + 1) * loops);
  try {
    // No bins (fewer than 2 measurements): one bin of everything, which the analysis refuses
    // with its message.
    const std::size_t block_size =
        r.blocking.block_size > 0 ? r.blocking.block_size : std::max<std::size_t>(n, 1);
    r.potential = analyse_static_potential(samples, p.potential_options(block_size));
    r.ok = true;
    r.status = "ok";
    const auto reasons = blocking_reasons(r.blocking, effective_samples(used, tau));
    r.reliable = reasons.empty();
    r.warning = stats::join_warnings(reasons);
  } catch (const std::invalid_argument& e) {
    // Noise (a non-positive mean loop, an undefined error) is a result of the run, not bad input.
    r.potential.reset();
    r.status = e.what();
  }
  return r;
}

std::string loop_name(std::size_t index, int t_max) {
  const std::size_t t = static_cast<std::size_t>(t_max);
  return "W(" + std::to_string(index / t + 1) + "," + std::to_string(index % t + 1) + ")";
}

void loop_warnings(const std::string& name, const std::vector<SeriesSummary>& loops, int t_max,
                   std::vector<std::string>& out) {
  std::size_t bad = 0, first = loops.size();
  for (std::size_t l = 0; l < loops.size(); ++l)
    if (!loops[l].reliable) {
      if (bad++ == 0) first = l;
    }
  if (bad == 0) return;
  out.push_back(name + ": " + std::to_string(bad) + " of " + std::to_string(loops.size()) +
                " W(R,T) not reliable, e.g. " + loop_name(first, t_max) + ": " +
                loops[first].warning);
}

}  // namespace

EquilibrationPoint equilibration_point(const PointRecord& record) {
  EquilibrationPoint e;
  e.measurements = record.measurements();
  e.plaquette_discarded = transient_of(record.plaquette);
  e.polyakov_abs_discarded = transient_of(absolute(record.polyakov));
  e.discarded = std::min(std::max(e.plaquette_discarded, e.polyakov_abs_discarded), e.measurements);
  e.used = e.measurements - e.discarded;
  return e;
}

stats::JackknifeEstimate polyakov_susceptibility(const std::vector<double>& polyakov,
                                                 double spatial_volume, const Blocking& blocking) {
  if (blocking.blocks < 2 ||
      blocking.start + blocking.blocks * blocking.block_size > polyakov.size())
    return {kNaN, kNaN, kNaN, kNaN};
  const std::vector<double> used(polyakov.begin() + static_cast<std::ptrdiff_t>(blocking.start),
                                 polyakov.end());
  if (!all_finite(used)) return {kNaN, kNaN, kNaN, kNaN};
  const auto blocks = block_sums(polyakov, blocking, 2, [](double p) {
    return std::array{p * p, std::abs(p)};
  });
  return stats::jackknife_with_tau(
             blocks,
             [spatial_volume](const std::vector<double>& sum) {
               const double p2 = sum[0] / sum[2], pabs = sum[1] / sum[2];
               return std::vector<double>{spatial_volume * (p2 - pabs * pabs)};
             })
      .front();
}

PointAnalysis analyse_point(const PointRecord& record, const RunParameters& p) {
  PointAnalysis a;
  a.equilibration = equilibration_point(record);
  const std::size_t start = a.equilibration.discarded, used = a.equilibration.used;
  a.plaquette = stats::analyse_series_from(record.plaquette, start);
  a.plaquette_spatial = stats::analyse_series_from(record.plaquette_spatial, start);
  a.plaquette_temporal = stats::analyse_series_from(record.plaquette_temporal, start);
  a.polyakov = stats::analyse_series_from(record.polyakov, start);
  a.polyakov_abs = stats::analyse_series_from(absolute(record.polyakov), start);
  a.tau_max = 0.5;
  for (const SeriesSummary* s : {&a.plaquette, &a.polyakov_abs})
    if (std::isfinite(s->tau.tau_int)) a.tau_max = std::max(a.tau_max, s->tau.tau_int);

  a.blocking = blocking_for(start, used, a.tau_max, p.jackknife_blocks);
  a.susceptibility.estimate =
      polyakov_susceptibility(record.polyakov, static_cast<double>(p.spatial_volume()), a.blocking);
  auto reasons = blocking_reasons(a.blocking, effective_samples(used, a.tau_max));
  if (!std::isfinite(a.susceptibility.estimate.error))
    reasons.insert(reasons.begin(), "no finite jackknife error");
  a.susceptibility.reliable = reasons.empty();
  a.susceptibility.warning = stats::join_warnings(reasons);

  a.polyakov_histogram_equilibrated.assign(static_cast<std::size_t>(p.polyakov_bins), 0);
  for (std::size_t m = start; m < record.polyakov.size(); ++m)
    ++a.polyakov_histogram_equilibrated[static_cast<std::size_t>(
        polyakov_histogram_bin(record.polyakov[m], p.polyakov_bins))];

  const std::size_t loops = p.loops_per_measurement();
  if (loops > 0 && !record.wilson.empty()) {
    a.wilson = summarise_loops(record.wilson, loops, start);
    if (p.potential_analysis()) a.potential = potential_of(record.wilson, a.wilson, a, p);
  }
  if (loops > 0 && !record.wilson_smeared.empty()) {
    a.wilson_smeared = summarise_loops(record.wilson_smeared, loops, start);
    if (p.potential_analysis())
      a.potential_smeared = potential_of(record.wilson_smeared, a.wilson_smeared, a, p);
  }
  if (p.flow()) {
    try {
      a.flow = analyse_flow(record, p, start);
      a.flow_status = "ok";
    } catch (const std::invalid_argument& e) {
      a.flow_status = e.what();
    }
  }
  return a;
}

std::vector<std::string> analysis_warnings(const PointAnalysis& a, const RunParameters& p) {
  std::vector<std::string> out;
  const std::pair<const char*, const SeriesSummary*> series[] = {
      {"plaquette", &a.plaquette},
      {"plaquette_spatial", &a.plaquette_spatial},
      {"plaquette_temporal", &a.plaquette_temporal},
      {"polyakov", &a.polyakov},
      {"polyakov_abs", &a.polyakov_abs}};
  for (const auto& [name, s] : series) {
    // No spatial planes in 2D: the spatial plaquette is undefined by construction.
    if (s == &a.plaquette_spatial && p.dimensions() == 2) continue;
    if (!s->reliable) out.push_back(std::string(name) + ": " + s->warning);
  }
  if (!a.susceptibility.reliable)
    out.push_back("polyakov_susceptibility: " + a.susceptibility.warning);
  if (p.flow() && !a.flow) out.push_back("flow: " + a.flow_status);
  if (a.flow) {
    if (std::isnan(a.flow->plaquette.t0.value))
      out.push_back("flow: t^2 E does not reach " + std::to_string(p.flow_reference) +
                    " by flow_t_max: no t0 (flow further)");
    if (std::isnan(a.flow->plaquette.w0.value))
      out.push_back("flow: W does not reach " + std::to_string(p.flow_reference) +
                    " by flow_t_max: no w0 (flow further)");
    if (!a.flow->charge.reliable) out.push_back("flow charge: " + a.flow->charge.warning);
    // The flowed energy at t_max is the slowest of the E(t) series (it sees the longest
    // distances): its reliability speaks for the curve, t0 and w0.
    if (!a.flow->energy_plaquette.empty() && !a.flow->energy_plaquette.back().reliable)
      out.push_back("flow energy at t_max: " + a.flow->energy_plaquette.back().warning);
  }
  loop_warnings("wilson_loops", a.wilson, p.wilson_t_max, out);
  loop_warnings("wilson_loops_smeared", a.wilson_smeared, p.wilson_t_max, out);
  if (a.potential && a.potential->ok && !a.potential->reliable)
    out.push_back("potential: " + a.potential->warning);
  if (a.potential_smeared && a.potential_smeared->ok && !a.potential_smeared->reliable)
    out.push_back("potential_smeared: " + a.potential_smeared->warning);
  // The automatic plateau fell back to the last T where no T agreed with its neighbour: V(R)
  // there may still carry excited states.
  for (const auto* result : {&a.potential, &a.potential_smeared}) {
    if (!*result || !(*result)->ok || !(*result)->potential) continue;
    const StaticPotential& v = *(*result)->potential;
    for (const PotentialPoint& point : v.potential)
      if (p.plateau_t == 0 && !point.plateau_found && point.r >= v.fit_r_min &&
          point.r <= v.fit_r_max)
        out.push_back(std::string(result == &a.potential ? "potential" : "potential_smeared") +
                      ": no plateau found for R = " + std::to_string(point.r) +
                      " (no T with V_T = V_T+1 within the tolerance); the last T = " +
                      std::to_string(point.plateau_t) +
                      " was used. Measure larger T (measure.wilson_t_max), smear more, or fix "
                      "potential.plateau_t");
  }
  return out;
}

}  // namespace portamc::su2
