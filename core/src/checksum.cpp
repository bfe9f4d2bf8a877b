#include "portamc/checksum.hpp"

#include <algorithm>
#include <cstring>

namespace portamc {
namespace {

constexpr std::uint64_t kMultiplier = 0x9E3779B97F4A7C15ULL;  // odd: multiplying is a bijection

// Assembled byte by byte, so the word is the same on every host; compilers turn this into one
// load on little-endian machines.
std::uint64_t load_little_endian(const unsigned char* p) {
  std::uint64_t w = 0;
  for (int i = 7; i >= 0; --i) w = (w << 8) | p[i];
  return w;
}

bool host_is_little_endian() {
  const std::uint32_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

// MurmurHash3's 64-bit finaliser: spreads every bit of the state over the whole checksum.
std::uint64_t finalise(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDULL;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ULL;
  h ^= h >> 33;
  return h;
}

}  // namespace

void Checksum::mix(std::uint64_t word) {
  state_ = (state_ ^ word) * kMultiplier;
  state_ ^= state_ >> 32;
}

Checksum& Checksum::bytes(const void* data, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
  length_ += size;
  if (pending_size_ > 0) {  // complete the word an earlier call began
    const std::size_t take = std::min(size, sizeof pending_ - pending_size_);
    std::memcpy(pending_ + pending_size_, p, take);
    pending_size_ += take;
    p += take;
    size -= take;
    if (pending_size_ < sizeof pending_) return *this;
    mix(load_little_endian(pending_));
    pending_size_ = 0;
  }
  for (; size >= 8; p += 8, size -= 8) mix(load_little_endian(p));
  std::memcpy(pending_, p, size);
  pending_size_ = size;
  return *this;
}

Checksum& Checksum::numbers(const void* data, std::size_t count, std::size_t size) {
  if (host_is_little_endian()) return bytes(data, count * size);
  // A big-endian host reverses each number, so the checksum does not depend on the host.
  const auto* p = static_cast<const unsigned char*>(data);
  unsigned char reversed[8];
  for (std::size_t i = 0; i < count; ++i, p += size) {
    for (std::size_t b = 0; b < size; ++b) reversed[b] = p[size - 1 - b];
    bytes(reversed, size);
  }
  return *this;
}

Checksum& Checksum::text(const std::string& s) {
  value(static_cast<std::uint64_t>(s.size()));
  return bytes(s.data(), s.size());
}

std::uint64_t Checksum::digest() const {
  Checksum last = *this;
  if (last.pending_size_ > 0) {
    std::memset(last.pending_ + last.pending_size_, 0, 8 - last.pending_size_);
    last.mix(load_little_endian(last.pending_));
  }
  // The byte count tells "ab" from "ab\0", which the zero padding alone would not.
  return finalise(last.state_ ^ last.length_);
}

std::string checksum_text(std::uint64_t checksum) {
  static const char digits[] = "0123456789abcdef";
  std::string text(16, '0');
  for (int i = 15; i >= 0; --i, checksum >>= 4)
    text[static_cast<std::size_t>(i)] = digits[checksum & 15];
  return text;
}

}  // namespace portamc
