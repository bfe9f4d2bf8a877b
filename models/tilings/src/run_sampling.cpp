#include "run_sampling.hpp"

#include "portamc/app.hpp"

namespace portamc::tilings {
namespace detail {

std::uint64_t cftp_sample_seed(std::uint64_t seed, std::int64_t k) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (static_cast<std::uint64_t>(k) + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace detail

RunResults run_sampling(const PreparedRun& run,
                        const std::function<bool(double, const std::string&)>& progress) {
  const double start = app::now_seconds();
  RunResults results;
  switch (run.parameters.model) {
    case TilingModel::domino:
      results = run.parameters.mode == SamplingMode::shuffling
                    ? detail::sample_domino_shuffling(run, progress)
                    : detail::sample_domino(run, progress);
      break;
    case TilingModel::lozenge:
      results = detail::sample_lozenge(run, progress);
      break;
    case TilingModel::six_vertex:
      results = detail::sample_six_vertex(run, progress);
      break;
    case TilingModel::bibone:
      results = detail::sample_bibone(run, progress);
      break;
    case TilingModel::rect_triangle:
      results = detail::sample_rect_triangle(run, progress);
      break;
  }
  results.seconds = app::now_seconds() - start;
  return results;
}

}  // namespace portamc::tilings
