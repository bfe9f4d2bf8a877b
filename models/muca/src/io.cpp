#include "portamc/muca/io.hpp"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "checkpoint_integrity.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/muca/exact_reference.hpp"
#include "portamc/muca/ising_exact.hpp"
#include "portamc/muca/names.hpp"

namespace portamc::muca {
namespace {

// Row-major (rows x cols) concatenation of equally long vectors.
template <class T, class U>
std::vector<T> flatten(const std::vector<std::vector<U>>& rows) {
  std::vector<T> out;
  for (const auto& r : rows) out.insert(out.end(), r.begin(), r.end());
  return out;
}

std::vector<std::vector<count_type>> unflatten(const std::vector<std::uint64_t>& flat,
                                               std::size_t rows, std::size_t cols) {
  std::vector<std::vector<count_type>> out(rows);
  for (std::size_t r = 0; r < rows; ++r)
    out[r].assign(flat.begin() + r * cols, flat.begin() + (r + 1) * cols);
  return out;
}

void write_iterations(h5::Group g, const std::vector<IterationRecord>& records, int nbins) {
  std::vector<std::int64_t> width, index;
  std::vector<std::uint64_t> therm, updates;
  std::vector<double> kl, cheb, seconds;
  std::vector<std::vector<count_type>> hist;
  std::vector<std::vector<double>> lnw;
  for (const auto& r : records) {
    index.push_back(r.iteration);
    width.push_back(r.width);
    therm.push_back(r.therm_attempts);
    updates.push_back(r.update_attempts);
    kl.push_back(r.kullback_leibler);
    cheb.push_back(r.chebyshev);
    seconds.push_back(r.seconds);
    hist.push_back(r.histogram);
    lnw.push_back(r.log_weights_after);
  }
  g.write("iteration", index, "", "weight-iteration index");
  g.write("width", width, "bins", "distinct energy bins visited in the iteration");
  g.write("therm_attempts", therm, "attempts per walker", "unrecorded thermalisation attempts");
  g.write("update_attempts", updates, "attempts per walker", "attempts recorded in the histogram");
  g.write("kullback_leibler", kl, "", "Kullback-Leibler divergence from a flat histogram");
  g.write("chebyshev", cheb, "", "Chebyshev distance max |H/mean - 1| over visited bins");
  g.write("seconds", seconds, "s", "wall-clock time of the iteration");
  if (!records.empty()) {
    g.write_2d("histogram", flatten<std::uint64_t>(hist), records.size(), nbins, "counts",
               "energy histogram of each iteration, summed over walkers");
    g.write_2d("log_weight", flatten<double>(lnw), records.size(), nbins, "",
               "ln W(E) after each iteration's update");
  }
}

// Sizes are checked before the rows are cut out: a damaged file may claim anything.
std::vector<IterationRecord> read_iterations(const h5::InputFile& f, const std::string& g,
                                             std::size_t nbins) {
  std::vector<IterationRecord> records;
  const auto index = f.read<std::int64_t>(g + "/iteration");
  if (index.empty()) return records;
  const std::size_t n = index.size();
  const auto width = f.read<std::int64_t>(g + "/width");
  const auto therm = f.read<std::uint64_t>(g + "/therm_attempts");
  const auto updates = f.read<std::uint64_t>(g + "/update_attempts");
  const auto kl = f.read<double>(g + "/kullback_leibler");
  const auto cheb = f.read<double>(g + "/chebyshev");
  const auto seconds = f.read<double>(g + "/seconds");
  const auto hist = f.read<std::uint64_t>(g + "/histogram");
  const auto lnw = f.read<double>(g + "/log_weight");
  for (const auto& [name, size] : {std::pair{"/width", width.size()},
                                   {"/therm_attempts", therm.size()},
                                   {"/update_attempts", updates.size()},
                                   {"/kullback_leibler", kl.size()},
                                   {"/chebyshev", cheb.size()},
                                   {"/seconds", seconds.size()}})
    h5::require_size(f, g + name, size, n);
  h5::require_size(f, g + "/histogram", hist.size(), n * nbins);
  h5::require_size(f, g + "/log_weight", lnw.size(), n * nbins);
  for (std::size_t i = 0; i < n; ++i) {
    IterationRecord r;
    r.iteration = static_cast<int>(index[i]);
    r.width = static_cast<int>(width[i]);
    r.therm_attempts = therm[i];
    r.update_attempts = updates[i];
    r.kullback_leibler = kl[i];
    r.chebyshev = cheb[i];
    r.seconds = seconds[i];
    r.histogram.assign(hist.begin() + i * nbins, hist.begin() + (i + 1) * nbins);
    r.log_weights_after.assign(lnw.begin() + i * nbins, lnw.begin() + (i + 1) * nbins);
    records.push_back(std::move(r));
  }
  return records;
}

// name, name_error, name_tau_int and name_n_eff of one reweighted quantity.
void write_table(h5::Group& g, const std::string& name, const EstimateTable& t,
                 const std::string& unit, const std::string& what) {
  g.write(name, t.value, unit, what);
  g.write(name + "_error", t.error, unit,
          "delete-one jackknife error of " + name +
              " over the production's jackknife samples (walker groups or bins of blocks: "
              "attribute error_method of /muca/production)");
  g.write(name + "_tau_int", t.tau_int, "samples",
          "integrated autocorrelation time of the jackknife samples' pseudovalues of " + name +
              ", in their order (1/2: independent samples, as the error assumes)");
  g.write(
      name + "_n_eff", t.n_eff, "samples",
      "effective number of independent samples behind " + name + "_error, samples / (2 tau_int)");
}

// Blume-Capel's scan over D at the run's beta, with exact values where counting is cheap.
void write_crystal_field(h5::Group c, const ProductionAnalysis& a, const EnergyBins& bins,
                         const Hamiltonian& h, const std::vector<double>& exact_log_g) {
  const CrystalFieldTable& t = a.crystal_field;
  c.attribute("beta", h.beta);
  c.write("crystal_field", t.crystal_field, "J", "crystal field D");
  write_table(c, "density", t.density, "", "<n>/N, density of non-zero spins, reweighted");
  write_table(c, "density_susceptibility", t.density_susceptibility, "",
              "(<n^2> - <n>^2) / N, reweighted");
  write_table(c, "free_energy", t.free_energy, "J", "F/N = -ln Z(D) / (beta N), reweighted");
  if (exact_log_g.empty()) return;
  std::vector<double> rho, chi, f;
  for (double d : t.crystal_field) {
    const CrystalFieldPoint p = crystal_field_point(exact_log_g, bins.N, h.beta, d);
    rho.push_back(p.density);
    chi.push_back(p.density_susceptibility);
    f.push_back(p.free_energy);
  }
  const std::string source = exact_source(h);
  c.write("density_exact", rho, "", "<n>/N of the finite torus (" + source + ")");
  c.write("density_susceptibility_exact", chi, "", "of the finite torus (" + source + ")");
  c.write("free_energy_exact", f, "J", "F/N of the finite torus (" + source + ")");
}

// The order parameter's canonical table and its microcanonical <|m|>(E), or why there is none.
void write_order_parameter(h5::Group g, const ProductionAnalysis& a, const DriverState& d,
                           const EnergyBins& bins, const std::vector<std::int64_t>& energy,
                           bool fixed_beta) {
  g.attribute("available", static_cast<std::int64_t>(a.has_order_parameter));
  // The interval the production measured at (fixed at its first block, whatever a resumed run's
  // production.order_parameter_sweeps says).
  g.attribute("sweeps_between_measurements",
              static_cast<std::int64_t>(d.order_interval / static_cast<std::uint64_t>(bins.N)));
  if (!a.has_order_parameter) {
    g.attribute("reason", a.order_parameter_reason);
    return;
  }
  const OrderParameterTable& t = a.order_parameter;
  g.attribute("unmeasured_bins", static_cast<std::int64_t>(t.unmeasured_bins));
  if (fixed_beta)
    g.write("crystal_field", t.beta, "J", "crystal field D (the run's beta is fixed)");
  else
    g.write("beta", t.beta, "1/J", "inverse temperature");
  write_table(g, "magnetisation", t.magnetisation, "",
              "<|m|>, reweighted (Ising and Blume-Capel |M|/N; Potts (q n_max/N - 1)/(q - 1))");
  write_table(g, "m2", t.m2, "", "<m^2>, reweighted");
  write_table(g, "m4", t.m4, "", "<m^4>, reweighted");
  write_table(g, "susceptibility", t.susceptibility, "",
              "beta N (<m^2> - <|m|>^2), reweighted (Blume-Capel: the run's beta)");
  write_table(g, "binder", t.binder, "", "Binder cumulant 1 - <m^4> / (3 <m^2>^2), reweighted");
  g.write(fixed_beta ? "nonzero_spins" : "energy", energy, fixed_beta ? "" : "J",
          fixed_beta ? "non-zero spins n of each bin" : "energy of each bin");
  write_table(g, "bin_magnetisation", t.bin_magnetisation, "",
              "microcanonical <|m|> in each energy bin; NaN where never measured");
}

// The double-peak estimates with their jackknife errors (production_analysis.hpp).
void write_double_peak(h5::Group g, const FirstOrderAnalysis& a, bool fixed_beta) {
  g.attribute("found", static_cast<std::int64_t>(a.found));
  g.attribute(fixed_beta ? "crystal_field_lo" : "beta_lo", a.beta_lo);
  g.attribute(fixed_beta ? "crystal_field_hi" : "beta_hi", a.beta_hi);
  if (!a.found) {
    g.attribute("reason", a.reason);
    return;
  }
  g.attribute("failed_samples", static_cast<std::int64_t>(a.failed_samples));
  const char* names[] = {"beta_eq",     "energy_ordered",     "energy_disordered",
                         "latent_heat", "log_peak_to_valley", "interface_tension"};
  const char* units[] = {"1/J", "J", "J", "J", "", ""};
  const char* what[] = {
      "inverse temperature at which the two peaks of P(E) are equally high",
      "mean energy (whole lattice) of the ordered side of the valley at beta_eq",
      "mean energy (whole lattice) of the disordered side of the valley at beta_eq",
      "latent heat per site, (energy_disordered - energy_ordered) / N",
      "ln(P_max / P_min) at beta_eq",
      "reduced interface tension beta sigma_L = ln(P_max / P_min) / (2 L^(d-1)) at beta_eq "
      "(Binder's estimator)"};
  // Blume-Capel at fixed beta: the field part n is the double-peaked variable, D the scan.
  const char* field_names[] = {"crystal_field_eq", "nonzero_low",        "nonzero_high",
                               "density_jump",     "log_peak_to_valley", "interface_tension"};
  const char* field_units[] = {"J", "", "", "", "", ""};
  const char* field_what[] = {
      "crystal field at which the two peaks of P(n) are equally high",
      "mean number of non-zero spins on the low-n side of the valley at crystal_field_eq",
      "mean number of non-zero spins on the high-n side of the valley at crystal_field_eq",
      "jump of the density of non-zero spins, (nonzero_high - nonzero_low) / N",
      "ln(P_max / P_min) at crystal_field_eq",
      "reduced interface tension beta sigma_L = ln(P_max / P_min) / (2 L^(d-1)) at "
      "crystal_field_eq (Binder's estimator)"};
  for (int i = 0; i < 6; ++i) {
    const auto& e = a.values[static_cast<std::size_t>(i)];
    const std::string n = fixed_beta ? field_names[i] : names[i];
    g.write_scalar(n, e.value, fixed_beta ? field_units[i] : units[i],
                   fixed_beta ? field_what[i] : what[i]);
    g.write_scalar(n + "_error", e.error, fixed_beta ? field_units[i] : units[i],
                   "jackknife error of " + n);
    g.write_scalar(n + "_tau_int", e.tau_int, "samples",
                   "integrated autocorrelation time of the jackknife pseudovalues of " + n);
    g.write_scalar(n + "_n_eff", e.effective_blocks, "samples",
                   "effective number of independent samples behind " + n + "_error");
  }
}

void write_stationarity(h5::Group g, const stats::StationarityCheck& s) {
  g.attribute("checked", static_cast<std::int64_t>(s.checked));
  g.attribute("passed", static_cast<std::int64_t>(s.passed));
  g.attribute("statistic", s.statistic);
  g.attribute("windows", static_cast<std::int64_t>(s.z.size()));
  g.write_scalar("max_abs_z", s.max_abs_z, "", "largest |z| over the energy windows");
  g.write_scalar("threshold", s.threshold, "", "the check passes at max_abs_z <= threshold");
  g.write("z", s.z, "",
          "per window of consecutive accessible energy bins (low to high energy): change of its "
          "share of the attempts from the first to the last third of the blocks, in errors");
}

}  // namespace

void write_checkpoint(const std::string& path, const Checkpoint& c,
                      const std::string& config_yaml) {
  h5::OutputFile file(path);
  auto root = file.root();
  h5::begin_checkpoint(root, "muca", config_yaml);
  // Format 2: all walkers of the run, whatever the rank count (format 1, without the
  // attribute, was one file per rank and had no checksum: it is refused).
  root.attribute("muca_checkpoint_format", std::int64_t{2});
  auto m = root.group("model");
  m.attribute("L", static_cast<std::int64_t>(c.model.L));
  m.attribute("hamiltonian", std::string(to_string(c.model.kind)));
  m.attribute("dimension", static_cast<std::int64_t>(c.model.dimension));
  m.attribute("q", static_cast<std::int64_t>(c.model.q));
  if (c.model.kind == HamiltonianKind::blume_capel) m.attribute("beta", c.model.beta);
  m.attribute("walkers", static_cast<std::int64_t>(c.model.walkers));
  m.write_scalar("seed", c.model.seed, "", "random seed");
  m.write_scalar("step", c.model.step, "attempts per walker", "random-number step counter");
  m.write_2d("spins", c.model.spins, c.model.spins.size() / c.model.walkers, c.model.walkers, "",
             "bit-packed spins (word, walker)");
  m.write("bins", c.model.bins, "", "energy bin of each walker");
  m.write("log_weights", c.model.log_weights, "", "current ln W(E)");
  auto d = root.group("driver");
  const auto& s = c.driver;
  d.attribute("iteration", static_cast<std::int64_t>(s.iteration));
  d.attribute("full_range", static_cast<std::int64_t>(s.full_range));
  d.attribute("converged", static_cast<std::int64_t>(s.converged));
  d.write_scalar("updates_real", s.updates_real, "attempts per walker",
                 "N_updates before truncation");
  d.attribute("previous_width", static_cast<std::int64_t>(s.previous_width));
  d.attribute("blocks_done", static_cast<std::int64_t>(s.blocks_done));
  d.write_scalar("production_updates", s.production_updates, "attempts per walker",
                 "attempts per production block");
  d.write_scalar("production_therm", s.production_therm, "attempts per walker",
                 "thermalisation under the final weights before the first block");
  const int nbins = static_cast<int>(c.model.log_weights.size());
  write_iterations(d.group("iterations"), s.records, nbins);
  if (!s.block_histograms.empty())
    d.write_2d("block_histograms", flatten<std::uint64_t>(s.block_histograms),
               s.block_histograms.size(), nbins, "counts", "production histogram of each block");
  d.attribute("groups", static_cast<std::int64_t>(s.groups));
  if (!s.group_histograms.empty())
    d.write_2d("group_histograms", s.group_histograms, s.groups, nbins, "counts",
               "production histogram of each walker group");
  if (!s.block_group_windows.empty())
    d.write_2d("block_group_windows", flatten<std::uint64_t>(s.block_group_windows),
               s.block_group_windows.size(), s.block_group_windows.front().size(), "counts",
               "per block, each walker group's attempts in each stationarity window");
  if (s.order_interval > 0 || !s.group_order_sums.empty())
    d.write_scalar("order_interval", s.order_interval, "attempts per walker",
                   "attempts between order-parameter measurements");
  if (!s.block_order_sums.empty())
    d.write_2d("block_order_sums", flatten<std::uint64_t>(s.block_order_sums),
               s.block_order_sums.size(), s.block_order_sums.front().size(), "",
               "per block, group_order_sums' counters summed over the walker groups (kept when "
               "errors come from time bins)");
  if (!s.group_order_sums.empty())
    d.write_2d("group_order_sums", s.group_order_sums, s.group_order_sums.size() / kOrderSlots,
               kOrderSlots, "",
               "per (walker group, energy bin): measurements, then the 32-bit limbs of the sums "
               "of d^1..d^4 (order_parameter.hpp)");
  h5::seal_checkpoint(root, checkpoint_checksum(c, config_yaml));
  file.commit();
}

namespace {

// The contents as stored; only what cutting the flat datasets into rows needs is checked here.
Checkpoint read_contents(const h5::InputFile& f) {
  if (f.attribute_int("/", "muca_checkpoint_format") != 2)
    h5::refuse_checkpoint(f.path(),
                          "muca checkpoint format " +
                              std::to_string(f.attribute_int("/", "muca_checkpoint_format")) +
                              ", this portamc reads format 2");
  Checkpoint c;
  c.model.L = static_cast<int>(f.attribute_int("/model", "L"));
  // Checkpoints written before the other models existed hold the 2D Ising model.
  if (f.has_attribute("/model", "hamiltonian")) {
    const std::string name = f.attribute_string("/model", "hamiltonian");
    try {
      c.model.kind = hamiltonian_kind_names().value(name);
    } catch (const std::invalid_argument& e) {
      h5::refuse_checkpoint(f.path(), std::string("/model attribute hamiltonian: ") + e.what());
    }
    c.model.dimension = static_cast<int>(f.attribute_int("/model", "dimension"));
    c.model.q = static_cast<int>(f.attribute_int("/model", "q"));
    if (f.has_attribute("/model", "beta")) c.model.beta = f.attribute_double("/model", "beta");
  }
  c.model.walkers = f.attribute_int("/model", "walkers");
  c.model.seed = f.read_scalar<std::uint64_t>("/model/seed");
  c.model.step = f.read_scalar<std::uint64_t>("/model/step");
  c.model.spins = f.read<std::uint32_t>("/model/spins");
  c.model.bins = f.read<std::int32_t>("/model/bins");
  c.model.log_weights = f.read<double>("/model/log_weights");
  auto& s = c.driver;
  s.iteration = static_cast<int>(f.attribute_int("/driver", "iteration"));
  s.full_range = f.attribute_int("/driver", "full_range") != 0;
  s.converged = f.attribute_int("/driver", "converged") != 0;
  s.updates_real = f.read_scalar<double>("/driver/updates_real");
  s.previous_width = static_cast<int>(f.attribute_int("/driver", "previous_width"));
  s.blocks_done = static_cast<int>(f.attribute_int("/driver", "blocks_done"));
  s.production_updates = f.read_scalar<std::uint64_t>("/driver/production_updates");
  s.production_therm = f.read_scalar<std::uint64_t>("/driver/production_therm");
  const std::size_t nbins = c.model.log_weights.size();
  s.records = read_iterations(f, "/driver/iterations", nbins);
  if (s.blocks_done < 0)
    h5::refuse_checkpoint(f.path(), "/driver attribute blocks_done = " +
                                        std::to_string(s.blocks_done) + " is negative");
  const auto blocks = static_cast<std::size_t>(s.blocks_done);
  // Written only when not empty.
  if (blocks > 0) {
    const auto flat = f.read<std::uint64_t>("/driver/block_histograms");
    h5::require_size(f, "/driver/block_histograms", flat.size(), blocks * nbins);
    s.block_histograms = unflatten(flat, blocks, nbins);
  }
  // A production that changed its walker groups on resuming dropped these (groups = 0).
  s.groups = static_cast<int>(f.attribute_int("/driver", "groups"));
  if (f.exists("/driver/group_histograms"))
    s.group_histograms = f.read<std::uint64_t>("/driver/group_histograms");
  if (f.exists("/driver/block_group_windows")) {
    const auto flat = f.read<std::uint64_t>("/driver/block_group_windows");
    const auto shape = f.shape("/driver/block_group_windows");
    if (shape.size() != 2 || shape[0] != blocks)
      h5::refuse_checkpoint(f.path(),
                            "/driver/block_group_windows does not hold one row per "
                            "production block (" +
                                std::to_string(blocks) + ")");
    s.block_group_windows = unflatten(flat, shape[0], shape[1]);
  }
  if (f.exists("/driver/order_interval"))
    s.order_interval = f.read_scalar<std::uint64_t>("/driver/order_interval");
  if (f.exists("/driver/group_order_sums"))
    s.group_order_sums = f.read<std::uint64_t>("/driver/group_order_sums");
  if (f.exists("/driver/block_order_sums")) {
    const auto flat = f.read<std::uint64_t>("/driver/block_order_sums");
    const auto shape = f.shape("/driver/block_order_sums");
    if (shape.size() != 2 || shape[0] != blocks || shape[1] != nbins * kOrderSlots)
      h5::refuse_checkpoint(f.path(), "/driver/block_order_sums does not hold one row of " +
                                          std::to_string(nbins * kOrderSlots) +
                                          " counters per production block (" +
                                          std::to_string(blocks) + ")");
    s.block_order_sums = unflatten(flat, shape[0], shape[1]);
  }
  return c;
}

}  // namespace

Checkpoint read_checkpoint(const std::string& path) {
  return h5::read_verified_checkpoint(
      path, "muca", [](const h5::InputFile& f) { return read_contents(f); },
      [](const Checkpoint& c, const std::string& config) { return checkpoint_checksum(c, config); },
      [](const Checkpoint& c, const std::string& file) { check_checkpoint(c, file); });
}

template <class Space, class Engine>
void write_results(h5::Group root, const Simulation<Space, Engine>& sim,
                   const ProductionAnalysis& analysis, const Timing& timing) {
  const auto& model = sim.model();
  const auto& driver = sim.driver();
  const EnergyBins& bins = sim.bins();
  const Hamiltonian h = sim.hamiltonian();
  const DensityOfStates& dos = analysis.dos;
  const CanonicalTable& canonical = analysis.canonical;
  auto g = root.group("muca");
  const auto& p = sim.parameters();
  g.attribute("L", static_cast<std::int64_t>(h.L));
  g.attribute("hamiltonian", std::string(to_string(h.kind)));
  g.attribute("dimension", static_cast<std::int64_t>(h.dimension));
  if (h.kind == HamiltonianKind::potts) g.attribute("q", static_cast<std::int64_t>(h.q));
  const bool fixed_beta = h.kind == HamiltonianKind::blume_capel;
  if (fixed_beta) g.attribute("beta", h.beta);
  g.attribute("sites", static_cast<std::int64_t>(h.sites()));
  g.attribute("engine", std::string(std::is_same_v<Engine, IsingMuca<Space>> ? "ising_2d_tuned"
                                                                             : "generic_spin"));
  g.attribute("walkers", static_cast<std::int64_t>(sim.walkers()));  // over all ranks
  g.attribute("converged", static_cast<std::int64_t>(driver.converged));
  g.attribute("iterations", static_cast<std::int64_t>(driver.iteration));
  if constexpr (std::is_same_v<Engine, IsingMuca<Space>>) {
    g.attribute("team_size", static_cast<std::int64_t>(model.plan().team_size));
    g.attribute("lattice_in_scratch", static_cast<std::int64_t>(model.plan().scratch_lattice));
    g.attribute("occupancy", static_cast<std::int64_t>(model.plan().occupancy));
  }

  std::vector<std::int64_t> energy(bins.count());
  for (int k = 0; k < bins.count(); ++k) energy[k] = bins.energy(k);

  auto it = g.group("iterations");
  write_iterations(it, driver.records, bins.count());
  auto kl = it.time_series("kl_series", "",
                           "Kullback-Leibler divergence by iteration (step = iteration)");
  for (const auto& r : driver.records) kl.append(r.iteration, r.kullback_leibler);

  auto w = g.group("weights");
  if (fixed_beta)
    w.write("energy", energy, "", "Blume-Capel: the number n of non-zero spins of each bin");
  else
    w.write("energy", energy, "J",
            "energy of each bin, E = " + std::to_string(bins.first) + " + " +
                std::to_string(bins.unit) + " k");
  w.write("log_weight", model.log_weights(), "", "final multicanonical ln W(E)");

  auto prod = g.group("production");
  prod.attribute("blocks", static_cast<std::int64_t>(driver.blocks_done));
  prod.write_scalar("updates_per_block", driver.production_updates, "attempts per walker",
                    "attempts per walker in each block");
  prod.write_scalar("therm_attempts", driver.production_therm, "attempts per walker",
                    "thermalisation under the final weights before the first block, "
                    "round(therm_prefactor * N^therm_exponent)");
  prod.attribute("therm_prefactor", p.production_therm_prefactor);
  prod.attribute("therm_exponent", p.production_therm_exponent);
  write_stationarity(prod.group("stationarity"), analysis.stationarity);
  prod.attribute("error_method", analysis.error_method);
  prod.attribute("jackknife_samples", static_cast<std::int64_t>(analysis.jackknife_samples));
  if (sim.production_by_group()) {
    prod.attribute("walker_groups", static_cast<std::int64_t>(driver.groups));
    prod.write_2d("group_histograms", driver.group_histograms, driver.groups, bins.count(),
                  "counts",
                  "production histogram of each walker group, group(w) = floor(w G / W), summed "
                  "over the blocks");
  }
  if (analysis.error_method == "time_bins") {
    prod.attribute("blocks_per_bin", static_cast<std::int64_t>(analysis.binning.blocks_per_bin));
    prod.attribute("bins_long_enough", static_cast<std::int64_t>(analysis.binning.long_enough));
    prod.write_scalar("block_tau_int", analysis.binning.block_tau_int, "blocks",
                      "median over energy bins of the tau_int of single-block jackknife "
                      "pseudovalues of ln g; sets the jackknife bins (blocks_per_bin)");
  }
  if (!driver.block_histograms.empty())
    prod.write_2d("block_histograms", flatten<std::uint64_t>(driver.block_histograms),
                  driver.block_histograms.size(), bins.count(), "counts",
                  "energy histogram of each production block, summed over walkers");

  auto d = g.group("dos");
  if (fixed_beta)
    d.write("energy", energy, "", "Blume-Capel: the number n of non-zero spins of each bin");
  else
    d.write("energy", energy, "J", "energy of each bin");
  write_table(d, "log_g", dos.log_g, "",
              fixed_beta ? "ln Z_beta(n): configurations with n non-zero spins weighted by "
                           "exp(-beta bond), normalised by Z_beta(0) = 1; the energy dataset "
                           "holds n; -inf if never visited"
                         : "ln g(E), normalised to all " + std::to_string(bins.site_states) + "^" +
                               std::to_string(bins.N) + " configurations; -inf if never visited");
  const std::vector<double> exact_log_g = exact_log_dos(h, bins);
  if (!exact_log_g.empty())
    d.write("log_g_exact", exact_log_g, "",
            "exact ln g(E) (" + exact_source(h) + "); -inf: no state");

  if (fixed_beta) write_crystal_field(g.group("crystal_field"), analysis, bins, h, exact_log_g);
  if (!fixed_beta) {
    auto c = g.group("canonical");
    c.write("beta", canonical.beta, "1/J", "inverse temperature");
    write_table(c, "energy", canonical.energy, "J", "U/N, reweighted");
    write_table(c, "specific_heat", canonical.specific_heat, "", "C/N, reweighted");
    write_table(c, "free_energy", canonical.free_energy, "J", "F/N, reweighted");
    write_table(c, "entropy", canonical.entropy, "", "S/N, reweighted");
    const std::vector<exact::Canonical> exact = exact_canonical(h, bins, canonical.beta);
    if (!exact.empty()) {
      std::vector<double> u, cv, f, s;
      for (const auto& e : exact) {
        u.push_back(e.energy_per_spin);
        cv.push_back(e.specific_heat_per_spin);
        f.push_back(e.free_energy_per_spin);
        s.push_back(e.entropy_per_spin);
      }
      const std::string source = exact_source(h);
      c.write("energy_exact", u, "J", "U/N of the finite torus (" + source + ")");
      c.write("specific_heat_exact", cv, "", "C/N of the finite torus (" + source + ")");
      c.write("free_energy_exact", f, "J", "F/N of the finite torus (" + source + ")");
      c.write("entropy_exact", s, "", "S/N of the finite torus (" + source + ")");
    }
  }
  if (analysis.double_peak.attempted)
    write_double_peak(g.group("first_order"), analysis.double_peak, fixed_beta);
  write_order_parameter(g.group("order_parameter"), analysis, driver, bins, energy, fixed_beta);

  auto t = g.group("timing");
  t.write_scalar("iteration_seconds", timing.iteration_seconds, "s",
                 "weight iteration wall time (the sum of its iterations' times)");
  t.write_scalar("production_seconds", timing.production_seconds, "s",
                 "production wall time of the process that finished the run (a resumed run's "
                 "earlier blocks are not included)");
  t.write_scalar("iteration_attempts", timing.iteration_attempts, "",
                 "spin-flip attempts, all walkers");
  t.write_scalar("production_attempts", timing.production_attempts, "",
                 "spin-flip attempts, all walkers");
}

#define PORTAMC_MUCA_INSTANTIATE_(S)                                                     \
  template void write_results(h5::Group root, const Simulation<S>& sim,                  \
                              const ProductionAnalysis& analysis, const Timing& timing); \
  template void write_results(h5::Group root, const Simulation<S, SpinMuca<S>>& sim,     \
                              const ProductionAnalysis& analysis, const Timing& timing);
PORTAMC_FOR_EACH_SPACE(PORTAMC_MUCA_INSTANTIATE_)
#undef PORTAMC_MUCA_INSTANTIATE_

}  // namespace portamc::muca
