#include "portamc/tilings/domino/domino_enumeration.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace portamc::tilings {
namespace {

class Backtracker {
 public:
  Backtracker(const SquareDomain& domain, const std::function<void(const DominoTiling&)>& visit)
      : domain_(domain), visit_(visit), tiling_(DominoTiling::empty_for(domain)) {}

  void run() { extend(0); }

 private:
  bool free_face(int r, int c) const {
    return domain_.contains(r, c) && tiling_.at(r, c) == direction::none;
  }

  void extend(std::size_t start) {
    const std::size_t n = domain_.face_flags().size();
    std::size_t k = start;
    const int cols = domain_.cols();
    while (k < n && !free_face(static_cast<int>(k) / cols, static_cast<int>(k) % cols)) ++k;
    if (k == n) {
      visit_(tiling_);
      return;
    }
    const int r = static_cast<int>(k) / cols;
    const int c = static_cast<int>(k) % cols;
    for (const std::uint8_t d : {direction::east, direction::south}) {
      const int pr = r + direction::row_offset(d);
      const int pc = c + direction::col_offset(d);
      if (!free_face(pr, pc)) continue;
      place_domino(tiling_, r, c, d);
      extend(k + 1);
      tiling_.set(r, c, direction::none);
      tiling_.set(pr, pc, direction::none);
    }
  }

  const SquareDomain& domain_;
  const std::function<void(const DominoTiling&)>& visit_;
  DominoTiling tiling_;
};

}  // namespace

void for_each_domino_tiling(const SquareDomain& domain,
                            const std::function<void(const DominoTiling&)>& visit) {
  Backtracker(domain, visit).run();
}

std::uint64_t count_domino_tilings(const SquareDomain& domain) {
  std::uint64_t count = 0;
  for_each_domino_tiling(domain, [&](const DominoTiling&) { ++count; });
  return count;
}

std::vector<DominoTiling> list_domino_tilings(const SquareDomain& domain, std::size_t max_tilings) {
  std::vector<DominoTiling> all;
  for_each_domino_tiling(domain, [&](const DominoTiling& t) {
    if (all.size() == max_tilings) {
      throw std::invalid_argument("list_domino_tilings: the domain has more than " +
                                  std::to_string(max_tilings) + " tilings");
    }
    all.push_back(t);
  });
  return all;
}

std::uint64_t aztec_diamond_tiling_count(int n) {
  if (n < 1 || n > 10) {
    throw std::invalid_argument("aztec_diamond_tiling_count: order n = " + std::to_string(n) +
                                " outside 1..10 (2^(n(n+1)/2) must fit in 64 bits)");
  }
  return std::uint64_t{1} << (n * (n + 1) / 2);
}

double kasteleyn_rectangle_tiling_count(int m, int n) {
  if (m <= 0 || n <= 0) {
    throw std::invalid_argument("kasteleyn_rectangle_tiling_count: extents " + std::to_string(m) +
                                " x " + std::to_string(n) + " must be positive");
  }
  if ((m * n) % 2 != 0) return 0.0;
  const double pi = std::acos(-1.0);
  double product = 1.0;
  for (int j = 1; j <= (m + 1) / 2; ++j) {
    for (int k = 1; k <= (n + 1) / 2; ++k) {
      const double a = std::cos(pi * j / (m + 1));
      const double b = std::cos(pi * k / (n + 1));
      product *= 4.0 * a * a + 4.0 * b * b;
    }
  }
  return product;
}

std::uint64_t rectangle_tiling_count_exact(int m, int n) {
  if (m <= 0 || n <= 0) {
    throw std::invalid_argument("rectangle_tiling_count_exact: extents " + std::to_string(m) +
                                " x " + std::to_string(n) + " must be positive");
  }
  const int height = std::min(m, n);
  const int length = std::max(m, n);
  if (height > 20) {
    throw std::invalid_argument("rectangle_tiling_count_exact: the shorter side " +
                                std::to_string(height) + " exceeds 20 (2^20 profiles)");
  }
  // Profile bit = cell of the current column already covered by a domino sticking in from the
  // previous column.  Filling a column from a profile yields the next column's profiles.
  const std::size_t profiles = std::size_t{1} << height;
  std::vector<std::uint64_t> ways(profiles, 0), next(profiles, 0);
  ways[0] = 1;
  for (int column = 0; column < length; ++column) {
    std::fill(next.begin(), next.end(), 0);
    for (std::size_t p = 0; p < profiles; ++p) {
      if (ways[p] == 0) continue;
      // Depth-first over the cells of the column: covered, horizontal (into next), vertical.
      std::vector<std::pair<int, std::size_t>> stack{{0, 0}};
      while (!stack.empty()) {
        const auto [cell, out] = stack.back();
        stack.pop_back();
        if (cell == height) {
          if (next[out] > UINT64_MAX - ways[p]) {
            throw std::invalid_argument("rectangle_tiling_count_exact: the count for " +
                                        std::to_string(m) + " x " + std::to_string(n) +
                                        " overflows 64 bits");
          }
          next[out] += ways[p];
          continue;
        }
        if (p >> cell & 1) {
          stack.push_back({cell + 1, out});
          continue;
        }
        stack.push_back({cell + 1, out | (std::size_t{1} << cell)});
        if (cell + 1 < height && !(p >> (cell + 1) & 1)) stack.push_back({cell + 2, out});
      }
    }
    std::swap(ways, next);
  }
  return ways[0];
}

}  // namespace portamc::tilings
