#pragma once
// Ranks of an MPI run as a small value type, so that model and app code is written once for
// one rank and many: without MPI (PORTAMC_HAVE_MPI undefined) every operation is the
// single-rank identity, and a Communicator built by default is that single rank.
//
// Every member except rank(), size() and is_root() is collective: all ranks of the
// communicator call it, in the same order, with the same element counts where a count is
// asked for (gather takes per-rank lengths).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#ifdef PORTAMC_HAVE_MPI
#include <mpi.h>
#endif

namespace portamc::parallel {

#ifdef PORTAMC_HAVE_MPI
inline constexpr bool have_mpi = true;
#else
inline constexpr bool have_mpi = false;
#endif

class Communicator {
 public:
  /// One rank on its own (MPI_COMM_SELF when MPI is initialised).
  Communicator() = default;
#ifdef PORTAMC_HAVE_MPI
  /// Wraps an MPI communicator; does not take ownership. MPI must be initialised.
  explicit Communicator(MPI_Comm comm);
  /// MPI_COMM_NULL for the single-rank communicator built by default.
  MPI_Comm native() const {
    return comm_;
  }
#endif

  int rank() const {
    return rank_;
  }
  int size() const {
    return size_;
  }
  bool is_root() const {
    return rank_ == 0;
  }

  void barrier() const;

  /// In-place element-wise sum over ranks; every rank receives the result. Integer sums are
  /// exact, so a histogram summed over ranks does not depend on how walkers were split.
  void sum(std::uint64_t* data, std::size_t count) const;
  void sum(std::int64_t* data, std::size_t count) const;
  void sum(double* data, std::size_t count) const;
  /// In-place element-wise maximum over ranks; every rank receives the result.
  void max(std::uint64_t* data, std::size_t count) const;
  void max(std::int64_t* data, std::size_t count) const;
  void max(double* data, std::size_t count) const;

  template <class T>
  void sum(std::vector<T>& values) const {
    sum(values.data(), values.size());
  }
  template <class T>
  T sum(T value) const {
    sum(&value, 1);
    return value;
  }
  template <class T>
  void max(std::vector<T>& values) const {
    max(values.data(), values.size());
  }
  template <class T>
  T max(T value) const {
    max(&value, 1);
    return value;
  }

  /// Replaces `text` / `bytes` on every rank by the value on rank `root`.
  void broadcast(std::string& text, int root = 0) const;
  void broadcast(std::vector<std::uint8_t>& bytes, int root = 0) const;

  /// Concatenation of every rank's `local` in rank order on rank 0 (lengths may differ);
  /// an empty vector on the other ranks.
  std::vector<double> gather(const std::vector<double>& local) const;
  std::vector<std::uint64_t> gather(const std::vector<std::uint64_t>& local) const;
  std::vector<int> gather(const std::vector<int>& local) const;
  std::vector<std::uint8_t> gather(const std::vector<std::uint8_t>& local) const;

 private:
  int rank_ = 0;
  int size_ = 1;
#ifdef PORTAMC_HAVE_MPI
  MPI_Comm comm_ = MPI_COMM_NULL;
#endif
};

/// All ranks of the run: MPI_COMM_WORLD once MPI is initialised (Environment), else one rank.
Communicator world();

/// Whether the MPI library reports at run time that it accepts CUDA device pointers (Open
/// MPI's MPIX_Query_cuda_support from <mpi-ext.h>); false without MPI or where it cannot
/// tell. Halo exchanges hand device buffers to MPI only then, and stage otherwise.
bool mpi_accepts_device_memory();

/// The contiguous share of `count` items (walkers, realisations) of rank `rank` of `ranks`:
/// [begin, end), the first count % ranks ranks taking one item more. Concatenated in rank
/// order the shares are 0 .. count - 1.
struct Share {
  std::uint64_t begin = 0;
  std::uint64_t end = 0;
  std::uint64_t size() const { return end - begin; }
};
Share share_of(std::uint64_t count, int rank, int ranks);
inline Share share_of(std::uint64_t count, const Communicator& comm) {
  return share_of(count, comm.rank(), comm.size());
}

/// The file of this rank for per-rank data (checkpoints): `path` itself on one rank,
/// `path.rank<r>of<R>` on R > 1 ranks, so that a set of them only fits a run on R ranks.
std::string rank_file(const std::string& path, const Communicator& comm);

}  // namespace portamc::parallel
