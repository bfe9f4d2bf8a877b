#pragma once
// Damage done to checkpoint files by the integrity tests, as a failing disk, a stray write or
// a hand edit would do it: one element or attribute overwritten in place, an attribute
// removed, the file cut short. Raw HDF5, since the repository's layer only writes new files.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <type_traits>
#include <vector>

namespace portamc::testing {

namespace detail {

template <class T>
hid_t native_type() {
  if constexpr (std::is_same_v<T, double>) return H5T_NATIVE_DOUBLE;
  if constexpr (std::is_same_v<T, float>) return H5T_NATIVE_FLOAT;
  if constexpr (std::is_same_v<T, std::uint8_t>) return H5T_NATIVE_UINT8;
  if constexpr (std::is_same_v<T, std::int32_t>) return H5T_NATIVE_INT32;
  if constexpr (std::is_same_v<T, std::uint32_t>) return H5T_NATIVE_UINT32;
  if constexpr (std::is_same_v<T, std::int64_t>) return H5T_NATIVE_INT64;
  if constexpr (std::is_same_v<T, std::uint64_t>) return H5T_NATIVE_UINT64;
}

// Reads (write = false) or writes element `index` of the dataset, counted in row-major order
// over all its dimensions.
template <class T>
void access_element(const std::string& file, const std::string& dataset, std::size_t index,
                    T& value, bool write) {
  const hid_t f = H5Fopen(file.c_str(), write ? H5F_ACC_RDWR : H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0) << file;
  const hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  ASSERT_GE(d, 0) << dataset;
  const hid_t space = H5Dget_space(d);
  const int rank = H5Sget_simple_extent_ndims(space);
  std::vector<hsize_t> dims(static_cast<std::size_t>(rank)), at(dims.size());
  H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  for (int r = rank - 1; r >= 0; --r) {
    at[r] = index % dims[r];
    index /= dims[r];
  }
  ASSERT_EQ(index, 0u) << dataset << ": element beyond the dataset";
  if (rank > 0) H5Sselect_elements(space, H5S_SELECT_SET, 1, at.data());
  const hid_t one = H5Screate(H5S_SCALAR);
  const herr_t done = write ? H5Dwrite(d, native_type<T>(), one, space, H5P_DEFAULT, &value)
                            : H5Dread(d, native_type<T>(), one, space, H5P_DEFAULT, &value);
  EXPECT_GE(done, 0) << dataset;
  H5Sclose(one);
  H5Sclose(space);
  H5Dclose(d);
  H5Fclose(f);
}

}  // namespace detail

/// Element `index` (row-major over all dimensions) of a numeric dataset.
template <class T>
T read_element(const std::string& file, const std::string& dataset, std::size_t index) {
  T value{};
  detail::access_element(file, dataset, index, value, false);
  return value;
}

/// Overwrites element `index` of a numeric dataset in place.
template <class T>
void overwrite_element(const std::string& file, const std::string& dataset, std::size_t index,
                       T value) {
  detail::access_element(file, dataset, index, value, true);
}

/// Flips bit `bit` of element `index` of an integer or floating-point dataset.
template <class T>
void flip_bit(const std::string& file, const std::string& dataset, std::size_t index, int bit) {
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t,
                                  std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint8_t>>;
  T value = read_element<T>(file, dataset, index);
  Bits bits;
  std::memcpy(&bits, &value, sizeof bits);
  bits ^= Bits{1} << bit;
  std::memcpy(&value, &bits, sizeof bits);
  overwrite_element(file, dataset, index, value);
}

/// Overwrites a numeric attribute of `object` ("/" for the root) in place.
inline void overwrite_attribute(const std::string& file, const std::string& object,
                                const std::string& name, std::int64_t value) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0) << file;
  // Through the object itself: HDF5 1.10 cannot write an attribute opened by path from the file.
  const hid_t o = H5Oopen(f, object.c_str(), H5P_DEFAULT);
  ASSERT_GE(o, 0) << object;
  const hid_t a = H5Aopen(o, name.c_str(), H5P_DEFAULT);
  ASSERT_GE(a, 0) << object << " attribute " << name;
  EXPECT_GE(H5Awrite(a, H5T_NATIVE_INT64, &value), 0);
  H5Aclose(a);
  H5Oclose(o);
  H5Fclose(f);
}

/// Removes an attribute of `object`, as a file of an older version would lack it.
inline void remove_attribute(const std::string& file, const std::string& object,
                             const std::string& name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(f, 0) << file;
  EXPECT_GE(H5Adelete_by_name(f, object.c_str(), name.c_str(), H5P_DEFAULT), 0);
  H5Fclose(f);
}

/// Overwrites raw bytes of the file where a contiguous dataset keeps its data, `skip` bytes
/// into them, behind HDF5's back (as a disk or a stray write would).
inline void scribble_over(const std::string& file, const std::string& dataset, std::size_t skip,
                          const std::string& bytes) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  ASSERT_GE(f, 0) << file;
  const hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  ASSERT_GE(d, 0) << dataset;
  const haddr_t offset = H5Dget_offset(d);
  H5Dclose(d);
  H5Fclose(f);
  ASSERT_NE(offset, HADDR_UNDEF) << dataset << " is not stored contiguously";
  std::fstream out(file, std::ios::binary | std::ios::in | std::ios::out);
  out.seekp(static_cast<std::streamoff>(offset + skip));
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << file;
}

/// Writes the first `keep` bytes of `from` to `to`: a copy cut short.
inline void truncated_copy(const std::string& from, const std::string& to, std::uintmax_t keep) {
  std::ifstream in(from, std::ios::binary);
  std::vector<char> bytes(static_cast<std::size_t>(keep));
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  std::ofstream(to, std::ios::binary).write(bytes.data(), in.gcount());
}

/// A file of `text` (empty by default): no HDF5 at all.
inline void plain_file(const std::string& path, const std::string& text = "") {
  std::ofstream(path, std::ios::binary) << text;
}

}  // namespace portamc::testing
