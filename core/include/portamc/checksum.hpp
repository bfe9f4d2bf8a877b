#pragma once
// A 64-bit content checksum, so that a file can tell whether it still holds what was written:
// checkpoints store the checksum of their contents, and a reader that recomputes it from what
// it read refuses a file whose bits changed (h5::verify_checkpoint, checkpoint_file.hpp).
//
// It detects accidental damage (flipped bits, scribbled or lost bytes), not a forgery: anyone
// can store a matching checksum. Readers therefore also check that the values make sense.
//
// The algorithm is fixed, since stored values must stay comparable across versions and hosts
// (portamc checksum 1): the input is a byte string, consumed as little-endian 64-bit words w,
//   h <- (h ^ w) * 0x9E3779B97F4A7C15,  h <- h ^ (h >> 32),
// from h = 0x6A09E667F3BCC908; a last partial word is padded with zero bytes, then the byte
// count is xored in and h passes through the MurmurHash3 finaliser. Each step is a bijection of
// h, so a change confined to one 8-byte word always changes the checksum; any other change
// goes unnoticed with probability about 2^-64. One multiply per 8 bytes: gigabytes per second,
// so even a GPU-sized checkpoint is hashed in a second.
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace portamc {

class Checksum {
 public:
  /// Appends raw bytes, in the given order.
  Checksum& bytes(const void* data, std::size_t size);

  /// Appends a number as its sizeof(T) little-endian bytes (the same checksum on every host).
  template <class T>
  Checksum& value(T v) {
    static_assert(kHashable<T>, "Checksum hashes integers and IEEE floats (convert bool first)");
    return numbers(&v, 1, sizeof(T));
  }

  /// Appends the element count, then the elements as by value(): the count keeps the end of
  /// one vector and the start of the next apart.
  template <class T>
  Checksum& values(const std::vector<T>& v) {
    static_assert(kHashable<T>, "Checksum hashes integers and IEEE floats (convert bool first)");
    value(static_cast<std::uint64_t>(v.size()));
    return numbers(v.data(), v.size(), sizeof(T));
  }

  /// Appends the length, then the characters.
  Checksum& text(const std::string& s);

  /// The checksum of everything appended so far (appending may continue).
  std::uint64_t digest() const;

 private:
  template <class T>
  static constexpr bool kHashable =
      (std::is_integral_v<T> && !std::is_same_v<T, bool>) || std::is_floating_point_v<T>;

  // `count` numbers of `size` bytes each, in host byte order, appended little-endian.
  Checksum& numbers(const void* data, std::size_t count, std::size_t size);
  void mix(std::uint64_t word);

  std::uint64_t state_ = 0x6A09E667F3BCC908ULL;
  std::uint64_t length_ = 0;
  unsigned char pending_[8] = {};
  std::size_t pending_size_ = 0;
};

/// A checksum as files store it: 16 lower-case hexadecimal digits.
std::string checksum_text(std::uint64_t checksum);

}  // namespace portamc
