// portamc::Checksum: the content checksum checkpoints are sealed with. Stored values must stay
// comparable, so the algorithm is pinned; a change of one word must always show.
#include "portamc/checksum.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using portamc::Checksum;

std::uint64_t of_bytes(const std::string& s) {
  return Checksum().bytes(s.data(), s.size()).digest();
}

TEST(Checksum, IsPinned) {
  // The values of portamc checksum 1 (checked against an independent implementation of the
  // algorithm in checksum.hpp); checkpoints in the field carry them.
  EXPECT_EQ(portamc::checksum_text(Checksum().digest()), "bd0ed0d08a42a70c");
  EXPECT_EQ(portamc::checksum_text(of_bytes("portamc")), "a491c4b14572e005");
}

TEST(Checksum, DoesNotDependOnHowTheBytesArrive) {
  const std::string text = "a checkpoint holds spins, links, counters and series";
  for (std::size_t cut = 0; cut <= text.size(); ++cut) {
    Checksum pieces;
    pieces.bytes(text.data(), cut).bytes(text.data() + cut, text.size() - cut);
    EXPECT_EQ(pieces.digest(), of_bytes(text)) << cut;
  }
  Checksum single;
  for (char c : text) single.bytes(&c, 1);
  EXPECT_EQ(single.digest(), of_bytes(text));
}

TEST(Checksum, EveryFlippedBitChangesIt) {
  std::string bytes(40, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 37 + 11);
  const std::uint64_t intact = of_bytes(bytes);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::string damaged = bytes;
      damaged[i] = static_cast<char>(damaged[i] ^ (1 << bit));
      EXPECT_NE(of_bytes(damaged), intact) << "byte " << i << " bit " << bit;
    }
}

TEST(Checksum, LengthAndBoundariesCount) {
  EXPECT_NE(of_bytes("ab"), of_bytes(std::string("ab\0", 3)));
  EXPECT_NE(of_bytes(""), of_bytes(std::string(1, '\0')));
  // values() and text() put the length first: where one vector ends matters.
  const std::vector<std::uint32_t> a{1, 2}, b{3}, c{1}, d{2, 3};
  EXPECT_NE(Checksum().values(a).values(b).digest(), Checksum().values(c).values(d).digest());
  EXPECT_NE(Checksum().text("ab").text("c").digest(), Checksum().text("a").text("bc").digest());
}

TEST(Checksum, NumbersGoInAsLittleEndianBytes) {
  const unsigned char le[] = {0x01, 0x02, 0x03, 0x04};
  EXPECT_EQ(Checksum().value(std::uint32_t{0x04030201}).digest(),
            Checksum().bytes(le, sizeof le).digest());
  // The width is part of the value: 1 as int32 and as int64 are different contents.
  EXPECT_NE(Checksum().value(std::int32_t{1}).digest(), Checksum().value(std::int64_t{1}).digest());
  const std::vector<double> x{0.5, -2.0};
  Checksum one_by_one;
  one_by_one.value(std::uint64_t{2}).value(0.5).value(-2.0);
  EXPECT_EQ(Checksum().values(x).digest(), one_by_one.digest());
}

TEST(Checksum, TextIsSixteenHexDigits) {
  EXPECT_EQ(portamc::checksum_text(0), "0000000000000000");
  EXPECT_EQ(portamc::checksum_text(0x0123456789abcdefULL), "0123456789abcdef");
  EXPECT_EQ(portamc::checksum_text(~std::uint64_t{0}), "ffffffffffffffff");
}

}  // namespace
