#include "portamc/tilings/bibone/bibone_enumeration.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {

namespace {

struct Search {
  const BiboneDomain& domain;
  const std::function<void(const BiboneMatching&)>& visit;
  BiboneMatching current;

  // Sites below `from` are all matched; match the first unmatched one every possible way.
  void run(int from) {
    while (from < domain.box_sites() && current.at(from) != bibone::outside) ++from;
    if (from == domain.box_sites()) {
      visit(current);
      return;
    }
    for (int d = 0; d < 6; ++d) {
      const int p = domain.neighbour(from, d);
      if (p < 0 || current.at(p) != bibone::outside) continue;
      current.set(from, static_cast<std::uint8_t>(d));
      current.set(p, static_cast<std::uint8_t>(bibone::opposite(d)));
      run(from + 1);
      current.set(p, bibone::outside);
    }
    current.set(from, bibone::outside);
  }
};

}  // namespace

void for_each_bibone_matching(const BiboneDomain& domain,
                              const std::function<void(const BiboneMatching&)>& visit) {
  // Unmatched region sites and outside sites both hold `outside`; outside sites are marked
  // matched by a sentinel while searching (they never get a partner) and restored on output.
  std::vector<std::uint8_t> start(domain.box_sites(), bibone::outside);
  for (int s = 0; s < domain.box_sites(); ++s) {
    if (!domain.contains(s)) start[s] = 7;
  }
  const std::function<void(const BiboneMatching&)> restore = [&](const BiboneMatching& m) {
    std::vector<std::uint8_t> bytes = m.bytes();
    for (auto& b : bytes) b = b == 7 ? bibone::outside : b;
    visit(BiboneMatching(std::move(bytes)));
  };
  Search search{domain, restore, BiboneMatching(std::move(start))};
  search.run(0);
}

std::uint64_t count_bibone_matchings(const BiboneDomain& domain) {
  std::uint64_t n = 0;
  for_each_bibone_matching(domain, [&](const BiboneMatching&) { ++n; });
  return n;
}

std::vector<BiboneMatching> enumerate_bibone_matchings(const BiboneDomain& domain,
                                                       std::size_t limit) {
  std::vector<BiboneMatching> all;
  for_each_bibone_matching(domain, [&](const BiboneMatching& m) {
    if (all.size() == limit) {
      throw std::length_error("bibone enumeration: more than " + std::to_string(limit) +
                              " matchings");
    }
    all.push_back(m);
  });
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace portamc::tilings
