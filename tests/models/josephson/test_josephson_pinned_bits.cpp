// The exact bits of the integration loop's elementary functions and normals, pinned: a hash of
// each function over 2^20 arguments on each backend of the build (TestSpace) must equal the
// value recorded for its kind of backend. The other elementary tests check accuracy within bounds;
// this one catches any change of the results at all, which would change every josephson
// trajectory. Expected values: the host backends (Serial, OpenMP) share one set, CUDA (whose
// float functions run on the special-function unit) has its own, recorded on an H100 (sm_90, as
// the H200) from commit a1fd6d9 and found identical after the fast-math move of 3f26cd3. A
// deliberate change of the arithmetic updates them, and says so in the commit.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>
#include <string>

#include "portamc/fast_math.hpp"
#include "portamc/josephson/detail/elementary.hpp"
#include "portamc/josephson/detail/noise.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::josephson;
using Space = TestSpace;

constexpr int argument_count = 1 << 20;

KOKKOS_INLINE_FUNCTION std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

KOKKOS_INLINE_FUNCTION std::uint64_t bits_of(float x) {
  return bit_cast<std::uint32_t>(x);
}
KOKKOS_INLINE_FUNCTION std::uint64_t bits_of(double x) {
  return bit_cast<std::uint64_t>(x);
}

enum class Function {
  sincos_turn_float,
  sincos_turn_double,
  log_unit_float,
  log_unit_double,
  sin_phase_float,
  sin_phase_double,
  normals_float,
  normals_float_lean,
  normals_double
};

/// The sum over arguments i of mix(i, bits of the results): independent of the order of the
/// reduction, and any changed bit of any result changes it.
struct HashOfResults {
  Function function;
  KOKKOS_INLINE_FUNCTION void operator()(const int i, std::uint64_t& sum) const {
    const std::uint64_t r = mix(0x243F6A8885A308D3ull + static_cast<std::uint64_t>(i));
    const auto w0 = static_cast<std::uint32_t>(r), w1 = static_cast<std::uint32_t>(r >> 32);
    // u in (0, 1] as the noise forms it; x in [-64, 64) for the force's sin.
    const double u = (static_cast<double>(w0) + 1.0) * 2.3283064365386962890625e-10;
    const double x = (static_cast<double>(w0) * 2.3283064365386962890625e-10 - 0.5) * 128.0;
    std::uint64_t h = 0;
    switch (function) {
      case Function::sincos_turn_float: {
        float c, s;
        sincos_turn<float>(w0, c, s);
        h = bits_of(c) << 32 | bits_of(s);
        break;
      }
      case Function::sincos_turn_double: {
        double c, s;
        sincos_turn<double>(w0, c, s);
        h = bits_of(c) ^ mix(bits_of(s));
        break;
      }
      case Function::log_unit_float:
        h = bits_of(log_unit(static_cast<float>(u)));
        break;
      case Function::log_unit_double:
        h = bits_of(log_unit(u));
        break;
      case Function::sin_phase_float:
        h = bits_of(sin_phase(static_cast<float>(x)));
        break;
      case Function::sin_phase_double:
        h = bits_of(sin_phase(x));
        break;
      case Function::normals_float:
      case Function::normals_float_lean: {
        const portamc::rng::Block words{{w0, w1, w1 ^ 0x9E3779B9u, w0 + 0x7F4A7C15u}};
        const NormalBlock<float> n = function == Function::normals_float_lean
                                         ? normals_from_words<float, true>(words)
                                         : normals_from_words<float, false>(words);
        for (int j = 0; j < 4; ++j) h = mix(h ^ bits_of(n[j]));
        break;
      }
      case Function::normals_double: {
        const portamc::rng::Block words{{w0, w1, w1 ^ 0x9E3779B9u, w0 + 0x7F4A7C15u}};
        const NormalBlock<double> n = normals_from_words<double>(words);
        for (int j = 0; j < 4; ++j) h = mix(h ^ bits_of(n[j]));
        break;
      }
    }
    sum += mix(h ^ (static_cast<std::uint64_t>(i) << 40));
  }
};

std::uint64_t hash_of(Function function) {
  std::uint64_t sum = 0;
  Kokkos::parallel_reduce("pinned_bits", Kokkos::RangePolicy<Space>(Space(), 0, argument_count),
                          HashOfResults{function}, sum);
  return sum;
}

struct Pinned {
  Function function;
  const char* name;
  std::uint64_t host, cuda;
};

// 0 marks a value not yet recorded on that kind of backend: the test then prints the hash and
// fails, so that a new backend cannot pass unrecorded.
const Pinned pinned[] = {
    {Function::sincos_turn_float, "sincos_turn<float>", 0xaaec458e488f22ac, 0xf03a654d2f140afc},
    {Function::sincos_turn_double, "sincos_turn<double>", 0xab35b191529cba31, 0xce47d8ad2b6f4f58},
    {Function::log_unit_float, "log_unit<float>", 0x310fe9d67e1ec076, 0x5f47a34ab4091d00},
    {Function::log_unit_double, "log_unit<double>", 0x024265120617920c, 0x024265120617920c},
    {Function::sin_phase_float, "sin_phase<float>", 0xcd04f0f9ef765da7, 0x83678ef48ab908b7},
    {Function::sin_phase_double, "sin_phase<double>", 0x346dd90108106c42, 0x541c44a718fd8612},
    {Function::normals_float, "normals<float>", 0x623f688588bc75c1, 0x778c4227a7df4d8b},
    {Function::normals_float_lean, "normals<float, lean>", 0x623f688588bc75c1, 0x778c4227a7df4d8b},
    {Function::normals_double, "normals<double>", 0xa0422ba0544b2a54, 0xc5f00f11bbe1f1c6},
};

TEST(JosephsonPinnedBits, ElementaryFunctionsAndNormalsAreUnchanged) {
  const bool cuda = portamc::fastmath::hardware_approximations<Space>;
  for (const Pinned& p : pinned) {
    const std::uint64_t hash = hash_of(p.function);
    const std::uint64_t expected = cuda ? p.cuda : p.host;
    std::printf("%-22s 0x%016llx on %s\n", p.name, static_cast<unsigned long long>(hash),
                Space::name());
    EXPECT_EQ(hash, expected) << p.name << " on " << Space::name()
                              << (expected == 0 ? ": not recorded for this backend"
                                                : ": the bits changed");
  }
}

}  // namespace
