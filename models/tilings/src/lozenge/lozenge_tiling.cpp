#include "portamc/tilings/lozenge/lozenge_tiling.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {

namespace {

std::string point(int x, int y) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

}  // namespace

LozengeTiling::LozengeTiling(int width, int height, std::vector<std::uint8_t> partners)
    : width_(width), height_(height), partners_(std::move(partners)) {
  if (width < 0 || height < 0 ||
      partners_.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height)) {
    throw std::invalid_argument("LozengeTiling: " + std::to_string(partners_.size()) +
                                " partner bytes do not fit a box of " + std::to_string(width) +
                                " x " + std::to_string(height) + " cells");
  }
}

void validate_tiling(const TriangularDomain& domain, const LozengeTiling& tiling) {
  const int w = domain.width(), h = domain.height();
  if (tiling.width() != w || tiling.height() != h) {
    throw std::invalid_argument("LozengeTiling: box " + std::to_string(tiling.width()) + " x " +
                                std::to_string(tiling.height()) + " differs from the domain's " +
                                std::to_string(w) + " x " + std::to_string(h));
  }
  std::vector<int> covered(static_cast<std::size_t>(w) * h, 0);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const int k = tiling.partner(x, y);
      if (!domain.has_up(x, y)) {
        if (k != no_lozenge) {
          throw std::invalid_argument("LozengeTiling: cell " + point(x, y) + " has partner " +
                                      std::to_string(k) +
                                      " but its up triangle is not in the domain");
        }
        continue;
      }
      if (k > 2) {
        throw std::invalid_argument("LozengeTiling: the up triangle " + point(x, y) +
                                    " has invalid partner " + std::to_string(k) +
                                    " (expected 0, 1 or 2)");
      }
      const int dx = x + partner_dx(k), dy = y + partner_dy(k);
      if (!domain.has_down(dx, dy)) {
        throw std::invalid_argument("LozengeTiling: the up triangle " + point(x, y) +
                                    " is paired with the down triangle " + point(dx, dy) +
                                    ", which is not in the domain");
      }
      if (++covered[dx + w * dy] > 1) {
        throw std::invalid_argument("LozengeTiling: the down triangle " + point(dx, dy) +
                                    " is covered twice");
      }
    }
  }
  // Every up triangle has one partner and no down triangle has two; with as many up as down
  // triangles (a domain invariant) none is left over, but say so explicitly if it ever is.
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      if (domain.has_down(x, y) && covered[x + w * y] == 0) {
        throw std::invalid_argument("LozengeTiling: the down triangle " + point(x, y) +
                                    " is not covered");
      }
    }
  }
}

bool is_valid_tiling(const TriangularDomain& domain, const LozengeTiling& tiling) {
  try {
    validate_tiling(domain, tiling);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

}  // namespace portamc::tilings
