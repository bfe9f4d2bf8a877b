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
#include "portamc/tilings/domino/detail/domino_tiled_kernel.hpp"
#include "portamc/tilings/domino/domino_tiling.hpp"

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
  /// Per chain: the tile's bytes (kept until the store, which must leave direction::none
  /// alone) and two bit planes; plus the second phase's random words.
  static std::size_t scratch_bytes(const DominoTileLaunch& l) {
    const std::size_t plane = std::size_t{1} << (l.row_log2 + l.col_log2 - 6);
    return chains * (Words::shmem_size(8 * plane) + 2 * Words::shmem_size(plane)) +
           Words::shmem_size(static_cast<std::size_t>(tasks(l)));
  }
  /// Threads per team on devices: one per task of a phase (a multiple of 32, at most 256), at
  /// least 128 so that the tile's bytes load with enough loads in flight.
  static int team_size(const DominoTileLaunch& l) {
    const int n = (tasks(l) + 31) / 32 * 32;
    return n > 256 ? 256 : (n < 128 ? 128 : n);
  }

  KOKKOS_INLINE_FUNCTION static std::uint64_t join(std::uint32_t lo, std::uint32_t hi) {
    return (static_cast<std::uint64_t>(hi) << 32) | lo;
  }

  /// Bit k of the result is bit 0 of byte k of x (little-endian bytes): the multiplier puts
  /// byte k's bit at position 56 + k, and no two partial products overlap, so nothing carries.
  KOKKOS_INLINE_FUNCTION static std::uint64_t gather_low_bits(std::uint64_t x) {
    return ((x & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56;
  }
  /// The h and f planes of 64 faces from their bytes (direction codes 0..4): h = d & 1 (east,
  /// west), f = bit 0 of d ^ (d >> 1) (east = 1, south = 2; none = 4 gives 0 for both).
  KOKKOS_INLINE_FUNCTION static void to_planes(const std::uint64_t* bytes, std::uint64_t& h,
                                               std::uint64_t& f) {
    h = 0;
    f = 0;
    for (int k = 0; k < 8; ++k) {
      const std::uint64_t v = bytes[k];
      h |= gather_low_bits(v) << (8 * k);
      f |= gather_low_bits(v ^ (v >> 1)) << (8 * k);
    }
  }

  /// The four words of a chain that one vertex row's word reads and may rewrite: h and f of
  /// face rows i - 1 (top) and i (bottom).
  struct Block4 {
    std::uint64_t ht, ft, hb, fb;
  };
  KOKKOS_INLINE_FUNCTION static Block4 load(const Words& h, const Words& f, std::int32_t top,
                                            std::int32_t bottom) {
    return {h(top), f(top), h(bottom), f(bottom)};
  }
  /// Re-tiles the class vertices whose west columns are the bits of `mask`: vertical where
  /// `bits` is 1, horizontal where it is 0. Returns whether anything changed.
  KOKKOS_INLINE_FUNCTION static bool update(Block4& w, std::uint64_t mask, std::uint64_t bits) {
    const std::uint64_t south_top = ~w.ht & w.ft;
    const std::uint64_t rot = ((w.ht & w.ft & w.hb & w.fb) | (south_top & (south_top >> 1))) & mask;
    const std::uint64_t vertical = rot & bits, horizontal = rot & ~bits;
    const std::uint64_t block = rot | (rot << 1);
    const std::uint64_t h_new = horizontal | (horizontal << 1);
    w.ht = (w.ht & ~block) | h_new;
    w.ft = (w.ft & ~block) | horizontal | vertical | (vertical << 1);
    w.hb = (w.hb & ~block) | h_new;
    w.fb = (w.fb & ~block) | horizontal;
    return rot != 0;
  }
  KOKKOS_INLINE_FUNCTION static void store(const Words& h, const Words& f, std::int32_t top,
                                           std::int32_t bottom, const Block4& w) {
    h(top) = w.ht;
    f(top) = w.ft;
    h(bottom) = w.hb;
    f(bottom) = w.fb;
  }
  /// Vertex row i, word m of both chains: all words are read before any is written, so the
  /// compiler need not order one chain's stores before the other's loads.
  KOKKOS_INLINE_FUNCTION static void update_row(const Words& hu, const Words& fu, const Words& hl,
                                                const Words& fl, std::int32_t top,
                                                std::int32_t bottom, std::uint64_t mask,
                                                std::uint64_t bits) {
    Block4 u = load(hu, fu, top, bottom);
    Block4 l = Coupled ? load(hl, fl, top, bottom) : Block4{};
    if (update(u, mask, bits)) store(hu, fu, top, bottom, u);
    if (Coupled && update(l, mask, bits)) store(hl, fl, top, bottom, l);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const Member& team) const {
    const std::int32_t tile_rows = 1 << launch.row_log2;
    const std::int32_t words = words_per_row(launch);
    const std::int32_t plane = tile_rows * words;
    const std::int32_t faces = plane * 64;
    const std::int32_t n_tasks = tasks(launch);
    const std::int32_t tile = team.league_rank();
    const std::int32_t r0 =
        (tile / launch.tiles_across + launch.first_band) * tile_rows - launch.row_shift;
    const std::int32_t c0 = (tile % launch.tiles_across) * (words * 64) - launch.col_shift;
    const std::uint64_t entity_base =
        static_cast<std::uint64_t>(tile + launch.first_band * launch.tiles_across) *
        static_cast<std::uint64_t>(n_tasks);
    // Byte arrays as 64-bit words, so that 8 faces read as one aligned load.
    const Words bytes_u(team.team_scratch(0), plane * 8);
    const Words bytes_l(team.team_scratch(0), Coupled ? plane * 8 : 0);
    const Words hu(team.team_scratch(0), plane), fu(team.team_scratch(0), plane);
    const Words hl(team.team_scratch(0), Coupled ? plane : 0);
    const Words fl(team.team_scratch(0), Coupled ? plane : 0);
    const Words second(team.team_scratch(0), n_tasks);
    std::uint8_t* const byte_u = reinterpret_cast<std::uint8_t*>(bytes_u.data());
    std::uint8_t* const byte_l =
        Coupled ? reinterpret_cast<std::uint8_t*>(bytes_l.data()) : nullptr;

    // Face f of the tile: row f / (64 words), column f mod (64 words); false outside the box.
    const auto global_index = [&](std::int32_t f, std::int32_t& index) {
      const std::int32_t r = r0 + (f >> (launch.col_log2)), c = c0 + (f & (words * 64 - 1));
      index = (r - launch.row_origin) * cols + c;
      return r >= 0 && r < rows && c >= 0 && c < cols;
    };

    // Coalesced byte loads, four in flight per thread: a plain strided loop waits for each
    // load before issuing the next, and that latency dominated the launch.
    const std::int32_t lane = team.team_rank(), width = team.team_size();
    for (std::int32_t f0 = lane; f0 < faces; f0 += 4 * width) {
      std::uint8_t u[4], l[4];
      for (int k = 0; k < 4; ++k) {
        std::int32_t index = 0;
        const std::int32_t f = f0 + k * width;
        const bool in = f < faces && global_index(f, index);
        u[k] = in ? upper(index) : direction::none;
        l[k] = Coupled && in ? lower(index) : direction::none;
      }
      for (int k = 0; k < 4; ++k) {
        const std::int32_t f = f0 + k * width;
        if (f >= faces) break;
        byte_u[f] = u[k];
        if (Coupled) byte_l[f] = l[k];
      }
    }
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, plane), [&](const std::int32_t w) {
      to_planes(&bytes_u(8 * w), hu(w), fu(w));
      if (Coupled) to_planes(&bytes_l(8 * w), hl(w), fl(w));
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
        update_row(hu, fu, hl, fl, (i - 1) * words + m, i * words + m, mask, bits);
      });
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n_tasks), [&](const std::int32_t k) {
        const std::int32_t i = 2 * (k / words) + 2, m = k % words;
        if (i >= tile_rows) return;
        const std::uint64_t bits = second(k), mask = mask_of_row(i);
        update_row(hu, fu, hl, fl, (i - 1) * words + m, i * words + m, mask, bits);
      });
      team.team_barrier();
    }

    // Faces that are none stay none; the others are written back only where they changed.
    const auto decode = [](std::uint64_t h, std::uint64_t f, int b) -> std::uint8_t {
      const bool hb = ((h >> b) & 1u) != 0, fb = ((f >> b) & 1u) != 0;
      return hb ? (fb ? direction::east : direction::west)
                : (fb ? direction::south : direction::north);
    };
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, faces), [&](const std::int32_t f) {
      std::int32_t index = 0;
      if (byte_u[f] == direction::none || !global_index(f, index)) return;
      const std::int32_t w = f >> 6;
      const int b = f & 63;
      const std::uint8_t now = decode(hu(w), fu(w), b);
      if (now != byte_u[f]) upper(index) = now;
      if (Coupled) {
        const std::uint8_t later = decode(hl(w), fl(w), b);
        if (later != byte_l[f]) lower(index) = later;
      }
    });
  }
};

}  // namespace portamc::tilings
