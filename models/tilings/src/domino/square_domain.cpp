#include "portamc/tilings/domino/square_domain.hpp"

#include <sstream>
#include <stdexcept>
#include <utility>

namespace portamc::tilings {
namespace {

std::string cell(int r, int c) {
  return "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
}

// Flood fill over 4-neighbours of cells with flag == wanted inside a box of the given size;
// returns the visited marks.  An explicit stack keeps large domains off the call stack.
std::vector<std::uint8_t> flood(int rows, int cols, const std::vector<std::uint8_t>& flags,
                                std::uint8_t wanted, int r0, int c0) {
  std::vector<std::uint8_t> seen(flags.size(), 0);
  std::vector<std::pair<int, int>> stack{{r0, c0}};
  seen[static_cast<std::size_t>(r0) * cols + c0] = 1;
  const int dr[4] = {-1, 0, 1, 0};
  const int dc[4] = {0, 1, 0, -1};
  while (!stack.empty()) {
    const auto [r, c] = stack.back();
    stack.pop_back();
    for (int d = 0; d < 4; ++d) {
      const int nr = r + dr[d];
      const int nc = c + dc[d];
      if (nr < 0 || nc < 0 || nr >= rows || nc >= cols) continue;
      const std::size_t k = static_cast<std::size_t>(nr) * cols + nc;
      if (seen[k] || (flags[k] != 0) != (wanted != 0)) continue;
      seen[k] = 1;
      stack.push_back({nr, nc});
    }
  }
  return seen;
}

}  // namespace

SquareDomain::SquareDomain(int rows, int cols, std::vector<std::uint8_t> faces)
    : rows_(rows), cols_(cols), faces_(std::move(faces)) {
  if (rows <= 0 || cols <= 0) {
    throw std::invalid_argument("SquareDomain: the bounding box " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " must have positive extents");
  }
  if (faces_.size() != static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols)) {
    throw std::invalid_argument("SquareDomain: " + std::to_string(faces_.size()) +
                                " face flags given for a " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " bounding box");
  }
  int first = -1;
  for (std::size_t k = 0; k < faces_.size(); ++k) {
    if (faces_[k] == 0) continue;
    faces_[k] = 1;
    ++face_count_;
    const int r = static_cast<int>(k) / cols;
    const int c = static_cast<int>(k) % cols;
    if (is_black(r, c)) ++black_count_;
    if (first < 0) first = static_cast<int>(k);
  }
  if (first < 0) throw std::invalid_argument("SquareDomain: the domain has no faces");
  reference_row_ = first / cols;
  reference_col_ = first % cols;

  const auto reached = flood(rows, cols, faces_, 1, reference_row_, reference_col_);
  for (std::size_t k = 0; k < faces_.size(); ++k) {
    if (faces_[k] && !reached[k]) {
      throw std::invalid_argument("SquareDomain: the faces are not 4-connected: face " +
                                  cell(static_cast<int>(k) / cols, static_cast<int>(k) % cols) +
                                  " cannot be reached from face " +
                                  cell(reference_row_, reference_col_));
    }
  }
  // Holes: pad the box with an empty frame so that the whole outside is one empty component.
  const int pr = rows + 2;
  const int pc = cols + 2;
  std::vector<std::uint8_t> padded(static_cast<std::size_t>(pr) * pc, 0);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) padded[(r + 1) * pc + (c + 1)] = faces_[face_index(r, c)];
  }
  const auto outside = flood(pr, pc, padded, 0, 0, 0);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const std::size_t k = static_cast<std::size_t>(r + 1) * pc + (c + 1);
      if (!padded[k] && !outside[k]) {
        throw std::invalid_argument(
            "SquareDomain: the domain is not simply connected (Thurston's height function needs "
            "it): the empty cell " +
            cell(r, c) + " is enclosed by the domain (a hole, or faces touching only at a corner)");
      }
    }
  }
}

SquareDomain SquareDomain::rectangle(int rows, int cols) {
  if (rows <= 0 || cols <= 0) {
    throw std::invalid_argument("SquareDomain::rectangle: extents " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " must be positive");
  }
  return SquareDomain(rows, cols,
                      std::vector<std::uint8_t>(static_cast<std::size_t>(rows) * cols, 1));
}

SquareDomain SquareDomain::aztec_rectangle(int a, int b) {
  if (a <= 0 || b <= 0) {
    throw std::invalid_argument("SquareDomain::aztec_rectangle: orders a = " + std::to_string(a) +
                                ", b = " + std::to_string(b) + " must be positive");
  }
  const int size = a + b;
  std::vector<std::uint8_t> faces(static_cast<std::size_t>(size) * size, 0);
  for (int r = 0; r < size; ++r) {
    for (int c = 0; c < size; ++c) {
      const int p = r + c - b + 1;
      const int q = c - r + b;
      faces[static_cast<std::size_t>(r) * size + c] = p >= 0 && p <= 2 * a && q >= 0 && q <= 2 * b;
    }
  }
  return SquareDomain(size, size, std::move(faces));
}

SquareDomain SquareDomain::aztec_diamond(int n) {
  if (n <= 0) {
    throw std::invalid_argument("SquareDomain::aztec_diamond: order n = " + std::to_string(n) +
                                " must be positive");
  }
  return aztec_rectangle(n, n);
}

SquareDomain SquareDomain::from_mask(const std::string& text) {
  std::vector<std::string> lines;
  std::vector<int> line_numbers;
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
    line_numbers.push_back(number);
  }
  // Blank lines at either end come from raw string literals; blank lines inside are errors.
  while (!lines.empty() && lines.back().empty()) {
    lines.pop_back();
    line_numbers.pop_back();
  }
  std::size_t start = 0;
  while (start < lines.size() && lines[start].empty()) ++start;
  if (start == lines.size()) throw std::invalid_argument("SquareDomain::from_mask: empty mask");
  const std::size_t width = lines[start].size();
  std::vector<std::uint8_t> faces;
  for (std::size_t k = start; k < lines.size(); ++k) {
    if (lines[k].size() != width) {
      throw std::invalid_argument(
          "SquareDomain::from_mask: line " + std::to_string(line_numbers[k]) + " has " +
          std::to_string(lines[k].size()) + " columns, expected " + std::to_string(width));
    }
    for (std::size_t c = 0; c < width; ++c) {
      const char ch = lines[k][c];
      if (ch != '#' && ch != '.') {
        throw std::invalid_argument("SquareDomain::from_mask: unexpected character '" +
                                    std::string(1, ch) + "' at line " +
                                    std::to_string(line_numbers[k]) + ", column " +
                                    std::to_string(c + 1) + " (expected '#' or '.')");
      }
      faces.push_back(ch == '#');
    }
  }
  return SquareDomain(static_cast<int>(lines.size() - start), static_cast<int>(width),
                      std::move(faces));
}

std::string SquareDomain::to_mask() const {
  std::string out;
  for (int r = 0; r < rows_; ++r) {
    for (int c = 0; c < cols_; ++c) out += contains(r, c) ? '#' : '.';
    out += '\n';
  }
  return out;
}

}  // namespace portamc::tilings
