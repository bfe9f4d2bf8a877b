// Is a sequence of measurement blocks stationary? Compares the first third of the blocks
// with the last third, component by component, for production runs whose blocks are each a
// vector of observables (e.g. the occupation of energy windows in one block). Host-only.
#pragma once

#include <string>
#include <vector>

namespace portamc::stats {

struct StationarityCheck {
  std::vector<double> z;  ///< per component: (mean of last third - mean of first third) / error
  double max_abs_z = 0;
  double threshold = 0;
  bool checked = true;  ///< false: too few blocks to compare (then passed is false too)
  bool passed = false;
  std::string statistic;  ///< the rule in words, for output files and logs
};

/// For each component c, the means m1 and m3 over the first and the last third of the blocks
/// (n = floor(B/3) blocks each) and the standard deviation s of the last third's blocks:
/// z_c = (m3 - m1) / (s sqrt(2 / n)); passed when max_c |z_c| <= threshold. Under
/// stationarity both thirds scatter alike, so the last third (the most relaxed) measures the
/// scatter for both; a transient in the first third then shows in its mean instead of also
/// widening the error that judges it.
/// It tests what a jackknife over the blocks assumes: blocks that are stationary and
/// independent. A trend fails it, and so do blocks so strongly correlated that their scatter
/// understates the error. (Measuring tau_int on the blocks to widen the errors would not do:
/// a trend reads as long correlation and would hide itself.) The default 4.5 gives a false
/// alarm rate of about 1e-3 for 16 independent Gaussian components (6.8e-6 each), a few times
/// more where thirds are short and z follows a t law. Components constant over all blocks have
/// z = 0. Throws std::invalid_argument for fewer than 6 blocks or ragged blocks.
StationarityCheck compare_thirds(const std::vector<std::vector<double>>& blocks,
                                 double threshold = 4.5);

/// The same comparison when the run has independent groups of samplers (walkers, replicas)
/// recorded separately: amounts[b][g][c] is what group g put into component c in block b
/// (e.g. attempts in an energy window). Per group, the shares of the components over the first
/// and over the last third of the blocks, and d_gc = share_last - share_first; per component
/// z_c = mean_g d_gc / (sd_g d_gc / sqrt(G)). Groups are independent, so their scatter holds
/// every source of noise, slow wander included, however correlated consecutive blocks are; a
/// relaxation shows as a mean change shared by the groups. Passes when max |z_c| <= threshold
/// (4.5: about 5e-4 false alarms for 16 components and 64 groups, t law with 63 dof). Groups
/// with nothing in a third are left out. Throws std::invalid_argument for fewer than 6 blocks,
/// fewer than 3 groups or ragged input.
StationarityCheck compare_thirds_by_group(
    const std::vector<std::vector<std::vector<double>>>& amounts, double threshold = 4.5);

}  // namespace portamc::stats
