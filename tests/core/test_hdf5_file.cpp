// Tests for portamc::h5: round trips of every element type, strings, time series, provenance,
// the temporary-name/commit protocol and the error messages users will actually see.
#include "portamc/hdf5_file.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>
#include "../common/expect_error.hpp"
#include "../common/temp_dir.hpp"

#include <csignal>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace h5 = portamc::h5;

using portamc::testing::TempDir;

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

using portamc::testing::expect_error;

template <class T>
std::vector<T> sample_values(std::size_t n) {
  // Extremes first: they catch wrong widths and signedness, which ordinary values would not.
  std::vector<T> values = {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(), T(0),
                           T(1)};
  while (values.size() < n) values.push_back(static_cast<T>(values.size() * 3 % 101));
  values.resize(n);
  return values;
}

template <class T>
class Hdf5Dtype : public TempDir {};

using StoredTypes = ::testing::Types<double, float, std::int64_t, std::uint64_t, std::int32_t,
                                     std::uint32_t, std::int8_t, std::uint8_t>;
TYPED_TEST_SUITE(Hdf5Dtype, StoredTypes);

TYPED_TEST(Hdf5Dtype, RoundTrip1dAnd2dWithAttributes) {
  using T = TypeParam;
  const std::string path = this->file("dtype.h5");
  const std::vector<T> line = sample_values<T>(7);
  const std::vector<T> grid = sample_values<T>(12);  // 3 x 4
  {
    h5::OutputFile out(path);
    h5::Group data = out.root().group("data");
    data.write("line", line, "J", "a line of values");
    data.write_2d("grid", grid, 3, 4, "1/K", "a 3 x 4 grid");
    data.write("empty", std::vector<T>{}, "", "no elements");
    out.commit();
  }
  const h5::InputFile in(path);
  EXPECT_EQ(in.read<T>("/data/line"), line);
  EXPECT_EQ(in.read<T>("/data/grid"), grid);
  EXPECT_EQ(in.shape("/data/line"), (std::vector<std::size_t>{7}));
  EXPECT_EQ(in.shape("/data/grid"), (std::vector<std::size_t>{3, 4}));
  EXPECT_TRUE(in.read<T>("/data/empty").empty());
  EXPECT_EQ(in.shape("/data/empty"), (std::vector<std::size_t>{0}));
  EXPECT_EQ(in.attribute_string("/data/line", "units"), "J");
  EXPECT_EQ(in.attribute_string("/data/line", "description"), "a line of values");
  EXPECT_EQ(in.attribute_string("/data/grid", "units"), "1/K");
  EXPECT_EQ(in.attribute_string("/data/grid", "description"), "a 3 x 4 grid");
}

TEST_F(TempDir, ReadConvertsBetweenTypes) {
  const std::string path = file("convert.h5");
  {
    h5::OutputFile out(path);
    out.root().write("counts", std::vector<std::int32_t>{-3, 0, 7}, "", "counts");
    out.root().write("energies", std::vector<float>{0.5f, -1.25f}, "J", "energies");
    out.commit();
  }
  const h5::InputFile in(path);
  EXPECT_EQ(in.read<double>("/counts"), (std::vector<double>{-3.0, 0.0, 7.0}));
  EXPECT_EQ(in.read<std::int64_t>("/counts"), (std::vector<std::int64_t>{-3, 0, 7}));
  EXPECT_EQ(in.read<double>("/energies"), (std::vector<double>{0.5, -1.25}));
}

TEST_F(TempDir, ScalarsAndAttributes) {
  const std::string path = file("scalars.h5");
  {
    h5::OutputFile out(path);
    h5::Group root = out.root();
    root.write_scalar("beta", 0.4406867935, "1/J", "inverse temperature");
    root.write_scalar("sweeps", std::int64_t{1} << 40, "", "number of sweeps");
    root.write_scalar("seed", std::numeric_limits<std::uint64_t>::max(), "", "seed");
    root.write_scalar("spin", std::int8_t{-1}, "", "a spin");
    root.write_scalar("L", 16, "", "linear size (plain int)");
    h5::Group run = root.group("run/parameters");  // intermediate groups are created
    run.attribute("model", "ising");
    run.attribute("J", 1.5);
    run.attribute("L", std::int64_t{-64});
    run.attribute("N", 256);  // plain int goes through the integral overload
    run.attribute("J", 2.5);  // replaces, not duplicates
    run.attribute("model", "potts");
    EXPECT_EQ(run.path(), "/run/parameters");
    EXPECT_TRUE(root.has("run/parameters"));
    EXPECT_FALSE(root.has("run/missing"));
    EXPECT_EQ(root.group("run").path(), "/run");  // reopening an existing group works
    out.commit();
  }
  const h5::InputFile in(path);
  EXPECT_DOUBLE_EQ(in.read_scalar<double>("/beta"), 0.4406867935);
  EXPECT_EQ(in.read_scalar<std::int64_t>("/sweeps"), std::int64_t{1} << 40);
  EXPECT_EQ(in.read_scalar<std::uint64_t>("/seed"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(in.read_scalar<std::int8_t>("/spin"), -1);
  EXPECT_EQ(in.read_scalar<int>("/L"), 16);
  EXPECT_TRUE(in.shape("/beta").empty());
  EXPECT_EQ(in.attribute_string("/beta", "units"), "1/J");
  EXPECT_EQ(in.attribute_string("/run/parameters", "model"), "potts");
  EXPECT_DOUBLE_EQ(in.attribute_double("/run/parameters", "J"), 2.5);
  EXPECT_EQ(in.attribute_int("/run/parameters", "L"), -64);
  EXPECT_EQ(in.attribute_int("/run/parameters", "N"), 256);
  EXPECT_TRUE(in.has_attribute("/run/parameters", "J"));
  EXPECT_FALSE(in.has_attribute("/run/parameters", "K"));
  EXPECT_FALSE(in.has_attribute("/nowhere", "J"));
}

TEST_F(TempDir, Strings) {
  const std::string path = file("strings.h5");
  const std::string unicode = "Ising \xE2\x9C\x93 \xE2\x80\x94 \xC3\xBC\xC3\xAF";  // ✓ — üï
  const std::string multiline = "L: 16\nbeta: 0.44\n  nested: [1, 2]\n";
  {
    h5::OutputFile out(path);
    h5::Group root = out.root();
    root.write_string("unicode", unicode, "UTF-8 text");
    root.write_string("empty", "", "an empty string");
    root.write_string("input/yaml", multiline, "the input file, verbatim");
    out.commit();
  }
  const h5::InputFile in(path);
  EXPECT_EQ(in.read_string("/unicode"), unicode);
  EXPECT_EQ(in.read_string("/empty"), "");
  EXPECT_EQ(in.read_string("/input/yaml"), multiline);
  EXPECT_EQ(in.attribute_string("/input/yaml", "description"), "the input file, verbatim");
  expect_error<std::runtime_error>([&] { (void)in.read_string("/nope"); }, {"/nope", path});
}

TEST_F(TempDir, TimeSeriesAppendsAcrossChunks) {
  const std::string path = file("series.h5");
  std::vector<std::int64_t> steps;
  std::vector<double> values;
  {
    h5::OutputFile out(path);
    h5::TimeSeries energy =
        out.root().group("observables").time_series("energy", "J", "total energy", 4);
    EXPECT_EQ(energy.size(), 0u);
    EXPECT_EQ(energy.path(), "/observables/energy");

    energy.append(0, -1.0);  // one row
    steps.push_back(0);
    values.push_back(-1.0);
    std::vector<std::int64_t> many_steps;
    std::vector<double> many_values;
    for (int i = 1; i <= 10; ++i) {
      many_steps.push_back(10 * i);
      many_values.push_back(-1.0 - 0.125 * i);
    }
    energy.append(many_steps, many_values);  // many rows, crossing two chunk boundaries
    steps.insert(steps.end(), many_steps.begin(), many_steps.end());
    values.insert(values.end(), many_values.begin(), many_values.end());
    energy.append(110, -3.5);  // one more row, into the third chunk
    steps.push_back(110);
    values.push_back(-3.5);
    energy.append(std::vector<std::int64_t>{}, std::vector<double>{});  // no rows: no-op
    EXPECT_EQ(energy.size(), 12u);

    expect_error<std::invalid_argument>(
        [&] {
          energy.append({1, 2}, {1.0});
        },
        {"/observables/energy", "2 steps but 1 values"});
    expect_error<std::invalid_argument>([&] { out.root().time_series("bad", "", "", 0); },
                                        {"/bad", "chunk"});

    // Reopening continues after the existing rows.
    h5::TimeSeries again = out.root().time_series("observables/energy", "J", "total energy", 4);
    EXPECT_EQ(again.size(), 12u);
    again.append(120, -4.0);
    steps.push_back(120);
    values.push_back(-4.0);
    EXPECT_EQ(energy.size(), 13u);  // both views see the same rows
    out.commit();
  }
  const h5::InputFile in(path);
  EXPECT_EQ(in.read<std::int64_t>("/observables/energy/step"), steps);
  EXPECT_EQ(in.read<double>("/observables/energy/value"), values);
  EXPECT_EQ(in.shape("/observables/energy/value"), (std::vector<std::size_t>{13}));
  EXPECT_EQ(in.attribute_string("/observables/energy", "units"), "J");
  EXPECT_EQ(in.attribute_string("/observables/energy/value", "units"), "J");
  EXPECT_EQ(in.attribute_string("/observables/energy/value", "description"), "total energy");
  EXPECT_TRUE(in.has_attribute("/observables/energy/step", "description"));
}

TEST_F(TempDir, Provenance) {
  const std::string path = file("provenance.h5");
  h5::Provenance written;
  written.software = "portamc-ising";
  written.version = "0.1.0";
  written.git_hash = "23ddf99";
  written.kokkos_version = "4.2.0";
  written.backend = "Serial";
  written.device = "host CPU";
  written.host = h5::hostname();
  written.date = h5::now_iso8601();
  written.command_line = "portamc-ising input.yaml --out 'run 1.h5'";
  written.seed = 0xFEDCBA9876543210ull;
  {
    h5::OutputFile out(path);
    h5::write_provenance(out.root(), written);
    out.commit();
  }
  const h5::InputFile in(path);
  EXPECT_EQ(in.read_string("/provenance/software"), "portamc-ising");
  EXPECT_EQ(in.read_string("/provenance/git_hash"), "23ddf99");
  EXPECT_EQ(in.read_string("/provenance/command_line"), written.command_line);
  EXPECT_EQ(in.read_scalar<std::uint64_t>("/provenance/seed"), 0xFEDCBA9876543210ull);
  for (const char* field : {"software", "version", "git_hash", "kokkos_version", "backend",
                            "device", "host", "date", "command_line", "seed"}) {
    EXPECT_TRUE(in.has_attribute(std::string("/provenance/") + field, "description")) << field;
  }
  const h5::Provenance read = h5::read_provenance(in);
  EXPECT_EQ(read.software, written.software);
  EXPECT_EQ(read.version, written.version);
  EXPECT_EQ(read.git_hash, written.git_hash);
  EXPECT_EQ(read.kokkos_version, written.kokkos_version);
  EXPECT_EQ(read.backend, written.backend);
  EXPECT_EQ(read.device, written.device);
  EXPECT_EQ(read.host, written.host);
  EXPECT_EQ(read.date, written.date);
  EXPECT_EQ(read.command_line, written.command_line);
  EXPECT_EQ(read.seed, written.seed);
}

TEST(Hdf5Helpers, NowAndHostname) {
  const std::string now = h5::now_iso8601();
  ASSERT_EQ(now.size(), 20u) << now;  // YYYY-MM-DDThh:mm:ssZ
  EXPECT_EQ(now[4], '-');
  EXPECT_EQ(now[10], 'T');
  EXPECT_EQ(now[19], 'Z');
  EXPECT_FALSE(h5::hostname().empty());
}

TEST_F(TempDir, CommitRenamesTemporaryFile) {
  const std::string path = file("run.h5");
  h5::OutputFile out(path);
  EXPECT_EQ(out.path(), path);
  EXPECT_EQ(out.temp_path(), path + ".tmp-" + std::to_string(::getpid()));
  EXPECT_TRUE(fs::exists(out.temp_path()));
  EXPECT_FALSE(fs::exists(path));
  h5::Group root = out.root();
  root.write("x", std::vector<double>{1, 2, 3}, "m", "positions");
  EXPECT_FALSE(fs::exists(path));
  out.commit();
  EXPECT_TRUE(out.committed());
  EXPECT_FALSE(fs::exists(out.temp_path()));
  EXPECT_TRUE(fs::exists(path));
  EXPECT_EQ(h5::InputFile(path).read<double>("/x"), (std::vector<double>{1, 2, 3}));

  // Views outlive the file but refuse to write into it; so does a second commit.
  expect_error<std::runtime_error>([&] { root.write("y", std::vector<double>{1}, "", ""); },
                                   {path, "committed"});
  expect_error<std::runtime_error>([&] { out.commit(); }, {path, "already committed"});
  expect_error<std::runtime_error>([&] { out.root(); }, {path, "already committed"});
}

TEST_F(TempDir, CommitReplacesOlderFile) {
  const std::string path = file("checkpoint.h5");
  for (int generation = 1; generation <= 2; ++generation) {
    h5::OutputFile out(path);
    out.root().write_scalar("generation", generation, "", "checkpoint generation");
    out.commit();
  }
  EXPECT_EQ(h5::InputFile(path).read_scalar<int>("/generation"), 2);
}

TEST_F(TempDir, UncommittedWriterLeavesNothing) {
  const std::string path = file("aborted.h5");
  std::string temp;
  {
    h5::OutputFile out(path);
    temp = out.temp_path();
    h5::Group root = out.root();
    root.write("x", std::vector<double>{1, 2, 3}, "m", "positions");
    h5::TimeSeries series = root.time_series("e", "J", "energy", 2);
    series.append(1, 2.0);
    EXPECT_TRUE(fs::exists(temp));
    // 'root' and 'series' are still alive when the file is abandoned.
  }
  EXPECT_FALSE(fs::exists(temp));
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(fs::is_empty(dir_));
}

TEST_F(TempDir, ExceptionDoesNotClobberPreviousFile) {
  const std::string path = file("result.h5");
  {
    std::ofstream previous(path);
    previous << "results of an earlier, finished run";
  }
  try {
    h5::OutputFile out(path);
    out.root().write("x", std::vector<double>{1}, "", "");
    throw std::runtime_error("simulation failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(slurp(path), "results of an earlier, finished run");
  EXPECT_FALSE(fs::exists(path + ".tmp-" + std::to_string(::getpid())));
}

// A write that fails (here a file-size limit: EFBIG, as a full disk gives ENOSPC) must neither
// crash HDF5 nor touch the earlier file, and must leave no temporary file.
TEST_F(TempDir, FailedWriteKeepsTheEarlierFileAndLeavesNoTemporary) {
  const std::string path = file("result.h5");
  std::ofstream(path) << "results of an earlier, finished run";
  rlimit previous{};
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &previous), 0);
  void (*previous_handler)(int) = std::signal(SIGXFSZ, SIG_IGN);
  rlimit small = previous;
  small.rlim_cur = 64 * 1024;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
  std::string message;
  try {
    h5::OutputFile out(path);
    out.root().write("x", std::vector<double>(1 << 16, 1.0), "", "more than the limit");
    out.commit();
  } catch (const std::runtime_error& e) {
    message = e.what();
  }
  ::setrlimit(RLIMIT_FSIZE, &previous);
  std::signal(SIGXFSZ, previous_handler);
  EXPECT_NE(message.find("File too large"), std::string::npos) << message;
  EXPECT_NE(message.find("is unchanged"), std::string::npos) << message;
  EXPECT_EQ(slurp(path), "results of an earlier, finished run");
  EXPECT_FALSE(fs::exists(path + ".tmp-" + std::to_string(::getpid())));
  // The library is still usable: the next file is written normally.
  h5::OutputFile again(file("next.h5"));
  again.root().write_scalar("x", 1, "", "");
  again.commit();
  EXPECT_EQ(h5::InputFile(file("next.h5")).read_scalar<int>("/x"), 1);
}

TEST_F(TempDir, MoveTransfersOwnership) {
  const std::string first = file("first.h5");
  const std::string second = file("second.h5");
  h5::OutputFile a(first);
  a.root().write_scalar("id", 1, "", "");
  h5::OutputFile b(std::move(a));
  b.commit();
  EXPECT_TRUE(fs::exists(first));

  h5::OutputFile c(second);
  const std::string second_temp = c.temp_path();
  h5::OutputFile d(file("third.h5"));
  c = std::move(d);  // abandons 'second' uncommitted
  EXPECT_FALSE(fs::exists(second_temp));
  EXPECT_FALSE(fs::exists(second));
  c.commit();
  EXPECT_TRUE(fs::exists(file("third.h5")));
}

TEST_F(TempDir, WriteMisuseIsReported) {
  const std::string path = file("misuse.h5");
  h5::OutputFile out(path);
  h5::Group root = out.root();
  root.write("x", std::vector<double>{1}, "", "");
  expect_error<std::runtime_error>([&] { root.write("x", std::vector<double>{2}, "", ""); },
                                   {"/x", path, "exists"});
  expect_error<std::invalid_argument>(
      [&] {
        root.write_2d("g", std::vector<int>{1, 2, 3}, 2, 2, "", "");
      },
      {"/g", "(2, 2)"});
  expect_error<std::invalid_argument>(
      [&] {
        root.write_2d("huge", std::vector<int>{1}, std::size_t{1} << 63, std::size_t{2}, "", "");
      },
      {"/huge"});
  expect_error<std::runtime_error>([&] { root.group("x"); }, {"/x", path});
}

TEST_F(TempDir, CheckWritableMissingDirectory) {
  const std::string path = file("no/such/dir/out.h5");
  expect_error<std::runtime_error>([&] { h5::check_writable(path); },
                                   {"cannot write output file '" + path + "'", "does not exist"});
  expect_error<std::runtime_error>([&] { h5::OutputFile out(path); },
                                   {"cannot write output file '" + path + "'"});
  EXPECT_NO_THROW(h5::check_writable(file("fine.h5")));
  EXPECT_TRUE(fs::is_empty(dir_));  // the probe file is cleaned up
}

TEST_F(TempDir, CheckWritableTargetIsDirectory) {
  fs::create_directory(dir_ / "out.h5");
  expect_error<std::runtime_error>([&] { h5::check_writable(file("out.h5")); },
                                   {file("out.h5"), "directory"});
}

TEST_F(TempDir, CheckWritableReadOnlyDirectory) {
  if (::geteuid() == 0) GTEST_SKIP() << "root can write into read-only directories";
  const fs::path locked = dir_ / "locked";
  fs::create_directory(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  const std::string path = (locked / "out.h5").string();
  expect_error<std::runtime_error>([&] { h5::check_writable(path); },
                                   {"cannot write output file '" + path + "'", "ermission"});
  expect_error<std::runtime_error>([&] { h5::OutputFile out(path); },
                                   {"cannot write output file '" + path + "'"});
  fs::permissions(locked, fs::perms::owner_all);
}

TEST_F(TempDir, InputFileErrorsNameTheObject) {
  const std::string missing = file("missing.h5");
  expect_error<std::runtime_error>([&] { h5::InputFile in(missing); },
                                   {"cannot open HDF5 file '" + missing + "'", "no such file"});
  const std::string text = file("not_hdf5.h5");
  std::ofstream(text) << "plain text";
  expect_error<std::runtime_error>([&] { h5::InputFile in(text); },
                                   {"cannot open HDF5 file '" + text + "'"});

  const std::string path = file("input.h5");
  {
    h5::OutputFile out(path);
    h5::Group muca = out.root().group("muca/weights");
    muca.write("log_weight", std::vector<double>{0.0, 1.0}, "", "log weights");
    muca.write_2d("matrix", std::vector<double>{1, 2, 3, 4}, 2, 2, "", "");
    out.commit();
  }
  const h5::InputFile in(path);
  EXPECT_TRUE(in.exists("/"));
  EXPECT_TRUE(in.exists("/muca"));
  EXPECT_TRUE(in.exists("/muca/weights/log_weight"));
  EXPECT_FALSE(in.exists("/muca/weights/missing"));
  EXPECT_FALSE(in.exists("/no/such/path"));
  EXPECT_FALSE(in.exists("/muca/weights/log_weight/below_a_dataset"));

  expect_error<std::runtime_error>([&] { (void)in.read<double>("/muca/weights/histogram"); },
                                   {"/muca/weights/histogram", path});
  expect_error<std::runtime_error>([&] { (void)in.read<double>("/no/such/group/data"); },
                                   {"/no/such/group/data", path});
  expect_error<std::runtime_error>([&] { (void)in.read_scalar<double>("/missing"); },
                                   {"/missing", path});
  expect_error<std::runtime_error>([&] { (void)in.shape("/missing"); }, {"/missing", path});
  expect_error<std::runtime_error>([&] { (void)in.read<double>("/muca"); }, {"/muca", path});
  expect_error<std::runtime_error>([&] { (void)in.read_scalar<double>("/muca/weights/matrix"); },
                                   {"/muca/weights/matrix", "scalar"});
  expect_error<std::runtime_error>(
      [&] { (void)in.attribute_string("/muca/weights/log_weight", "nope"); },
      {"/muca/weights/log_weight", "nope", path});
  expect_error<std::runtime_error>([&] { (void)in.attribute_double("/gone", "units"); },
                                   {"/gone", path});
  expect_error<std::runtime_error>([&] { (void)in.read_string("/muca/weights/log_weight"); },
                                   {"/muca/weights/log_weight", "string"});
}

}  // namespace
