// HDF5 C API implementation of portamc/hdf5_file.hpp. All hid_t values are owned by
// detail::Handle; every failing HDF5 call is turned into std::runtime_error with the file name,
// the object path and the innermost message of HDF5's error stack.
#include "portamc/hdf5_file.hpp"

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace portamc::h5 {

static_assert(std::is_same_v<hid_t, std::int64_t>,
              "the public header carries hid_t as std::int64_t; requires HDF5 >= 1.10");

namespace {

namespace fs = std::filesystem;

// HDF5 prints its whole error stack to stderr by default. We report errors as exceptions
// instead, so printing is switched off for the duration of each public call and restored
// afterwards: other HDF5 users in the same process keep whatever behaviour they chose.
class QuietErrors {
 public:
  QuietErrors() {
    H5Eget_auto2(H5E_DEFAULT, &func_, &data_);
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  }
  ~QuietErrors() { H5Eset_auto2(H5E_DEFAULT, func_, data_); }
  QuietErrors(const QuietErrors&) = delete;
  QuietErrors& operator=(const QuietErrors&) = delete;

 private:
  H5E_auto2_t func_ = nullptr;
  void* data_ = nullptr;
};

herr_t collect_error(unsigned, const H5E_error2_t* error, void* client) {
  auto* messages = static_cast<std::vector<std::string>*>(client);
  if (error->desc != nullptr && error->desc[0] != '\0') messages->emplace_back(error->desc);
  return 0;
}

// A failed read or write of the file itself arrives as one long line with the time, buffer
// address and byte counts ("file write failed: time = ..., errno = 28, error message = 'No
// space left on device', ..."). The user needs the system's reason: keep that and the action.
std::string readable_io_error(const std::string& message) {
  const std::string key = "error message = '";
  const std::size_t start = message.find(key);
  if (start == std::string::npos) return message;
  const std::size_t end = message.find('\'', start + key.size());
  if (end == std::string::npos) return message;
  const std::size_t colon = message.find(':');
  const std::string action = colon < start ? message.substr(0, colon) : "file I/O failed";
  return action + ": " + message.substr(start + key.size(), end - start - key.size());
}

// The innermost entry of the error stack is the root cause ("object 'x' doesn't exist",
// "name already exists", errno text); the outer ones only say which API call failed.
// Must be called right after the failing call: the next HDF5 API call clears the stack.
std::string hdf5_reason() {
  std::vector<std::string> messages;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, collect_error, &messages);
  if (messages.empty()) return "unknown HDF5 error";
  return readable_io_error(messages.front());
}

[[noreturn]] void fail(const std::string& action, const std::string& object,
                       const std::string& file) {
  throw std::runtime_error(action + " '" + object + "' in HDF5 file '" + file +
                           "': " + hdf5_reason());
}

[[noreturn]] void fail_plain(const std::string& message, const std::string& object,
                             const std::string& file) {
  throw std::runtime_error(message + " '" + object + "' in HDF5 file '" + file + "'");
}

// Wraps a freshly returned id, throwing if the call that produced it failed.
detail::Handle own(hid_t id, const std::string& action, const std::string& object,
                   const std::string& file) {
  if (id < 0) fail(action, object, file);
  return detail::Handle(id);
}

void check(herr_t status, const std::string& action, const std::string& object,
           const std::string& file) {
  if (status < 0) fail(action, object, file);
}

hid_t memory_type(detail::DType type) {
  switch (type) {
    case detail::DType::kF32:
      return H5T_NATIVE_FLOAT;
    case detail::DType::kF64:
      return H5T_NATIVE_DOUBLE;
    case detail::DType::kI8:
      return H5T_NATIVE_INT8;
    case detail::DType::kU8:
      return H5T_NATIVE_UINT8;
    case detail::DType::kI16:
      return H5T_NATIVE_INT16;
    case detail::DType::kU16:
      return H5T_NATIVE_UINT16;
    case detail::DType::kI32:
      return H5T_NATIVE_INT32;
    case detail::DType::kU32:
      return H5T_NATIVE_UINT32;
    case detail::DType::kI64:
      return H5T_NATIVE_INT64;
    case detail::DType::kU64:
      return H5T_NATIVE_UINT64;
  }
  throw std::logic_error("portamc::h5: unknown element type");
}

// Files always store a fixed little-endian standard type, so the file does not depend on the
// machine that wrote it; HDF5 converts on big-endian readers.
hid_t file_type(detail::DType type) {
  switch (type) {
    case detail::DType::kF32:
      return H5T_IEEE_F32LE;
    case detail::DType::kF64:
      return H5T_IEEE_F64LE;
    case detail::DType::kI8:
      return H5T_STD_I8LE;
    case detail::DType::kU8:
      return H5T_STD_U8LE;
    case detail::DType::kI16:
      return H5T_STD_I16LE;
    case detail::DType::kU16:
      return H5T_STD_U16LE;
    case detail::DType::kI32:
      return H5T_STD_I32LE;
    case detail::DType::kU32:
      return H5T_STD_U32LE;
    case detail::DType::kI64:
      return H5T_STD_I64LE;
    case detail::DType::kU64:
      return H5T_STD_U64LE;
  }
  throw std::logic_error("portamc::h5: unknown element type");
}

// Variable-length UTF-8 string type: h5py reads it as str (attributes) or via .asstr()/.decode
// (datasets), and no length has to be guessed up front.
detail::Handle vlen_string_type(const std::string& object, const std::string& file) {
  detail::Handle type = own(H5Tcopy(H5T_C_S1), "cannot create string type for", object, file);
  check(H5Tset_size(type.get(), H5T_VARIABLE), "cannot create string type for", object, file);
  check(H5Tset_cset(type.get(), H5T_CSET_UTF8), "cannot create string type for", object, file);
  return type;
}

// File access properties shared by writer and reader.
detail::Handle file_access(const std::string& file) {
  detail::Handle fapl =
      own(H5Pcreate(H5P_FILE_ACCESS), "cannot create access properties for", "/", file);
  // Closing the file then closes every object still open in it, so commit() really finishes the
  // file even while Group or TimeSeries views are alive; they simply become invalid.
  check(H5Pset_fclose_degree(fapl.get(), H5F_CLOSE_STRONG), "cannot set close degree for", "/",
        file);
#if H5_VERSION_GE(1, 12, 1) || (H5_VERS_MAJOR == 1 && H5_VERS_MINOR == 10 && H5_VERS_RELEASE >= 7)
  // Parallel file systems often have no flock(); HDF5 would then refuse to open anything unless
  // the user knows about HDF5_USE_FILE_LOCKING. Keep locking where it works, skip it elsewhere.
  check(H5Pset_file_locking(fapl.get(), true, true), "cannot set file locking for", "/", file);
#endif
  return fapl;
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= path.size()) {
    std::size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    if (end > begin) parts.push_back(path.substr(begin, end - begin));
    begin = end + 1;
  }
  return parts;
}

// True if 'path' (absolute, or relative to 'location') names an existing object. H5Lexists
// must be asked one component at a time: a missing intermediate group is an error, not 'false'.
bool object_exists(hid_t location, const std::string& path) {
  const std::vector<std::string> parts = split_path(path);
  if (parts.empty()) return true;  // "" or "/": the location itself or the root group
  std::string prefix = path.front() == '/' ? "/" : "";
  for (const std::string& part : parts) {
    if (!prefix.empty() && prefix.back() != '/') prefix += '/';
    prefix += part;
    if (H5Lexists(location, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
  }
  // The link may be a dangling soft link.
  return H5Oexists_by_name(location, path.c_str(), H5P_DEFAULT) > 0;
}

std::string join_path(const std::string& parent, const std::string& name) {
  if (!name.empty() && name.front() == '/') return name;
  if (parent.empty() || parent.back() == '/') return parent + name;
  return parent + "/" + name;
}

void write_string_attribute(hid_t object, const std::string& name, const std::string& value,
                            const std::string& object_path, const std::string& file) {
  const std::string where = object_path + "' attribute '" + name;
  const htri_t exists = H5Aexists(object, name.c_str());
  if (exists < 0) fail("cannot query attribute of", where, file);
  if (exists > 0)
    check(H5Adelete(object, name.c_str()), "cannot replace attribute of", where, file);
  detail::Handle type = vlen_string_type(where, file);
  detail::Handle space = own(H5Screate(H5S_SCALAR), "cannot create dataspace for", where, file);
  detail::Handle attr =
      own(H5Acreate2(object, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
          "cannot create attribute of", where, file);
  const char* text = value.c_str();
  check(H5Awrite(attr.get(), type.get(), &text), "cannot write attribute of", where, file);
}

void write_number_attribute(hid_t object, const std::string& name, detail::DType type,
                            const void* value, const std::string& object_path,
                            const std::string& file) {
  const std::string where = object_path + "' attribute '" + name;
  const htri_t exists = H5Aexists(object, name.c_str());
  if (exists < 0) fail("cannot query attribute of", where, file);
  if (exists > 0)
    check(H5Adelete(object, name.c_str()), "cannot replace attribute of", where, file);
  detail::Handle space = own(H5Screate(H5S_SCALAR), "cannot create dataspace for", where, file);
  detail::Handle attr =
      own(H5Acreate2(object, name.c_str(), file_type(type), space.get(), H5P_DEFAULT, H5P_DEFAULT),
          "cannot create attribute of", where, file);
  check(H5Awrite(attr.get(), memory_type(type), value), "cannot write attribute of", where, file);
}

// Reads one string from a dataset or attribute. Handles variable-length strings (what we write)
// and fixed-length ones (what h5py writes for numpy 'S' arrays), so files from other tools work.
template <class Read>
std::string read_one_string(hid_t stored_type, hid_t space, Read read, const std::string& object,
                            const std::string& file) {
  if (H5Tget_class(stored_type) != H5T_STRING) fail_plain("not a string:", object, file);
  const hssize_t count = H5Sget_simple_extent_npoints(space);
  if (count != 1) fail_plain("does not hold exactly one string:", object, file);
  const htri_t variable = H5Tis_variable_str(stored_type);
  if (variable < 0) fail("cannot inspect string type of", object, file);

  detail::Handle memory = own(H5Tcopy(H5T_C_S1), "cannot create string type for", object, file);
  check(H5Tset_cset(memory.get(), H5Tget_cset(stored_type)), "cannot create string type for",
        object, file);
  if (variable > 0) {
    check(H5Tset_size(memory.get(), H5T_VARIABLE), "cannot create string type for", object, file);
    char* text = nullptr;
    check(read(memory.get(), static_cast<void*>(&text)), "cannot read string", object, file);
    std::string result = text != nullptr ? std::string(text) : std::string();
    // The library allocated 'text'; it must free it with the allocator it used.
#if H5_VERSION_GE(1, 12, 0)
    H5Treclaim(memory.get(), space, H5P_DEFAULT, &text);
#else
    H5Dvlen_reclaim(memory.get(), space, H5P_DEFAULT, &text);
#endif
    return result;
  }
  const std::size_t size = H5Tget_size(stored_type);
  if (size == 0) fail("cannot inspect string type of", object, file);
  check(H5Tset_size(memory.get(), size), "cannot create string type for", object, file);
  check(H5Tset_strpad(memory.get(), H5T_STR_NULLPAD), "cannot create string type for", object,
        file);
  std::string buffer(size, '\0');
  check(read(memory.get(), static_cast<void*>(buffer.data())), "cannot read string", object, file);
  buffer.resize(std::strlen(buffer.c_str()));
  if (H5Tget_strpad(stored_type) == H5T_STR_SPACEPAD) {
    buffer.erase(buffer.find_last_not_of(' ') + 1);
  }
  return buffer;
}

std::string errno_text(int error) {
  return std::generic_category().message(error);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// detail::Handle

namespace detail {

Handle::Handle(const Handle& other) : id_(-1) {
  if (other.id_ >= 0) {
    QuietErrors quiet;
    // A copy of an id whose file is closed stays empty rather than referring to a stale id.
    if (H5Iinc_ref(other.id_) >= 0) id_ = other.id_;
  }
}

Handle& Handle::operator=(const Handle& other) {
  if (this != &other) {
    Handle copy(other);
    *this = std::move(copy);
  }
  return *this;
}

Handle& Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    reset();
    id_ = other.id_;
    other.id_ = -1;
  }
  return *this;
}

void Handle::reset() noexcept {
  if (id_ < 0) return;
  QuietErrors quiet;
  // Closing a file with H5F_CLOSE_STRONG already closed its objects; their ids are then invalid
  // and must not be released again. H5Idec_ref is the generic close for every kind of id.
  if (H5Iis_valid(id_) > 0) H5Idec_ref(id_);
  id_ = -1;
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------
// TimeSeries

TimeSeries::TimeSeries(detail::Handle step, detail::Handle value, std::string file,
                       std::string path)
    : step_(std::move(step)),
      value_(std::move(value)),
      file_(std::move(file)),
      path_(std::move(path)) {}

void TimeSeries::append(std::int64_t step, double value) {
  append_rows(&step, &value, 1);
}

void TimeSeries::append(const std::vector<std::int64_t>& steps, const std::vector<double>& values) {
  if (steps.size() != values.size()) {
    throw std::invalid_argument("time series '" + path_ + "' in HDF5 file '" + file_ +
                                "': " + std::to_string(steps.size()) + " steps but " +
                                std::to_string(values.size()) + " values");
  }
  append_rows(steps.data(), values.data(), steps.size());
}

std::size_t TimeSeries::size() const {
  QuietErrors quiet;
  if (H5Iis_valid(step_.get()) <= 0) fail_plain("file already closed; time series", path_, file_);
  detail::Handle space =
      own(H5Dget_space(step_.get()), "cannot query size of time series", path_, file_);
  hsize_t rows = 0;
  if (H5Sget_simple_extent_dims(space.get(), &rows, nullptr) != 1) {
    fail("cannot query size of time series", path_, file_);
  }
  return static_cast<std::size_t>(rows);
}

void TimeSeries::append_rows(const std::int64_t* steps, const double* values, std::size_t n) {
  if (n == 0) return;
  const std::size_t old_rows = size();  // also checks the file is still open
  QuietErrors quiet;
  const hsize_t start = old_rows;
  const hsize_t count = n;
  const hsize_t new_rows = start + count;
  // Both datasets are grown before either is written so that a failure cannot leave them with
  // different lengths visible to size() (which reads 'step').
  check(H5Dset_extent(value_.get(), &new_rows), "cannot extend", path_ + "/value", file_);
  check(H5Dset_extent(step_.get(), &new_rows), "cannot extend", path_ + "/step", file_);
  detail::Handle memory =
      own(H5Screate_simple(1, &count, nullptr), "cannot create dataspace for", path_, file_);
  const struct {
    hid_t dataset;
    hid_t type;
    const void* data;
    const char* name;
  } columns[] = {{step_.get(), H5T_NATIVE_INT64, steps, "/step"},
                 {value_.get(), H5T_NATIVE_DOUBLE, values, "/value"}};
  for (const auto& column : columns) {
    const std::string where = path_ + column.name;
    detail::Handle space =
        own(H5Dget_space(column.dataset), "cannot get dataspace of", where, file_);
    check(H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &start, nullptr, &count, nullptr),
          "cannot select rows of", where, file_);
    check(
        H5Dwrite(column.dataset, column.type, memory.get(), space.get(), H5P_DEFAULT, column.data),
        "cannot append to", where, file_);
  }
}

// ---------------------------------------------------------------------------------------------
// Group

Group::Group(detail::Handle id, std::string file, std::string path)
    : id_(std::move(id)), file_(std::move(file)), path_(std::move(path)) {}

std::string Group::child_path(const std::string& name) const {
  return join_path(path_, name);
}

std::int64_t Group::id() const {
  if (H5Iis_valid(id_.get()) <= 0)
    fail_plain("file already committed or closed; group", path_, file_);
  return id_.get();
}

Group Group::group(const std::string& name) {
  QuietErrors quiet;
  const hid_t self = id();
  const std::string path = child_path(name);
  if (object_exists(self, name)) {
    return Group(own(H5Gopen2(self, name.c_str(), H5P_DEFAULT), "cannot open group", path, file_),
                 file_, path);
  }
  detail::Handle lcpl =
      own(H5Pcreate(H5P_LINK_CREATE), "cannot create link properties for", path, file_);
  check(H5Pset_create_intermediate_group(lcpl.get(), 1), "cannot create link properties for", path,
        file_);
  return Group(own(H5Gcreate2(self, name.c_str(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                   "cannot create group", path, file_),
               file_, path);
}

bool Group::has(const std::string& name) const {
  QuietErrors quiet;
  return object_exists(id(), name);
}

void Group::attribute(const std::string& name, const std::string& value) {
  QuietErrors quiet;
  write_string_attribute(id(), name, value, path_, file_);
}

void Group::attribute(const std::string& name, double value) {
  QuietErrors quiet;
  write_number_attribute(id(), name, detail::DType::kF64, &value, path_, file_);
}

void Group::attribute(const std::string& name, std::int64_t value) {
  QuietErrors quiet;
  write_number_attribute(id(), name, detail::DType::kI64, &value, path_, file_);
}

void Group::attribute(const std::string& name, std::uint64_t value) {
  QuietErrors quiet;
  write_number_attribute(id(), name, detail::DType::kU64, &value, path_, file_);
}

void Group::check_2d(const std::string& name, std::size_t size, std::size_t rows,
                     std::size_t cols) const {
  // Compared via division first so that a huge rows * cols cannot wrap around to 'size'.
  if ((cols != 0 && rows > size / cols) || rows * cols != size) {
    throw std::invalid_argument("dataset '" + child_path(name) + "' in HDF5 file '" + file_ +
                                "': " + std::to_string(size) + " elements cannot have shape (" +
                                std::to_string(rows) + ", " + std::to_string(cols) + ")");
  }
}

void Group::write_raw(const std::string& name, const void* data, detail::DType type,
                      const std::vector<std::size_t>& dims, const std::string& units,
                      const std::string& description) {
  QuietErrors quiet;
  const hid_t self = id();
  const std::string path = child_path(name);
  if (object_exists(self, name)) fail_plain("object already exists:", path, file_);

  const std::vector<hsize_t> extent(dims.begin(), dims.end());
  detail::Handle space =
      own(dims.empty() ? H5Screate(H5S_SCALAR)
                       : H5Screate_simple(static_cast<int>(extent.size()), extent.data(), nullptr),
          "cannot create dataspace for", path, file_);
  detail::Handle lcpl =
      own(H5Pcreate(H5P_LINK_CREATE), "cannot create link properties for", path, file_);
  check(H5Pset_create_intermediate_group(lcpl.get(), 1), "cannot create link properties for", path,
        file_);
  detail::Handle dataset = own(H5Dcreate2(self, name.c_str(), file_type(type), space.get(),
                                          lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
                               "cannot create dataset", path, file_);
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  if (points > 0) {
    check(H5Dwrite(dataset.get(), memory_type(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, data),
          "cannot write dataset", path, file_);
  }
  write_string_attribute(dataset.get(), "units", units, path, file_);
  write_string_attribute(dataset.get(), "description", description, path, file_);
}

void Group::write_string(const std::string& name, const std::string& text,
                         const std::string& description) {
  QuietErrors quiet;
  const hid_t self = id();
  const std::string path = child_path(name);
  if (object_exists(self, name)) fail_plain("object already exists:", path, file_);
  detail::Handle type = vlen_string_type(path, file_);
  detail::Handle space = own(H5Screate(H5S_SCALAR), "cannot create dataspace for", path, file_);
  detail::Handle lcpl =
      own(H5Pcreate(H5P_LINK_CREATE), "cannot create link properties for", path, file_);
  check(H5Pset_create_intermediate_group(lcpl.get(), 1), "cannot create link properties for", path,
        file_);
  detail::Handle dataset = own(
      H5Dcreate2(self, name.c_str(), type.get(), space.get(), lcpl.get(), H5P_DEFAULT, H5P_DEFAULT),
      "cannot create dataset", path, file_);
  const char* data = text.c_str();
  check(H5Dwrite(dataset.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &data),
        "cannot write dataset", path, file_);
  write_string_attribute(dataset.get(), "description", description, path, file_);
}

TimeSeries Group::time_series(const std::string& name, const std::string& units,
                              const std::string& description, std::size_t chunk) {
  if (chunk == 0) {
    throw std::invalid_argument("time series '" + child_path(name) + "' in HDF5 file '" + file_ +
                                "': chunk length must be positive");
  }
  Group series = group(name);
  series.attribute("units", units);
  series.attribute("description", description);

  QuietErrors quiet;
  const hid_t self = series.id();
  const std::string step_path = series.path() + "/step";
  const std::string value_path = series.path() + "/value";
  const bool has_step = object_exists(self, "step");
  const bool has_value = object_exists(self, "value");
  if (has_step != has_value) {
    fail_plain("incomplete time series (needs both 'step' and 'value'):", series.path(), file_);
  }
  if (has_step) {
    // Reopened, e.g. to continue a series in the same file; new rows go after the old ones.
    detail::Handle step =
        own(H5Dopen2(self, "step", H5P_DEFAULT), "cannot open dataset", step_path, file_);
    detail::Handle value =
        own(H5Dopen2(self, "value", H5P_DEFAULT), "cannot open dataset", value_path, file_);
    write_string_attribute(value.get(), "units", units, value_path, file_);
    write_string_attribute(value.get(), "description", description, value_path, file_);
    return TimeSeries(std::move(step), std::move(value), file_, series.path());
  }

  const hsize_t initial = 0;
  const hsize_t unlimited = H5S_UNLIMITED;
  const hsize_t chunk_rows = chunk;
  detail::Handle space = own(H5Screate_simple(1, &initial, &unlimited),
                             "cannot create dataspace for", series.path(), file_);
  detail::Handle dcpl = own(H5Pcreate(H5P_DATASET_CREATE), "cannot create dataset properties for",
                            series.path(), file_);
  check(H5Pset_chunk(dcpl.get(), 1, &chunk_rows), "cannot set chunk size for", series.path(),
        file_);
  detail::Handle step = own(
      H5Dcreate2(self, "step", H5T_STD_I64LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
      "cannot create dataset", step_path, file_);
  detail::Handle value = own(
      H5Dcreate2(self, "value", H5T_IEEE_F64LE, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT),
      "cannot create dataset", value_path, file_);
  write_string_attribute(step.get(), "units", "", step_path, file_);
  write_string_attribute(step.get(), "description",
                         "Monte Carlo step at which the value in the same row was recorded",
                         step_path, file_);
  write_string_attribute(value.get(), "units", units, value_path, file_);
  write_string_attribute(value.get(), "description", description, value_path, file_);
  return TimeSeries(std::move(step), std::move(value), file_, series.path());
}

// ---------------------------------------------------------------------------------------------
// check_writable / OutputFile

namespace {

// Writes `bytes` to `temp`, syncs it and renames it over `path`; on any failure removes
// `temp`, leaves `path` as it was and throws with the system's reason (a full disk, a quota,
// an I/O error, which network file systems may report only at close).
void write_file_durably(const std::string& temp, const std::string& path,
                        const std::vector<char>& bytes) {
  const auto fail_commit = [&](const std::string& step, int error) {
    ::unlink(temp.c_str());
    throw std::runtime_error("cannot write output file '" + path + "': " + step + " '" + temp +
                             "' failed: " + errno_text(error) + "; any earlier '" + path +
                             "' is unchanged");
  };
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail_commit("creating", errno);
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int saved = n < 0 ? errno : EIO;
      ::close(fd);
      fail_commit("writing", saved);
    }
    done += static_cast<std::size_t>(n);
  }
  // Without fsync a crash shortly after the rename can leave '<path>' with its final name but
  // not its data, which is exactly what the temporary name is there to avoid.
  if (::fsync(fd) != 0) {
    const int saved = errno;
    ::close(fd);
    fail_commit("syncing", saved);
  }
  if (::close(fd) != 0) fail_commit("closing", errno);
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int saved = errno;
    ::unlink(temp.c_str());
    throw std::runtime_error("cannot write output file '" + path + "': cannot rename '" + temp +
                             "' to it: " + errno_text(saved));
  }
  // Make the rename itself durable. Some file systems refuse fsync on directories; the data is
  // already safe then, so that is not worth failing a finished run for.
  const fs::path directory =
      fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  const int dir_fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

}  // namespace

void check_writable(const std::string& path) {
  const auto fail_write = [&path](const std::string& reason) {
    throw std::runtime_error("cannot write output file '" + path + "': " + reason);
  };
  if (path.empty()) fail_write("empty file name");
  const fs::path target(path);
  if (!target.has_filename()) fail_write("the name ends in a directory separator");
  const fs::path directory = target.has_parent_path() ? target.parent_path() : fs::path(".");

  std::error_code error;
  const fs::file_status status = fs::status(directory, error);
  if (status.type() == fs::file_type::not_found) {
    fail_write("directory '" + directory.string() + "' does not exist");
  }
  if (error)
    fail_write("cannot inspect directory '" + directory.string() + "': " + error.message());
  if (!fs::is_directory(status)) fail_write("'" + directory.string() + "' is not a directory");
  if (fs::is_directory(fs::status(target, error))) fail_write("it is a directory");

  // access() misjudges read-only mounts, ACLs and root-squashed NFS; actually creating a file
  // next to the target is the only test that answers the real question.
  const std::string probe = path + ".tmp-" + std::to_string(::getpid()) + ".probe";
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    const int saved = errno;
    fail_write("cannot create a file in directory '" + directory.string() +
               "': " + errno_text(saved));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

OutputFile::OutputFile(const std::string& path)
    : path_(path), temp_path_(path + ".tmp-" + std::to_string(::getpid())) {
  check_writable(path_);
  // The temporary name exists from the start: it shows a run in progress, and an unwritable
  // place fails here rather than after the run.
  const int fd = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int saved = errno;
    throw std::runtime_error("cannot write output file '" + path_ + "': cannot create '" +
                             temp_path_ + "': " + errno_text(saved));
  }
  ::close(fd);
  QuietErrors quiet;
  detail::Handle fapl = file_access(path_);
  // HDF5 builds the file in memory and commit() writes it with plain POSIX calls. HDF5 cannot
  // recover from a failed write of its own (after a full disk its metadata cache refuses every
  // later flush and close, and the library crashes at exit), so it must never see the disk.
  check(H5Pset_fapl_core(fapl.get(), std::size_t{1} << 24, false),
        "cannot set the memory driver for", "/", path_);
  const hid_t file = H5Fcreate(temp_path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get());
  if (file < 0) {
    const std::string reason = hdf5_reason();
    ::unlink(temp_path_.c_str());
    throw std::runtime_error("cannot write output file '" + path_ + "': cannot create '" +
                             temp_path_ + "': " + reason);
  }
  file_ = detail::Handle(file);
}

OutputFile::~OutputFile() {
  abandon();
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      temp_path_(std::move(other.temp_path_)),
      file_(std::move(other.file_)),
      committed_(other.committed_) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    abandon();
    path_ = std::move(other.path_);
    temp_path_ = std::move(other.temp_path_);
    file_ = std::move(other.file_);
    committed_ = other.committed_;
  }
  return *this;
}

void OutputFile::abandon() noexcept {
  if (file_.empty()) return;
  {
    QuietErrors quiet;
    H5Fclose(file_.get());  // in memory, so it cannot fail on the disk; strong close degree
  }
  file_.release();  // consumed by H5Fclose; never close it again
  ::unlink(temp_path_.c_str());
}

Group OutputFile::root() {
  if (file_.empty()) {
    throw std::runtime_error("HDF5 file '" + path_ + "' is " +
                             (committed_ ? "already committed" : "not open"));
  }
  QuietErrors quiet;
  return Group(own(H5Gopen2(file_.get(), "/", H5P_DEFAULT), "cannot open group", "/", path_), path_,
               "/");
}

void OutputFile::commit() {
  if (file_.empty()) {
    throw std::runtime_error("cannot commit HDF5 file '" + path_ +
                             "': " + (committed_ ? "already committed" : "not open"));
  }
  std::vector<char> image;
  {
    QuietErrors quiet;
    check(H5Fflush(file_.get(), H5F_SCOPE_GLOBAL), "cannot flush", "/", path_);
    const ssize_t size = H5Fget_file_image(file_.get(), nullptr, 0);
    if (size < 0) fail("cannot take the image of", "/", path_);
    image.resize(static_cast<std::size_t>(size));
    if (H5Fget_file_image(file_.get(), image.data(), image.size()) != size)
      fail("cannot take the image of", "/", path_);
    H5Fclose(file_.get());  // in memory: frees the driver's copy before the file is written
    file_.release();
  }
  write_file_durably(temp_path_, path_, image);
  committed_ = true;
}

// ---------------------------------------------------------------------------------------------
// InputFile

InputFile::InputFile(const std::string& path) : path_(path) {
  const auto fail_open = [&path](const std::string& reason) {
    throw std::runtime_error("cannot open HDF5 file '" + path + "': " + reason);
  };
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (status.type() == fs::file_type::not_found) fail_open("no such file");
  if (fs::is_directory(status)) fail_open("it is a directory");
  QuietErrors quiet;
  detail::Handle fapl = file_access(path);
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get());
  if (file < 0) fail_open(hdf5_reason());
  file_ = detail::Handle(file);
}

bool InputFile::exists(const std::string& object_path) const {
  QuietErrors quiet;
  return object_exists(file_.get(), object_path);
}

hid_t InputFile::open_dataset(const std::string& dataset_path) const {
  if (!object_exists(file_.get(), dataset_path)) {
    fail_plain("no dataset", dataset_path, path_);
  }
  const hid_t dataset = H5Dopen2(file_.get(), dataset_path.c_str(), H5P_DEFAULT);
  if (dataset < 0) fail("cannot open dataset", dataset_path, path_);
  return dataset;
}

hid_t InputFile::open_attribute(const std::string& object_path, const std::string& name) const {
  const std::string where = object_path + "' attribute '" + name;
  if (!object_exists(file_.get(), object_path)) fail_plain("no object", object_path, path_);
  const htri_t exists =
      H5Aexists_by_name(file_.get(), object_path.c_str(), name.c_str(), H5P_DEFAULT);
  if (exists < 0) fail("cannot query attribute of", where, path_);
  if (exists == 0) fail_plain("no attribute of", where, path_);
  const hid_t attr =
      H5Aopen_by_name(file_.get(), object_path.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
  if (attr < 0) fail("cannot open attribute of", where, path_);
  return attr;
}

void InputFile::read_raw(const std::string& dataset_path, detail::DType type, bool scalar,
                         const std::function<void*(std::size_t)>& allocate) const {
  QuietErrors quiet;
  detail::Handle dataset(open_dataset(dataset_path));
  detail::Handle space =
      own(H5Dget_space(dataset.get()), "cannot get dataspace of", dataset_path, path_);
  const hssize_t points = H5Sget_simple_extent_npoints(space.get());
  if (points < 0) fail("cannot get size of", dataset_path, path_);
  if (scalar && points != 1) {
    fail_plain("not a scalar (" + std::to_string(points) + " elements):", dataset_path, path_);
  }
  void* destination = allocate(static_cast<std::size_t>(points));
  if (points == 0) return;
  check(H5Dread(dataset.get(), memory_type(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, destination),
        "cannot read dataset", dataset_path, path_);
}

std::string InputFile::read_string(const std::string& dataset_path) const {
  QuietErrors quiet;
  detail::Handle dataset(open_dataset(dataset_path));
  detail::Handle type = own(H5Dget_type(dataset.get()), "cannot get type of", dataset_path, path_);
  detail::Handle space =
      own(H5Dget_space(dataset.get()), "cannot get dataspace of", dataset_path, path_);
  const hid_t id = dataset.get();
  return read_one_string(
      type.get(), space.get(),
      [id](hid_t memory, void* out) {
        return H5Dread(id, memory, H5S_ALL, H5S_ALL, H5P_DEFAULT, out);
      },
      dataset_path, path_);
}

std::vector<std::size_t> InputFile::shape(const std::string& dataset_path) const {
  QuietErrors quiet;
  detail::Handle dataset(open_dataset(dataset_path));
  detail::Handle space =
      own(H5Dget_space(dataset.get()), "cannot get dataspace of", dataset_path, path_);
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) fail("cannot get rank of", dataset_path, path_);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
  if (rank > 0 && H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) < 0) {
    fail("cannot get shape of", dataset_path, path_);
  }
  return std::vector<std::size_t>(dims.begin(), dims.end());
}

bool InputFile::has_attribute(const std::string& object_path, const std::string& name) const {
  QuietErrors quiet;
  if (!object_exists(file_.get(), object_path)) return false;
  return H5Aexists_by_name(file_.get(), object_path.c_str(), name.c_str(), H5P_DEFAULT) > 0;
}

std::string InputFile::attribute_string(const std::string& object_path,
                                        const std::string& name) const {
  QuietErrors quiet;
  const std::string where = object_path + "' attribute '" + name;
  detail::Handle attr(open_attribute(object_path, name));
  detail::Handle type = own(H5Aget_type(attr.get()), "cannot get type of", where, path_);
  detail::Handle space = own(H5Aget_space(attr.get()), "cannot get dataspace of", where, path_);
  const hid_t id = attr.get();
  return read_one_string(
      type.get(), space.get(), [id](hid_t memory, void* out) { return H5Aread(id, memory, out); },
      where, path_);
}

void InputFile::read_attribute_number(const std::string& object_path, const std::string& name,
                                      detail::DType type, void* out) const {
  QuietErrors quiet;
  const std::string where = object_path + "' attribute '" + name;
  detail::Handle attr(open_attribute(object_path, name));
  detail::Handle space = own(H5Aget_space(attr.get()), "cannot get dataspace of", where, path_);
  if (H5Sget_simple_extent_npoints(space.get()) != 1) fail_plain("not a scalar:", where, path_);
  check(H5Aread(attr.get(), memory_type(type), out), "cannot read attribute of", where, path_);
}

double InputFile::attribute_double(const std::string& object_path, const std::string& name) const {
  double value = 0;
  read_attribute_number(object_path, name, detail::DType::kF64, &value);
  return value;
}

std::int64_t InputFile::attribute_int(const std::string& object_path,
                                      const std::string& name) const {
  std::int64_t value = 0;
  read_attribute_number(object_path, name, detail::DType::kI64, &value);
  return value;
}

// ---------------------------------------------------------------------------------------------
// Provenance and helpers

namespace {

struct ProvenanceField {
  const char* name;
  std::string Provenance::*member;
  const char* description;
};

const ProvenanceField kProvenanceFields[] = {
    {"software", &Provenance::software, "program that wrote this file"},
    {"version", &Provenance::version, "version of the program"},
    {"git_hash", &Provenance::git_hash, "git commit the program was built from"},
    {"kokkos_version", &Provenance::kokkos_version, "Kokkos version the program was built with"},
    {"backend", &Provenance::backend, "Kokkos execution space the simulation ran on"},
    {"device", &Provenance::device, "device (GPU or CPU) the simulation ran on"},
    {"host", &Provenance::host, "name of the machine the simulation ran on"},
    {"date", &Provenance::date, "UTC date and time the file was written (ISO 8601)"},
    {"command_line", &Provenance::command_line, "command line the program was started with"},
};

}  // namespace

void write_provenance(Group root, const Provenance& provenance) {
  Group group = root.group("provenance");
  for (const ProvenanceField& field : kProvenanceFields) {
    group.write_string(field.name, provenance.*field.member, field.description);
  }
  group.write_scalar("seed", provenance.seed, "",
                     "base seed of the counter-based random number streams");
}

Provenance read_provenance(const InputFile& file, const std::string& group) {
  Provenance provenance;
  for (const ProvenanceField& field : kProvenanceFields) {
    provenance.*field.member = file.read_string(join_path(group, field.name));
  }
  provenance.seed = file.read_scalar<std::uint64_t>(join_path(group, "seed"));
  return provenance;
}

std::string now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  const std::size_t length = std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &utc);
  return std::string(text, length);
}

std::string hostname() {
  // POSIX allows HOST_NAME_MAX + 1 bytes without a terminating NUL on truncation.
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0 || name[0] == '\0') return "unknown";
  return std::string(name);
}

void begin_checkpoint(Group root, const std::string& app, const std::string& config_yaml) {
  root.attribute("portamc_checkpoint", app);
  root.write_string("config", config_yaml, "resolved configuration of the checkpointed run");
}

}  // namespace portamc::h5
