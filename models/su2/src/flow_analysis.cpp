// Flowed configurations of one coupling: scales and topology (flow_analysis.hpp).
#include "portamc/su2/flow_analysis.hpp"

#include <stdexcept>
#include <string>
#include <vector>

namespace portamc::su2 {

namespace {

// Rows k >= first of a configurations x times array.
std::vector<std::vector<double>> rows_from(const std::vector<double>& values, std::size_t times,
                                           std::size_t first) {
  std::vector<std::vector<double>> rows;
  for (std::size_t k = first; (k + 1) * times <= values.size(); ++k)
    rows.emplace_back(values.begin() + static_cast<std::ptrdiff_t>(k * times),
                      values.begin() + static_cast<std::ptrdiff_t>((k + 1) * times));
  return rows;
}

// Column i of `rows`, i.e. E(t_i) over the configurations, analysed as a series.
std::vector<stats::SeriesAnalysis> column_series(const std::vector<std::vector<double>>& rows) {
  std::vector<stats::SeriesAnalysis> columns;
  std::vector<double> column(rows.size());
  for (std::size_t i = 0; i < rows.front().size(); ++i) {
    for (std::size_t k = 0; k < rows.size(); ++k) column[k] = rows[k][i];
    columns.push_back(stats::analyse_series_from(column, 0));
  }
  return columns;
}

}  // namespace

FlowAnalysis analyse_flow(const PointRecord& record, const RunParameters& p,
                          std::size_t first_measurement) {
  FlowAnalysis a;
  a.t = p.flow_times();
  const std::size_t times = a.t.size();
  while (a.discarded < record.flow_measurement.size() &&
         static_cast<std::size_t>(record.flow_measurement[a.discarded]) < first_measurement)
    ++a.discarded;
  a.configurations = record.flow_measurement.size() - a.discarded;
  if (a.configurations < 2)
    throw std::invalid_argument("flow analysis: " + std::to_string(a.configurations) +
                                " flowed configurations after equilibration; errors need two");
  const auto plaquette = rows_from(record.flow_energy_plaquette, times, a.discarded);
  const auto clover = rows_from(record.flow_energy_clover, times, a.discarded);
  a.energy_plaquette = column_series(plaquette);
  a.energy_clover = column_series(clover);
  a.plaquette = estimate_flow_scales(a.t, plaquette, p.flow_reference);
  a.clover = estimate_flow_scales(a.t, clover, p.flow_reference);

  std::vector<double> charge;
  std::vector<std::vector<double>> moments;  // (Q, Q^2, 1) per configuration
  for (const auto& row : rows_from(record.flow_charge, times, a.discarded)) {
    charge.push_back(row.back());
    moments.push_back({row.back(), row.back() * row.back(), 1.0});
  }
  a.charge = stats::analyse_series_from(charge, 0);
  const double volume = static_cast<double>(p.volume());
  a.susceptibility = stats::jackknife_with_tau(moments, [volume](const std::vector<double>& s) {
                       const double mean = s[0] / s[2];
                       return std::vector<double>{(s[1] / s[2] - mean * mean) / volume};
                     }).front();
  return a;
}

}  // namespace portamc::su2
