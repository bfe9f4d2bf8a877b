#pragma once
// The isotropic (van der Waals) energy of the CVF model: a Lennard-Jones 12-6 potential
// 4 epsilon [(r0/r)^12 - (r0/r)^6] with a hard core at r0 and a cutoff (6 r0 by default),
// summed over the cubic lattice of cells of side r = v_iso^(1/3). Every cell has the same
// volume, so U_LJ = N u(v_iso) with u the half lattice sum per molecule. The sum includes every
// lattice vector n with |n| r <= cutoff; as v_iso grows, shells leave the sum one by one, so u
// has small steps at those volumes (the model's definition, not an approximation).
namespace portamc::cvf {

struct ModelParameters;

/// u(v_iso) in epsilon per molecule, v_iso in v0; +infinity inside the hard core (v_iso < 1).
double lennard_jones_energy_per_molecule(const ModelParameters& parameters, double v_iso);

}  // namespace portamc::cvf
