#include <cstdint>
#include <vector>

#include "checkpoint_integrity.hpp"
#include "portamc/checksum.hpp"

namespace portamc::josephson {
namespace {

void add_results(Checksum& sum, const EnsembleResults& r) {
  std::vector<std::uint8_t> outcome;  // one byte each, as stored
  for (Outcome o : r.outcome) outcome.push_back(static_cast<std::uint8_t>(o));
  sum.value(r.h).values(r.steps).values(outcome);
  sum.values(r.bias).values(r.final_phi).values(r.final_v);
}

void add_point(Checksum& sum, const PointProgress& p) {
  sum.value(static_cast<std::int64_t>(p.record.slots)).value(p.record.seconds);
  sum.value(p.record.launches);
  add_results(sum, p.states.results);
  sum.values(p.states.in_flight).values(p.states.in_flight_phi);
  sum.values(p.states.in_flight_v).values(p.states.in_flight_step);
}

}  // namespace

std::uint64_t checkpoint_checksum(const RunCheckpoint& c, const std::string& config_yaml) {
  Checksum sum;
  sum.text("portamc-josephson checkpoint").text(config_yaml).text(c.fingerprint);
  sum.value(static_cast<std::uint64_t>(c.points.size()));
  for (const PointProgress& p : c.points) add_point(sum, p);
  return sum.digest();
}

}  // namespace portamc::josephson
