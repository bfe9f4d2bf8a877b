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
#include "portamc/muca/spin_bins.hpp"

namespace portamc::muca {
namespace {

std::string element(const std::string& dataset, std::size_t i) {
  return dataset + "[" + std::to_string(i) + "]";
}

// Energy bin of every walker from its site states, as the engines' compute_bins do on the
// device: the bonds between unequal states over the forward bonds of each site, u, give bin
// u / 2 (Ising: bond energy -dN + 2u = -dN + 4k) or u (Potts: bond energy -(dN - u)). States
// are packed `bits` per site, 32 / bits sites per word. The words are walker-interleaved,
// states(word, walker), so the inner loop runs over consecutive walkers and vectorises: a
// GPU-sized checkpoint (2^18 walkers of 64^2 spins) takes about a second. Blume-Capel's bin is
// its number of non-zero spins (state != 1).
template <int D>
std::vector<std::int64_t> bins_from_states(const ModelState& m, int bits) {
  const auto walkers = static_cast<std::size_t>(m.walkers);
  if (m.kind == HamiltonianKind::blume_capel) {
    const long long sites = m.hamiltonian().sites();
    std::vector<std::int64_t> nonzero(walkers, 0);
    for (long long s = 0; s < sites; ++s) {
      const std::uint32_t* words = &m.spins[static_cast<std::size_t>(s / (32 / bits)) * walkers];
      const unsigned shift = static_cast<unsigned>((s % (32 / bits)) * bits);
      for (std::size_t w = 0; w < walkers; ++w)
        nonzero[w] += ((words[w] >> shift) & ((1u << bits) - 1u)) != 1u;
    }
    return nonzero;
  }
  const auto lattice = HypercubicLattice<D>::cubic(m.L);
  const int per_word = 32 / bits;
  const std::uint32_t mask = (1u << bits) - 1u;
  const auto word_of = [&](std::int64_t s) {
    return &m.spins[static_cast<std::size_t>(s / per_word) * walkers];
  };
  const auto shift_of = [&](std::int64_t s) {
    return static_cast<unsigned>((s % per_word) * bits);
  };
  std::vector<std::uint32_t> unequal(walkers, 0);
  for (std::int64_t s = 0; s < lattice.volume(); ++s) {
    const std::uint32_t* mine = word_of(s);
    const unsigned my_shift = shift_of(s);
    for (int direction = 0; direction < D; ++direction) {
      const std::int64_t o = lattice.neighbour(s, direction);
      const std::uint32_t* theirs = word_of(o);
      const unsigned their_shift = shift_of(o);
      for (std::size_t w = 0; w < walkers; ++w)
        unequal[w] += (((mine[w] >> my_shift) ^ (theirs[w] >> their_shift)) & mask) != 0;
    }
  }
  std::vector<std::int64_t> bins(walkers);
  for (std::size_t w = 0; w < walkers; ++w)
    bins[w] = m.kind == HamiltonianKind::ising ? unequal[w] / 2 : unequal[w];
  return bins;
}

// The first walker and site whose state is not one of the model's, or -1.
std::int64_t first_bad_state(const ModelState& m, int bits, int states, long long sites) {
  if ((1 << bits) == states) return -1;
  const auto walkers = static_cast<std::size_t>(m.walkers);
  const int per_word = 32 / bits;
  for (long long s = 0; s < sites; ++s)
    for (std::size_t w = 0; w < walkers; ++w) {
      const std::uint32_t word = m.spins[static_cast<std::size_t>(s / per_word) * walkers + w];
      if (static_cast<int>((word >> ((s % per_word) * bits)) & ((1u << bits) - 1u)) >= states)
        return static_cast<std::int64_t>(w);
    }
  return -1;
}

void check_lattice(const ModelState& m, const std::string& path) {
  const Hamiltonian h = m.hamiltonian();
  if (m.kind == HamiltonianKind::ising && m.dimension == 2) {
    if (m.L < 4 || m.L % 2 != 0 || m.L > 46340)
      h5::refuse_checkpoint(path, "/model attribute L = " + std::to_string(m.L) +
                                      " is no lattice size of portamc-muca (even, 4 or more)");
    return;
  }
  try {
    validate(h);
  } catch (const std::invalid_argument& e) {
    h5::refuse_checkpoint(path, std::string("/model attributes: ") + e.what());
  }
  if (h.sites() > (std::int64_t{1} << 24))
    h5::refuse_checkpoint(path, "/model holds the " + h.describe() + ", more than 2^24 sites");
}

void check_model(const ModelState& m, const std::string& path) {
  check_lattice(m, path);
  if (m.walkers < 1)
    h5::refuse_checkpoint(
        path, "/model attribute walkers = " + std::to_string(m.walkers) + " is below 1");
  const Hamiltonian h = m.hamiltonian();
  const auto walkers = static_cast<std::size_t>(m.walkers);
  const long long N = h.sites();
  const int bits = h.state_bits();
  const auto words = static_cast<std::size_t>((N + 32 / bits - 1) / (32 / bits));
  const int nbins = SpinBins(h).count;
  if (m.log_weights.size() != static_cast<std::size_t>(nbins) || m.bins.size() != walkers ||
      m.spins.size() != words * walkers)
    h5::refuse_checkpoint(
        path, "/model/log_weights, bins and spins hold " + std::to_string(m.log_weights.size()) +
                  ", " + std::to_string(m.bins.size()) + " and " + std::to_string(m.spins.size()) +
                  " values; the " + h.describe() + " and W = " + std::to_string(m.walkers) +
                  " need " + std::to_string(nbins) + ", W and " + std::to_string(words) + " W");
  for (std::size_t k = 0; k < m.log_weights.size(); ++k)
    if (!std::isfinite(m.log_weights[k]))
      h5::refuse_checkpoint(path, element("/model/log_weights", k) + " = " +
                                      std::to_string(m.log_weights[k]) + " is not finite");
  for (std::size_t w = 0; w < walkers; ++w)
    if (m.bins[w] < 0 || m.bins[w] >= nbins)
      h5::refuse_checkpoint(path, element("/model/bins", w) + " = " + std::to_string(m.bins[w]) +
                                      " is outside the energy bins 0.." +
                                      std::to_string(nbins - 1));
  const std::int64_t bad = first_bad_state(m, bits, h.site_states(), N);
  if (bad >= 0)
    h5::refuse_checkpoint(path, "/model/spins of walker " + std::to_string(bad) +
                                    " hold a site state outside 0.." +
                                    std::to_string(h.site_states() - 1));
  const std::vector<std::int64_t> expected =
      h.dimension == 2 ? bins_from_states<2>(m, bits) : bins_from_states<3>(m, bits);
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
  if (!d.group_order_sums.empty() &&
      (d.order_interval == 0 ||
       d.group_order_sums.size() != d.group_histograms.size() * kOrderSlots))
    h5::refuse_checkpoint(
        path, "/driver/group_order_sums holds " + std::to_string(d.group_order_sums.size()) +
                  " values for " + std::to_string(d.group_histograms.size()) +
                  " walker-group bins of " + std::to_string(kOrderSlots) +
                  " counters (order_interval " + std::to_string(d.order_interval) + ")");
}

}  // namespace

void check_checkpoint(const Checkpoint& c, const std::string& path) {
  check_model(c.model, path);
  check_driver(c, path);
}

}  // namespace portamc::muca
