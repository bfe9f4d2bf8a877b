#include "portamc/su2/config_file.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <type_traits>

#include "portamc/version.hpp"

namespace portamc::su2 {
namespace {

constexpr const char* kFileKind = "su2-gauge-configuration";
constexpr std::int64_t kFormatVersion = 1;
constexpr const char* kGroup = "/su2_configuration";
constexpr const char* kChecksumAlgorithm =
    "FNV-1a 64-bit over the stored values in canonical order, each as its IEEE-754 "
    "little-endian bytes";

constexpr std::uint64_t kFnvOffset = 14695981039346656037ULL;
constexpr std::uint64_t kFnvPrime = 1099511628211ULL;

// Feeds the 'bytes' low-order bytes of 'bits' to the hash, least significant first: the value's
// little-endian representation whatever the host's byte order.
inline std::uint64_t fnv1a(std::uint64_t hash, std::uint64_t bits, int bytes) {
  for (int i = 0; i < bytes; ++i) {
    hash ^= (bits >> (8 * i)) & 0xffU;
    hash *= kFnvPrime;
  }
  return hash;
}

// Float and double both hash their IEEE-754 bits, sizeof(T) bytes each.
template <class T>
std::uint64_t checksum_of(const std::vector<T>& values) {
  using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
  std::uint64_t hash = kFnvOffset;
  for (T v : values) {
    Bits bits;
    std::memcpy(&bits, &v, sizeof bits);
    hash = fnv1a(hash, bits, static_cast<int>(sizeof bits));
  }
  return hash;
}

std::vector<float> narrow(const std::vector<double>& values) {
  std::vector<float> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = static_cast<float>(values[i]);
  return out;
}

std::string extents_text(const std::vector<std::int64_t>& extents) {
  std::string text;
  for (std::size_t i = 0; i < extents.size(); ++i) {
    text += (i == 0 ? "" : "x") + std::to_string(extents[i]);
  }
  return text.empty() ? std::string("(none)") : text;
}

std::string hex(std::uint64_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

[[noreturn]] void fail(const std::string& path, const std::string& problem) {
  throw std::invalid_argument("SU(2) gauge configuration '" + path + "': " + problem);
}

StoragePrecision parse_precision(const std::string& path, const std::string& text) {
  if (text == "float") return StoragePrecision::kFloat;
  if (text == "double") return StoragePrecision::kDouble;
  fail(path, "unknown storage precision '" + text + "' (expected \"float\" or \"double\")");
}

h5::Provenance minimal_provenance(std::uint64_t seed) {
  h5::Provenance p;
  p.software = "portamc";
  p.version = version_string;
  p.git_hash = git_hash;
  p.host = h5::hostname();
  p.date = h5::now_iso8601();
  p.seed = seed;
  return p;
}

GaugeConfigMetadata read_metadata(const h5::InputFile& file) {
  const std::string& path = file.path();
  if (!file.has_attribute("/", "portamc_file") ||
      file.attribute_string("/", "portamc_file") != kFileKind) {
    fail(path, std::string("not a portamc SU(2) gauge configuration (the root attribute "
                           "'portamc_file' is not \"") +
                   kFileKind + "\")");
  }
  const std::int64_t version =
      file.has_attribute("/", "format_version") ? file.attribute_int("/", "format_version") : -1;
  if (version != kFormatVersion) {
    fail(path, "format version " + std::to_string(version) +
                   " is not supported (this build reads " + std::to_string(kFormatVersion) + ")");
  }
  const std::string group = kGroup;
  GaugeConfigMetadata m;
  m.extents = file.read<std::int64_t>(group + "/extents");
  m.precision = parse_precision(path, file.attribute_string(group, "precision"));
  m.beta = file.read_scalar<double>(group + "/beta");
  m.sweep = file.read_scalar<std::uint64_t>(group + "/sweep");
  m.seed = file.read_scalar<std::uint64_t>(group + "/seed");
  try {
    canonical_link_values(m.extents);
  } catch (const std::invalid_argument& error) {
    fail(path, std::string("stored extents are invalid: ") + error.what());
  }
  return m;
}

}  // namespace

std::size_t canonical_link_values(const std::vector<std::int64_t>& extents) {
  if (extents.size() < 2 || extents.size() > 4) {
    throw std::invalid_argument("SU(2) lattice needs 2, 3 or 4 extents, got " +
                                std::to_string(extents.size()));
  }
  const std::size_t d = extents.size();
  std::size_t count = d * 4;
  for (std::int64_t n : extents) {
    if (n < 1) {
      throw std::invalid_argument("SU(2) lattice extents must be positive, got " +
                                  extents_text(extents));
    }
    if (static_cast<std::uint64_t>(n) > std::numeric_limits<std::size_t>::max() / count) {
      throw std::invalid_argument("SU(2) lattice " + extents_text(extents) +
                                  " has too many links to address");
    }
    count *= static_cast<std::size_t>(n);
  }
  return count;
}

std::uint64_t gauge_config_checksum(const std::vector<double>& links, StoragePrecision precision) {
  return precision == StoragePrecision::kFloat ? checksum_of(narrow(links)) : checksum_of(links);
}

void write_gauge_config(const std::string& path, const GaugeConfigMetadata& metadata,
                        const std::vector<double>& links, const h5::Provenance* provenance) {
  std::size_t expected = 0;
  try {
    expected = canonical_link_values(metadata.extents);
  } catch (const std::invalid_argument& error) {
    fail(path, std::string("cannot write: ") + error.what());
  }
  if (links.size() != expected) {
    fail(path, "cannot write: " + std::to_string(links.size()) + " link values for a " +
                   extents_text(metadata.extents) +
                   " lattice, expected volume*D*4 = " + std::to_string(expected));
  }
  if (!std::isfinite(metadata.beta)) fail(path, "cannot write: beta is not finite");
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (!std::isfinite(links[i])) {
      fail(path, "cannot write: link value " + std::to_string(i) + " (site " +
                     std::to_string(i / (4 * metadata.extents.size())) + ") is not finite");
    }
  }

  h5::OutputFile file(path);
  auto root = file.root();
  root.attribute("portamc_file", kFileKind);
  root.attribute("format_version", kFormatVersion);
  h5::write_provenance(root,
                       provenance != nullptr ? *provenance : minimal_provenance(metadata.seed));

  auto g = root.group("su2_configuration");
  g.attribute("precision", to_string(metadata.precision));
  g.attribute("checksum_algorithm", kChecksumAlgorithm);
  g.write("extents", metadata.extents, "lattice units",
          "lattice extents N0..N(D-1); N0 runs fastest in 'links'");
  const std::size_t rows = expected / 4;
  const std::string description =
      "links U = a0 + i a.sigma as rows (site*D + mu) of (a0, a1, a2, a3); site = x0 + N0*(x1 + "
      "N1*(x2 + N2*x3))";
  std::uint64_t checksum = 0;
  if (metadata.precision == StoragePrecision::kFloat) {
    const std::vector<float> stored = narrow(links);
    checksum = checksum_of(stored);
    g.write_2d("links", stored, rows, 4, "", description);
  } else {
    checksum = checksum_of(links);
    g.write_2d("links", links, rows, 4, "", description);
  }
  g.write_scalar("beta", metadata.beta, "", "coupling beta = 4/g^2 of the Wilson action");
  g.write_scalar("sweep", metadata.sweep, "sweeps", "sweeps done when the configuration was taken");
  g.write_scalar("seed", metadata.seed, "", "random seed of the run");
  g.write_scalar("checksum", checksum, "", kChecksumAlgorithm);
  file.commit();
}

GaugeConfigMetadata read_gauge_config_metadata(const std::string& path) {
  return read_metadata(h5::InputFile(path));
}

GaugeConfig read_gauge_config(const std::string& path, const GaugeConfigExpectation& expected) {
  const h5::InputFile file(path);
  GaugeConfig config;
  config.metadata = read_metadata(file);
  const GaugeConfigMetadata& m = config.metadata;
  if (m.extents != expected.extents) {
    fail(path, "holds a " + extents_text(m.extents) + " lattice, but " +
                   extents_text(expected.extents) + " is expected");
  }
  if (m.precision != expected.precision && !expected.allow_precision_conversion) {
    fail(path, std::string("stores links in ") + to_string(m.precision) + " precision, but " +
                   to_string(expected.precision) + " is requested (conversion not allowed)");
  }
  const std::size_t values = canonical_link_values(m.extents);
  const std::string links_path = std::string(kGroup) + "/links";
  const std::vector<std::size_t> shape = file.shape(links_path);
  if (shape != std::vector<std::size_t>{values / 4, 4}) {
    fail(path, "dataset " + links_path + " does not have the shape (" + std::to_string(values / 4) +
                   ", 4) of a " + extents_text(m.extents) + " lattice");
  }
  // The checksum is taken over the values exactly as stored, before any widening.
  std::uint64_t computed = 0;
  if (m.precision == StoragePrecision::kFloat) {
    const std::vector<float> stored = file.read<float>(links_path);
    computed = checksum_of(stored);
    config.links.assign(stored.begin(), stored.end());
  } else {
    config.links = file.read<double>(links_path);
    computed = checksum_of(config.links);
  }
  config.checksum = file.read_scalar<std::uint64_t>(std::string(kGroup) + "/checksum");
  if (computed != config.checksum) {
    fail(path, "checksum mismatch: the file records " + hex(config.checksum) +
                   " but its links hash to " + hex(computed) + "; the data are corrupt");
  }
  return config;
}

}  // namespace portamc::su2
