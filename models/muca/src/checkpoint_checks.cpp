// Checks of a checkpoint's values: they protect against a file that is consistent (its checksum
// matches) but wrong, made by hand or by another version. Out-of-range energy bins index the
// weight tables on the device, so they must never reach it.
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "checkpoint_integrity.hpp"
#include "portamc/checkpoint_file.hpp"
#include "portamc/lattice.hpp"

namespace portamc::muca {
namespace {

std::string element(const std::string& dataset, std::size_t i) {
  return dataset + "[" + std::to_string(i) + "]";
}

// Energy bin of every walker from its spins, as IsingMuca's compute_bins does on the device:
// k = (bonds between unequal spins) / 2, over the +x and +y bond of each site. The words are
// walker-interleaved, spins(word, walker), so the inner loop runs over consecutive walkers and
// vectorises: a GPU-sized checkpoint (2^18 walkers of 64^2 spins) takes about a second.
std::vector<std::int64_t> bins_from_spins(const ModelState& m) {
  const auto walkers = static_cast<std::size_t>(m.walkers);
  const auto lattice = HypercubicLattice<2>::cubic(m.L);
  std::vector<std::uint32_t> unequal(walkers, 0);
  for (std::int64_t s = 0; s < lattice.volume(); ++s) {
    const std::uint32_t* mine = &m.spins[static_cast<std::size_t>(s >> 5) * walkers];
    const unsigned my_bit = static_cast<unsigned>(s & 31);
    for (int direction = 0; direction < 2; ++direction) {
      const std::int64_t o = lattice.neighbour(s, direction);
      const std::uint32_t* theirs = &m.spins[static_cast<std::size_t>(o >> 5) * walkers];
      const unsigned their_bit = static_cast<unsigned>(o & 31);
      for (std::size_t w = 0; w < walkers; ++w)
        unequal[w] += ((mine[w] >> my_bit) ^ (theirs[w] >> their_bit)) & 1u;
    }
  }
  std::vector<std::int64_t> bins(walkers);
  for (std::size_t w = 0; w < walkers; ++w) bins[w] = unequal[w] / 2;
  return bins;
}

void check_model(const ModelState& m, const std::string& path) {
  if (m.L < 4 || m.L % 2 != 0 || m.L > 46340)
    h5::refuse_checkpoint(path, "/model attribute L = " + std::to_string(m.L) +
                                    " is no lattice size of portamc-muca (even, 4 or more)");
  if (m.walkers < 1)
    h5::refuse_checkpoint(
        path, "/model attribute walkers = " + std::to_string(m.walkers) + " is below 1");
  const auto walkers = static_cast<std::size_t>(m.walkers);
  const int N = m.L * m.L;
  const auto words = static_cast<std::size_t>((N + 31) / 32);
  if (m.log_weights.size() != static_cast<std::size_t>(N) + 1 || m.bins.size() != walkers ||
      m.spins.size() != words * walkers)
    h5::refuse_checkpoint(
        path, "/model/log_weights, bins and spins hold " + std::to_string(m.log_weights.size()) +
                  ", " + std::to_string(m.bins.size()) + " and " + std::to_string(m.spins.size()) +
                  " values; L = " + std::to_string(m.L) + " and W = " + std::to_string(m.walkers) +
                  " need L^2 + 1, W and ceil(L^2 / 32) W");
  for (std::size_t k = 0; k < m.log_weights.size(); ++k)
    if (!std::isfinite(m.log_weights[k]))
      h5::refuse_checkpoint(path, element("/model/log_weights", k) + " = " +
                                      std::to_string(m.log_weights[k]) + " is not finite");
  for (std::size_t w = 0; w < walkers; ++w)
    if (m.bins[w] < 0 || m.bins[w] > N)
      h5::refuse_checkpoint(path, element("/model/bins", w) + " = " + std::to_string(m.bins[w]) +
                                      " is outside the energy bins 0.." + std::to_string(N));
  const std::vector<std::int64_t> expected = bins_from_spins(m);
  for (std::size_t w = 0; w < walkers; ++w)
    if (m.bins[w] != expected[w])
      h5::refuse_checkpoint(path, element("/model/bins", w) + " = " + std::to_string(m.bins[w]) +
                                      ", but the walker's spins (/model/spins) are in energy bin " +
                                      std::to_string(expected[w]));
}

std::uint64_t row_sum(const std::vector<count_type>& row) {
  std::uint64_t sum = 0;
  for (count_type v : row) sum += v;
  return sum;
}

void check_driver(const Checkpoint& c, const std::string& path) {
  const DriverState& d = c.driver;
  const auto walkers = static_cast<std::uint64_t>(c.model.walkers);
  const std::size_t nbins = c.model.log_weights.size();
  if (d.iteration < 0 || static_cast<std::size_t>(d.iteration) != d.records.size())
    h5::refuse_checkpoint(path, "/driver attribute iteration = " + std::to_string(d.iteration) +
                                    ", but /driver/iterations holds " +
                                    std::to_string(d.records.size()) + " iterations");
  if (!std::isfinite(d.updates_real) || d.updates_real < 0)
    h5::refuse_checkpoint(path, "/driver/updates_real = " + std::to_string(d.updates_real) +
                                    " is not a number of attempts");
  if (d.previous_width < 0 || static_cast<std::size_t>(d.previous_width) > nbins)
    h5::refuse_checkpoint(path,
                          "/driver attribute previous_width = " + std::to_string(d.previous_width) +
                              " is not within 0.." + std::to_string(nbins) + " bins");
  // Every attempt of every walker adds one count to the histogram it is recorded in, and
  // advances the RNG step (/model/step, per walker) by one.
  std::uint64_t attempts = 0;
  for (std::size_t i = 0; i < d.records.size(); ++i) {
    const IterationRecord& r = d.records[i];
    if (r.iteration != static_cast<int>(i))
      h5::refuse_checkpoint(path, element("/driver/iterations/iteration", i) + " = " +
                                      std::to_string(r.iteration) + ", expected " +
                                      std::to_string(i));
    if (row_sum(r.histogram) != r.update_attempts * walkers)
      h5::refuse_checkpoint(path, "row " + std::to_string(i) +
                                      " of /driver/iterations/histogram counts " +
                                      std::to_string(row_sum(r.histogram)) + ", not W x " +
                                      element("update_attempts", i) + " = " +
                                      std::to_string(r.update_attempts * walkers));
    attempts += r.therm_attempts + r.update_attempts;
  }
  for (std::size_t b = 0; b < d.block_histograms.size(); ++b)
    if (row_sum(d.block_histograms[b]) != d.production_updates * walkers)
      h5::refuse_checkpoint(path, "row " + std::to_string(b) +
                                      " of /driver/block_histograms counts " +
                                      std::to_string(row_sum(d.block_histograms[b])) +
                                      ", not W x /driver/production_updates = " +
                                      std::to_string(d.production_updates * walkers));
  if (d.blocks_done > 0)
    attempts +=
        d.production_therm + static_cast<std::uint64_t>(d.blocks_done) * d.production_updates;
  if (c.model.step != attempts)
    h5::refuse_checkpoint(path, "/model/step = " + std::to_string(c.model.step) +
                                    ", but the iterations and production blocks recorded add up "
                                    "to " +
                                    std::to_string(attempts) + " attempts per walker");
  if (d.groups < 0 || (!d.group_histograms.empty() &&
                       d.group_histograms.size() != static_cast<std::size_t>(d.groups) * nbins))
    h5::refuse_checkpoint(path, "/driver/group_histograms holds " +
                                    std::to_string(d.group_histograms.size()) + " values for " +
                                    std::to_string(d.groups) + " walker groups of " +
                                    std::to_string(nbins) + " bins");
}

}  // namespace

void check_checkpoint(const Checkpoint& c, const std::string& path) {
  check_model(c.model, path);
  check_driver(c, path);
}

}  // namespace portamc::muca
