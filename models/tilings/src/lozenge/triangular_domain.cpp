#include "portamc/tilings/lozenge/triangular_domain.hpp"

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {

namespace {

std::string point(int x, int y) {
  return "(" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

std::string triangle_name(bool up, int x, int y) {
  return std::string(up ? "up" : "down") + " triangle " + point(x, y);
}

// Flood fill over triangles that share an edge, on a box whose cells are offset by (x0, y0);
// member(up, x, y) says which triangles belong to the set. Returns the reached flags, indexed
// 2 * cell + (down ? 1 : 0).
template <class Member>
std::vector<unsigned char> flood(int x0, int y0, int w, int h, bool up0, int sx, int sy,
                                 Member member) {
  std::vector<unsigned char> seen(2 * static_cast<std::size_t>(w) * h, 0);
  auto id = [&](bool up, int x, int y) { return 2 * ((x - x0) + w * (y - y0)) + (up ? 0 : 1); };
  std::vector<std::pair<int, std::pair<int, int>>> stack{{up0 ? 1 : 0, {sx, sy}}};
  seen[id(up0, sx, sy)] = 1;
  while (!stack.empty()) {
    const bool up = stack.back().first != 0;
    const int x = stack.back().second.first, y = stack.back().second.second;
    stack.pop_back();
    // Up triangles touch D(x,y), D(x-1,y), D(x,y-1); down ones U(x,y), U(x+1,y), U(x,y+1).
    const int s = up ? -1 : 1;
    const int nx[3] = {x, x + s, x}, ny[3] = {y, y, y + s};
    for (int k = 0; k < 3; ++k) {
      if (nx[k] < x0 || ny[k] < y0 || nx[k] >= x0 + w || ny[k] >= y0 + h) continue;
      if (!member(!up, nx[k], ny[k]) || seen[id(!up, nx[k], ny[k])]) continue;
      seen[id(!up, nx[k], ny[k])] = 1;
      stack.push_back({up ? 0 : 1, {nx[k], ny[k]}});
    }
  }
  return seen;
}

}  // namespace

TriangularDomain::TriangularDomain(int width, int height, std::vector<unsigned char> up,
                                   std::vector<unsigned char> down)
    : width_(width), height_(height), up_(std::move(up)), down_(std::move(down)) {
  if (width <= 0 || height <= 0) {
    throw std::invalid_argument("TriangularDomain: the box " + std::to_string(width) + " x " +
                                std::to_string(height) + " is empty (both sides must be >= 1)");
  }
  const std::size_t cells = static_cast<std::size_t>(width) * height;
  if (up_.size() != cells || down_.size() != cells) {
    throw std::invalid_argument("TriangularDomain: flag arrays of sizes " +
                                std::to_string(up_.size()) + " and " +
                                std::to_string(down_.size()) + " do not match the " +
                                std::to_string(cells) + " cells of the box");
  }
  check_shape();
}

void TriangularDomain::check_shape() {
  int ups = 0, downs = 0, first = -1;
  for (int i = 0; i < width_ * height_; ++i) {
    ups += up_[i] != 0;
    downs += down_[i] != 0;
    if (first < 0 && (up_[i] || down_[i])) first = i;
  }
  if (ups + downs == 0) throw std::invalid_argument("TriangularDomain: the domain is empty");
  if (ups != downs) {
    throw std::invalid_argument("TriangularDomain: unbalanced domain with " + std::to_string(ups) +
                                " up triangles but " + std::to_string(downs) +
                                " down triangles (every lozenge covers " + "one of each)");
  }
  pairs_ = ups;

  auto in = [this](bool up, int x, int y) { return up ? has_up(x, y) : has_down(x, y); };
  const int fx = first % width_, fy = first / width_;
  const bool fup = up_[first] != 0;
  const auto reached = flood(0, 0, width_, height_, fup, fx, fy, in);
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      for (int d = 0; d < 2; ++d) {
        if (in(d == 0, x, y) && !reached[2 * (x + width_ * y) + d]) {
          throw std::invalid_argument("TriangularDomain: not connected: the " +
                                      triangle_name(d == 0, x, y) + " shares no chain of edges " +
                                      "with the " + triangle_name(fup, fx, fy));
        }
      }
    }
  }

  // A vertex where domain and complement alternate more than once is a pinch point: the
  // boundary passes through it twice and heights could not be carried around it consistently.
  for (int y = 0; y <= height_; ++y) {
    for (int x = 0; x <= width_; ++x) {
      int changes = 0;
      for (int i = 0; i < 6; ++i) {
        const int j = (i + 1) % 6;
        changes += in(VertexStar::is_up[i], x + VertexStar::dx[i], y + VertexStar::dy[i]) !=
                   in(VertexStar::is_up[j], x + VertexStar::dx[j], y + VertexStar::dy[j]);
      }
      if (changes > 2) {
        throw std::invalid_argument(
            "TriangularDomain: not simply connected: the domain touches itself at vertex " +
            point(x, y));
      }
    }
  }

  // Holes: complement triangles (in a box padded by one cell) not reachable from outside.
  auto out = [&in](bool up, int x, int y) { return !in(up, x, y); };
  const auto outside = flood(-1, -1, width_ + 2, height_ + 2, true, -1, -1, out);
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      for (int d = 0; d < 2; ++d) {
        if (!in(d == 0, x, y) && !outside[2 * ((x + 1) + (width_ + 2) * (y + 1)) + d]) {
          throw std::invalid_argument(
              "TriangularDomain: not simply connected: there is a hole containing the " +
              triangle_name(d == 0, x, y));
        }
      }
    }
  }
}

TriangularDomain TriangularDomain::hexagon(int a, int b, int c) {
  if (a < 1 || b < 1 || c < 1) {
    throw std::invalid_argument("TriangularDomain::hexagon: sides " + std::to_string(a) + ", " +
                                std::to_string(b) + ", " + std::to_string(c) + " must all be >= 1");
  }
  const int w = a + c, h = b + c;
  std::vector<unsigned char> up(static_cast<std::size_t>(w) * h), down(up.size());
  // The hexagon is c <= x + y <= a + b + c inside the box; a triangle belongs to it when its
  // centroid does: U(x,y) has x + y + 2/3, D(x,y) has x + y + 4/3.
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const int s = x + y;
      up[x + w * y] = s >= c && s <= a + b + c - 1;
      down[x + w * y] = s >= c - 1 && s <= a + b + c - 2;
    }
  }
  return TriangularDomain(w, h, std::move(up), std::move(down));
}

TriangularDomain TriangularDomain::from_mask(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream stream(text);
  for (std::string line; std::getline(stream, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  if (lines.empty()) throw std::invalid_argument("TriangularDomain mask: the text has no rows");
  const std::size_t length = lines[0].size();
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const std::string where = "TriangularDomain mask: line " + std::to_string(l + 1);
    if (lines[l].size() != length) {
      throw std::invalid_argument(where + " has length " + std::to_string(lines[l].size()) +
                                  " but line 1 has length " + std::to_string(length));
    }
    if (length == 0 || length % 2 != 0) {
      throw std::invalid_argument(where + " has length " + std::to_string(length) +
                                  "; it must be even and positive (an up and a down character " +
                                  "per cell)");
    }
    for (std::size_t c = 0; c < length; ++c) {
      if (lines[l][c] != '#' && lines[l][c] != '.') {
        throw std::invalid_argument(where + ", column " + std::to_string(c + 1) +
                                    ": unexpected character '" + lines[l][c] +
                                    "' (expected '#' or '.')");
      }
    }
  }
  const int w = static_cast<int>(length / 2), h = static_cast<int>(lines.size());
  std::vector<unsigned char> up(static_cast<std::size_t>(w) * h), down(up.size());
  for (int y = 0; y < h; ++y) {
    const std::string& line = lines[h - 1 - y];  // the first line is the top row
    for (int x = 0; x < w; ++x) {
      up[x + w * y] = line[2 * x] == '#';
      down[x + w * y] = line[2 * x + 1] == '#';
    }
  }
  return TriangularDomain(w, h, std::move(up), std::move(down));
}

std::string TriangularDomain::to_mask() const {
  std::string text;
  for (int y = height_ - 1; y >= 0; --y) {
    for (int x = 0; x < width_; ++x) {
      text += has_up(x, y) ? '#' : '.';
      text += has_down(x, y) ? '#' : '.';
    }
    text += '\n';
  }
  return text;
}

int TriangularDomain::triangles_at_vertex(int x, int y) const {
  int count = 0;
  for (int i = 0; i < 6; ++i) {
    const int cx = x + VertexStar::dx[i], cy = y + VertexStar::dy[i];
    count += VertexStar::is_up[i] ? has_up(cx, cy) : has_down(cx, cy);
  }
  return count;
}

}  // namespace portamc::tilings
