#pragma once
// Parameters of the CVF water model and the reduced units every kernel works in.
//
// Units (the paper's Table I): energies in epsilon (the Lennard-Jones energy, 5.5 kJ/mol),
// lengths in r0 (the van der Waals diameter, 2.9 Angstrom), volumes in v0 = r0^3. A state
// point is given in kelvin and megapascal and reduced once on the host:
//   t = k_B T / epsilon = R T / epsilon_molar,   p = P v0 / epsilon = P v0 N_A / epsilon_molar.
// Table I's J / (4 epsilon) = 0.5 and J_sigma / (4 epsilon) = 0.08 give J = 2 and
// J_sigma = 0.32 in these units; v_HB = 0.6 v0.
#include <string>

namespace portamc::cvf {

inline constexpr double gas_constant = 8.314462618;   ///< J / (mol K)
inline constexpr double avogadro = 6.02214076e23;     ///< 1 / mol
inline constexpr double water_molar_mass = 18.01528;  ///< g / mol
inline constexpr int bonding_states = 6;              ///< q: states of one sigma_ij

/// What a gas-like system (v_iso >= gas_threshold v0) does with hydrogen bonds.
enum class GasLikeCells {
  no_hydrogen_bonds,  ///< the paper's theta(r_1/2 - r): no HB forms, N_HB counts zero
  ignore,             ///< no gas criterion: HBs form at any v_iso
};

struct ModelParameters {
  double epsilon_kj_per_mol = 5.5;  ///< Lennard-Jones energy, the unit of energy
  double r0_angstrom = 2.9;         ///< hard-core (van der Waals) diameter, the unit of length
  double cutoff = 6.0;              ///< Lennard-Jones cutoff in r0
  double v_hb = 0.6;                ///< volume per hydrogen bond in v0
  double J = 2.0;                   ///< covalent (pairwise) HB energy in epsilon
  double J_sigma = 0.32;            ///< cooperative HB energy in epsilon
  double gas_threshold = 2.0;       ///< v_iso / v0 at and above which cells are gas-like
  GasLikeCells gas_like_cells = GasLikeCells::no_hydrogen_bonds;
  /// Include the N ln(V'_iso / V_iso) Jacobian of the isotropic rescaling in the volume
  /// move (the standard NPT acceptance); false gives the paper's exp(-Delta H / k_B T).
  bool volume_jacobian = true;
};

/// A thermodynamic state point in laboratory units.
struct StatePoint {
  double temperature_kelvin;
  double pressure_megapascal;
};

/// A state point in model units.
struct ReducedStatePoint {
  double t;  ///< k_B T / epsilon
  double p;  ///< P v0 / epsilon
};

/// Throws std::invalid_argument naming the first unphysical parameter (non-positive energy
/// scale, length, cutoff below the hard core, negative couplings or v_HB, threshold <= 1).
void validate(const ModelParameters& parameters);
/// Throws std::invalid_argument for T <= 0 or a non-finite pressure.
void validate(const StatePoint& point);

/// v0 in cm^3 per mole of molecules.
double molar_v0_cm3(const ModelParameters& parameters);
ReducedStatePoint reduce(const ModelParameters& parameters, const StatePoint& point);
/// J_eff = J - P v_HB in epsilon.
double effective_coupling(const ModelParameters& parameters, const ReducedStatePoint& point);
/// Mass density in g/cm^3 of a system with `volume_per_molecule` (in v0).
double density_g_per_cm3(const ModelParameters& parameters, double volume_per_molecule);
/// An energy per molecule in epsilon, in kJ/mol.
double kj_per_mol(const ModelParameters& parameters, double energy_per_molecule);
/// Whether HBs can form at this isotropic volume per cell (in v0).
bool hydrogen_bonds_allowed(const ModelParameters& parameters, double v_iso);

}  // namespace portamc::cvf
