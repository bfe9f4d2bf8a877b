#include "portamc/su2/run_analysis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace portamc::su2 {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool all_finite(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); });
}

// Per-block sums of f(x) for the jackknife, each block {sum f_1(x), sum f_2(x), ..., count}.
template <class F>
std::vector<std::vector<double>> block_sums(const std::vector<double>& series, const Blocking& b,
                                            std::size_t components, F f) {
  std::vector<std::vector<double>> blocks(b.blocks, std::vector<double>(components + 1, 0.0));
  for (std::size_t k = 0; k < b.blocks; ++k) {
    auto& row = blocks[k];
    for (std::size_t i = k * b.block_size; i < (k + 1) * b.block_size; ++i) {
      const auto values = f(series[i]);
      for (std::size_t c = 0; c < components; ++c) row[c] += values[c];
    }
    row[components] = static_cast<double>(b.block_size);
  }
  return blocks;
}

std::vector<SeriesSummary> summarise_loops(const std::vector<double>& flat, std::size_t loops,
                                           const Blocking& blocking) {
  std::vector<SeriesSummary> out;
  if (loops == 0) return out;
  const std::size_t n = flat.size() / loops;
  std::vector<double> series(n);
  for (std::size_t l = 0; l < loops; ++l) {
    for (std::size_t m = 0; m < n; ++m) series[m] = flat[m * loops + l];
    out.push_back(summarise_series(series, blocking));
  }
  return out;
}

PotentialResult potential_of(const std::vector<double>& flat, const RunParameters& p) {
  WilsonLoopSamples samples;
  samples.r_max = p.wilson_r_max;
  samples.t_max = p.wilson_t_max;
  const std::size_t loops = p.loops_per_measurement();
  const std::size_t n = flat.size() / loops;
  samples.samples.reserve(n);
  for (std::size_t m = 0; m < n; ++m)
    samples.samples.emplace_back(flat.begin() + m * loops, flat.begin() + (m + 1) * loops);
  PotentialResult r;
  try {
    r.potential = analyse_static_potential(samples, p.potential_options(n));
    r.ok = true;
    r.status = "ok";
  } catch (const std::invalid_argument& e) {
    // Noise (a non-positive mean loop, an undefined error) is a result of the run, not bad input.
    r.status = e.what();
  }
  return r;
}

}  // namespace

Blocking blocking_for(std::size_t measurements, int jackknife_blocks) {
  Blocking b;
  b.blocks =
      std::min<std::size_t>(static_cast<std::size_t>(std::max(jackknife_blocks, 2)), measurements);
  b.block_size = b.blocks > 0 ? measurements / b.blocks : 0;
  return b;
}

SeriesSummary summarise_series(const std::vector<double>& series, const Blocking& blocking) {
  SeriesSummary s;
  if (series.size() < 2 || blocking.blocks < 2 || !all_finite(series)) {
    s.finite = all_finite(series);
    s.mean = {kNaN, kNaN};
    s.tau = {kNaN, kNaN, 0, false};
    return s;
  }
  const auto blocks = block_sums(series, blocking, 1, [](double x) { return std::array{x}; });
  s.mean = stats::jackknife(blocks, [](const std::vector<double>& sum) {
             return std::vector<double>{sum[0] / sum[1]};
           }).front();
  s.tau = stats::integrated_autocorrelation_time(series);
  return s;
}

stats::Estimate polyakov_susceptibility(const std::vector<double>& polyakov, double spatial_volume,
                                        const Blocking& blocking) {
  if (polyakov.size() < 2 || blocking.blocks < 2 || !all_finite(polyakov)) return {kNaN, kNaN};
  const auto blocks = block_sums(polyakov, blocking, 2, [](double p) {
    return std::array{p * p, std::abs(p)};
  });
  return stats::jackknife(blocks,
                          [spatial_volume](const std::vector<double>& sum) {
                            const double p2 = sum[0] / sum[2], pabs = sum[1] / sum[2];
                            return std::vector<double>{spatial_volume * (p2 - pabs * pabs)};
                          })
      .front();
}

PointAnalysis analyse_point(const PointRecord& record, const RunParameters& p) {
  PointAnalysis a;
  a.blocking = blocking_for(record.measurements(), p.jackknife_blocks);
  a.plaquette = summarise_series(record.plaquette, a.blocking);
  a.plaquette_spatial = summarise_series(record.plaquette_spatial, a.blocking);
  a.plaquette_temporal = summarise_series(record.plaquette_temporal, a.blocking);
  a.polyakov = summarise_series(record.polyakov, a.blocking);
  std::vector<double> abs_polyakov(record.polyakov.size());
  std::transform(record.polyakov.begin(), record.polyakov.end(), abs_polyakov.begin(),
                 [](double x) { return std::abs(x); });
  a.polyakov_abs = summarise_series(abs_polyakov, a.blocking);
  a.susceptibility =
      polyakov_susceptibility(record.polyakov, static_cast<double>(p.spatial_volume()), a.blocking);
  const std::size_t loops = p.loops_per_measurement();
  if (loops > 0 && !record.wilson.empty()) {
    a.wilson = summarise_loops(record.wilson, loops, a.blocking);
    if (p.potential_analysis()) a.potential = potential_of(record.wilson, p);
  }
  if (loops > 0 && !record.wilson_smeared.empty()) {
    a.wilson_smeared = summarise_loops(record.wilson_smeared, loops, a.blocking);
    if (p.potential_analysis()) a.potential_smeared = potential_of(record.wilson_smeared, p);
  }
  return a;
}

}  // namespace portamc::su2
