#pragma once
// Division of 32-bit unsigned integers by a divisor fixed at run time, without a divide
// instruction. GPUs have none for integers: nvcc expands n / d into ~20 instructions,
// which made index arithmetic a large part of the SU(2) update kernels (4 divisions and
// 4 remainders per link to turn a thread index into coordinates).
//
// Method (Lemire, Kaser, Kurz, "Faster remainder by direct computation", 2019): with
// c = ceil(2^64 / d), floor(n / d) = floor(c n / 2^64) exactly for every n, d < 2^32.
// The 96-bit product is formed from two 32x32 -> 64-bit products.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <stdexcept>

namespace portamc {

class FastDivisor {
 public:
  FastDivisor() = default;
  explicit FastDivisor(std::uint32_t d) : divisor_(d) {
    if (d == 0) throw std::invalid_argument("FastDivisor: division by zero");
    // d = 1 would need c = 2^64; it is handled by quotient()'s select instead.
    multiplier_ = d == 1 ? 0 : ~std::uint64_t{0} / d + 1;
  }

  KOKKOS_INLINE_FUNCTION std::uint32_t divisor() const { return divisor_; }

  KOKKOS_INLINE_FUNCTION std::uint32_t quotient(std::uint32_t n) const {
    // Both products are 32 x 32 -> 64 bits: one wide multiply each (see wide_product).
    const std::uint64_t low = wide_product(static_cast<std::uint32_t>(multiplier_), n);
    const std::uint64_t high =
        wide_product(static_cast<std::uint32_t>(multiplier_ >> 32), n) + (low >> 32);
    return divisor_ == 1 ? n : static_cast<std::uint32_t>(high >> 32);
  }

  /// quotient and remainder of n / d
  KOKKOS_INLINE_FUNCTION std::uint32_t divide(std::uint32_t n, std::uint32_t& remainder) const {
    const std::uint32_t q = quotient(n);
    remainder = n - q * divisor_;
    return q;
  }

 private:
  /// a * b as 64 bits. On CUDA devices written as PTX mul.wide.u32: from C++ (masked or
  /// cast operands alike) nvcc emits 64 x 64-bit multiplies, several instructions each, and
  /// the update kernels that split thread indices into coordinates are bound by issue.
  KOKKOS_INLINE_FUNCTION static std::uint64_t wide_product(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
    std::uint64_t product;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(product) : "r"(a), "r"(b));
    return product;
#else
    return static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b);
#endif
  }

  std::uint64_t multiplier_ = 0;
  std::uint32_t divisor_ = 1;
};

}  // namespace portamc
