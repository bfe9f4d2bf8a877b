#include "portamc/tilings/domino/detail/aztec_shuffling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace portamc::tilings {
namespace {

void require_order(int n, const char* who) {
  if (n < 1 || n > aztec_shuffling_max_order) {
    throw std::invalid_argument(std::string(who) + ": order n = " + std::to_string(n) +
                                " must be in [1, " + std::to_string(aztec_shuffling_max_order) +
                                "] (the 2n x 2n box needs 32-bit face indices)");
  }
}

int positive_mod(long long x, int m) {
  const long long r = x % m;
  return static_cast<int>(r < 0 ? r + m : r);
}

// Edge weights of the four dominoes of every cell in one period (M x M) of a level.
struct CellWeights {
  std::vector<double> top, bottom, left, right;
  explicit CellWeights(std::size_t size) : top(size), bottom(size), left(size), right(size) {}
};

}  // namespace

AztecCreationTable aztec_creation_table(int n, const DominoWeights& weights) {
  require_order(n, "aztec shuffling");
  validate(weights);
  const long long p = weights.period_rows, q = weights.period_cols;
  const long long period = p / std::gcd(p, q) * q;
  const long long limit = 1LL << 24;
  if (period > limit || period * period > limit / n) {
    throw std::invalid_argument("aztec shuffling: weight period " + std::to_string(p) + " x " +
                                std::to_string(q) + " gives a creation table of " +
                                std::to_string(n) + " x " + std::to_string(period) +
                                "^2 entries, " + "more than 2^24; use a smaller period or order");
  }
  const int m = static_cast<int>(period);
  const std::size_t size = static_cast<std::size_t>(m) * static_cast<std::size_t>(m);
  auto at = [m](int a, int b) {
    return static_cast<std::size_t>(positive_mod(a, m)) * static_cast<std::size_t>(m) +
           static_cast<std::size_t>(positive_mod(b, m));
  };

  // Level n: cell (a, b) has its upper-left face at box row n - 1 - a + b, column a + b (see the
  // header); its T and B dominoes are horizontal with west faces in column a + b, L and R
  // vertical with north faces in that row. Both shift by multiples of P and Q when a or b moves
  // by M, which is why one M x M period describes the whole level.
  CellWeights level(size);
  for (int a = 0; a < m; ++a) {
    for (int b = 0; b < m; ++b) {
      const long long row = static_cast<long long>(n) - 1 - a + b, col = a + b;
      auto h = [&](long long r, long long c) {
        return weights.horizontal[static_cast<std::size_t>(positive_mod(r, weights.period_rows) *
                                                               weights.period_cols +
                                                           positive_mod(c, weights.period_cols))];
      };
      auto v = [&](long long r, long long c) {
        return weights.vertical[static_cast<std::size_t>(positive_mod(r, weights.period_rows) *
                                                             weights.period_cols +
                                                         positive_mod(c, weights.period_cols))];
      };
      const std::size_t i = at(a, b);
      level.top[i] = h(row, col);
      level.bottom[i] = h(row + 1, col);
      level.left[i] = v(row, col);
      level.right[i] = v(row, col + 1);
    }
  }

  AztecCreationTable table;
  table.order = n;
  table.period = m;
  table.thresholds.assign(static_cast<std::size_t>(n) * size, 0);
  for (int k = n; k >= 1; --k) {
    std::vector<double> delta(size);
    for (std::size_t i = 0; i < size; ++i) {
      const double horizontal = level.top[i] * level.bottom[i];
      const double vertical = level.left[i] * level.right[i];
      delta[i] = horizontal + vertical;
      const double p_horizontal = horizontal / delta[i];
      if (!(horizontal > 0) || !(vertical > 0) || !std::isfinite(delta[i])) {
        throw std::invalid_argument(
            "aztec shuffling: the weights are too extreme for the urban-renewal recursion (a "
            "cell of AD(" +
            std::to_string(k) + ") has pair weights " + std::to_string(horizontal) + " and " +
            std::to_string(vertical) + ")");
      }
      table.thresholds[static_cast<std::size_t>(k - 1) * size + i] =
          probability_threshold(p_horizontal);
    }
    if (k == 1) break;
    // Urban renewal: an AD(k-1) domino weighs what the AD(k) domino it slides to weighs,
    // divided by D of that cell. The slide targets (header): T of (a+1, b), B of (a, b+1),
    // L of (a, b), R of (a+1, b+1).
    CellWeights smaller(size);
    double largest = 0;
    for (int a = 0; a < m; ++a) {
      for (int b = 0; b < m; ++b) {
        const std::size_t i = at(a, b), t = at(a + 1, b), s = at(a, b + 1), e = at(a + 1, b + 1);
        smaller.top[i] = level.top[t] / delta[t];
        smaller.bottom[i] = level.bottom[s] / delta[s];
        smaller.left[i] = level.left[i] / delta[i];
        smaller.right[i] = level.right[e] / delta[e];
        largest = std::max(
            {largest, smaller.top[i], smaller.bottom[i], smaller.left[i], smaller.right[i]});
      }
    }
    // One factor for the whole level multiplies every D by its square and every derived weight
    // by its inverse, so it changes no probability; it keeps the recursion away from overflow.
    for (std::vector<double>* w : {&smaller.top, &smaller.bottom, &smaller.left, &smaller.right}) {
      for (double& x : *w) x /= largest;
    }
    level = std::move(smaller);
  }
  return table;
}

DominoTiling aztec_cells_to_tiling(int n, const std::vector<std::uint8_t>& cells) {
  require_order(n, "aztec_cells_to_tiling");
  const std::size_t count = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
  if (cells.size() != count) {
    throw std::invalid_argument("aztec_cells_to_tiling: " + std::to_string(cells.size()) +
                                " cell bytes, AD(" + std::to_string(n) + ") has " +
                                std::to_string(count));
  }
  DominoTiling t;
  t.rows = t.cols = 2 * n;
  t.partner.assign(static_cast<std::size_t>(4) * count, direction::none);
  for (int a = 0; a < n; ++a) {
    for (int b = 0; b < n; ++b) {
      const std::uint8_t s = cells[static_cast<std::size_t>(a) * n + b];
      const int r = n - 1 - a + b, c = a + b;  // the cell's upper-left face
      if (s & aztec_cell::top) place_domino(t, r, c, direction::east);
      if (s & aztec_cell::bottom) place_domino(t, r + 1, c, direction::east);
      if (s & aztec_cell::left) place_domino(t, r, c, direction::south);
      if (s & aztec_cell::right) place_domino(t, r, c + 1, direction::south);
    }
  }
  return t;
}

DominoTiling aztec_shuffle_reference(int n, const DominoWeights& weights, std::uint64_t seed) {
  const AztecCreationTable table = aztec_creation_table(n, weights);
  const int side = 2 * n;
  // Faces in centred coordinates (x, y), x, y in [-n, n), stored at their face of the final box.
  auto face = [&](int x, int y) {
    return static_cast<std::size_t>(n - 1 - y) * static_cast<std::size_t>(side) +
           static_cast<std::size_t>(x + n);
  };
  auto inside = [](int x, int y, int k) {
    return std::abs(2 * x + 1) + std::abs(2 * y + 1) <= 2 * k;
  };
  auto odd = [](int v) { return (v & 1) != 0; };  // also right for negative v (two's complement)
  std::vector<std::uint8_t> current(static_cast<std::size_t>(side) * side, direction::none);
  std::vector<std::uint8_t> next(current.size());
  auto put = [&](std::vector<std::uint8_t>& a, int x, int y, std::uint8_t d) {
    const int x2 = x + direction::col_offset(d), y2 = y - direction::row_offset(d);
    if (a[face(x, y)] != direction::none || a[face(x2, y2)] != direction::none) {
      throw std::logic_error("aztec_shuffle_reference: two dominoes on face (" + std::to_string(x) +
                             ", " + std::to_string(y) + ")");
    }
    a[face(x, y)] = d;
    a[face(x2, y2)] = direction::opposite(d);
  };

  for (int k = 1; k <= n; ++k) {
    const int j = k - 1;  // current holds a tiling of AD(j)
    // Bad blocks of AD(j): 2x2 blocks with lower-left (x, y), x + y + j even, made of two
    // parallel dominoes; by the type rule these are an S above an N or a W right of an E,
    // which would collide when moved.
    for (int x = -j; x < j; ++x) {
      for (int y = -j; y < j; ++y) {
        if (odd(x + y + j)) continue;
        const bool horizontal =
            current[face(x, y)] == direction::east && current[face(x, y + 1)] == direction::east;
        const bool vertical =
            current[face(x, y)] == direction::north && current[face(x + 1, y)] == direction::north;
        if (horizontal || vertical) {
          for (int dx = 0; dx < 2; ++dx) {
            for (int dy = 0; dy < 2; ++dy) current[face(x + dx, y + dy)] = direction::none;
          }
        }
      }
    }
    // Move every remaining domino one step in the direction of its type.
    std::fill(next.begin(), next.end(), direction::none);
    for (int x = -j; x < j; ++x) {
      for (int y = -j; y < j; ++y) {
        const std::uint8_t d = current[face(x, y)];
        if (d == direction::east) {  // west face of a horizontal domino: N iff x + y + j even
          put(next, x, odd(x + y + j) ? y - 1 : y + 1, direction::east);
        } else if (d == direction::north) {  // south face of a vertical: W iff x + y + j odd
          put(next, odd(x + y + j) ? x - 1 : x + 1, y, direction::north);
        }
      }
    }
    // The uncovered faces of AD(k) are a disjoint union of 2x2 blocks with lower-left (x, y),
    // x + y + k odd, in exactly one way (EKLP), but an empty block of that class need not be one
    // of them (four holes around a 4x4 square leave its centre block empty too). Scanning in
    // the order (x, then y) finds them: the smallest uncovered face is the lower-left corner of
    // its block, so the first empty block met is a true one, and so on for the rest. Each is
    // filled with a good pair (N above S, or W left of E).
    for (int x = -k; x < k - 1; ++x) {
      for (int y = -k; y < k - 1; ++y) {
        if (!odd(x + y + k)) continue;
        bool hole = true;
        for (int dx = 0; dx < 2; ++dx) {
          for (int dy = 0; dy < 2; ++dy) {
            hole =
                hole && inside(x + dx, y + dy, k) && next[face(x + dx, y + dy)] == direction::none;
          }
        }
        if (!hole) continue;
        const int a = (x + y + k + 1) / 2, b = (x - y + k - 1) / 2;  // centre (x+1, y+1)
        const std::uint32_t u =
            rng::draw(seed, rng::purpose_tiling_shuffle,
                      static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(k) +
                          static_cast<std::uint64_t>(b),
                      static_cast<std::uint64_t>(k))[0];
        if (std::uint64_t{u} < table.thresholds[AztecCreationTable::index(k, a, b, table.period)]) {
          put(next, x, y, direction::east);
          put(next, x, y + 1, direction::east);
        } else {
          put(next, x, y, direction::north);
          put(next, x + 1, y, direction::north);
        }
      }
    }
    for (int x = -k; x < k; ++x) {
      for (int y = -k; y < k; ++y) {
        if (inside(x, y, k) && next[face(x, y)] == direction::none) {
          throw std::logic_error("aztec_shuffle_reference: face (" + std::to_string(x) + ", " +
                                 std::to_string(y) + ") of AD(" + std::to_string(k) +
                                 ") left uncovered");
        }
      }
    }
    current.swap(next);
  }
  DominoTiling t;
  t.rows = t.cols = side;
  t.partner = std::move(current);
  return t;
}

}  // namespace portamc::tilings
