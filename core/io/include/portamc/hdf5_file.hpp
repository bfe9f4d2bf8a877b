#pragma once
// Self-describing HDF5 output, checkpoints and their reader.
//
// One file per run. A writer builds the file in memory (HDF5's core driver: the host holds the
// whole file until commit) and commit() writes it to '<path>.tmp-<pid>' and renames that to
// '<path>', so a run that dies, throws or meets a full disk never leaves a file that looks
// finished, and never damages an earlier one. Every dataset carries
// 'units' and 'description' string attributes so the file can be understood without the code.
//
// This header deliberately does not include <hdf5.h>: consumers of portamc::core should not need
// HDF5's include path (Debian, Spack and module systems all put it somewhere different). HDF5
// object ids (hid_t, a 64-bit integer since HDF5 1.10) are carried as std::int64_t here, and the
// templates below only map the element type to a tag; all HDF5 calls live in hdf5_file.cpp.
//
// Every HDF5 failure is reported as std::runtime_error naming the file and the object path.
// Misuse that does not involve HDF5 (mismatched sizes, zero chunk) is std::invalid_argument.
// Not thread-safe: the serial HDF5 library is not either.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace portamc::h5 {

namespace detail {

// Owns one reference to an HDF5 object id. Copies share the object (HDF5 reference count), so
// Group views can be passed by value; closing happens when the last reference goes away. An id
// already invalidated because its file was closed is tolerated, not double-closed.
class Handle {
 public:
  Handle() = default;
  explicit Handle(std::int64_t id) noexcept : id_(id) {}
  Handle(const Handle& other);
  Handle& operator=(const Handle& other);
  Handle(Handle&& other) noexcept : id_(other.id_) { other.id_ = -1; }
  Handle& operator=(Handle&& other) noexcept;
  ~Handle() { reset(); }

  std::int64_t get() const noexcept { return id_; }
  bool empty() const noexcept { return id_ < 0; }
  void reset() noexcept;
  /// Forgets the id without closing it: for ids that a close call already consumed, even a
  /// failed one (closing a file a second time after a failed H5Fclose crashes HDF5).
  void release() noexcept { id_ = -1; }

 private:
  std::int64_t id_ = -1;
};

// Element types that can be stored. Chosen by size and signedness rather than by exact type so
// that e.g. long and long long (both 64-bit on LP64) or std::size_t all work.
enum class DType { kF32, kF64, kI8, kU8, kI16, kU16, kI32, kU32, kI64, kU64 };

template <class T>
inline constexpr bool kIsStorable = (std::is_floating_point_v<T> &&
                                     std::numeric_limits<T>::is_iec559 &&
                                     (sizeof(T) == 4 || sizeof(T) == 8)) ||
                                    (std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                                     (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                                      sizeof(T) == 8));

template <class T>
constexpr DType dtype_of() {
  static_assert(kIsStorable<T>,
                "portamc::h5 stores float, double and 8/16/32/64-bit integers (not bool)");
  if constexpr (std::is_floating_point_v<T>) {
    return sizeof(T) == 4 ? DType::kF32 : DType::kF64;
  } else if constexpr (std::is_signed_v<T>) {
    return sizeof(T) == 1   ? DType::kI8
           : sizeof(T) == 2 ? DType::kI16
           : sizeof(T) == 4 ? DType::kI32
                            : DType::kI64;
  } else {
    return sizeof(T) == 1   ? DType::kU8
           : sizeof(T) == 2 ? DType::kU16
           : sizeof(T) == 4 ? DType::kU32
                            : DType::kU64;
  }
}

}  // namespace detail

class Group;

// A growable series of (step, value) rows: a group holding two 1-D chunked, extendible datasets
// 'step' (int64) and 'value' (double). Rows go to disk on every append, so nothing is lost if the
// caller forgets to flush; the row count is read back from the file, so copies stay consistent.
class TimeSeries {
 public:
  void append(std::int64_t step, double value);
  void append(const std::vector<std::int64_t>& steps, const std::vector<double>& values);
  std::size_t size() const;
  const std::string& path() const { return path_; }

 private:
  friend class Group;
  TimeSeries(detail::Handle step, detail::Handle value, std::string file, std::string path);
  void append_rows(const std::int64_t* steps, const double* values, std::size_t n);

  detail::Handle step_;
  detail::Handle value_;
  std::string file_;  // for error messages
  std::string path_;  // group path inside the file
};

// A view onto an open group of an output file. Holds its own reference to the group, so it stays
// usable while the OutputFile lives; after commit() every call throws.
// Dataset dimensions. Named explicitly at call sites: nvcc's front end rejects a braced list
// converting to a const std::vector<std::size_t>& parameter inside templates.
using Shape = std::vector<std::size_t>;

class Group {
 public:
  const std::string& path() const { return path_; }

  // Opens the subgroup 'name' (may contain '/'), creating it and any missing parents.
  Group group(const std::string& name);
  // True if a link 'name' (relative to this group, may contain '/') resolves to an object.
  bool has(const std::string& name) const;

  // Attributes on this group; an existing attribute of the same name is replaced.
  void attribute(const std::string& name, const std::string& value);
  void attribute(const std::string& name, const char* value) {
    attribute(name, std::string(value));
  }
  void attribute(const std::string& name, double value);
  void attribute(const std::string& name, std::int64_t value);
  void attribute(const std::string& name, std::uint64_t value);
  // Any other integer (int, unsigned, long long, ...) would otherwise be ambiguous between the
  // double and 64-bit overloads.
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> &&
                                          !std::is_same_v<I, std::int64_t> &&
                                          !std::is_same_v<I, std::uint64_t>,
                                      int> = 0>
  void attribute(const std::string& name, I value) {
    if constexpr (std::is_signed_v<I>) {
      attribute(name, static_cast<std::int64_t>(value));
    } else {
      attribute(name, static_cast<std::uint64_t>(value));
    }
  }

  // 1-D dataset. Fails if 'name' already exists: silently replacing data is never what a run
  // wants, and HDF5 would not reclaim the space anyway.
  template <class T>
  void write(const std::string& name, const std::vector<T>& data, const std::string& units,
             const std::string& description) {
    write_raw(name, data.data(), detail::dtype_of<T>(), Shape{data.size()}, units, description);
  }

  // 2-D dataset of shape (rows, cols) from row-major data; data.size() must be rows * cols.
  template <class T>
  void write_2d(const std::string& name, const std::vector<T>& data, std::size_t rows,
                std::size_t cols, const std::string& units, const std::string& description) {
    check_2d(name, data.size(), rows, cols);
    write_raw(name, data.data(), detail::dtype_of<T>(), Shape{rows, cols}, units, description);
  }

  // Scalar (rank-0) dataset.
  template <class T>
  void write_scalar(const std::string& name, T value, const std::string& units,
                    const std::string& description) {
    write_raw(name, &value, detail::dtype_of<T>(), Shape{}, units, description);
  }

  // Scalar variable-length UTF-8 string dataset with a 'description' attribute (no units).
  void write_string(const std::string& name, const std::string& text,
                    const std::string& description);

  // Opens the time series 'name' or creates it with the given chunk length (rows). 'units' and
  // 'description' describe the values; they are attached to the group and to 'value'.
  TimeSeries time_series(const std::string& name, const std::string& units,
                         const std::string& description, std::size_t chunk = 1024);

 private:
  friend class OutputFile;
  Group(detail::Handle id, std::string file, std::string path);
  std::string child_path(const std::string& name) const;
  std::int64_t id() const;  // throws if the file has been committed or closed
  void check_2d(const std::string& name, std::size_t size, std::size_t rows,
                std::size_t cols) const;
  void write_raw(const std::string& name, const void* data, detail::DType type,
                 const std::vector<std::size_t>& dims, const std::string& units,
                 const std::string& description);

  detail::Handle id_;
  std::string file_;  // final path of the file, for error messages
  std::string path_;  // absolute path of this group inside the file
};

// Throws std::runtime_error("cannot write output file '<path>': <reason>") unless a file can be
// created next to 'path' (the directory exists, is a directory and is writable; 'path' itself is
// not a directory). Apps call this before simulating so a typo costs seconds, not a whole run.
void check_writable(const std::string& path);

// Writer for one output or checkpoint file; see the top of this header for the commit protocol.
class OutputFile {
 public:
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  Group root();
  // Closes the file (invalidating all Groups and TimeSeries of this file), writes it to the
  // temporary file, syncs it and renames it over 'path', replacing any older file. A failed
  // write (a full disk) removes the temporary file, leaves an older 'path' untouched and throws
  // with the system's reason. Throws if already committed.
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }
  bool committed() const { return committed_; }

 private:
  void abandon() noexcept;  // close and delete the temporary file, if still open

  std::string path_;
  std::string temp_path_;
  detail::Handle file_;
  bool committed_ = false;
};

// Read-only access to a file written by OutputFile (or by h5py). Paths are absolute inside the
// file, e.g. "/muca/weights/log_weight". Numeric reads convert to T with HDF5's conversions
// (integers are clamped on overflow); 2-D datasets come back flattened in row-major order.
class InputFile {
 public:
  explicit InputFile(const std::string& path);
  InputFile(InputFile&&) noexcept = default;
  InputFile& operator=(InputFile&&) noexcept = default;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& path() const { return path_; }
  bool exists(const std::string& object_path) const;

  template <class T>
  std::vector<T> read(const std::string& dataset_path) const {
    std::vector<T> out;
    read_raw(dataset_path, detail::dtype_of<T>(), false, [&out](std::size_t n) -> void* {
      out.resize(n);
      return out.data();
    });
    return out;
  }

  // Requires exactly one element (a rank-0 dataset or a 1-element array).
  template <class T>
  T read_scalar(const std::string& dataset_path) const {
    T value{};
    read_raw(dataset_path, detail::dtype_of<T>(), true,
             [&value](std::size_t) -> void* { return &value; });
    return value;
  }

  // Variable- or fixed-length string dataset holding one string.
  std::string read_string(const std::string& dataset_path) const;
  // Dimensions of a dataset; empty for a scalar.
  std::vector<std::size_t> shape(const std::string& dataset_path) const;

  // Attributes of any object (group or dataset); "/" is the root group.
  bool has_attribute(const std::string& object_path, const std::string& name) const;
  std::string attribute_string(const std::string& object_path, const std::string& name) const;
  double attribute_double(const std::string& object_path, const std::string& name) const;
  std::int64_t attribute_int(const std::string& object_path, const std::string& name) const;

 private:
  std::int64_t open_dataset(const std::string& dataset_path) const;  // caller owns the id
  std::int64_t open_attribute(const std::string& object_path, const std::string& name) const;
  void read_raw(const std::string& dataset_path, detail::DType type, bool scalar,
                const std::function<void*(std::size_t)>& allocate) const;
  void read_attribute_number(const std::string& object_path, const std::string& name,
                             detail::DType type, void* out) const;

  std::string path_;
  detail::Handle file_;
};

// Who/what/where/when produced a file, stored as group /provenance: one scalar string dataset per
// text field and 'seed' as a uint64 scalar dataset, so a result can be traced back to its run.
struct Provenance {
  std::string software, version, git_hash, kokkos_version, backend, device, host, date,
      command_line;
  std::uint64_t seed = 0;
};

void write_provenance(Group root, const Provenance& provenance);
// Reads back what write_provenance wrote, e.g. to check a checkpoint belongs to this build.
Provenance read_provenance(const InputFile& file, const std::string& group = "/provenance");

// Checkpoints of every app carry the attribute portamc_checkpoint = <app> at the root and the
// resolved configuration, so that --resume refuses a file of another app (or no checkpoint
// at all) before reading anything else.
void begin_checkpoint(Group root, const std::string& app, const std::string& config_yaml);

// Current UTC date and time as "YYYY-MM-DDThh:mm:ssZ".
std::string now_iso8601();
// Name of this machine, or "unknown" if the system will not say.
std::string hostname();

}  // namespace portamc::h5
