#pragma once
// Every dataset of an HDF5 file as bytes, for tests that promise two files hold the same
// results bit for bit (a resumed run against one never interrupted). Numeric datasets are
// read in their native type; string datasets as their text.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <algorithm>

#include <map>
#include <string>
#include <vector>

#include "portamc/hdf5_file.hpp"

namespace portamc::testing {

/// Path of each dataset -> its contents as bytes (numbers) or characters (strings).
inline std::map<std::string, std::string> dataset_contents(const std::string& file) {
  struct Visit {
    hid_t file;
    std::vector<std::string> datasets;
  };
  Visit visit{H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), {}};
  std::map<std::string, std::string> contents;
  if (visit.file < 0) return contents;
  auto collect = [](hid_t, const char* name, const H5O_info_t* info, void* data) -> herr_t {
    if (info->type == H5O_TYPE_DATASET)
      static_cast<Visit*>(data)->datasets.push_back(std::string("/") + name);
    return 0;
  };
#if H5_VERSION_GE(1, 12, 0)
  H5Ovisit(visit.file, H5_INDEX_NAME, H5_ITER_NATIVE, collect, &visit, H5O_INFO_BASIC);
#else
  H5Ovisit(visit.file, H5_INDEX_NAME, H5_ITER_NATIVE, collect, &visit);
#endif
  std::vector<std::string> strings;
  for (const std::string& path : visit.datasets) {
    const hid_t dataset = H5Dopen2(visit.file, path.c_str(), H5P_DEFAULT);
    const hid_t type = H5Dget_type(dataset);
    if (H5Tget_class(type) == H5T_STRING) {
      strings.push_back(path);
    } else {
      const hid_t native = H5Tget_native_type(type, H5T_DIR_ASCEND);
      const hid_t space = H5Dget_space(dataset);
      const auto points = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
      std::string bytes(points * H5Tget_size(native), '\0');
      if (!bytes.empty()) H5Dread(dataset, native, H5S_ALL, H5S_ALL, H5P_DEFAULT, bytes.data());
      contents[path] = bytes;
      H5Sclose(space);
      H5Tclose(native);
    }
    H5Tclose(type);
    H5Dclose(dataset);
  }
  H5Fclose(visit.file);
  const h5::InputFile in(file);
  for (const std::string& path : strings) contents[path] = in.read_string(path);
  return contents;
}

/// The results of a file: every dataset but /config, /provenance/* and the paths in `skip`
/// (wall times, which no two runs share).
inline std::map<std::string, std::string> results_of(const std::string& file,
                                                     const std::vector<std::string>& skip = {}) {
  auto contents = dataset_contents(file);
  for (auto it = contents.begin(); it != contents.end();) {
    const bool drop = it->first == "/config" || it->first.rfind("/provenance/", 0) == 0 ||
                      std::find(skip.begin(), skip.end(), it->first) != skip.end();
    it = drop ? contents.erase(it) : std::next(it);
  }
  return contents;
}

/// Expects `resumed` to hold the results of `reference` bit for bit, and nothing else; at least
/// `at_least` datasets, so that an empty file cannot pass.
inline void expect_same_results(const std::string& reference, const std::string& resumed,
                                std::size_t at_least, const std::vector<std::string>& skip = {}) {
  const auto expected = results_of(reference, skip), got = results_of(resumed, skip);
  EXPECT_GE(expected.size(), at_least);
  for (const auto& [name, contents] : expected) {
    const auto it = got.find(name);
    ASSERT_NE(it, got.end()) << name << " is missing after resuming";
    EXPECT_TRUE(it->second == contents) << name << " differs after resuming";
  }
  EXPECT_EQ(got.size(), expected.size());
}

}  // namespace portamc::testing
