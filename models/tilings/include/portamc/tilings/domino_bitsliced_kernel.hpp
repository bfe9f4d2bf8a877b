#pragma once
// Bit-sliced tiled Glauber dynamics for UNIFORM domino tilings (heat-bath rule): the launch of
// domino_tiled_kernel.hpp (random tile shift, K random classes, sub-steps inside tiles in team
// scratch memory) with the tile held as bit planes, so one 64-bit operation moves up to 32
// vertices of a class and one Philox block serves 64 of them.
//
// Why: coupling from the past of a large Aztec diamond is a long sequence of small steps (order
// 30 n^2 coupled steps for AD(n)); the byte kernel spends ~100 instructions per vertex on its own
// Philox block and its byte tests, so AD(1000) took minutes. Here a sub-step of a 32 x 256 tile
// is a few hundred instructions per thread in all, and the run is bound by the latency of the
// sub-steps, not by the number of vertices.
//
// Encoding. Face (r, c) of the tile is two bits at bit c mod 64 of word c / 64 of row r:
//   h = the domino is horizontal (partner east or west), f = the face is the domino's west or
//   north half (partner east or south). E = h f, W = h !f, S = !h f, N = !h !f. Faces outside the
//   domain or the box read as N (h = f = 0) and are never written back.
// A class vertex (i, j) of the tile (faces (i-1, j-1), (i-1, j), (i, j-1), (i, j); its "west
// column" x = j - 1) holds two horizontal dominoes iff E(i-1, x) E(i, x), two vertical ones iff
// S(i-1, x) S(i-1, x+1) (the byte kernel's block_state). Its block lies in words x / 64 of
// rows i-1 and i unless x mod 64 = 63: such vertices wait, like vertices on tile edges, for a
// launch whose random column shift moves the word boundary (the shift is uniform, so every
// vertex is reachable and the chain stays irreducible).
//
// The move. Vertex (i, x) ends vertical iff its random bit is 1 (probability 1/2, the uniform
// heat-bath rule, whatever its current state), so two chains driven by the same bits keep their
// order and coupling from the past works (same top and bottom states as the byte kernels).
// Vertex rows of one sub-step go in two phases, odd rows then even rows: blocks of rows i and
// i + 1 share face row i, and two threads must not rewrite one word. The outcome equals the
// simultaneous update of the whole class (domino_glauber_kernel.hpp: a vertex whose block shares
// a face with a rotating block is not rotatable before nor after), so it does not depend on
// thread order or team size, and all backends agree bit for bit.
//
// Random bits. Task (row pair q, word m) of tile T in sub-step t draws one block
//   rng::draw(seed, purpose_tiling_bits, T * tasks_per_tile + q * words + m, t)
// whose words 0-1 drive vertex row 2q + 1 and words 2-3 vertex row 2q + 2 (bit x mod 64 for
// west column x). The tile grid of a launch is a fixed function of (seed, launch), so coupling
// from the past reuses the same bits for a time slot on every pass, as it must. These are not
// the byte kernel's words, so the two kernels are different (equally exact) chains.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "portamc/rng.hpp"
#include "portamc/tilings/domino_tiled_kernel.hpp"
#include "portamc/tilings/domino_tiling.hpp"

namespace portamc::tilings {

template <class Space, bool Coupled>
struct DominoBitslicedSteps {
  using Member = typename Kokkos::TeamPolicy<Space>::member_type;
  using Words = Kokkos::View<std::uint64_t*, typename Space::scratch_memory_space,
                             Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  Kokkos::View<std::uint8_t*, Space> upper;
  Kokkos::View<std::uint8_t*, Space> lower;  ///< used only when Coupled
  std::int32_t rows = 0;                     ///< face rows of the box
  std::int32_t cols = 0;                     ///< face columns of the box
  DominoTileLaunch launch;
  std::uint64_t seed = 0;

  static constexpr int chains = Coupled ? 2 : 1;

  KOKKOS_INLINE_FUNCTION static std::int32_t words_per_row(const DominoTileLaunch& l) {
    return 1 << (l.col_log2 - 6);
  }
  /// Tasks of one phase: row pairs times words per row.
  KOKKOS_INLINE_FUNCTION static std::int32_t tasks(const DominoTileLaunch& l) {
    return (1 << (l.row_log2 - 1)) * words_per_row(l);
  }
  /// Two planes per chain, plus the second phase's random words.
  static std::size_t scratch_bytes(const DominoTileLaunch& l) {
    const std::size_t plane = std::size_t{1} << (l.row_log2 + l.col_log2 - 6);
    return Words::shmem_size(2 * chains * plane) +
           Words::shmem_size(static_cast<std::size_t>(tasks(l)));
  }
  /// Threads per team on devices: one per task of a phase, a multiple of 32, at most 256.
  static int team_size(const DominoTileLaunch& l) {
    const int n = (tasks(l) + 31) / 32 * 32;
    return n > 256 ? 256 : n;
  }

  KOKKOS_INLINE_FUNCTION static std::uint64_t join(std::uint32_t lo, std::uint32_t hi) {
    return (static_cast<std::uint64_t>(hi) << 32) | lo;
  }

  /// Re-tiles the class vertices of vertex row i, word m, whose west columns are the bits of
  /// `mask`, of one chain: vertical where `bits` is 1, horizontal where it is 0.
  KOKKOS_INLINE_FUNCTION static void update(const Words& h, const Words& f, std::int32_t top,
                                            std::int32_t bottom, std::uint64_t mask,
                                            std::uint64_t bits) {
    const std::uint64_t ht = h(top), ft = f(top), hb = h(bottom), fb = f(bottom);
    const std::uint64_t south_top = ~ht & ft;
    const std::uint64_t rot = ((ht & ft & hb & fb) | (south_top & (south_top >> 1))) & mask;
    if (rot == 0) return;
    const std::uint64_t vertical = rot & bits, horizontal = rot & ~bits;
    const std::uint64_t block = rot | (rot << 1);
    const std::uint64_t h_new = horizontal | (horizontal << 1);
    h(top) = (ht & ~block) | h_new;
    f(top) = (ft & ~block) | horizontal | vertical | (vertical << 1);
    h(bottom) = (hb & ~block) | h_new;
    f(bottom) = (fb & ~block) | horizontal;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int32_t tile_rows = 1 << launch.row_log2;
    const std::int32_t words = words_per_row(launch);
    const std::int32_t plane = tile_rows * words;
    const std::int32_t n_tasks = tasks(launch);
    const std::int32_t tile = team.league_rank();
    const std::int32_t r0 =
        (tile / launch.tiles_across + launch.first_band) * tile_rows - launch.row_shift;
    const std::int32_t c0 = (tile % launch.tiles_across) * (words * 64) - launch.col_shift;
    const std::uint64_t entity_base =
        static_cast<std::uint64_t>(tile + launch.first_band * launch.tiles_across) *
        static_cast<std::uint64_t>(n_tasks);
    const Words hu(team.team_scratch(0), plane), fu(team.team_scratch(0), plane);
    const Words hl(team.team_scratch(0), Coupled ? plane : 0);
    const Words fl(team.team_scratch(0), Coupled ? plane : 0);
    const Words second(team.team_scratch(0), n_tasks);

    const auto face_index = [&](std::int32_t w, int b, std::int32_t& index) {
      const std::int32_t r = r0 + w / words, c = c0 + (w % words) * 64 + b;
      index = (r - launch.row_origin) * cols + c;
      return r >= 0 && r < rows && c >= 0 && c < cols;
    };

    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, plane), [&](const std::int32_t w) {
      std::uint64_t h0 = 0, f0 = 0, h1 = 0, f1 = 0;
      for (int b = 0; b < 64; ++b) {
        std::int32_t index = 0;
        if (!face_index(w, b, index)) continue;
        const std::uint8_t d = upper(index);  // none (4) reads as N: both bits 0
        h0 |= static_cast<std::uint64_t>(d & 1u) << b;
        f0 |= static_cast<std::uint64_t>(d == direction::east || d == direction::south) << b;
        if (Coupled) {
          const std::uint8_t e = lower(index);
          h1 |= static_cast<std::uint64_t>(e & 1u) << b;
          f1 |= static_cast<std::uint64_t>(e == direction::east || e == direction::south) << b;
        }
      }
      hu(w) = h0;
      fu(w) = f0;
      if (Coupled) {
        hl(w) = h1;
        fl(w) = f1;
      }
    });
    team.team_barrier();

    constexpr std::uint64_t even = 0x5555555555555555ull;
    constexpr std::uint64_t odd_inner = 0x2AAAAAAAAAAAAAAAull;  // odd bits but 63
    for (int s = 0; s < launch.substeps; ++s) {
      const int colour = static_cast<int>((launch.class_bits >> s) & 1u);
      const std::uint64_t t = launch.first_step + static_cast<std::uint64_t>(s);
      // Vertex (r0 + i, c0 + x + 1) has class (x + 1 + c0 - i - r0) mod 2.
      const auto mask_of_row = [&](std::int32_t i) {
        return ((colour + i + r0 - c0 - 1) & 1) != 0 ? odd_inner : even;
      };
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n_tasks), [&](const std::int32_t k) {
        const std::int32_t i = 2 * (k / words) + 1, m = k % words;
        const rng::Block b = rng::draw(seed, rng::purpose_tiling_bits,
                                       entity_base + static_cast<std::uint64_t>(k), t);
        second(k) = join(b[2], b[3]);
        const std::uint64_t bits = join(b[0], b[1]), mask = mask_of_row(i);
        update(hu, fu, (i - 1) * words + m, i * words + m, mask, bits);
        if (Coupled) update(hl, fl, (i - 1) * words + m, i * words + m, mask, bits);
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n_tasks), [&](const std::int32_t k) {
        const std::int32_t i = 2 * (k / words) + 2, m = k % words;
        if (i >= tile_rows) return;
        const std::uint64_t bits = second(k), mask = mask_of_row(i);
        update(hu, fu, (i - 1) * words + m, i * words + m, mask, bits);
        if (Coupled) update(hl, fl, (i - 1) * words + m, i * words + m, mask, bits);
      });
      team.team_barrier();
    }

    // Faces that are none stay none; others are rewritten only where they changed.
    const auto decode = [](std::uint64_t h, std::uint64_t f, int b) -> std::uint8_t {
      const bool hb = ((h >> b) & 1u) != 0, fb = ((f >> b) & 1u) != 0;
      return hb ? (fb ? direction::east : direction::west)
                : (fb ? direction::south : direction::north);
    };
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, plane), [&](const std::int32_t w) {
      for (int b = 0; b < 64; ++b) {
        std::int32_t index = 0;
        if (!face_index(w, b, index)) continue;
        const std::uint8_t d = upper(index);
        if (d == direction::none) continue;
        const std::uint8_t now = decode(hu(w), fu(w), b);
        if (now != d) upper(index) = now;
        if (Coupled) {
          const std::uint8_t e = lower(index), later = decode(hl(w), fl(w), b);
          if (e != later) lower(index) = later;
        }
      }
    });
  }
};

}  // namespace portamc::tilings
