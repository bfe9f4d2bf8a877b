#include "portamc/tilings/bibone/bibone_tileability.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {

namespace {

// Edmonds' blossom algorithm on the region's sites (compact indices 0..n-1).
class Blossom {
 public:
  explicit Blossom(std::vector<std::vector<int>> adjacency)
      : adj_(std::move(adjacency)),
        n_(static_cast<int>(adj_.size())),
        match_(n_, -1),
        parent_(n_),
        base_(n_),
        used_(n_),
        in_blossom_(n_),
        on_path_(n_) {}

  std::vector<int>& match() { return match_; }

  /// Augments along a path from the exposed vertex root; false if there is none.
  bool augment_from(int root) {
    int v = find_path(root);
    if (v < 0) return false;
    while (v >= 0) {
      const int pv = parent_[v], next = match_[pv];
      match_[v] = pv;
      match_[pv] = v;
      v = next;
    }
    return true;
  }

 private:
  int lowest_common_base(int a, int b) {
    std::fill(on_path_.begin(), on_path_.end(), 0);
    for (;;) {
      a = base_[a];
      on_path_[a] = 1;
      if (match_[a] < 0) break;
      a = parent_[match_[a]];
    }
    for (;;) {
      b = base_[b];
      if (on_path_[b]) return b;
      b = parent_[match_[b]];
    }
  }

  void mark_path(int v, int b, int child) {
    while (base_[v] != b) {
      in_blossom_[base_[v]] = in_blossom_[base_[match_[v]]] = 1;
      parent_[v] = child;
      child = match_[v];
      v = parent_[match_[v]];
    }
  }

  // BFS over alternating paths from root; returns an exposed end vertex or -1.
  int find_path(int root) {
    std::fill(used_.begin(), used_.end(), 0);
    std::fill(parent_.begin(), parent_.end(), -1);
    for (int i = 0; i < n_; ++i) base_[i] = i;
    used_[root] = 1;
    std::vector<int> queue{root};
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int v = queue[head];
      for (int to : adj_[v]) {
        if (base_[v] == base_[to] || match_[v] == to) continue;
        if (to == root || (match_[to] >= 0 && parent_[match_[to]] >= 0)) {
          // Odd cycle: contract the blossom onto its base.
          const int b = lowest_common_base(v, to);
          std::fill(in_blossom_.begin(), in_blossom_.end(), 0);
          mark_path(v, b, to);
          mark_path(to, b, v);
          for (int i = 0; i < n_; ++i) {
            if (!in_blossom_[base_[i]]) continue;
            base_[i] = b;
            if (!used_[i]) {
              used_[i] = 1;
              queue.push_back(i);
            }
          }
        } else if (parent_[to] < 0) {
          parent_[to] = v;
          if (match_[to] < 0) return to;
          used_[match_[to]] = 1;
          queue.push_back(match_[to]);
        }
      }
    }
    return -1;
  }

  std::vector<std::vector<int>> adj_;
  int n_;
  std::vector<int> match_, parent_, base_;
  std::vector<unsigned char> used_, in_blossom_, on_path_;
};

}  // namespace

BiboneTileability bibone_tileability(const BiboneDomain& domain) {
  BiboneTileability out;
  const int n = domain.site_count();
  if (n % 2 != 0) {
    out.reason = "the region has " + std::to_string(n) + " sites, an odd number";
    return out;
  }
  std::vector<int> site_of, compact(domain.box_sites(), -1);
  for (int s = 0; s < domain.box_sites(); ++s) {
    if (domain.contains(s)) {
      compact[s] = static_cast<int>(site_of.size());
      site_of.push_back(s);
    }
  }
  std::vector<std::vector<int>> adjacency(n);
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 6; ++d) {
      const int p = domain.neighbour(site_of[i], d);
      if (p >= 0) adjacency[i].push_back(compact[p]);
    }
    if (adjacency[i].empty()) {
      out.reason = "site " + domain.name(site_of[i]) + " has no neighbour in the region";
      return out;
    }
  }
  Blossom blossom(adjacency);
  std::vector<int>& match = blossom.match();
  // Greedy start in index order: rows of horizontal dimers leave few exposed sites.
  for (int i = 0; i < n; ++i) {
    if (match[i] >= 0) continue;
    for (int j : adjacency[i]) {
      if (match[j] < 0) {
        match[i] = j;
        match[j] = i;
        break;
      }
    }
  }
  for (int i = 0; i < n; ++i) {
    if (match[i] < 0 && !blossom.augment_from(i)) {
      out.reason =
          "no perfect matching exists: Edmonds' blossom search finds no augmenting "
          "path from site " +
          domain.name(site_of[i]) + ", so every maximum matching leaves a site exposed";
      return out;
    }
  }
  std::vector<std::uint8_t> bytes(domain.box_sites(), bibone::outside);
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 6; ++d) {
      if (domain.neighbour(site_of[i], d) == site_of[match[i]]) {
        bytes[site_of[i]] = static_cast<std::uint8_t>(d);
      }
    }
  }
  out.tileable = true;
  out.matching = BiboneMatching(std::move(bytes));
  return out;
}

BiboneMatching bibone_initial_matching(const BiboneDomain& domain) {
  BiboneTileability t = bibone_tileability(domain);
  if (!t.tileable) throw std::invalid_argument("bibone region is not tileable: " + t.reason);
  return std::move(t.matching);
}

}  // namespace portamc::tilings
