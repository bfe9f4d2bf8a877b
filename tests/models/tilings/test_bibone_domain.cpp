// Bibone regions (shapes, masks, their errors), matching validation, and tileability by
// Edmonds' blossom algorithm: checked against exhaustive enumeration on small regions and run
// on regions of thousands of sites.
#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/tilings/bibone/bibone_domain.hpp"
#include "portamc/tilings/bibone/bibone_enumeration.hpp"
#include "portamc/tilings/bibone/bibone_tileability.hpp"

namespace {

using namespace portamc::tilings;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(BiboneDomain, ShapesHaveTheirSiteCounts) {
  EXPECT_EQ(BiboneDomain::parallelogram(5, 3).site_count(), 15);
  EXPECT_EQ(BiboneDomain::triangle(4).site_count(), 10);
  // Regular hexagon with n sites per side: 3n(n-1) + 1 sites.
  EXPECT_EQ(BiboneDomain::hexagon(3, 3, 3).site_count(), 19);
  EXPECT_EQ(BiboneDomain::hexagon(2, 2, 1).to_mask(), "##\n##\n");
  EXPECT_EQ(BiboneDomain::hexagon(2, 2, 2).to_mask(), "##.\n###\n.##\n");
}

TEST(BiboneDomain, MaskRoundTrips) {
  const std::string mask = "#..\n.##\n.##\r\n";
  const BiboneDomain d = BiboneDomain::from_mask(mask);
  EXPECT_EQ(d.width(), 3);
  EXPECT_EQ(d.height(), 3);
  EXPECT_TRUE(d.contains(0, 2));
  EXPECT_FALSE(d.contains(0, 0));
  EXPECT_EQ(d.to_mask(), "#..\n.##\n.##\n");
}

TEST(BiboneDomain, MalformedMasksNameTheProblem) {
  EXPECT_NE(error_of([] { BiboneDomain::from_mask("##\n#x\n"); }).find("line 2, column 2"),
            std::string::npos);
  EXPECT_NE(error_of([] { BiboneDomain::from_mask("##\n#\n"); }).find("line 2 has 1"),
            std::string::npos);
  EXPECT_NE(error_of([] { BiboneDomain::from_mask(""); }).find("empty"), std::string::npos);
  EXPECT_NE(error_of([] { BiboneDomain::from_mask("..\n..\n"); }).find("empty"), std::string::npos);
  // (0, 0) and (2, 0) are not neighbours.
  EXPECT_NE(error_of([] { BiboneDomain::from_mask("#.#\n"); }).find("not connected: site (2, 0)"),
            std::string::npos);
  EXPECT_NE(
      error_of([] { BiboneDomain::from_mask("###\n#.#\n###\n"); }).find("hole at site (1, 1)"),
      std::string::npos);
}

TEST(BiboneDomain, ValidationNamesTheSite) {
  const BiboneDomain d = BiboneDomain::parallelogram(2, 2);
  // Rows of horizontal dimers: (0,y) -> 0, (1,y) -> 3.
  const BiboneMatching good({0, 3, 0, 3});
  EXPECT_NO_THROW(validate_matching(d, good));
  EXPECT_NE(error_of([&] {
              validate_matching(d, BiboneMatching({0, 3, 6, 6}));
            }).find("site (0, 1) is unmatched"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              validate_matching(d, BiboneMatching({0, 3, 0, 4}));
            }).find("site (0, 1) points to (1, 1), which does not point back"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              validate_matching(d, BiboneMatching({3, 3, 0, 3}));
            }).find("site (0, 0) is matched in direction 3 to a site outside"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              validate_matching(d, BiboneMatching({0, 3, 0}));
            }).find("3 bytes"),
            std::string::npos);
  const BiboneDomain corner = BiboneDomain::from_mask(".#\n##\n");
  EXPECT_NE(error_of([&] {
              validate_matching(corner, BiboneMatching({0, 3, 1, 6}));
            }).find("site (0, 1) is outside the region"),
            std::string::npos);
}

TEST(BiboneTileability, UntileableRegionsSayWhy) {
  const BiboneTileability odd = bibone_tileability(BiboneDomain::hexagon(3, 3, 3));
  EXPECT_FALSE(odd.tileable);
  EXPECT_NE(odd.reason.find("19 sites, an odd number"), std::string::npos);
  // A centre with three leaves that only touch the centre.
  const BiboneDomain star = BiboneDomain::from_mask("#..\n.##\n.#.\n");
  const BiboneTileability t = bibone_tileability(star);
  EXPECT_FALSE(t.tileable);
  EXPECT_NE(t.reason.find("no augmenting path from site (2, 1)"), std::string::npos) << t.reason;
  EXPECT_EQ(count_bibone_matchings(star), 0u);
  EXPECT_NE(error_of([&] { bibone_initial_matching(star); }).find("not tileable"),
            std::string::npos);
}

// Every simply connected region grown from the masks of a 4 x 4 box by one rule: the blossom
// answer agrees with enumeration, and its matching is valid.
TEST(BiboneTileability, AgreesWithEnumerationOnAllSmallMasks) {
  int checked = 0, tileable = 0;
  for (unsigned bits = 1; bits < (1u << 16); bits += 7) {
    std::vector<unsigned char> in(16);
    for (int s = 0; s < 16; ++s) in[s] = (bits >> s) & 1u;
    BiboneDomain d;
    try {
      d = BiboneDomain(4, 4, in);
    } catch (const std::invalid_argument&) {
      continue;  // disconnected or with a hole
    }
    const BiboneTileability t = bibone_tileability(d);
    const bool enumerated = count_bibone_matchings(d) > 0;
    ASSERT_EQ(t.tileable, enumerated) << d.to_mask() << t.reason;
    if (t.tileable) {
      ASSERT_NO_THROW(validate_matching(d, t.matching)) << d.to_mask();
      ++tileable;
    }
    ++checked;
  }
  EXPECT_GT(checked, 1000);
  EXPECT_GT(tileable, 300);
}

TEST(BiboneTileability, LargeRegionsAreQuick) {
  const auto start = std::chrono::steady_clock::now();
  for (const BiboneDomain& d : {BiboneDomain::triangle(80), BiboneDomain::hexagon(40, 41, 30),
                                BiboneDomain::parallelogram(101, 60)}) {
    const BiboneTileability t = bibone_tileability(d);
    ASSERT_TRUE(t.tileable) << t.reason;
    EXPECT_NO_THROW(validate_matching(d, t.matching));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
}

TEST(BiboneEnumeration, SmallCounts) {
  EXPECT_EQ(count_bibone_matchings(BiboneDomain::parallelogram(2, 2)), 2u);
  // The side-3 triangle: each corner takes one of its two edge midpoints, all the same way round.
  EXPECT_EQ(count_bibone_matchings(BiboneDomain::triangle(3)), 2u);
  const auto all = enumerate_bibone_matchings(BiboneDomain::parallelogram(3, 4));
  EXPECT_EQ(all.size(), count_bibone_matchings(BiboneDomain::parallelogram(3, 4)));
  for (const auto& m : all) validate_matching(BiboneDomain::parallelogram(3, 4), m);
  EXPECT_THROW(enumerate_bibone_matchings(BiboneDomain::parallelogram(4, 4), 3), std::length_error);
}

}  // namespace
