#include "portamc/josephson/detail/realisation_states.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace portamc::josephson {
namespace {

[[noreturn]] void bad(const char* what, const std::string& message) {
  throw std::invalid_argument(std::string(what) + ": " + message);
}

void append(EnsembleResults& to, const EnsembleResults& from) {
  to.steps.insert(to.steps.end(), from.steps.begin(), from.steps.end());
  to.outcome.insert(to.outcome.end(), from.outcome.begin(), from.outcome.end());
  to.bias.insert(to.bias.end(), from.bias.begin(), from.bias.end());
  to.final_phi.insert(to.final_phi.end(), from.final_phi.begin(), from.final_phi.end());
  to.final_v.insert(to.final_v.end(), from.final_v.begin(), from.final_v.end());
}

}  // namespace

bool RealisationStates::complete() const {
  return in_flight.empty() && std::none_of(results.outcome.begin(), results.outcome.end(),
                                           [](Outcome o) { return o == Outcome::pending; });
}

bool RealisationStates::untouched() const {
  return in_flight.empty() && finished() == 0;
}

std::size_t RealisationStates::finished() const {
  return size() - results.count(Outcome::pending);
}

void validate(const RealisationStates& s, const char* what) {
  const std::size_t n = s.results.outcome.size();
  const EnsembleResults& r = s.results;
  if (r.steps.size() != n || r.bias.size() != n || r.final_phi.size() != n || r.final_v.size() != n)
    bad(what, "result arrays of different lengths");
  const std::size_t m = s.in_flight.size();
  if (s.in_flight_phi.size() != m || s.in_flight_v.size() != m || s.in_flight_step.size() != m)
    bad(what, "in-flight arrays of different lengths");
  for (std::size_t j = 0; j < m; ++j) {
    const std::uint64_t i = s.in_flight[j];
    if (i >= n)
      bad(what, "in-flight realisation " + std::to_string(i) + " beyond the " + std::to_string(n) +
                    " realisations");
    if (j > 0 && i <= s.in_flight[j - 1]) bad(what, "in-flight realisations not ascending");
    if (r.outcome[i] != Outcome::pending)
      bad(what, "realisation " + std::to_string(i) + " both finished and in flight");
  }
}

RealisationStates unstarted_realisations(std::uint64_t count, double h) {
  RealisationStates s;
  const auto n = static_cast<std::size_t>(count);
  s.results.h = h;
  s.results.steps.assign(n, 0);
  s.results.outcome.assign(n, Outcome::pending);
  s.results.bias.assign(n, 0.0);
  s.results.final_phi.assign(n, 0.0);
  s.results.final_v.assign(n, 0.0);
  return s;
}

RealisationStates realisation_states(const EnsembleCheckpoint& c) {
  RealisationStates s;
  s.results = c.results;
  std::vector<std::size_t> busy;
  for (std::size_t slot = 0; slot < c.slot_realisation.size(); ++slot)
    if (c.slot_realisation[slot] >= 0) busy.push_back(slot);
  std::sort(busy.begin(), busy.end(), [&](std::size_t a, std::size_t b) {
    return c.slot_realisation[a] < c.slot_realisation[b];
  });
  for (std::size_t slot : busy) {
    s.in_flight.push_back(static_cast<std::uint64_t>(c.slot_realisation[slot]));
    s.in_flight_phi.push_back(c.slot_phi[slot]);
    s.in_flight_v.push_back(c.slot_v[slot]);
    s.in_flight_step.push_back(c.slot_step[slot]);
  }
  validate(s, "josephson ensemble checkpoint");
  return s;
}

RealisationStates select_realisations(const RealisationStates& all, std::uint64_t begin,
                                      std::uint64_t end) {
  if (begin > end || end > all.size())
    throw std::invalid_argument("select_realisations: [" + std::to_string(begin) + ", " +
                                std::to_string(end) + ") is not within the " +
                                std::to_string(all.size()) + " realisations");
  RealisationStates s;
  const EnsembleResults& r = all.results;
  const auto b = static_cast<std::ptrdiff_t>(begin), e = static_cast<std::ptrdiff_t>(end);
  s.results.h = r.h;
  s.results.steps.assign(r.steps.begin() + b, r.steps.begin() + e);
  s.results.outcome.assign(r.outcome.begin() + b, r.outcome.begin() + e);
  s.results.bias.assign(r.bias.begin() + b, r.bias.begin() + e);
  s.results.final_phi.assign(r.final_phi.begin() + b, r.final_phi.begin() + e);
  s.results.final_v.assign(r.final_v.begin() + b, r.final_v.begin() + e);
  for (std::size_t j = 0; j < all.in_flight.size(); ++j) {
    const std::uint64_t i = all.in_flight[j];
    if (i < begin || i >= end) continue;
    s.in_flight.push_back(i - begin);
    s.in_flight_phi.push_back(all.in_flight_phi[j]);
    s.in_flight_v.push_back(all.in_flight_v[j]);
    s.in_flight_step.push_back(all.in_flight_step[j]);
  }
  return s;
}

RealisationStates concatenate_realisations(const std::vector<RealisationStates>& parts) {
  RealisationStates s;
  if (!parts.empty()) s.results.h = parts.front().results.h;
  for (const RealisationStates& p : parts) {
    const auto offset = static_cast<std::uint64_t>(s.size());
    for (std::uint64_t i : p.in_flight) s.in_flight.push_back(offset + i);
    s.in_flight_phi.insert(s.in_flight_phi.end(), p.in_flight_phi.begin(), p.in_flight_phi.end());
    s.in_flight_v.insert(s.in_flight_v.end(), p.in_flight_v.begin(), p.in_flight_v.end());
    s.in_flight_step.insert(s.in_flight_step.end(), p.in_flight_step.begin(),
                            p.in_flight_step.end());
    append(s.results, p.results);
  }
  return s;
}

namespace {

// The first realisation of the longest run of unstarted ones at the end of the range (the
// ensemble's counter can hand out exactly these); size() if the last one has started.
std::size_t unstarted_suffix(const RealisationStates& s) {
  std::size_t u = s.size();
  const std::uint64_t last_flying = s.in_flight.empty() ? 0 : s.in_flight.back() + 1;
  while (u > last_flying && s.results.outcome[u - 1] == Outcome::pending) --u;
  return u;
}

}  // namespace

std::int64_t slots_needed(const RealisationStates& s, bool refill) {
  const std::size_t u = refill ? unstarted_suffix(s) : s.size();
  std::int64_t busy = 0;
  for (std::size_t i = 0; i < u; ++i) busy += s.results.outcome[i] == Outcome::pending;
  return busy;
}

EnsembleCheckpoint deal_to_slots(const RealisationStates& s, std::int64_t slots, bool refill,
                                 double start_phase) {
  validate(s);
  const std::int64_t needed = slots_needed(s, refill);
  if (slots < needed)
    throw std::invalid_argument("josephson ensemble restore: " + std::to_string(needed) +
                                " realisations to place in " + std::to_string(slots) + " slots");
  const std::size_t n = s.size();
  const std::size_t u = refill ? unstarted_suffix(s) : n;
  EnsembleCheckpoint c;
  const auto count = static_cast<std::size_t>(slots);
  c.slot_realisation.assign(count, -1);
  c.slot_phi.assign(count, 0.0);
  c.slot_v.assign(count, 0.0);
  c.slot_step.assign(count, 0);
  auto place_at_rest = [&](std::size_t slot, std::size_t i) {
    c.slot_realisation[slot] = static_cast<std::int64_t>(i);
    c.slot_phi[slot] = start_phase;
  };
  std::size_t slot = 0, j = 0;
  for (std::size_t i = 0; i < u; ++i) {
    if (s.results.outcome[i] != Outcome::pending) continue;
    if (j < s.in_flight.size() && s.in_flight[j] == i) {
      c.slot_realisation[slot] = static_cast<std::int64_t>(i);
      c.slot_phi[slot] = s.in_flight_phi[j];
      c.slot_v[slot] = s.in_flight_v[j];
      c.slot_step[slot] = s.in_flight_step[j];
      ++j;
    } else {
      place_at_rest(slot, i);
    }
    ++slot;
  }
  // The free slots start the unstarted suffix, as a new ensemble's slots start 0, 1, ...
  std::size_t next = u;
  for (; slot < count && next < n; ++slot, ++next) place_at_rest(slot, next);
  c.active_slots = slots;
  c.next_realisation = next;
  c.results = s.results;
  return c;
}

EnsembleResults gather_results(const EnsembleResults& local, const parallel::Communicator& comm) {
  if (comm.size() == 1) return local;
  EnsembleResults g;
  g.h = local.h;
  g.steps = comm.gather(local.steps);
  std::vector<std::uint8_t> outcome(local.outcome.size());
  for (std::size_t i = 0; i < outcome.size(); ++i)
    outcome[i] = static_cast<std::uint8_t>(local.outcome[i]);
  for (std::uint8_t o : comm.gather(outcome)) g.outcome.push_back(static_cast<Outcome>(o));
  g.bias = comm.gather(local.bias);
  g.final_phi = comm.gather(local.final_phi);
  g.final_v = comm.gather(local.final_v);
  return g;
}

RealisationStates gather_realisations(const RealisationStates& local,
                                      const parallel::Communicator& comm) {
  if (comm.size() == 1) return local;
  RealisationStates g;
  g.results = gather_results(local.results, comm);
  const std::vector<std::uint64_t> sizes =
      comm.gather(std::vector<std::uint64_t>{static_cast<std::uint64_t>(local.size()),
                                             static_cast<std::uint64_t>(local.in_flight.size())});
  const std::vector<std::uint64_t> in_flight = comm.gather(local.in_flight);
  g.in_flight_phi = comm.gather(local.in_flight_phi);
  g.in_flight_v = comm.gather(local.in_flight_v);
  g.in_flight_step = comm.gather(local.in_flight_step);
  if (!comm.is_root()) return RealisationStates{};
  // Shares are consecutive: rank r's indices move up by the sizes of the ranks before it.
  std::uint64_t offset = 0;
  std::size_t j = 0;
  for (int r = 0; r < comm.size(); ++r) {
    const std::uint64_t n = sizes[2 * r], m = sizes[2 * r + 1];
    for (std::uint64_t k = 0; k < m; ++k, ++j) g.in_flight.push_back(offset + in_flight[j]);
    offset += n;
  }
  validate(g, "gathered realisation states");
  return g;
}

}  // namespace portamc::josephson
