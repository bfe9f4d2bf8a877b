#include "portamc/tilings/lozenge/lozenge_enumeration.hpp"

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace portamc::tilings {

namespace {

class Backtracker {
 public:
  Backtracker(const TriangularDomain& domain,
              const std::function<void(const LozengeTiling&)>& visit)
      : domain_(domain),
        visit_(visit),
        width_(domain.width()),
        used_(static_cast<std::size_t>(domain.width()) * domain.height(), 0),
        tiling_(domain.width(), domain.height(),
                std::vector<std::uint8_t>(used_.size(), no_lozenge)) {}

  void run(int cell) {
    if (cell == static_cast<int>(used_.size())) {
      visit_(tiling_);  // every up triangle has its own partner and the counts are equal
      return;
    }
    const int x = cell % width_, y = cell / width_;
    if (!domain_.has_up(x, y)) {
      if (below_is_covered(x, y)) run(cell + 1);
      return;
    }
    for (int k = 0; k < 3; ++k) {
      const int dx = x + partner_dx(k), dy = y + partner_dy(k);
      if (!domain_.has_down(dx, dy) || used_[dx + width_ * dy]) continue;
      used_[dx + width_ * dy] = 1;
      tiling_.set_partner(x, y, static_cast<std::uint8_t>(k));
      if (below_is_covered(x, y)) run(cell + 1);
      tiling_.set_partner(x, y, no_lozenge);
      used_[dx + width_ * dy] = 0;
    }
  }

 private:
  // D(x, y-1) touches U(x, y-1), U(x+1, y-1) and U(x, y), the last of them in cell order.
  bool below_is_covered(int x, int y) const {
    return !domain_.has_down(x, y - 1) || used_[x + width_ * (y - 1)];
  }

  const TriangularDomain& domain_;
  const std::function<void(const LozengeTiling&)>& visit_;
  int width_;
  std::vector<unsigned char> used_;
  LozengeTiling tiling_;
};

}  // namespace

void for_each_lozenge_tiling(const TriangularDomain& domain,
                             const std::function<void(const LozengeTiling&)>& visit) {
  Backtracker(domain, visit).run(0);
}

std::uint64_t count_lozenge_tilings(const TriangularDomain& domain) {
  std::uint64_t count = 0;
  for_each_lozenge_tiling(domain, [&count](const LozengeTiling&) { ++count; });
  return count;
}

std::vector<LozengeTiling> list_lozenge_tilings(const TriangularDomain& domain,
                                                std::size_t max_tilings) {
  std::vector<LozengeTiling> tilings;
  for_each_lozenge_tiling(domain, [&](const LozengeTiling& tiling) {
    if (tilings.size() == max_tilings) {
      throw std::invalid_argument("list_lozenge_tilings: the domain has more than " +
                                  std::to_string(max_tilings) + " tilings");
    }
    tilings.push_back(tiling);
  });
  return tilings;
}

std::uint64_t macmahon_box_count(int a, int b, int c) {
  if (a < 1 || b < 1 || c < 1) {
    throw std::invalid_argument("macmahon_box_count: sides " + std::to_string(a) + ", " +
                                std::to_string(b) + ", " + std::to_string(c) + " must all be >= 1");
  }
  // Exponent of every prime, accumulated factor by factor so the product stays exact.
  const int top = a + b + c;
  std::vector<long> exponent(static_cast<std::size_t>(top) + 1, 0);
  auto add = [&exponent](int n, int sign) {
    for (int p = 2; n > 1; ++p) {
      while (n % p == 0) {
        exponent[p] += sign;
        n /= p;
      }
    }
  };
  for (int i = 1; i <= a; ++i) {
    for (int j = 1; j <= b; ++j) {
      for (int k = 1; k <= c; ++k) {
        add(i + j + k - 1, 1);
        add(i + j + k - 2, -1);
      }
    }
  }
  std::uint64_t count = 1;
  for (int p = 2; p <= top; ++p) {
    for (long e = 0; e < exponent[p]; ++e) {
      if (count > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(p)) {
        throw std::invalid_argument("macmahon_box_count: the count for " + std::to_string(a) +
                                    " x " + std::to_string(b) + " x " + std::to_string(c) +
                                    " does not fit in 64 bits");
      }
      count *= static_cast<std::uint64_t>(p);
    }
  }
  return count;
}

}  // namespace portamc::tilings
