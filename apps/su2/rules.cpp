// The rules between portamc-su2's keys, checked once every key is valid on its own: a lattice
// of even extents, a start file exactly when it is used, Wilson loops and a potential fit that
// fit the lattice, and a rank grid of one entry per direction.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "su2_app.hpp"

namespace portamc::su2_app {

namespace {

using Rule = std::optional<std::string>;

std::string config_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

int smallest_spatial_extent(const std::vector<int>& e) {
  int m = e.front();
  for (std::size_t mu = 0; mu + 1 < e.size(); ++mu) m = std::min(m, e[mu]);
  return m;
}

}  // namespace

void add_rules(config::Bindings<P>& b) {
  b.check(
      [](const config::Config& c) -> Rule {
        const auto& e = c.real_list("lattice.extents");
        if (e.size() < 2 || e.size() > 4)
          return "expected 2, 3 or 4 extents, got " + std::to_string(e.size());
        for (std::size_t mu = 0; mu < e.size(); ++mu)
          if (e[mu] != std::floor(e[mu]) || static_cast<long long>(e[mu]) % 2 != 0)
            return "N_" + std::to_string(mu) + " = " + config_number(e[mu]) +
                   ": every extent must be an even integer (the checkerboard updates need it)";
        return std::nullopt;
      },
      "lattice.extents");
  b.check(
      [](const config::Config& c) -> Rule {
        if (!(c.real("model.beta") > 0)) return "expected beta > 0";
        return std::nullopt;
      },
      "model.beta");
  b.check(
      [](const config::Config& c) -> Rule {
        for (double b : c.real_list("model.beta_scan"))
          if (!(b > 0)) return "every beta must be > 0";
        return std::nullopt;
      },
      "model.beta_scan");
  b.check(
      [](const config::Config& c) -> Rule {
        const bool file = c.string("model.start") == "file";
        const bool given = !c.string("model.start_file").empty();
        if (file && !given) return "model.start: file needs a start file";
        if (!file && given) return "only used with model.start: file";
        return std::nullopt;
      },
      "model.start_file");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("updates.n_hb") + c.integer("updates.n_or") < 1)
          return "an update needs at least one sweep (n_hb + n_or >= 1)";
        return std::nullopt;
      },
      "updates.n_hb");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto r = c.integer("measure.wilson_r_max"), t = c.integer("measure.wilson_t_max");
        if ((r > 0) != (t > 0)) return "wilson_r_max and wilson_t_max must both be 0 or both > 0";
        const auto e = extents_of(c);
        if (r > 0 && e && r > smallest_spatial_extent(*e) / 2)
          return "R = " + std::to_string(r) + " is larger than half the smallest spatial extent (" +
                 std::to_string(smallest_spatial_extent(*e) / 2) + ")";
        return std::nullopt;
      },
      "measure.wilson_r_max");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto t = c.integer("measure.wilson_t_max");
        const auto e = extents_of(c);
        if (t == 1 && c.boolean("potential.enabled"))
          return "expected 0 (off) or >= 2: effective masses compare T and T+1";
        if (t > 0 && e && t > e->back() / 2)
          return "T = " + std::to_string(t) + " is larger than half the time extent (" +
                 std::to_string(e->back() / 2) + ")";
        return std::nullopt;
      },
      "measure.wilson_t_max");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("measure.ape_iterations") == 0) return std::nullopt;
        if (c.integer("measure.wilson_r_max") == 0)
          return "APE smearing only acts on Wilson loops: set measure.wilson_r_max/t_max";
        if (c.real_list("lattice.extents").size() < 3)
          return "APE smearing needs two spatial directions (3 or 4 extents)";
        return std::nullopt;
      },
      "measure.ape_iterations");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto r = c.integer("measure.wilson_r_max");
        if (r == 0 || !c.boolean("potential.enabled")) return std::nullopt;
        const auto lo = c.integer("potential.fit_r_min");
        const auto hi =
            c.integer("potential.fit_r_max") == 0 ? r : c.integer("potential.fit_r_max");
        if (hi > r) return "fit_r_max = " + std::to_string(hi) + " exceeds wilson_r_max";
        if (hi - lo + 1 < 3)
          return "the fit range " + std::to_string(lo) + ".." + std::to_string(hi) +
                 " needs at least 3 values of R (3 fit parameters)";
        return std::nullopt;
      },
      "potential");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto t = c.integer("measure.wilson_t_max"), p = c.integer("potential.plateau_t");
        if (t >= 2 && c.boolean("potential.enabled") && p > t - 1)
          return "expected 0 (automatic) or 1.." + std::to_string(t - 1) + " (T+1 <= wilson_t_max)";
        return std::nullopt;
      },
      "potential.plateau_t");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("measure.flow.every") > 0 && !(c.real("measure.flow.t_max") > 0))
          return "the flow needs measure.flow.t_max > 0 (the flow time of its last step)";
        return std::nullopt;
      },
      "measure.flow.t_max");
  b.check(
      [](const config::Config& c) -> Rule {
        if (c.integer("measure.flow.every") == 0) return std::nullopt;
        const double eps = c.real("measure.flow.epsilon"), t_max = c.real("measure.flow.t_max");
        if (t_max > 0 && eps > t_max)
          return "the step " + std::to_string(eps) +
                 " exceeds measure.flow.t_max = " + std::to_string(t_max);
        if (t_max / eps > 1e7) return "more than 10^7 flow steps to t_max: a larger step";
        return std::nullopt;
      },
      "measure.flow.epsilon");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto& times = c.real_list("measure.flow.record_times");
        if (c.integer("measure.flow.every") == 0 || times.empty()) return std::nullopt;
        for (std::size_t i = 0; i < times.size(); ++i)
          if (!(times[i] > 0) || (i > 0 && !(times[i] > times[i - 1])))
            return "the record times must be positive and increase";
        if (times.back() != c.real("measure.flow.t_max"))
          return "the last record time must be measure.flow.t_max (" +
                 std::to_string(c.real("measure.flow.t_max")) + ")";
        return std::nullopt;
      },
      "measure.flow.record_times");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto blocks = c.integer_or_auto("analysis.blocks");
        if (blocks && *blocks > c.integer("run.measurements"))
          return "analysis.blocks = " + std::to_string(*blocks) +
                 " exceeds run.measurements = " + std::to_string(c.integer("run.measurements")) +
                 " (a bin needs at least one measurement); use auto";
        return std::nullopt;
      },
      "analysis.blocks");
  b.check(
      [](const config::Config& c) -> Rule {
        const auto& g = c.real_list("parallel.grid");
        if (g.empty()) return std::nullopt;
        for (double p : g)
          if (p != std::floor(p)) return "every entry must be a positive integer";
        if (g.size() != c.real_list("lattice.extents").size())
          return "expected one entry per lattice direction (" +
                 std::to_string(c.real_list("lattice.extents").size()) + "), got " +
                 std::to_string(g.size());
        return std::nullopt;
      },
      "parallel.grid");
}

}  // namespace portamc::su2_app
