#pragma once
// Typed parameters of a multicanonical Ising run. Apps map YAML onto this struct;
// the model validates it once and never sees YAML.
#include <cstdint>
#include <string>
#include <vector>

namespace portamc::muca {

/// Where each walker's spins live during a sweep kernel.
enum class LatticeStorage {
  automatic,  ///< team scratch (GPU shared memory) when a team of walkers fits, else global
  scratch,    ///< copied into team scratch memory for the whole kernel
  global,     ///< read and written in place in device memory
};

struct Parameters {
  int L = 16;  ///< linear lattice size of IsingMuca (even, 4..256); SpinMuca uses its Hamiltonian's
  long long walkers = 0;  ///< 0 = fill the device
  /// Global index of the first walker: the RNG entity of walker w is first_walker + w, so that
  /// a rank simulating a share of a run's walkers draws what a single rank would.
  long long first_walker = 0;
  /// Walkers of the whole run over all ranks (0: first_walker + walkers): walker groups are
  /// ranges of global walker indices, the same whatever the rank count.
  long long total_walkers = 0;
  /// Production histograms are recorded per group of walkers, group(w) = w G / W with
  /// G = min(walker_groups, W): the walkers are independent chains, so the groups give
  /// errors that do not depend on how long a walker remembers its energy (time blocks do).
  int walker_groups = 64;
  std::uint64_t seed = 1;
  LatticeStorage storage = LatticeStorage::automatic;
  int team_size = 0;  ///< threads per team on GPUs; 0 = choose
  /// Walkers one thread updates in lockstep: 0 = choose (GPUs: 2 with lattices in shared
  /// memory, else 1; CPUs: 8). More give
  /// a thread independent dependency chains and share the per-step site arithmetic.
  int walkers_per_thread = 0;
  /// model.occupancy: GPUs: percent of a multiprocessor's threads the sweep kernel keeps
  /// resident (Kokkos' DesiredOccupancy), which also sizes the shared-memory carve-out and so
  /// the L1 left for lattices in global memory; 0 = choose (global lattices:
  /// global_lattice_occupancy in detail/ising_muca.hpp; lattices in team scratch: no limit),
  /// 100 = no limit. Host backends ignore it. Never changes the results.
  int occupancy = 0;
  /// Host backends: record through the GPU plan's histogram rows in team scratch (teams of one
  /// thread) instead of per-thread duplicates. Slower; it lets the tests run that code path,
  /// the row choice and the spill of later groups (team_group_rows) on CPUs. GPUs ignore it.
  bool team_histogram_on_host = false;

  // Weight iteration (Gross et al. 2018, Sec. 3).
  double therm_factor = 30.0;      ///< N_therm = therm_factor * w attempts per walker
  double updates_prefactor = 6.0;  ///< N_updates = prefactor * w^exponent / W + 1
  double updates_exponent = 2.25;
  double updates_growth = 1.1;  ///< per iteration once the full range is covered
  double kl_threshold = 1e-4;   ///< stop when the Kullback–Leibler divergence is below
  int max_iterations = 1000;

  // Production with fixed weights.
  /// Thermalisation under the final weights before the first block:
  /// round(prefactor * N^exponent) attempts per walker (the paper's code: N^2.25). Each walker
  /// performs only a few hundred sweeps per block, so the walker population left by the
  /// weight iteration relaxes over this time, not within a block.
  double production_therm_prefactor = 1.0;
  double production_therm_exponent = 2.25;
  /// Largest |z| between the first and the last third of the blocks that passes the
  /// stationarity check (muca/stationarity.hpp).
  double stationarity_threshold = 4.5;
  int production_blocks = 100;
  std::uint64_t production_updates_per_block =
      0;  ///< attempts per walker; 0 = 10 * N_updates of the last iteration
  /// The production measures every walker's order parameter every this many sweeps (N
  /// attempts per walker), into moments per walker group and energy bin (order_parameter.hpp);
  /// 0: not at all.
  int order_parameter_sweeps = 1;

  /// Throws std::invalid_argument naming the offending parameter (L is the engine's to check).
  void validate() const;
};

/// The energy bins a run iterates and samples: bin k holds energy first + unit k, and a bin
/// is accessible when some configuration has its energy and the run's range includes it.
/// The bins count the site_states^N configurations of N sites (ln g is normalised to them).
/// EnergyBins(L) are those of the L x L periodic Ising model, E = -2N + 4k for k = 0..N,
/// N = L^2; bins 1 and N-1 (E = +-(2N-4)) cannot be reached on the periodic lattice. The
/// generic engine's runs (SpinMuca) give their own (spin_muca.hpp).
struct EnergyBins {
  int N = 0;                             ///< sites
  int first = 0;                         ///< energy of bin 0
  int unit = 4;                          ///< energy per bin
  std::vector<unsigned char> reachable;  ///< 1 for an accessible bin
  int site_states = 2;                   ///< states of one site
  /// -1: ln g is normalised to all site_states^N configurations. Otherwise the bin whose ln g
  /// is 0: Blume-Capel's bin n = 0 (one configuration, no bond energy), since its bins count
  /// configurations weighted by exp(-beta bond), whose sum is not known beforehand.
  int anchor_bin = -1;

  explicit EnergyBins(int L);
  EnergyBins(int sites, int first_energy, int energy_unit, std::vector<unsigned char> accessible,
             int states_per_site = 2);
  int count() const { return static_cast<int>(reachable.size()); }
  int energy(int k) const { return first + unit * k; }
  /// energy(k) of every bin, for the analyses.
  std::vector<double> energies() const;
  bool accessible(int k) const { return k >= 0 && k < count() && reachable[k] != 0; }
  int accessible_count() const;
};

}  // namespace portamc::muca
