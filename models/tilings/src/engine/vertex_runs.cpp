#include "portamc/tilings/engine/detail/vertex_runs.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace portamc::tilings {

std::vector<VertexRunsHost> build_vertex_runs(int rows, int cols, int classes,
                                              const std::function<bool(int, int)>& movable,
                                              const std::string& what) {
  std::vector<VertexRunsHost> out(static_cast<std::size_t>(classes));
  std::vector<std::int64_t> count(static_cast<std::size_t>(classes), 0);
  for (VertexRunsHost& runs : out) runs.offset.push_back(0);
  for (int r = 0; r < rows; ++r) {
    for (int k = 0; k < classes; ++k) {
      VertexRunsHost& runs = out[static_cast<std::size_t>(k)];
      std::int64_t& n = count[static_cast<std::size_t>(k)];
      const int start = ((k + r) % classes + classes) % classes;  // (col - row) mod classes == k
      bool open = false;
      for (int c = start; c < cols; c += classes) {
        if (!movable(r, c)) {
          open = false;
          continue;
        }
        if (!open) {
          if (runs.row.size() > 0) runs.offset.push_back(static_cast<std::int32_t>(n));
          runs.row.push_back(r);
          runs.first_col.push_back(c);
          open = true;
        }
        if (++n > std::numeric_limits<std::int32_t>::max()) {
          throw std::invalid_argument(what + ": colour class " + std::to_string(k) +
                                      " has more than 2^31 - 1 vertices, beyond the 32-bit "
                                      "indices of the kernels");
        }
      }
    }
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    VertexRunsHost& runs = out[k];
    if (runs.row.empty()) continue;
    runs.offset.push_back(static_cast<std::int32_t>(count[k]));
    const std::int64_t blocks = ((count[k] - 1) >> vertex_hint_shift) + 1;
    std::int32_t run = 0;
    for (std::int64_t b = 0; b <= blocks; ++b) {
      const std::int64_t first = std::min(b << vertex_hint_shift, count[k] - 1);
      while (runs.offset[static_cast<std::size_t>(run) + 1] <= first) ++run;
      runs.hint.push_back(run);
    }
  }
  return out;
}

}  // namespace portamc::tilings
