// The SU(2) gauge field: starts, canonical conversion and device layout, reunitarisation,
// and the plaquette / Polyakov loop measurements on configurations with known values.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "portamc/su2/gauge_field.hpp"
#include "su2_test_support.hpp"
#include "test_space.hpp"

namespace {

using namespace portamc::su2;
using su2_test::rounding;

constexpr double pi = 3.141592653589793;

const std::vector<std::vector<int>> lattices = {{6, 4}, {4, 2, 6}, {4, 4, 2, 6}};

template <class Real>
class GaugeFieldTest : public ::testing::Test {};
TYPED_TEST_SUITE(GaugeFieldTest, su2_test::Precisions);

TYPED_TEST(GaugeFieldTest, ColdStartHasUnitPlaquetteAndPolyakovLoop) {
  for (const auto& extents : lattices) {
    GaugeField<TestSpace, TypeParam> field(TestSpace(), extents);
    const auto p = field.plaquette();
    EXPECT_EQ(p.total, 1.0);
    EXPECT_EQ(p.temporal, 1.0);
    if (extents.size() > 2) {
      EXPECT_EQ(p.spatial, 1.0);
    } else {
      EXPECT_TRUE(std::isnan(p.spatial)) << "2D has no spatial plaquettes";
    }
    EXPECT_EQ(field.polyakov_loop(), 1.0);
    EXPECT_EQ(field.action(2.3), 0.0);
    EXPECT_EQ(field.max_unitarity_violation(), 0.0);
  }
}

TEST(GaugeField, RejectsBadExtents) {
  using Field = GaugeField<TestSpace, double>;
  const std::vector<std::vector<int>> bad = {{4, 3},  {5, 4, 4}, {4, 4, 4, 7},    {0, 4},
                                             {4, -2}, {4},       {2, 2, 2, 2, 2}, {}};
  for (const auto& extents : bad) {
    EXPECT_THROW(Field field(TestSpace(), extents), std::invalid_argument);
  }
  try {
    Field field(TestSpace(), {4, 4, 3, 4});
    FAIL() << "odd extent accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("direction 2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("even"), std::string::npos) << e.what();
  }
}

TYPED_TEST(GaugeFieldTest, CanonicalRoundTripIsExact) {
  for (const auto& extents : lattices) {
    GaugeField<TestSpace, TypeParam> field(TestSpace(), extents);
    field.hot_start(17);
    const std::vector<double> once = field.to_canonical();
    GaugeField<TestSpace, TypeParam> copy(TestSpace(), extents);
    copy.from_canonical(once);
    EXPECT_EQ(copy.to_canonical(), once);

    // Arbitrary numbers, not links: nothing is normalised on the way.
    std::vector<double> values(once.size());
    for (std::size_t i = 0; i < values.size(); ++i)
      values[i] = static_cast<TypeParam>(0.001 * static_cast<double>(i) - 3.0);
    copy.from_canonical(values);
    EXPECT_EQ(copy.to_canonical(), values);
  }
}

TEST(GaugeField, FloatHotStartIsTheRoundedDoubleOne) {
  GaugeField<TestSpace, double> d(TestSpace(), {4, 4, 4, 4});
  GaugeField<TestSpace, float> f(TestSpace(), {4, 4, 4, 4});
  d.hot_start(5);
  f.hot_start(5);
  const auto cd = d.to_canonical(), cf = f.to_canonical();
  ASSERT_EQ(cd.size(), cf.size());
  for (std::size_t i = 0; i < cd.size(); ++i)
    ASSERT_EQ(cf[i], static_cast<double>(static_cast<float>(cd[i]))) << i;
}

// Link (site, mu), component c lives at links(k, (2 mu + parity) V/2 + site/2).v[j] with
// 16-byte chunks: c = 4 k + j in float (one chunk), c = 2 k + j in double (two chunks).
template <class Real>
void check_device_layout() {
  const std::vector<int> extents = {4, 2, 6};
  GaugeField<TestSpace, Real> field(TestSpace(), extents);
  const Geometry& g = field.geometry();
  std::vector<double> values(static_cast<std::size_t>(g.link_count()) * 4);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i);
  field.from_canonical(values);
  auto host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), field.links());
  constexpr int per_chunk = 16 / sizeof(Real);
  ASSERT_EQ(sizeof(host(0, 0)), 16u);
  ASSERT_EQ(host.extent(0), static_cast<std::size_t>(4 / per_chunk));
  ASSERT_EQ(static_cast<std::int64_t>(host.extent(1)), g.link_count());
  for (int x2 = 0; x2 < 6; ++x2)
    for (int x1 = 0; x1 < 2; ++x1)
      for (int x0 = 0; x0 < 4; ++x0) {
        const std::int64_t site = x0 + 4 * (x1 + 2 * x2);
        const int parity = (x0 + x1 + x2) & 1;
        for (int mu = 0; mu < 3; ++mu) {
          const std::int64_t slot = (2 * mu + parity) * (g.volume() / 2) + site / 2;
          for (int c = 0; c < 4; ++c)
            ASSERT_EQ(host(c / per_chunk, slot).v[c % per_chunk],
                      static_cast<Real>((site * 3 + mu) * 4 + c));
        }
      }
}

TEST(GaugeField, DeviceLayoutIsDirectionParityHalfSiteInChunks) {
  check_device_layout<float>();
  check_device_layout<double>();
}

TEST(GaugeField, RejectsCanonicalArrayOfWrongSize) {
  GaugeField<TestSpace, double> field(TestSpace(), {4, 4});
  EXPECT_THROW(field.from_canonical(std::vector<double>(4 * 4 * 2 * 4 - 1)), std::invalid_argument);
}

TYPED_TEST(GaugeFieldTest, HotStartIsHaarRandomAndReproducible) {
  GaugeField<TestSpace, TypeParam> field(TestSpace(), {8, 8, 8, 8});
  field.hot_start(99);
  const auto c = field.to_canonical();
  EXPECT_LT(field.max_unitarity_violation(), su2_test::unitarity_tolerance<TypeParam>());
  // Haar measure: every component has mean 0 and variance 1/4, and <a0^4> = 1/8.
  const double n = static_cast<double>(c.size() / 4);
  for (int comp = 0; comp < 4; ++comp) {
    double m1 = 0, m2 = 0;
    for (std::size_t i = comp; i < c.size(); i += 4) m1 += c[i], m2 += c[i] * c[i];
    m1 /= n, m2 /= n;
    EXPECT_NEAR(m1, 0.0, 5 * std::sqrt(0.25 / n)) << "component " << comp;
    EXPECT_NEAR(m2, 0.25, 5 * std::sqrt((0.125 - 0.0625) / n)) << "component " << comp;
  }
  GaugeField<TestSpace, TypeParam> again(TestSpace(), {8, 8, 8, 8});
  again.hot_start(99);
  EXPECT_EQ(again.to_canonical(), c);
  again.hot_start(100);
  EXPECT_NE(again.to_canonical(), c);
}

TYPED_TEST(GaugeFieldTest, ReunitariseProjectsOntoSU2) {
  GaugeField<TestSpace, TypeParam> field(TestSpace(), {4, 4, 4});
  field.hot_start(8);
  const auto unit = field.to_canonical();
  auto scaled = unit;
  for (std::size_t i = 0; i < scaled.size(); ++i) scaled[i] *= 1.0 + 0.5 * ((i / 4) % 3);
  field.from_canonical(scaled);
  EXPECT_GT(field.max_unitarity_violation(), 1.0);
  field.reunitarise();
  EXPECT_LT(field.max_unitarity_violation(), su2_test::unitarity_tolerance<TypeParam>());
  EXPECT_LT(su2_test::max_abs_difference(field.to_canonical(), unit), 4 * rounding<TypeParam>());
}

// Abelian configurations (all links exp(i angle sigma_3)) with known plaquettes:
// U_0(x) = exp(i theta x_1 sigma_3), theta = 2 pi / N_1, makes the plaquettes of plane (0, 1)
// exp(-i theta sigma_3), periodic wrap included; U_{D-1}(x) = exp(i phi x_0 sigma_3),
// phi = 2 pi / N_0, makes those of plane (0, D-1) exp(i phi sigma_3) and the Polyakov loop
// P(x) = exp(i N_{D-1} phi x_0 sigma_3). Other links are 1.
template <class Real>
void check_known_configuration(const std::vector<int>& extents) {
  const int d = static_cast<int>(extents.size());
  GaugeField<TestSpace, Real> field(TestSpace(), extents);
  const Geometry& g = field.geometry();
  const double theta = 2 * pi / extents[1];
  const double phi = 2 * pi / extents[0];
  std::vector<double> c(static_cast<std::size_t>(g.link_count()) * 4, 0.0);
  for (std::int64_t site = 0; site < g.volume(); ++site) {
    const auto x = g.coords(site);
    for (int mu = 0; mu < d; ++mu) {
      double* q = &c[static_cast<std::size_t>(g.global_link(site, mu)) * 4];
      q[0] = 1;
      if (mu == 0) q[0] = std::cos(theta * x[1]), q[3] = std::sin(theta * x[1]);
      if (mu == d - 1) q[0] = std::cos(phi * x[0]), q[3] = std::sin(phi * x[0]);
    }
  }
  field.from_canonical(c);
  const auto p = field.plaquette();
  const double tol = 4 * rounding<Real>();
  if (d == 2) {
    // plane (0, 1) is the only plane, and temporal; it carries both phases
    EXPECT_NEAR(p.temporal, std::cos(phi - theta), tol);
    EXPECT_NEAR(p.total, p.temporal, tol);
  } else {
    // spatial planes (0,1), (0,2), (1,2) ...: only (0,1) differs from 1
    const double spatial_planes = (d - 1) * (d - 2) / 2.0;
    EXPECT_NEAR(p.spatial, (std::cos(theta) + spatial_planes - 1) / spatial_planes, tol);
    // temporal planes (0, D-1), (1, D-1) ...: only (0, D-1) differs from 1
    EXPECT_NEAR(p.temporal, (std::cos(phi) + d - 2) / (d - 1), tol);
  }
  const auto loops = field.polyakov_loops();
  ASSERT_EQ(static_cast<std::int64_t>(loops.size()), g.spatial_volume());
  double mean = 0;
  for (std::int64_t xs = 0; xs < g.spatial_volume(); ++xs) {
    const double expected = std::cos(extents[d - 1] * phi * (xs % extents[0]));
    EXPECT_NEAR(loops[xs], expected, tol) << "spatial site " << xs;
    mean += expected;
  }
  EXPECT_NEAR(field.polyakov_loop(), mean / g.spatial_volume(), tol);
}

TYPED_TEST(GaugeFieldTest, MeasuresKnownConfigurations) {
  check_known_configuration<TypeParam>({6, 4});
  check_known_configuration<TypeParam>({6, 4, 4});
  check_known_configuration<TypeParam>({6, 4, 2, 4});
}

}  // namespace
