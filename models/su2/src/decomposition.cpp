#include "portamc/su2/detail/decomposition.hpp"

#include <functional>
#include <stdexcept>

namespace portamc::su2 {
namespace {

[[noreturn]] void fail(const std::string& what) {
  throw std::invalid_argument("su2 decomposition: " + what);
}

// Halo sites per rank of a valid grid: two faces of local_volume / L_mu per split direction.
std::int64_t halo_sites(const std::vector<int>& extents, const std::vector<int>& grid) {
  std::int64_t local = 1;
  for (std::size_t mu = 0; mu < extents.size(); ++mu) local *= extents[mu] / grid[mu];
  std::int64_t sites = 0;
  for (std::size_t mu = 0; mu < extents.size(); ++mu)
    if (grid[mu] > 1) sites += 2 * local / (extents[mu] / grid[mu]);
  return sites;
}

// Whether `a` is split more in the slow directions than `b`: (P_{D-1}, P_{D-2}, ...) compared
// lexicographically.
bool slower(const std::vector<int>& a, const std::vector<int>& b) {
  for (std::size_t i = a.size(); i-- > 0;)
    if (a[i] != b[i]) return a[i] > b[i];
  return false;
}

}  // namespace

std::string Decomposition::text(const std::vector<int>& extents) {
  std::string s;
  for (std::size_t i = 0; i < extents.size(); ++i) s += (i ? "x" : "") + std::to_string(extents[i]);
  return s;
}

void Decomposition::check_grid(const std::vector<int>& extents, const std::vector<int>& grid,
                               int ranks) {
  const int d = static_cast<int>(extents.size());
  if (static_cast<int>(grid.size()) != d)
    fail("the rank grid has " + std::to_string(grid.size()) + " entries, the " + text(extents) +
         " lattice " + std::to_string(d) + " directions");
  long long product = 1;
  for (int mu = 0; mu < d; ++mu) {
    if (grid[mu] < 1)
      fail("rank grid " + text(grid) + ": P_" + std::to_string(mu) + " = " +
           std::to_string(grid[mu]) + " must be >= 1");
    product *= grid[mu];
  }
  if (product != ranks)
    fail("rank grid " + text(grid) + " has " + std::to_string(product) +
         " blocks but the run has " + std::to_string(ranks) +
         " MPI rank(s): the product of the grid must equal the ranks");
  for (int mu = 0; mu < d; ++mu) {
    if (grid[mu] == 1) continue;
    const std::string where = "direction " + std::to_string(mu) + ": ";
    if (extents[mu] % grid[mu] != 0)
      fail(where + "N_" + std::to_string(mu) + " = " + std::to_string(extents[mu]) +
           " is not divisible by P_" + std::to_string(mu) + " = " + std::to_string(grid[mu]) +
           " (lattice " + text(extents) + ", rank grid " + text(grid) + ")");
    const int local = extents[mu] / grid[mu];
    if (local < 2 || local % 2 != 0)
      fail(where + "the local extent N_" + std::to_string(mu) + " / P_" + std::to_string(mu) +
           " = " + std::to_string(extents[mu]) + " / " + std::to_string(grid[mu]) + " = " +
           std::to_string(local) +
           " must be even and >= 2 (the checkerboard needs blocks with even origins)");
  }
}

std::vector<int> Decomposition::automatic_grid(const std::vector<int>& extents, int ranks) {
  const int d = static_cast<int>(extents.size());
  if (ranks < 1) fail("need at least one rank");
  std::vector<int> best, grid(d, 1);
  std::int64_t best_cost = 0;
  // Every factorisation of `ranks` into d factors, each dividing its extent into even blocks.
  std::function<void(int, int)> search = [&](int mu, int left) {
    if (mu == d) {
      if (left != 1) return;
      const std::int64_t cost = halo_sites(extents, grid);
      if (best.empty() || cost < best_cost || (cost == best_cost && slower(grid, best)))
        best = grid, best_cost = cost;
      return;
    }
    for (int p = 1; p <= left; ++p) {
      if (left % p != 0) continue;
      if (p > 1 && (extents[mu] % p != 0 || (extents[mu] / p) % 2 != 0)) continue;
      grid[mu] = p;
      search(mu + 1, left / p);
    }
    grid[mu] = 1;
  };
  search(0, ranks);
  if (best.empty())
    fail("the " + text(extents) + " lattice cannot be split over " + std::to_string(ranks) +
         " ranks: every block needs even extents >= 2 (set parallel.grid or use another number "
         "of ranks)");
  return best;
}

Decomposition::Decomposition(const std::vector<int>& extents)
    : extents_(extents), grid_(extents.size(), 1), coords_(extents.size(), 0) {}

Decomposition::Decomposition(const std::vector<int>& extents, int ranks, int rank,
                             const std::vector<int>& grid)
    : extents_(extents), ranks_(ranks), rank_(rank) {
  if (extents.size() < 2 || extents.size() > 4)
    fail("the lattice needs 2, 3 or 4 extents, got " + std::to_string(extents.size()));
  grid_ = grid.empty() ? automatic_grid(extents, ranks) : grid;
  check_grid(extents, grid_, ranks);
  if (rank < 0 || rank >= ranks)
    fail("rank " + std::to_string(rank) + " outside 0.." + std::to_string(ranks - 1));
  coords_ = coordinates_of(rank);
}

int Decomposition::split_count() const {
  int n = 0;
  for (int p : grid_) n += p > 1 ? 1 : 0;
  return n;
}

unsigned Decomposition::split_mask() const {
  unsigned mask = 0;
  for (int mu = 0; mu < dimensions(); ++mu)
    if (split(mu)) mask |= 1u << mu;
  return mask;
}

std::vector<int> Decomposition::local_extents() const {
  std::vector<int> e(extents_.size());
  for (int mu = 0; mu < dimensions(); ++mu) e[mu] = local_extent(mu);
  return e;
}

std::vector<int> Decomposition::padded_extents() const {
  std::vector<int> e(extents_.size());
  for (int mu = 0; mu < dimensions(); ++mu) e[mu] = local_extent(mu) + 2 * halo(mu);
  return e;
}

std::int64_t Decomposition::local_volume() const {
  std::int64_t v = 1;
  for (int mu = 0; mu < dimensions(); ++mu) v *= local_extent(mu);
  return v;
}

std::int64_t Decomposition::global_volume() const {
  std::int64_t v = 1;
  for (int n : extents_) v *= n;
  return v;
}

std::vector<int> Decomposition::coordinates_of(int rank) const {
  std::vector<int> c(extents_.size());
  for (int mu = 0; mu < dimensions(); ++mu) {
    c[mu] = rank % grid_[mu];
    rank /= grid_[mu];
  }
  return c;
}

int Decomposition::rank_at(std::vector<int> coords) const {
  int rank = 0;
  for (int mu = dimensions() - 1; mu >= 0; --mu) {
    const int p = grid_[mu];
    const int c = ((coords[mu] % p) + p) % p;
    rank = rank * p + c;
  }
  return rank;
}

int Decomposition::neighbour(int mu, int step) const {
  std::vector<int> c = coords_;
  c[mu] += step;
  return rank_at(c);
}

std::string Decomposition::grid_text() const {
  return text(grid_);
}
std::string Decomposition::local_text() const {
  return text(local_extents());
}
std::string Decomposition::global_text() const {
  return text(extents_);
}

}  // namespace portamc::su2
