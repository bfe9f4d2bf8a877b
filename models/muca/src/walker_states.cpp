#include "portamc/muca/detail/walker_states.hpp"

#include <stdexcept>
#include <string>

namespace portamc::muca {
namespace {

// 32-bit words of one walker's lattice.
std::size_t words_of(const ModelState& s) {
  const auto w = static_cast<std::size_t>(s.walkers);
  if (w == 0 || s.spins.size() % w != 0 || s.bins.size() != w)
    throw std::invalid_argument("muca state: " + std::to_string(s.spins.size()) +
                                " spin words and " + std::to_string(s.bins.size()) +
                                " bins do not fit " + std::to_string(s.walkers) + " walkers");
  return s.spins.size() / w;
}

}  // namespace

ModelState select_walkers(const ModelState& all, std::uint64_t begin, std::uint64_t end) {
  const std::size_t words = words_of(all);
  const auto w = static_cast<std::uint64_t>(all.walkers);
  if (begin > end || end > w)
    throw std::invalid_argument("select_walkers: [" + std::to_string(begin) + ", " +
                                std::to_string(end) + ") is not within the " + std::to_string(w) +
                                " walkers");
  ModelState s = all;
  s.walkers = static_cast<long long>(end - begin);
  s.spins.clear();
  s.spins.reserve(words * (end - begin));
  for (std::size_t k = 0; k < words; ++k)
    s.spins.insert(s.spins.end(), all.spins.begin() + k * w + begin,
                   all.spins.begin() + k * w + end);
  s.bins.assign(all.bins.begin() + begin, all.bins.begin() + end);
  return s;
}

ModelState concatenate_walkers(const std::vector<ModelState>& parts) {
  if (parts.empty()) return ModelState{};
  ModelState s = parts.front();
  const std::size_t words = words_of(s);
  s.walkers = 0;
  s.bins.clear();
  for (const ModelState& p : parts) {
    if (p.L != s.L || p.seed != s.seed || p.step != s.step || p.log_weights != s.log_weights ||
        words_of(p) != words)
      throw std::invalid_argument("concatenate_walkers: states of different runs or steps");
    s.walkers += p.walkers;
    s.bins.insert(s.bins.end(), p.bins.begin(), p.bins.end());
  }
  const auto w = static_cast<std::size_t>(s.walkers);
  s.spins.assign(words * w, 0);
  std::size_t first = 0;
  for (const ModelState& p : parts) {
    const auto n = static_cast<std::size_t>(p.walkers);
    for (std::size_t k = 0; k < words; ++k)
      for (std::size_t v = 0; v < n; ++v) s.spins[k * w + first + v] = p.spins[k * n + v];
    first += n;
  }
  return s;
}

ModelState gather_walkers(const ModelState& local, const parallel::Communicator& comm) {
  if (comm.size() == 1) return local;
  const std::size_t words = words_of(local);
  const auto n = static_cast<std::size_t>(local.walkers);
  // Walker-major, so that the ranks' blocks concatenate.
  std::vector<std::uint64_t> spins(words * n);
  for (std::size_t v = 0; v < n; ++v)
    for (std::size_t k = 0; k < words; ++k) spins[v * words + k] = local.spins[k * n + v];
  spins = comm.gather(spins);
  const std::vector<int> bins = comm.gather(std::vector<int>(local.bins.begin(), local.bins.end()));
  if (!comm.is_root()) return ModelState{};
  ModelState s = local;
  s.walkers = static_cast<long long>(bins.size());
  const auto w = bins.size();
  s.bins.assign(bins.begin(), bins.end());
  s.spins.assign(words * w, 0);
  for (std::size_t v = 0; v < w; ++v)
    for (std::size_t k = 0; k < words; ++k)
      s.spins[k * w + v] = static_cast<std::uint32_t>(spins[v * words + k]);
  return s;
}

}  // namespace portamc::muca
