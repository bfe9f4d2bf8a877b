#!/usr/bin/env python3
"""The error of a Binder-cumulant crossing (tools/plot_muca.py) against its scatter over seeds.

Usage: binder_crossing_calibration.py PORTAMC_MUCA INPUT WORK_DIR

Runs the 2D Ising input at L = 4 and L = 6 for 10 seeds each (independent seeds for the two
sizes, as separate runs at several L should have), finds the crossing of each pair as
`plot_muca.py --binder` does, and compares the scatter of the 10 crossings about their
weighted mean with their errors: chi^2 = sum ((x_k - mean) / dx_k)^2 must lie in the central
99.8 % of the chi^2 law with 9 degrees of freedom. The same crossings with every error scaled
by 0.2 or by 5 must fall outside it, so the check can fail. Exit 0 and "binder crossing errors
calibrated" when all holds, 1 otherwise."""

import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import numpy as np  # noqa: E402
import plot_muca  # noqa: E402

SEEDS = range(1, 11)
Z = 3.090  # the standard normal's 0.999 quantile


def chi2_quantile(dof, z):
    """Wilson-Hilferty: the chi^2 quantile with DOF degrees of freedom at normal quantile Z."""
    a = 2.0 / (9.0 * dof)
    return dof * (1.0 - a + z * math.sqrt(a)) ** 3


def run(app, config, work, size, seed):
    path = os.path.join(work, f"L{size}_seed{seed}.h5")
    subprocess.run([app, config, "--quiet", "--set", f"model.L={size}", "--set",
                    f"model.seed={seed}", "-o", path], check=True)
    return plot_muca.read_binder(path)


def main(app, config, work):
    os.makedirs(work, exist_ok=True)
    x, dx = [], []
    for seed in SEEDS:
        found, (lo, hi) = plot_muca.crossings(run(app, config, work, 4, seed),
                                              run(app, config, work, 6, 1000 + seed))
        if len(found) != 1:
            print(f"seed {seed}: {len(found)} crossings in [{lo:g}, {hi:g}], expected one")
            return 1
        x.append(found[0][0])
        dx.append(found[0][1])
    x, dx = np.array(x), np.array(dx)
    dof = len(x) - 1
    low, high = chi2_quantile(dof, -Z), chi2_quantile(dof, Z)

    def chi2(scale):
        w = 1.0 / (scale * dx) ** 2
        mean = float(np.sum(w * x) / np.sum(w))
        return float(np.sum(w * (x - mean) ** 2))

    for k in range(len(x)):
        print(f"seed {SEEDS[k]}: beta = {x[k]:.5f} +- {dx[k]:.5f}")
    print(f"chi2 = {chi2(1):.2f} for {dof} degrees of freedom (range {low:.2f} .. {high:.2f}); "
          f"errors x 0.2: {chi2(0.2):.1f}, x 5: {chi2(5):.3f}")
    if not low <= chi2(1) <= high:
        print("the crossing errors do not match the scatter over seeds")
        return 1
    if low <= chi2(0.2) <= high or low <= chi2(5) <= high:
        print("errors scaled by 0.2 or 5 pass too: the check cannot tell")
        return 1
    print("binder crossing errors calibrated")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    sys.exit(main(*sys.argv[1:]))
