#include "portamc/tilings/bibone/bibone_domain.hpp"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {

namespace {

// Sites reached from start through 6-neighbours for which keep(x, y) holds, in a w x h box.
template <class Keep>
std::vector<unsigned char> flood(int w, int h, int start, const Keep& keep) {
  std::vector<unsigned char> seen(static_cast<std::size_t>(w) * h, 0);
  std::vector<int> stack{start};
  seen[start] = 1;
  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    for (int d = 0; d < 6; ++d) {
      const int x = s % w + bibone::dx[d], y = s / w + bibone::dy[d];
      if (x < 0 || y < 0 || x >= w || y >= h || seen[x + w * y] || !keep(x, y)) continue;
      seen[x + w * y] = 1;
      stack.push_back(x + w * y);
    }
  }
  return seen;
}

}  // namespace

BiboneDomain::BiboneDomain(int width, int height, std::vector<unsigned char> inside)
    : width_(width), height_(height), inside_(std::move(inside)) {
  if (width < 1 || height < 1) {
    throw std::invalid_argument("bibone domain: box " + std::to_string(width) + " x " +
                                std::to_string(height) + " must be at least 1 x 1");
  }
  if (inside_.size() != static_cast<std::size_t>(width) * height) {
    throw std::invalid_argument("bibone domain: " + std::to_string(inside_.size()) +
                                " flags for a " + std::to_string(width) + " x " +
                                std::to_string(height) + " box");
  }
  for (unsigned char f : inside_) sites_ += f != 0;
  check_shape();
}

void BiboneDomain::check_shape() const {
  if (sites_ == 0) throw std::invalid_argument("bibone domain: the region is empty");
  int first = 0;
  while (!inside_[first]) ++first;
  const auto reached = flood(width_, height_, first, [&](int x, int y) { return contains(x, y); });
  for (int s = 0; s < box_sites(); ++s) {
    if (inside_[s] && !reached[s]) {
      throw std::invalid_argument("bibone domain: the region is not connected: site " + name(s) +
                                  " is not connected to site " + name(first));
    }
  }
  // The complement, padded by one ring, must be connected to the outside: no holes.
  const int pw = width_ + 2, ph = height_ + 2;
  const auto outer = flood(pw, ph, 0, [&](int x, int y) { return !contains(x - 1, y - 1); });
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      if (!contains(x, y) && !outer[(x + 1) + pw * (y + 1)]) {
        throw std::invalid_argument("bibone domain: the region has a hole at site " +
                                    name(index(x, y)) +
                                    " (only simply connected regions are supported)");
      }
    }
  }
}

BiboneDomain BiboneDomain::parallelogram(int width, int height) {
  if (width < 1 || height < 1) {
    throw std::invalid_argument("bibone parallelogram: sides must be >= 1");
  }
  return BiboneDomain(width, height, std::vector<unsigned char>(width * height, 1));
}

BiboneDomain BiboneDomain::hexagon(int a, int b, int c) {
  if (a < 1 || b < 1 || c < 1) throw std::invalid_argument("bibone hexagon: sides must be >= 1");
  const int w = a + c - 1, h = b + c - 1;
  std::vector<unsigned char> in(static_cast<std::size_t>(w) * h, 0);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) in[x + w * y] = x + y >= c - 1 && x + y <= a + b + c - 3;
  }
  return BiboneDomain(w, h, std::move(in));
}

BiboneDomain BiboneDomain::triangle(int n) {
  if (n < 1) throw std::invalid_argument("bibone triangle: side must be >= 1");
  std::vector<unsigned char> in(static_cast<std::size_t>(n) * n, 0);
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x + y < n; ++x) in[x + n * y] = 1;
  }
  return BiboneDomain(n, n, std::move(in));
}

BiboneDomain BiboneDomain::from_mask(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == '\n') {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!(i == text.size() && line.empty())) lines.push_back(line);
      line.clear();
    } else {
      line += text[i];
    }
  }
  if (lines.empty() || lines[0].empty()) {
    throw std::invalid_argument("bibone mask: empty text (expected lines of '#' and '.')");
  }
  const int w = static_cast<int>(lines[0].size()), h = static_cast<int>(lines.size());
  std::vector<unsigned char> in(static_cast<std::size_t>(w) * h, 0);
  for (int r = 0; r < h; ++r) {
    if (static_cast<int>(lines[r].size()) != w) {
      throw std::invalid_argument("bibone mask: line " + std::to_string(r + 1) + " has " +
                                  std::to_string(lines[r].size()) + " characters, line 1 has " +
                                  std::to_string(w));
    }
    for (int x = 0; x < w; ++x) {
      const char ch = lines[r][x];
      if (ch != '#' && ch != '.') {
        throw std::invalid_argument("bibone mask: line " + std::to_string(r + 1) + ", column " +
                                    std::to_string(x + 1) + ": unexpected character '" +
                                    std::string(1, ch) + "' (expected '#' or '.')");
      }
      in[x + w * (h - 1 - r)] = ch == '#';
    }
  }
  return BiboneDomain(w, h, std::move(in));
}

std::string BiboneDomain::to_mask() const {
  std::string out;
  for (int y = height_ - 1; y >= 0; --y) {
    for (int x = 0; x < width_; ++x) out += contains(x, y) ? '#' : '.';
    out += '\n';
  }
  return out;
}

int BiboneDomain::neighbour(int site, int d) const {
  const int x = site % width_ + bibone::dx[d], y = site / width_ + bibone::dy[d];
  return contains(x, y) ? index(x, y) : -1;
}

std::string BiboneDomain::name(int site) const {
  return "(" + std::to_string(site % width_) + ", " + std::to_string(site / width_) + ")";
}

void validate_matching(const BiboneDomain& domain, const BiboneMatching& matching) {
  const auto& bytes = matching.bytes();
  if (bytes.size() != static_cast<std::size_t>(domain.box_sites())) {
    throw std::invalid_argument("bibone matching: " + std::to_string(bytes.size()) +
                                " bytes for a box of " + std::to_string(domain.box_sites()) +
                                " sites");
  }
  for (int s = 0; s < domain.box_sites(); ++s) {
    const int d = bytes[s];
    if (!domain.contains(s)) {
      if (d != bibone::outside) {
        throw std::invalid_argument("bibone matching: site " + domain.name(s) +
                                    " is outside the region but holds " + std::to_string(d) +
                                    " instead of 6");
      }
      continue;
    }
    if (d >= bibone::outside) {
      throw std::invalid_argument("bibone matching: site " + domain.name(s) +
                                  (d == bibone::outside
                                       ? " is unmatched"
                                       : " holds " + std::to_string(d) + ", not a direction 0..5"));
    }
    const int p = domain.neighbour(s, d);
    if (p < 0) {
      throw std::invalid_argument("bibone matching: site " + domain.name(s) +
                                  " is matched in direction " + std::to_string(d) +
                                  " to a site outside the region");
    }
    if (bytes[p] != bibone::opposite(d)) {
      throw std::invalid_argument("bibone matching: site " + domain.name(s) + " points to " +
                                  domain.name(p) + ", which does not point back");
    }
  }
}

}  // namespace portamc::tilings
