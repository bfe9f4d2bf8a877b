#include <cstdint>

#include "checkpoint_integrity.hpp"
#include "portamc/checksum.hpp"

namespace portamc::muca {
namespace {

// Integers go in as 64-bit, the width the file stores them in; flags as one byte.
std::uint8_t flag(bool b) {
  return b ? 1 : 0;
}

void add_model(Checksum& sum, const ModelState& m) {
  sum.value(static_cast<std::int64_t>(m.L)).value(static_cast<std::int64_t>(m.walkers));
  sum.value(m.seed).value(m.step);
  sum.values(m.spins).values(m.bins).values(m.log_weights);
  // The model enters only when it is not the 2D Ising model, so that checkpoints written
  // before other models existed keep their checksums.
  if (m.kind != HamiltonianKind::ising || m.dimension != 2) {
    sum.value(static_cast<std::int64_t>(m.kind)).value(static_cast<std::int64_t>(m.dimension));
    // The double that followed q was a crystal field, always 0; Blume-Capel's beta took its
    // place, so checkpoints of the other models keep their checksums.
    sum.value(static_cast<std::int64_t>(m.q)).value(m.beta);
  }
}

void add_record(Checksum& sum, const IterationRecord& r) {
  sum.value(static_cast<std::int64_t>(r.iteration)).value(static_cast<std::int64_t>(r.width));
  sum.value(r.therm_attempts).value(r.update_attempts);
  sum.value(r.kullback_leibler).value(r.chebyshev).value(r.seconds);
  sum.values(r.histogram).values(r.log_weights_after);
}

void add_driver(Checksum& sum, const DriverState& d) {
  sum.value(static_cast<std::int64_t>(d.iteration)).value(flag(d.full_range));
  sum.value(flag(d.converged)).value(d.updates_real);
  sum.value(static_cast<std::int64_t>(d.previous_width));
  sum.value(static_cast<std::int64_t>(d.blocks_done));
  sum.value(d.production_updates).value(d.production_therm);
  sum.value(static_cast<std::uint64_t>(d.records.size()));
  for (const IterationRecord& r : d.records) add_record(sum, r);
  sum.value(static_cast<std::uint64_t>(d.block_histograms.size()));
  for (const auto& row : d.block_histograms) sum.values(row);
  sum.value(static_cast<std::int64_t>(d.groups)).values(d.group_histograms);
  sum.value(static_cast<std::uint64_t>(d.block_group_windows.size()));
  for (const auto& row : d.block_group_windows) sum.values(row);
  // Present only in productions that measured the order parameter, so older checkpoints keep
  // their checksums.
  if (d.order_interval > 0 || !d.group_order_sums.empty())
    sum.value(d.order_interval).values(d.group_order_sums);
  if (!d.block_order_sums.empty()) {
    sum.value(static_cast<std::uint64_t>(d.block_order_sums.size()));
    for (const auto& row : d.block_order_sums) sum.values(row);
  }
}

}  // namespace

std::uint64_t checkpoint_checksum(const Checkpoint& c, const std::string& config_yaml) {
  Checksum sum;
  sum.text("portamc-muca checkpoint").text(config_yaml);
  add_model(sum, c.model);
  add_driver(sum, c.driver);
  return sum.digest();
}

}  // namespace portamc::muca
