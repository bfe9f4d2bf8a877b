#!/usr/bin/env python3
"""Plot a portamc-cvf HDF5 result file.

Usage:
    tools/plot_cvf.py RESULT.h5 [-o OUTDIR] [--prefix NAME]
    tools/plot_cvf.py RESULT.h5 --compare OTHER.h5 [...]

Writes PNG files into OUTDIR (default: the directory of RESULT.h5), named
after NAME (default: the stem of RESULT.h5):

  NAME_autocorrelation.png  C_M(dt) of the order parameter at every state
                            point (the paper's Figs. 2a and 3), with the 1/e
                            line; dt in MC steps. With --compare, the other
                            file's curves (e.g. Swendsen-Wang against
                            Metropolis at the same points) dashed.
  NAME_response.png         (two or more state points) density, C_P, kappa_T
                            and alpha_P against T, one curve per pressure,
                            with their errors; points whose errors the
                            analysis did not find reliable are drawn hollow.
  NAME_series.png           the time series of density, N_HB/N and M at every
                            state point, with a dotted line at each point's
                            equilibration start (the transient before it is
                            left out of every estimate).

Needs h5py and matplotlib (Debian: python3-h5py, python3-matplotlib).
"""

import argparse
import os

import portamc_plotting as common
from portamc_plotting import fail, finish, h5py, np, plt, read, text

common.TOOL = "plot_cvf"


def points(h5):
    """The /cvf/point_<k> groups in run order."""
    n = int(h5["cvf"].attrs.get("points", 0))
    return [h5[f"cvf/point_{k}"] for k in range(n) if f"cvf/point_{k}" in h5]


def label(g):
    return f"{g.attrs['temperature']:g} K, {g.attrs['pressure']:g} MPa"


def algorithm(h5):
    return text(h5["cvf"].attrs.get("algorithm", "?"))


def plot_autocorrelation(h5, others, path):
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for file, style in [(h5, "-")] + [(o, "--") for o in others]:
        steps = float(file["cvf/point_0/order_autocorrelation"].attrs.get(
            "steps_per_measurement", 1)) if points(file) else 1.0
        for k, g in enumerate(points(file)):
            c = read(file, g.name + "/order_autocorrelation/c")
            dt = np.arange(len(c)) * steps
            ax.plot(dt, c, style, color=f"C{k}",
                    label=f"{label(g)} ({algorithm(file)})")
    ax.axhline(np.exp(-1), color="0.5", lw=0.8, ls=":")
    ax.set_xlabel(r"$\Delta t$ [MC steps]")
    ax.set_ylabel(r"$C_M(\Delta t)$")
    ax.set_xscale("symlog", linthresh=1)
    ax.set_xlim(left=0)
    ax.legend(fontsize=7)
    ax.set_title(f"order-parameter autocorrelation, N = {h5['cvf'].attrs['molecules']}")
    fig.tight_layout()
    finish(fig, h5, path)


def plot_response(h5, path):
    T, P = read(h5, "cvf/scan/temperature"), read(h5, "cvf/scan/pressure")
    quantities = [("density", r"$\rho$ [g/cm$^3$]"),
                  ("heat_capacity", r"$C_P$ [J/(mol K)]"),
                  ("compressibility", r"$\kappa_T$ [1/GPa]"),
                  ("expansivity", r"$\alpha_P$ [1/K]")]
    # Files written before 2026-11-27 have no reliability flags: every point drawn filled.
    reliable = (read(h5, "cvf/scan/reliable").astype(bool) if "cvf/scan/reliable" in h5
                else np.ones(len(T), dtype=bool))
    fig, axes = plt.subplots(2, 2, figsize=(8, 6), sharex=True)
    for ax, (name, ylabel) in zip(axes.flat, quantities):
        y, e = read(h5, f"cvf/scan/{name}"), read(h5, f"cvf/scan/{name}_error")
        for k, p in enumerate(np.unique(P)):
            sel = P == p
            order = np.argsort(T[sel])
            t, v, err, ok = T[sel][order], y[sel][order], e[sel][order], reliable[sel][order]
            ax.errorbar(t, v, yerr=err, marker="o", ms=3, capsize=2, color=f"C{k}",
                        mfc="none", label=f"{p:g} MPa")
            ax.plot(t[ok], v[ok], "o", ms=3, color=f"C{k}")
        ax.set_ylabel(ylabel)
    for ax in axes[1]:
        ax.set_xlabel("T [K]")
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    finish(fig, h5, path)


def plot_series(h5, path):
    groups = points(h5)
    fig, axes = plt.subplots(3, 1, figsize=(7, 6.5), sharex=True)
    for k, g in enumerate(groups):
        step = read(h5, g.name + "/order/step")
        volume = read(h5, g.name + "/volume/value")
        r0 = float(h5["cvf"].attrs["r0_angstrom"])
        v0_cm3_per_mol = (r0 * 1e-8) ** 3 * 6.02214076e23
        axes[0].plot(step, 18.01528 / (volume * v0_cm3_per_mol), lw=0.6, color=f"C{k}", label=label(g))
        axes[1].plot(step, read(h5, g.name + "/hydrogen_bonds/value"), lw=0.6, color=f"C{k}")
        axes[2].plot(step, read(h5, g.name + "/order/value"), lw=0.6, color=f"C{k}")
        start = int(g.attrs.get("equilibration_start", 0))
        if 0 < start < len(step):
            for ax in axes:
                ax.axvline(step[start], color=f"C{k}", lw=0.8, ls=":")
    axes[0].set_ylabel(r"$\rho$ [g/cm$^3$]")
    axes[1].set_ylabel(r"$N_{HB}/N$")
    axes[2].set_ylabel(r"$M$")
    axes[2].set_xlabel("MC step")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    finish(fig, h5, path)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Plot a portamc-cvf HDF5 result file.")
    parser.add_argument("result")
    parser.add_argument("-o", "--outdir")
    parser.add_argument("--prefix")
    parser.add_argument("--compare", nargs="*", default=[],
                        help="other portamc-cvf results drawn dashed in the C_M plot")
    args = parser.parse_args(argv)
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.result))
    prefix = args.prefix or os.path.splitext(os.path.basename(args.result))[0]
    os.makedirs(outdir, exist_ok=True)
    base = os.path.join(outdir, prefix)
    with common.open_result(args.result, "cvf", "portamc-cvf") as h5:
        if not points(h5):
            fail(f"{args.result} has no /cvf/point_<k> groups")
        others = [common.open_result(o, "cvf", "portamc-cvf") for o in args.compare]
        try:
            plot_autocorrelation(h5, others, base + "_autocorrelation.png")
        finally:
            for o in others:
                o.close()
        if len(points(h5)) >= 2:
            plot_response(h5, base + "_response.png")
        plot_series(h5, base + "_series.png")


if __name__ == "__main__":
    main()
