#pragma once
// SU(2) gauge configurations in HDF5, independent of backend and of the device memory layout.
//
// The model copies its links to a canonical host array and back; this file only stores and checks
// that array. Canonical layout: links[((site * D) + mu) * 4 + a], with site the lexicographic
// index of x = (x0, x1, ...) with x0 fastest (site = x0 + N0*(x1 + N1*(x2 + ...))), mu = 0..D-1
// the link direction and a = 0..3 the quaternion components U = a0 + i a.sigma. So
// links.size() = volume * D * 4.
//
// File layout (for docs/output.md):
//   /                 attributes portamc_file = "su2-gauge-configuration", format_version = 1
//   /provenance       who wrote it (h5::write_provenance)
//   /su2_configuration
//       extents       int64 [D], N0 first
//       links         float or double [volume * D, 4], the canonical array in stored precision
//       beta, sweep, seed, checksum   scalar datasets (double, uint64, uint64, uint64)
//       attributes precision ("float" | "double"), checksum_algorithm
// The checksum is 64-bit FNV-1a over the bytes of the stored values in canonical order, each
// value as its IEEE-754 little-endian representation (4 bytes for float, 8 for double),
// independent of the host's byte order; tools can recompute it from the 'links' dataset alone.
//
// Written through h5::OutputFile: to a temporary name, renamed only when complete.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "portamc/hdf5_file.hpp"

namespace portamc::su2 {

enum class StoragePrecision { kFloat, kDouble };

// "float" or "double".
const char* to_string(StoragePrecision precision);

struct GaugeConfigMetadata {
  std::vector<std::int64_t> extents;  // D = 2, 3 or 4 entries, N0 (fastest) first
  StoragePrecision precision = StoragePrecision::kDouble;  // what the file stores
  double beta = 0.0;
  std::uint64_t sweep = 0;  // sweeps done when the configuration was taken
  std::uint64_t seed = 0;   // RNG seed of the run
};

struct GaugeConfig {
  GaugeConfigMetadata metadata;
  std::vector<double> links;  // canonical layout; float files come back widened exactly
  std::uint64_t checksum = 0;
};

// Number of doubles in the canonical array: volume * D * 4. Throws std::invalid_argument unless
// there are 2..4 extents, all positive, and the count fits in memory addressing.
std::size_t canonical_link_values(const std::vector<std::int64_t>& extents);

// FNV-1a (64 bit) over the values as stored: each rounded to float first when precision is
// kFloat. This is what write_gauge_config stores and read_gauge_config verifies.
std::uint64_t gauge_config_checksum(const std::vector<double>& links, StoragePrecision precision);

// Writes 'path' (temporary name, then rename). With provenance == nullptr a minimal /provenance
// is written (software, version, git hash, host, date, seed); apps pass their own. Throws
// std::invalid_argument for bad metadata (extents, non-finite beta), a links array whose size is
// not volume*D*4, or a non-finite link value; std::runtime_error for I/O failures.
void write_gauge_config(const std::string& path, const GaugeConfigMetadata& metadata,
                        const std::vector<double>& links,
                        const h5::Provenance* provenance = nullptr);

// Reads the metadata only (e.g. to compare extents before allocating a lattice). Throws
// std::runtime_error if the file cannot be opened and std::invalid_argument if it is not a
// portamc SU(2) configuration of a known format version.
GaugeConfigMetadata read_gauge_config_metadata(const std::string& path);

// What the reader insists on. 'extents' must equal the file's. If 'precision' differs from the
// stored one the load fails unless allow_precision_conversion is set; then the stored values are
// returned as they are (widened to double), and a float run rounds them, a double run gets
// float-accurate links and should reunitarise them.
struct GaugeConfigExpectation {
  std::vector<std::int64_t> extents;
  StoragePrecision precision = StoragePrecision::kDouble;
  bool allow_precision_conversion = false;
};

// Loads and verifies: file readable (std::runtime_error otherwise), a portamc SU(2) configuration,
// extents and precision as expected, dataset shapes consistent, checksum equal to the stored one.
// Every other failure is std::invalid_argument with a message naming the file and the problem.
GaugeConfig read_gauge_config(const std::string& path, const GaugeConfigExpectation& expected);

}  // namespace portamc::su2
