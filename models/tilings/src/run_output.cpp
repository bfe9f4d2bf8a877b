#include "portamc/tilings/run_output.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "portamc/tilings/lozenge/lozenge_heights.hpp"

namespace portamc::tilings {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const char* configuration_description(TilingModel model) {
  switch (model) {
    case TilingModel::lozenge:
      return "last sample: partner k of the up triangle of cell (row y, column x): 0 D(x,y), "
             "1 D(x-1,y), 2 D(x,y-1); 255 outside the domain";
    case TilingModel::six_vertex:
      return "last sample: type of vertex (r, c): 0 a1, 1 a2, 2 b1, 3 b2, 4 c1, 5 c2";
    case TilingModel::rect_triangle:
      return "last sample: code of face (row y, column 2 x + k) = U(x, y) for k = 0, D(x, y) "
             "for k = 1 (rect_triangle_geometry.hpp): 0 outside the domain, 1 + j whole face "
             "of the rectangle centred at corner j, 4 + 4 s + ra + 2 rb cut by the median "
             "from corner s";
    case TilingModel::bibone:
      return "last sample: direction of the partner of site (row y, column x): 0 (+1, 0), "
             "1 (0, +1), 2 (-1, +1), 3 (-1, 0), 4 (0, -1), 5 (+1, -1); 6 outside the region "
             "(orientation = direction mod 3)";
    default:
      return "last sample: direction of the partner of face (r, c): 0 north, 1 east, 2 south, "
             "3 west, 4 outside the domain";
  }
}

const char* heights_description(TilingModel model) {
  switch (model) {
    case TilingModel::lozenge:
      return "last sample: height at lattice vertex (row y, column x), +3 per cube; vertices "
             "outside the domain hold fill_value";
    case TilingModel::six_vertex:
      return "last sample: height on face (i, j) of the (rows+1) x (cols+1) faces";
    case TilingModel::rect_triangle:
      return "last sample: half-cube height at lattice vertex (row y, column x) "
             "(rect_triangle_heights.hpp; equal to the lozenge heights on lozenge tilings, +3 "
             "per cube); rectangle centres and vertices outside the domain hold -2147483648";
    default:
      return "last sample: Thurston height at lattice vertex (i, j), +4 per up-rotation";
  }
}

std::string weights_text(const RunParameters& p) {
  std::string text = p.weights_kind;
  for (double w : p.weight_values) text += " " + std::to_string(w);
  return text;
}

void write_domain(h5::Group g, const PreparedRun& run) {
  auto d = g.group("domain");
  d.attribute("description", run.parameters.domain_description());
  if (run.square) {
    const auto& s = *run.square;
    d.write_2d("faces", s.face_flags(), static_cast<std::size_t>(s.rows()),
               static_cast<std::size_t>(s.cols()), "", "1 where face (r, c) is in the domain");
  } else if (run.triangular) {
    const auto& t = *run.triangular;
    const auto rows = static_cast<std::size_t>(t.height()),
               cols = static_cast<std::size_t>(t.width());
    d.write_2d("up", t.up_flags(), rows, cols, "", "1 where up triangle U(x, y) is in the domain");
    d.write_2d("down", t.down_flags(), rows, cols, "",
               "1 where down triangle D(x, y) is in the domain");
  } else if (run.bibone) {
    const auto& b = *run.bibone;
    d.write_2d("sites", b.flags(), static_cast<std::size_t>(b.height()),
               static_cast<std::size_t>(b.width()), "",
               "1 where site (row y, column x) is in the region");
  } else {
    const auto& b = *run.boundary;
    d.write("ring_heights",
            std::vector<std::int32_t>(b.ring_heights().begin(), b.ring_heights().end()), "",
            "fixed heights of the boundary faces, clockwise from face (0, 0)");
    d.attribute("rows", b.rows());
    d.attribute("cols", b.cols());
  }
}

}  // namespace

stats::SeriesAnalysis observable_statistics(SamplingMode mode, const std::vector<double>& values) {
  if (mode == SamplingMode::glauber) return stats::analyse_series(values);
  // Independent exact samples: the plain standard error is the right one.
  const stats::SeriesRules rules;
  stats::SeriesAnalysis a;
  a.samples = a.used = values.size();
  a.discarded = 0;
  a.tau = {0.5, 0.0, 0, true};
  a.effective_samples = static_cast<double>(values.size());
  a.bins = {1, values.size(), true};
  const double n = static_cast<double>(values.size());
  const bool finite =
      std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
  if (values.size() < 2 || !finite) {
    a.mean = {values.size() == 1 && finite ? values.front() : kNaN, kNaN};
    a.reliable = false;
    a.warning = !finite ? "the samples have non-finite values"
                        : "fewer than 2 samples: no error can be given";
    return a;
  }
  double mean = 0;
  for (double v : values) mean += v / n;
  double ss = 0;
  for (double v : values) ss += (v - mean) * (v - mean);
  a.mean = {mean, std::sqrt(ss / (n - 1) / n)};
  a.reliable = a.effective_samples >= rules.min_effective_samples;
  if (!a.reliable) {
    std::ostringstream w;
    w << "only " << values.size() << " independent samples (fewer than "
      << rules.min_effective_samples << ")";
    a.warning = w.str();
  }
  return a;
}

void write_results(h5::Group root, const PreparedRun& run, const RunResults& r) {
  const RunParameters& p = run.parameters;
  auto g = root.group("tilings");
  g.attribute("model", to_string(p.model));
  g.attribute("mode", to_string(p.mode));
  g.attribute("rule", to_string(p.rule));
  g.attribute("weights", weights_text(p));
  g.attribute("samples", static_cast<std::int64_t>(r.observable_values.size()));
  if (p.mode != SamplingMode::shuffling) {
    g.attribute("class_order", to_string(p.class_order));  // dynamics.class_order
  }
  if (p.model == TilingModel::domino && p.mode != SamplingMode::shuffling) {
    // Tiled steps (dynamics.tile_rows/tile_cols/substeps): tile_rows = 0 is one launch per step.
    const TileSchedule schedule = p.schedule();
    g.attribute("tile_rows", static_cast<std::int64_t>(schedule.tile_rows));
    g.attribute("tile_cols", static_cast<std::int64_t>(schedule.tile_cols));
    g.attribute("substeps", static_cast<std::int64_t>(schedule.substeps));
    g.attribute("bit_sliced", static_cast<std::int64_t>(schedule.bit_sliced ? 1 : 0));
  }
  if (p.model == TilingModel::bibone || p.model == TilingModel::rect_triangle) {
    // How the moves were split into parallel classes (dynamics.colouring) and how many
    // (family, class) pairs that gave: one sweep is that many steps.
    g.attribute("colouring", to_string(p.colouring));
    g.attribute("move_pairs", static_cast<std::int64_t>(r.move_pairs));
  }
  write_domain(g, run);

  g.write_2d("configuration", r.configuration.values, r.configuration.rows, r.configuration.cols,
             "", configuration_description(p.model));
  if (!r.heights.values.empty())  // models without a height function write none
    g.write_2d("heights", r.heights.values, r.heights.rows, r.heights.cols, "height units",
               heights_description(p.model));
  if (p.model == TilingModel::lozenge || p.model == TilingModel::rect_triangle)
    g.attribute("heights_fill_value", static_cast<std::int64_t>(no_height));

  auto d = g.group("densities");
  d.attribute("samples", r.density_samples);
  d.attribute("description",
              p.model == TilingModel::rect_triangle
                  ? "per face (row y, column 2 x + k: k = 0 up triangle U(x, y), k = 1 down "
                    "triangle D(x, y)), the fraction of samples in which it is of type "
                    "a_triangles (A, weight t), b_mixed (B, c) or c_rectangles (C, r)"
                  : "per cell, the fraction of samples in which it holds each tile/vertex type");
  for (std::size_t t = 0; t < r.densities.size(); ++t)
    d.write_2d(r.type_names[t], r.densities[t].values, r.densities[t].rows, r.densities[t].cols, "",
               "frequency of type '" + r.type_names[t] + "' per cell over the samples");

  auto s = g.group("samples");
  s.write(r.observable, r.observable_values, "", r.observable_description + ", per sample");
  const stats::SeriesAnalysis m = observable_statistics(p.mode, r.observable_values);
  const bool chain = p.mode == SamplingMode::glauber;
  const std::string& o = r.observable;
  auto summary = g.group("summary");
  summary.write_scalar(
      o + "_mean", m.mean.value, "",
      "mean " + r.observable_description + (chain ? " over the equilibrated samples" : ""));
  summary.write_scalar(o + "_error", m.mean.error, "",
                       chain ? "binned standard error of the mean (bins of " + o +
                                   "_bin_size consecutive equilibrated samples, ceil(20 tau_int))"
                             : "standard error of the mean (independent exact samples)");
  summary.write_scalar(o + "_tau_int", m.tau.tau_int, "samples",
                       chain ? "integrated autocorrelation time of the equilibrated samples "
                               "(tau = 1/2 + sum rho(t), automatic window)"
                             : "1/2: the exact samples are independent");
  summary.write_scalar(o + "_tau_int_error", m.tau.tau_error, "samples",
                       "Madras-Sokal error of tau_int (0 for independent samples)");
  summary.write_scalar(o + "_n_eff", m.effective_samples, "samples",
                       "effective sample size used / (2 tau_int)");
  summary.write_scalar(o + "_discarded", static_cast<std::uint64_t>(m.discarded), "samples",
                       chain ? "samples removed from the front as the transient (equilibration "
                               "detection)"
                             : "0: exact samples have no transient");
  summary.write_scalar(o + "_used", static_cast<std::uint64_t>(m.used), "samples",
                       "samples behind the mean and its error");
  summary.write_scalar(o + "_bin_size", static_cast<std::uint64_t>(m.bins.bin_size), "samples",
                       "samples per bin of the error (1 for independent samples)");
  summary.attribute("error_method", chain ? "binned (one Glauber chain: stats::analyse_series)"
                                          : "standard error of independent samples");
  summary.attribute("tau_window", static_cast<std::int64_t>(m.tau.window));
  summary.attribute("tau_window_converged", static_cast<std::int64_t>(m.tau.window_converged));
  summary.attribute("bins", static_cast<std::int64_t>(m.bins.bins));
  summary.attribute("reliable", static_cast<std::int64_t>(m.reliable));
  summary.attribute("warning", m.warning);
  summary.write_scalar("seconds", r.seconds, "s", "wall-clock time of the sampling");

  if (p.mode == SamplingMode::cftp) {
    auto c = g.group("cftp");
    c.write("horizon", r.cftp_horizons, "steps",
            "horizon T of the pass that coalesced, per sample");
    c.write("steps", r.cftp_steps, "steps", "steps run over all passes, per sample");
    c.write("passes", r.cftp_passes, "", "coupled passes (horizon doublings + 1), per sample");
  } else if (p.mode == SamplingMode::glauber) {
    auto c = g.group("glauber");
    c.write_scalar("steps", r.glauber_steps, "steps",
                   "forward steps of the chain (one class of moves each)");
  }
}

}  // namespace portamc::tilings
