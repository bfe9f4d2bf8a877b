#include "portamc/cvf/parameters.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace portamc::cvf {

namespace {
void require(bool condition, const std::string& message) {
  if (!condition) throw std::invalid_argument(message);
}
std::string text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}
}  // namespace

void validate(const ModelParameters& m) {
  require(std::isfinite(m.epsilon_kj_per_mol) && m.epsilon_kj_per_mol > 0,
          "the Lennard-Jones energy epsilon must be positive, got " + text(m.epsilon_kj_per_mol));
  require(std::isfinite(m.r0_angstrom) && m.r0_angstrom > 0,
          "the hard-core diameter r0 must be positive, got " + text(m.r0_angstrom));
  require(std::isfinite(m.cutoff) && m.cutoff >= 1,
          "the Lennard-Jones cutoff must be at least r0 (1), got " + text(m.cutoff));
  require(std::isfinite(m.v_hb) && m.v_hb >= 0,
          "the volume per hydrogen bond v_HB must be >= 0, got " + text(m.v_hb));
  require(std::isfinite(m.J) && m.J >= 0,
          "the covalent HB energy J must be >= 0, got " + text(m.J));
  require(std::isfinite(m.J_sigma) && m.J_sigma >= 0,
          "the cooperative HB energy J_sigma must be >= 0, got " + text(m.J_sigma));
  require(std::isfinite(m.gas_threshold) && m.gas_threshold > 1,
          "the gas-like threshold v_iso/v0 must be above 1 (the hard core), got " +
              text(m.gas_threshold));
}

void validate(const StatePoint& point) {
  require(std::isfinite(point.temperature_kelvin) && point.temperature_kelvin > 0,
          "the temperature must be positive (in K), got " + text(point.temperature_kelvin));
  require(std::isfinite(point.pressure_megapascal),
          "the pressure must be finite (in MPa), got " + text(point.pressure_megapascal));
}

double molar_v0_cm3(const ModelParameters& m) {
  const double r0_cm = m.r0_angstrom * 1e-8;
  return r0_cm * r0_cm * r0_cm * avogadro;
}

ReducedStatePoint reduce(const ModelParameters& m, const StatePoint& point) {
  const double epsilon_j_per_mol = m.epsilon_kj_per_mol * 1e3;
  // P [Pa] * v0 [m^3/mol] is J/mol; MPa * cm^3/mol is exactly J/mol.
  return {gas_constant * point.temperature_kelvin / epsilon_j_per_mol,
          point.pressure_megapascal * molar_v0_cm3(m) / epsilon_j_per_mol};
}

double effective_coupling(const ModelParameters& m, const ReducedStatePoint& point) {
  return m.J - point.p * m.v_hb;
}

double density_g_per_cm3(const ModelParameters& m, double volume_per_molecule) {
  return water_molar_mass / (volume_per_molecule * molar_v0_cm3(m));
}

double kj_per_mol(const ModelParameters& m, double energy_per_molecule) {
  return energy_per_molecule * m.epsilon_kj_per_mol;
}

bool hydrogen_bonds_allowed(const ModelParameters& m, double v_iso) {
  return m.gas_like_cells == GasLikeCells::ignore || v_iso < m.gas_threshold;
}

}  // namespace portamc::cvf
