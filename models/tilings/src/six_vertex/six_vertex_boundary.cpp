#include "portamc/tilings/six_vertex/six_vertex_boundary.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace portamc::tilings {

namespace {

// No face lies further than rows + cols from a boundary face, so this never wins a minimum
// that a real boundary path could take.
constexpr long long unreached = LLONG_MAX / 4;

// In-place min-plus convolution with |x| along one line (stride apart): afterwards
// g[k] = min_l g[l] + |k - l|. Two passes suffice because the kernel is 1-Lipschitz.
void relax_line(std::vector<long long>& g, std::size_t first, std::size_t stride, int length) {
  for (int k = 1; k < length; ++k) {
    long long& here = g[first + stride * k];
    here = std::min(here, g[first + stride * (k - 1)] + 1);
  }
  for (int k = length - 2; k >= 0; --k) {
    long long& here = g[first + stride * k];
    here = std::min(here, g[first + stride * (k + 1)] + 1);
  }
}

// min over boundary faces b of seed(b) + |i - i_b| + |j - j_b|: the L1 kernel is the min-plus
// product of its row and column parts, so transforming all rows and then all columns is exact.
std::vector<long long> l1_envelope(const SixVertexBoundary& boundary,
                                   const std::vector<long long>& ring_seed) {
  const int fr = boundary.face_rows(), fc = boundary.face_cols();
  std::vector<long long> g(boundary.face_count(), unreached);
  for (int k = 0; k < boundary.ring_size(); ++k) {
    const FacePosition f = boundary.ring_face(k);
    g[boundary.face_index(f.row, f.col)] = ring_seed[k];
  }
  for (int i = 0; i < fr; ++i) relax_line(g, boundary.face_index(i, 0), 1, fc);
  for (int j = 0; j < fc; ++j) relax_line(g, boundary.face_index(0, j), fc, fr);
  return g;
}

int distance(FacePosition a, FacePosition b) {
  return std::abs(a.row - b.row) + std::abs(a.col - b.col);
}

std::string trim(const std::string& s) {
  std::size_t begin = 0, end = s.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(s[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(s[end - 1]))) --end;
  return s.substr(begin, end - begin);
}

bool parse_int(const std::string& token, int& value) {
  if (token.empty()) return false;
  char* end = nullptr;
  const long parsed = std::strtol(token.c_str(), &end, 10);
  if (*end != '\0' || parsed < INT_MIN / 4 || parsed > INT_MAX / 4) return false;
  value = static_cast<int>(parsed);
  return true;
}

}  // namespace

std::string six_vertex_face_name(int i, int j) {
  return "(" + std::to_string(i) + ", " + std::to_string(j) + ")";
}

SixVertexBoundary::SixVertexBoundary(int rows, int cols, std::vector<int> ring_heights)
    : rows_(rows), cols_(cols), ring_(std::move(ring_heights)) {
  if (rows < 1 || cols < 1) {
    throw std::invalid_argument("SixVertexBoundary: the block needs at least 1 x 1 vertices, got " +
                                std::to_string(rows) + " x " + std::to_string(cols));
  }
  if (ring_.size() != static_cast<std::size_t>(ring_size())) {
    throw std::invalid_argument("SixVertexBoundary: " + std::to_string(ring_.size()) +
                                " boundary heights for " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " vertices, which have " +
                                std::to_string(ring_size()) + " boundary faces");
  }
  const int n = ring_size();
  for (int k = 0; k < n; ++k) {
    const int next = (k + 1) % n;
    if (std::abs(ring_[next] - ring_[k]) != 1) {
      const FacePosition a = ring_face(k), b = ring_face(next);
      throw std::invalid_argument(
          "SixVertexBoundary: the boundary faces " + six_vertex_face_name(a.row, a.col) + " and " +
          six_vertex_face_name(b.row, b.col) + " have heights " + std::to_string(ring_[k]) +
          " and " + std::to_string(ring_[next]) +
          ": heights of faces sharing an edge must differ by exactly +-1 (one arrow)");
    }
  }
  std::vector<long long> up(n), down(n);
  for (int k = 0; k < n; ++k) {
    up[k] = ring_[k];
    down[k] = -static_cast<long long>(ring_[k]);
  }
  const std::vector<long long> high = l1_envelope(*this, up);
  const std::vector<long long> low = l1_envelope(*this, down);
  for (int k = 0; k < n; ++k) {
    const FacePosition b = ring_face(k);
    if (high[face_index(b.row, b.col)] >= ring_[k]) continue;
    // Some other ring face pulls b below its height: name the worst offender.
    int worst = 0;
    for (int l = 1; l < n; ++l) {
      if (ring_[l] + distance(ring_face(l), b) < ring_[worst] + distance(ring_face(worst), b)) {
        worst = l;
      }
    }
    const FacePosition w = ring_face(worst);
    throw std::invalid_argument(
        "SixVertexBoundary: infeasible boundary: face " + six_vertex_face_name(b.row, b.col) +
        " has height " + std::to_string(ring_[k]) + " but face " +
        six_vertex_face_name(w.row, w.col) + " has height " + std::to_string(ring_[worst]) +
        " at distance " + std::to_string(distance(w, b)) +
        " (heights can change by at most 1 per step, so no six-vertex state has this boundary)");
  }
  maximal_.resize(face_count());
  minimal_.resize(face_count());
  for (std::size_t f = 0; f < face_count(); ++f) {
    maximal_[f] = static_cast<int>(high[f]);
    minimal_[f] = static_cast<int>(-low[f]);
  }
}

FacePosition six_vertex_ring_face(int rows, int cols, int k) {
  const int n = rows, m = cols;
  if (k < 0 || k >= 2 * (n + m)) {
    throw std::out_of_range("SixVertexBoundary: ring position " + std::to_string(k) +
                            " outside 0.." + std::to_string(2 * (n + m) - 1));
  }
  if (k <= m) return {0, k};
  if (k <= m + n) return {k - m, m};
  if (k <= 2 * m + n) return {n, m - (k - m - n)};
  return {n - (k - 2 * m - n), 0};
}

FacePosition SixVertexBoundary::ring_face(int k) const {
  return six_vertex_ring_face(rows_, cols_, k);
}

int SixVertexBoundary::height(int i, int j) const {
  if (i < 0 || j < 0 || i > rows_ || j > cols_ || !is_boundary_face(i, j)) {
    throw std::out_of_range("SixVertexBoundary: " + six_vertex_face_name(i, j) +
                            " is not a boundary face");
  }
  return maximal_[face_index(i, j)];
}

bool SixVertexBoundary::is_domain_wall() const {
  return rows_ == cols_ && *this == domain_wall(rows_);
}

int SixVertexBoundary::max_abs_height() const {
  int largest = 0;
  for (std::size_t f = 0; f < face_count(); ++f) {
    largest = std::max({largest, std::abs(maximal_[f]), std::abs(minimal_[f])});
  }
  return largest;
}

SixVertexBoundary SixVertexBoundary::domain_wall(int n) {
  if (n < 1) {
    throw std::invalid_argument("SixVertexBoundary::domain_wall: n must be >= 1, got " +
                                std::to_string(n));
  }
  std::vector<int> ring;
  ring.reserve(4 * n);
  for (int j = 0; j <= n; ++j) ring.push_back(j);          // top: h(0, j) = j
  for (int i = 1; i <= n; ++i) ring.push_back(n - i);      // right: h(i, n) = n - i
  for (int j = n - 1; j >= 0; --j) ring.push_back(n - j);  // bottom: h(n, j) = n - j
  for (int i = n - 1; i >= 1; --i) ring.push_back(i);      // left: h(i, 0) = i
  return SixVertexBoundary(n, n, std::move(ring));
}

SixVertexBoundary SixVertexBoundary::from_steps(int rows, int cols, const std::string& steps,
                                                int corner_height) {
  std::vector<int> delta;
  for (std::size_t p = 0; p < steps.size(); ++p) {
    const char ch = steps[p];
    if (std::isspace(static_cast<unsigned char>(ch))) continue;
    if (ch != '+' && ch != '-') {
      throw std::invalid_argument("SixVertexBoundary::from_steps: character '" +
                                  std::string(1, ch) + "' at position " + std::to_string(p) +
                                  " is not a step ('+' or '-')");
    }
    delta.push_back(ch == '+' ? 1 : -1);
  }
  const long long expected = 2LL * (static_cast<long long>(rows) + cols);
  if (rows < 1 || cols < 1 || static_cast<long long>(delta.size()) != expected) {
    throw std::invalid_argument(
        "SixVertexBoundary::from_steps: " + std::to_string(delta.size()) + " steps given; " +
        std::to_string(rows) + " x " + std::to_string(cols) +
        " vertices need 2 (rows + cols) = " + std::to_string(expected) + " (rows, cols >= 1)");
  }
  std::vector<int> ring(delta.size());
  ring[0] = corner_height;
  int sum = delta[0];
  for (std::size_t k = 1; k < delta.size(); ++k) {
    ring[k] = ring[k - 1] + delta[k - 1];
    sum += delta[k];
  }
  if (sum != 0) {
    throw std::invalid_argument("SixVertexBoundary::from_steps: the steps sum to " +
                                std::to_string(sum) +
                                " instead of 0, so the ring of boundary heights does not close "
                                "(as many '+' as '-' are needed)");
  }
  return SixVertexBoundary(rows, cols, std::move(ring));
}

SixVertexBoundary SixVertexBoundary::from_text(const std::string& text) {
  std::vector<std::vector<std::string>> grid;
  std::vector<int> line_of_row;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string content = trim(line);
    if (content.empty() || content[0] == '#') continue;
    std::istringstream tokens(content);
    std::vector<std::string> row;
    for (std::string token; tokens >> token;) row.push_back(token);
    if (!grid.empty() && row.size() != grid[0].size()) {
      throw std::invalid_argument("SixVertexBoundary::from_text: line " + std::to_string(number) +
                                  " has " + std::to_string(row.size()) + " tokens, line " +
                                  std::to_string(line_of_row[0]) + " has " +
                                  std::to_string(grid[0].size()));
    }
    grid.push_back(std::move(row));
    line_of_row.push_back(number);
  }
  if (grid.size() < 2 || grid[0].size() < 2) {
    throw std::invalid_argument(
        "SixVertexBoundary::from_text: need at least 2 rows of at least 2 face heights (the "
        "faces around one vertex), got " +
        std::to_string(grid.size()) + " rows");
  }
  const int rows = static_cast<int>(grid.size()) - 1, cols = static_cast<int>(grid[0].size()) - 1;
  auto token_at = [&](int i, int j) -> const std::string& { return grid[i][j]; };
  auto where = [&](int i, int j) {
    return "line " + std::to_string(line_of_row[i]) + ", token " + std::to_string(j + 1) +
           " (face " + six_vertex_face_name(i, j) + ")";
  };
  for (int i = 1; i < rows; ++i) {
    for (int j = 1; j < cols; ++j) {
      if (token_at(i, j) != ".") {
        throw std::invalid_argument("SixVertexBoundary::from_text: " + where(i, j) + " is '" +
                                    token_at(i, j) +
                                    "' but interior faces must be '.' (their heights are free)");
      }
    }
  }
  std::vector<int> ring(2 * (rows + cols));
  for (std::size_t k = 0; k < ring.size(); ++k) {
    const FacePosition f = six_vertex_ring_face(rows, cols, static_cast<int>(k));
    if (!parse_int(token_at(f.row, f.col), ring[k])) {
      throw std::invalid_argument("SixVertexBoundary::from_text: " + where(f.row, f.col) + " is '" +
                                  token_at(f.row, f.col) +
                                  "' but boundary faces need an integer height");
    }
  }
  return SixVertexBoundary(rows, cols, std::move(ring));
}

SixVertexBoundary SixVertexBoundary::from_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    throw std::invalid_argument("SixVertexBoundary::from_file: cannot read '" + path + "'");
  }
  std::ostringstream contents;
  contents << file.rdbuf();
  return from_text(contents.str());
}

}  // namespace portamc::tilings
