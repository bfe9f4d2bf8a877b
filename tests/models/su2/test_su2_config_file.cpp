// Tests of SU(2) gauge-configuration files: exact round trips in double, float rounding, every
// refusal (extents, precision, checksum after corrupting the file with raw HDF5, missing file, not
// a configuration) and the checksum against values computed independently (Python struct + FNV-1a).
#include "portamc/backends.hpp"
#include "portamc/su2/config_file.hpp"
#include "portamc/su2/gauge_field.hpp"
#include "portamc/su2/updater.hpp"

#include <gtest/gtest.h>

#include <hdf5.h>
#include <unistd.h>
#include "../../common/expect_error.hpp"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace su2 = portamc::su2;
using su2::StoragePrecision;

class Su2ConfigFile : public ::testing::Test {
 protected:
  void SetUp() override {
    static std::atomic<int> counter{0};
    dir_ = fs::temp_directory_path() / ("portamc_su2_config_test_" + std::to_string(::getpid()) +
                                        "_" + std::to_string(counter++));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

// Random unit quaternions in the canonical layout (the file does not care, but it is what a
// hot start looks like).
std::vector<double> random_links(const std::vector<std::int64_t>& extents, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::normal_distribution<double> gauss;
  std::vector<double> links(su2::canonical_link_values(extents));
  for (std::size_t i = 0; i < links.size(); i += 4) {
    double norm = 0.0;
    for (int a = 0; a < 4; ++a) {
      links[i + a] = gauss(engine);
      norm += links[i + a] * links[i + a];
    }
    for (int a = 0; a < 4; ++a) links[i + a] /= std::sqrt(norm);
  }
  return links;
}

su2::GaugeConfigMetadata metadata(std::vector<std::int64_t> extents, StoragePrecision precision) {
  su2::GaugeConfigMetadata m;
  m.extents = std::move(extents);
  m.precision = precision;
  m.beta = 2.3;
  m.sweep = 1234;
  m.seed = 0xfedcba9876543210ULL;  // above INT64_MAX: must survive as uint64
  return m;
}

using portamc::testing::expect_error;

// Overwrites one element of /su2_configuration/links in place, as bit rot or a bad copy would.
void corrupt_link_value(const std::string& path, std::size_t row, std::size_t column,
                        double value) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  const hid_t dataset = H5Dopen2(file, "/su2_configuration/links", H5P_DEFAULT);
  ASSERT_GE(dataset, 0);
  const hid_t file_space = H5Dget_space(dataset);
  const hsize_t start[2] = {row, column};
  const hsize_t count[2] = {1, 1};
  ASSERT_GE(H5Sselect_hyperslab(file_space, H5S_SELECT_SET, start, nullptr, count, nullptr), 0);
  const hsize_t one = 1;
  const hid_t memory_space = H5Screate_simple(1, &one, nullptr);
  EXPECT_GE(H5Dwrite(dataset, H5T_NATIVE_DOUBLE, memory_space, file_space, H5P_DEFAULT, &value), 0);
  H5Sclose(memory_space);
  H5Sclose(file_space);
  H5Dclose(dataset);
  H5Fclose(file);
}

// Size in bytes of one element of /su2_configuration/links as stored in the file.
std::size_t stored_element_size(const std::string& path) {
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  const hid_t dataset = H5Dopen2(file, "/su2_configuration/links", H5P_DEFAULT);
  const hid_t type = H5Dget_type(dataset);
  const std::size_t size = H5Tget_size(type);
  H5Tclose(type);
  H5Dclose(dataset);
  H5Fclose(file);
  return size;
}

TEST_F(Su2ConfigFile, DoubleRoundTripIsExact) {
  const auto m = metadata({4, 4, 4, 6}, StoragePrecision::kDouble);
  const auto links = random_links(m.extents, 1);
  const std::string path = file("config.h5");
  su2::write_gauge_config(path, m, links);
  // Only the final file: the temporary one was renamed.
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 1);

  const auto config = su2::read_gauge_config(path, {m.extents, StoragePrecision::kDouble});
  EXPECT_EQ(config.links, links);  // bit for bit
  EXPECT_EQ(config.metadata.extents, m.extents);
  EXPECT_EQ(config.metadata.precision, StoragePrecision::kDouble);
  EXPECT_EQ(config.metadata.beta, m.beta);
  EXPECT_EQ(config.metadata.sweep, m.sweep);
  EXPECT_EQ(config.metadata.seed, m.seed);
  EXPECT_EQ(config.checksum, su2::gauge_config_checksum(links, StoragePrecision::kDouble));

  const portamc::h5::InputFile raw(path);
  const auto provenance = portamc::h5::read_provenance(raw);
  EXPECT_EQ(provenance.software, "portamc");
  EXPECT_EQ(provenance.seed, m.seed);
  EXPECT_EQ(raw.shape("/su2_configuration/links"), (std::vector<std::size_t>{384 * 4, 4}));

  const auto header = su2::read_gauge_config_metadata(path);
  EXPECT_EQ(header.extents, m.extents);
  EXPECT_EQ(header.sweep, m.sweep);
}

TEST_F(Su2ConfigFile, FloatRoundTripIsExactToFloatRounding) {
  const auto m = metadata({6, 4, 4, 4}, StoragePrecision::kFloat);
  const auto links = random_links(m.extents, 2);
  const std::string path = file("config-float.h5");
  su2::write_gauge_config(path, m, links);
  const auto config = su2::read_gauge_config(path, {m.extents, StoragePrecision::kFloat});
  ASSERT_EQ(config.links.size(), links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    EXPECT_EQ(config.links[i], static_cast<double>(static_cast<float>(links[i]))) << i;
    EXPECT_LE(std::abs(config.links[i] - links[i]), std::ldexp(std::abs(links[i]), -24)) << i;
  }
  EXPECT_EQ(config.metadata.precision, StoragePrecision::kFloat);
  // The data really are stored as 4-byte floats, not as doubles labelled "float".
  EXPECT_EQ(stored_element_size(path), 4u);
  su2::write_gauge_config(file("config-double.h5"), metadata(m.extents, StoragePrecision::kDouble),
                          links);
  EXPECT_EQ(stored_element_size(file("config-double.h5")), 8u);
}

TEST_F(Su2ConfigFile, TwoAndThreeDimensionalLattices) {
  for (const std::vector<std::int64_t>& extents :
       {std::vector<std::int64_t>{8, 6}, std::vector<std::int64_t>{4, 6, 2}}) {
    const auto m = metadata(extents, StoragePrecision::kDouble);
    const auto links = random_links(extents, 3);
    const std::string path = file("config-" + std::to_string(extents.size()) + "d.h5");
    su2::write_gauge_config(path, m, links);
    EXPECT_EQ(su2::read_gauge_config(path, {extents, StoragePrecision::kDouble}).links, links);
  }
}

TEST_F(Su2ConfigFile, WrongExtentsAreRefused) {
  const auto m = metadata({4, 4, 4, 6}, StoragePrecision::kDouble);
  const std::string path = file("config.h5");
  su2::write_gauge_config(path, m, random_links(m.extents, 4));
  expect_error<std::invalid_argument>(
      [&] {
        su2::read_gauge_config(path, {{4, 4, 4, 8}, StoragePrecision::kDouble});
      },
      {path, "4x4x4x6", "4x4x4x8"});
  expect_error<std::invalid_argument>(
      [&] {
        su2::read_gauge_config(path, {{4, 4, 6}, StoragePrecision::kDouble});
      },
      {path, "4x4x6"});
}

TEST_F(Su2ConfigFile, WrongPrecisionIsRefusedUnlessConversionIsAllowed) {
  const auto m = metadata({4, 4, 4, 4}, StoragePrecision::kFloat);
  const auto links = random_links(m.extents, 5);
  const std::string path = file("config.h5");
  su2::write_gauge_config(path, m, links);
  expect_error<std::invalid_argument>(
      [&] {
        su2::read_gauge_config(path, {m.extents, StoragePrecision::kDouble});
      },
      {path, "float", "double", "conversion"});
  const auto converted = su2::read_gauge_config(path, {m.extents, StoragePrecision::kDouble, true});
  EXPECT_EQ(converted.metadata.precision, StoragePrecision::kFloat);  // says what it was
  for (std::size_t i = 0; i < links.size(); ++i) {
    EXPECT_EQ(converted.links[i], static_cast<double>(static_cast<float>(links[i])));
  }
}

TEST_F(Su2ConfigFile, CorruptedDataFailTheChecksum) {
  for (StoragePrecision precision : {StoragePrecision::kDouble, StoragePrecision::kFloat}) {
    const auto m = metadata({4, 4, 4, 4}, precision);
    const auto links = random_links(m.extents, 6);
    const std::string path = file(std::string("config-") + su2::to_string(precision) + ".h5");
    su2::write_gauge_config(path, m, links);
    // A change in the last bits of one component, far below anything a plaquette would notice.
    const std::size_t row = 517, column = 2;
    const double original = links[row * 4 + column];
    corrupt_link_value(path, row, column, original * (1.0 + 1e-6));
    expect_error<std::invalid_argument>(
        [&] {
          su2::read_gauge_config(path, {m.extents, precision});
        },
        {path, "checksum mismatch", "corrupt"});
    // Putting the stored value back makes the file valid again: the check is on content only.
    corrupt_link_value(path, row, column,
                       precision == StoragePrecision::kFloat
                           ? static_cast<double>(static_cast<float>(original))
                           : original);
    EXPECT_NO_THROW(su2::read_gauge_config(path, {m.extents, precision}));
  }
}

TEST_F(Su2ConfigFile, MissingFileAndForeignFileAreRefused) {
  const std::string missing = file("no-such-config.h5");
  expect_error<std::runtime_error>(
      [&] {
        su2::read_gauge_config(missing, {{4, 4, 4, 4}, StoragePrecision::kDouble});
      },
      {missing, "no such file"});

  const std::string foreign = file("other.h5");
  {
    portamc::h5::OutputFile out(foreign);
    out.root().write("links", std::vector<double>{1, 0, 0, 0}, "", "not a configuration");
    out.commit();
  }
  expect_error<std::invalid_argument>(
      [&] {
        su2::read_gauge_config(foreign, {{1, 1}, StoragePrecision::kDouble});
      },
      {foreign, "not a portamc SU(2) gauge configuration"});
}

TEST_F(Su2ConfigFile, BadWritesAreRefusedAndLeaveNoFile) {
  const std::string path = file("config.h5");
  auto m = metadata({4, 4, 4, 4}, StoragePrecision::kDouble);
  auto links = random_links(m.extents, 7);
  links.pop_back();
  expect_error<std::invalid_argument>([&] { su2::write_gauge_config(path, m, links); },
                                      {path, "4x4x4x4", "4095"});
  links.push_back(std::numeric_limits<double>::quiet_NaN());
  expect_error<std::invalid_argument>([&] { su2::write_gauge_config(path, m, links); },
                                      {"not finite"});
  m.extents = {4, 4, 4, 4, 4};
  expect_error<std::invalid_argument>([&] { su2::write_gauge_config(path, m, links); },
                                      {"2, 3 or 4 extents"});
  m.extents = {4, 0, 4, 4};
  expect_error<std::invalid_argument>([&] { su2::write_gauge_config(path, m, links); },
                                      {"positive"});
  EXPECT_FALSE(fs::exists(path));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 0);
}

// A configuration written from a field on one backend loads on the other: the default
// execution space (CUDA on a GPU build) and the host space (OpenMP or Serial) exchange
// thermalised fields through files, both ways, bit for bit, with the same plaquette.
// (On a Serial-only build both spaces are Serial and the test checks the file path alone.)
template <class Real, class From, class To>
void check_cross_backend_round_trip(const From& from, const To& to, const std::string& path) {
  const std::vector<int> extents = {4, 6, 4, 8};
  const std::vector<std::int64_t> extents64(extents.begin(), extents.end());
  constexpr StoragePrecision precision =
      std::is_same_v<Real, float> ? StoragePrecision::kFloat : StoragePrecision::kDouble;
  su2::GaugeField<From, Real> source(from, extents);
  source.hot_start(7);
  su2::UpdateParameters params;
  params.beta = 2.3;
  params.seed = 11;
  params.overrelaxation_sweeps = 1;
  su2::Updater<From, Real> updater(from, params);
  for (int i = 0; i < 5; ++i) updater.update(source);
  const std::vector<double> written = source.to_canonical();
  su2::write_gauge_config(path, metadata(extents64, precision), written);

  const auto config = su2::read_gauge_config(path, {extents64, precision});
  su2::GaugeField<To, Real> target(to, extents);
  target.from_canonical(config.links);
  EXPECT_EQ(target.to_canonical(), written);
  EXPECT_NEAR(target.plaquette().total, source.plaquette().total, 1e-12);
  EXPECT_NE(source.plaquette().total, 1.0);  // really thermalised, not the cold start
}

// Every ordered pair of the build's backends, a backend with itself included.
TEST_F(Su2ConfigFile, ConfigurationWrittenOnOneBackendLoadsOnEveryBackend) {
  portamc::for_each_space([&](auto from) {
    portamc::for_each_space([&](auto to) {
      const std::string pair =
          portamc::backend_name<decltype(from)>() + "_to_" + portamc::backend_name<decltype(to)>();
      SCOPED_TRACE(pair);
      check_cross_backend_round_trip<double>(from, to, file(pair + "_double.h5"));
      check_cross_backend_round_trip<float>(from, to, file(pair + "_float.h5"));
    });
  });
}

TEST(Su2ConfigChecksum, MatchesIndependentFnv1a) {
  // FNV-1a 64 of the little-endian bytes, computed with Python's struct module.
  const std::vector<double> values = {1.0, -0.5, 0.25, 0.1};
  EXPECT_EQ(su2::gauge_config_checksum(values, StoragePrecision::kDouble), 0x5c2f3fa558a7e2b5ULL);
  EXPECT_EQ(su2::gauge_config_checksum(values, StoragePrecision::kFloat), 0x8afd79855d840b7dULL);
  EXPECT_EQ(su2::gauge_config_checksum({}, StoragePrecision::kDouble), 0xcbf29ce484222325ULL);
}

}  // namespace
