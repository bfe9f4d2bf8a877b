#include "portamc/parallel.hpp"

#include <limits>
#include <stdexcept>
#include <type_traits>

#if defined(PORTAMC_HAVE_MPI) && defined(OPEN_MPI) && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif

namespace portamc::parallel {

#ifdef PORTAMC_HAVE_MPI
namespace {

template <class T>
MPI_Datatype datatype() {
  if constexpr (std::is_same_v<T, std::uint64_t>) return MPI_UINT64_T;
  if constexpr (std::is_same_v<T, std::int64_t>) return MPI_INT64_T;
  if constexpr (std::is_same_v<T, double>) return MPI_DOUBLE;
  if constexpr (std::is_same_v<T, int>) return MPI_INT;
  if constexpr (std::is_same_v<T, std::uint8_t>) return MPI_UINT8_T;
}

// MPI counts are int: larger transfers would need derived types, which nothing needs yet.
int count_of(std::size_t n, const char* what) {
  if (n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw std::length_error(std::string("portamc::parallel: ") + what +
                            " of more than 2^31 - 1 elements");
  return static_cast<int>(n);
}

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string("MPI error in ") + call);
}

template <class T>
void allreduce(MPI_Comm comm, T* data, std::size_t n, MPI_Op op) {
  check(MPI_Allreduce(MPI_IN_PLACE, data, count_of(n, "reduction"), datatype<T>(), op, comm),
        "MPI_Allreduce");
}

template <class T>
std::vector<T> gather_to_root(MPI_Comm comm, int rank, int size, const std::vector<T>& local) {
  const int mine = count_of(local.size(), "gather");
  std::vector<int> counts(rank == 0 ? size : 0);
  check(MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm), "MPI_Gather");
  std::vector<int> offsets(counts.size());
  std::size_t total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = count_of(total, "gather");
    total += static_cast<std::size_t>(counts[r]);
  }
  std::vector<T> all(total);
  count_of(total, "gather");
  check(MPI_Gatherv(local.data(), mine, datatype<T>(), all.data(), counts.data(), offsets.data(),
                    datatype<T>(), 0, comm),
        "MPI_Gatherv");
  return all;
}

}  // namespace

Communicator::Communicator(MPI_Comm comm) : comm_(comm) {
  check(MPI_Comm_rank(comm, &rank_), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size_), "MPI_Comm_size");
}

#define PORTAMC_ONE_RANK (comm_ == MPI_COMM_NULL || size_ == 1)
#else
#define PORTAMC_ONE_RANK true
#endif

void Communicator::barrier() const {
  if (PORTAMC_ONE_RANK) return;
#ifdef PORTAMC_HAVE_MPI
  check(MPI_Barrier(comm_), "MPI_Barrier");
#endif
}

#ifdef PORTAMC_HAVE_MPI
#define PORTAMC_REDUCE(T, name, op)                           \
  void Communicator::name(T* data, std::size_t count) const { \
    if (PORTAMC_ONE_RANK || count == 0) return;               \
    allreduce(comm_, data, count, op);                        \
  }
#else
#define PORTAMC_REDUCE(T, name, op) \
  void Communicator::name(T*, std::size_t) const {}
#endif
PORTAMC_REDUCE(std::uint64_t, sum, MPI_SUM)
PORTAMC_REDUCE(std::int64_t, sum, MPI_SUM)
PORTAMC_REDUCE(double, sum, MPI_SUM)
PORTAMC_REDUCE(std::uint64_t, max, MPI_MAX)
PORTAMC_REDUCE(std::int64_t, max, MPI_MAX)
PORTAMC_REDUCE(double, max, MPI_MAX)
#undef PORTAMC_REDUCE

void Communicator::broadcast(std::vector<std::uint8_t>& bytes, int root) const {
  if (PORTAMC_ONE_RANK) return;
#ifdef PORTAMC_HAVE_MPI
  std::uint64_t n = bytes.size();
  check(MPI_Bcast(&n, 1, MPI_UINT64_T, root, comm_), "MPI_Bcast");
  bytes.resize(n);
  check(MPI_Bcast(bytes.data(), count_of(n, "broadcast"), MPI_UINT8_T, root, comm_), "MPI_Bcast");
#else
  (void)bytes, (void)root;
#endif
}

void Communicator::broadcast(std::string& text, int root) const {
  if (PORTAMC_ONE_RANK) return;
  std::vector<std::uint8_t> bytes(text.begin(), text.end());
  broadcast(bytes, root);
  text.assign(bytes.begin(), bytes.end());
}

#ifdef PORTAMC_HAVE_MPI
#define PORTAMC_GATHER(T)                                                  \
  std::vector<T> Communicator::gather(const std::vector<T>& local) const { \
    if (PORTAMC_ONE_RANK) return local;                                    \
    return gather_to_root(comm_, rank_, size_, local);                     \
  }
#else
#define PORTAMC_GATHER(T)                                                  \
  std::vector<T> Communicator::gather(const std::vector<T>& local) const { \
    return local;                                                          \
  }
#endif
PORTAMC_GATHER(double)
PORTAMC_GATHER(std::uint64_t)
PORTAMC_GATHER(int)
PORTAMC_GATHER(std::uint8_t)
#undef PORTAMC_GATHER
#undef PORTAMC_ONE_RANK

Communicator world() {
#ifdef PORTAMC_HAVE_MPI
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) return Communicator(MPI_COMM_WORLD);
#endif
  return Communicator();
}

Share share_of(std::uint64_t count, int rank, int ranks) {
  if (ranks < 1 || rank < 0 || rank >= ranks)
    throw std::invalid_argument("portamc::parallel::share_of: rank " + std::to_string(rank) +
                                " of " + std::to_string(ranks));
  const auto r = static_cast<std::uint64_t>(rank), n = static_cast<std::uint64_t>(ranks);
  const std::uint64_t base = count / n, extra = count % n;
  Share s;
  s.begin = r * base + (r < extra ? r : extra);
  s.end = s.begin + base + (r < extra ? 1 : 0);
  return s;
}

bool mpi_accepts_device_memory() {
#if defined(PORTAMC_HAVE_MPI) && defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

std::string rank_file(const std::string& path, const Communicator& comm) {
  if (comm.size() == 1) return path;
  return path + ".rank" + std::to_string(comm.rank()) + "of" + std::to_string(comm.size());
}

}  // namespace portamc::parallel
