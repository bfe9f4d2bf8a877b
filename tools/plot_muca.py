#!/usr/bin/env python3
"""Plot a portamc-muca HDF5 result file.

Usage:
    tools/plot_muca.py RESULT.h5 [-o OUTDIR] [--prefix NAME]
    tools/plot_muca.py --tension RESULT.h5 RESULT.h5 ... [-o TENSION.png]

Writes three PNG files into OUTDIR (default: the directory of RESULT.h5),
named after NAME (default: the stem of RESULT.h5):

  NAME_log_dos.png     ln g(E) against E/N with jackknife errors, plus the
                       exact transfer-matrix ln g(E) where the file has it
                       (L <= 8); below, the error eps(E) and the deviation
                       |ln g - ln g_exact| on a log scale (cf. Fig. 7 of
                       Gross, Zierenberg, Weigel, Janke, CPC 224 (2018) 387).
  NAME_canonical.png   U/N and C/N against beta, reweighted from the
                       multicanonical run, with the Ferdinand-Fisher exact
                       finite-torus curves and the infinite-lattice beta_c.
  NAME_iterations.png  convergence of the weight iteration: Kullback-Leibler
                       divergence and Chebyshev distance of each histogram
                       from a flat one, and the number of energy bins visited.
  NAME_double_peak.png (only with /muca/first_order, a first-order run) the
                       canonical energy distribution ln P(E) at beta_eq, where
                       the two peaks are equally high, with the valley between
                       them; its depth gives the interface tension.

The model (Ising 2D/3D, Potts) comes from the /muca attributes; beta_c is
marked where it is known exactly or to high precision.

With --tension, the first-order runs of one model at several L (each with
/muca/first_order) give one plot: the interface tension beta sigma_L against
1/L with errors, and the weighted least-squares line sigma_L = sigma + a/L
extrapolated to 1/L = 0, its intercept and error in the legend.

Needs h5py and matplotlib (Debian: python3-h5py, python3-matplotlib).
"""

import math

# Shared helpers, next to this script (Python puts the script's folder on sys.path).
import portamc_plotting as common
from portamc_plotting import fail, finish, h5py, np, plt, read, text

common.TOOL = "plot_muca"



def beta_c(h5):
    """(beta_c, label) of the infinite-lattice transition of the file's model, or None."""
    attrs = h5["muca"].attrs
    kind = text(attrs.get("hamiltonian", "ising"))
    dimension = int(attrs.get("dimension", 2))
    if kind == "ising" and dimension == 2:  # Onsager
        return math.log(1.0 + math.sqrt(2.0)) / 2.0, r"$\beta_c = \ln(1+\sqrt{2})/2$"
    if kind == "ising" and dimension == 3:  # Ferrenberg, Xu, Landau (2018)
        return 0.2216546, r"$\beta_c = 0.2216546$"
    if kind == "potts" and dimension == 2:  # self-duality
        q = int(attrs["q"])
        return math.log(1.0 + math.sqrt(q)), rf"$\beta_c = \ln(1+\sqrt{{{q}}})$"
    return None


def model_name(h5):
    """E.g. 'potts q = 10, L = 32 (2D)'."""
    attrs = h5["muca"].attrs
    kind = text(attrs.get("hamiltonian", "ising"))
    dimension = int(attrs.get("dimension", 2))
    name = kind + (f" q = {int(attrs['q'])}" if kind == "potts" else "")
    return f"{name}, L = {int(attrs['L'])} ({dimension}D)"






def read_optional(h5, name):
    """Read NAME if present, else None (the exact references are optional)."""
    return read(h5, name) if isinstance(h5.get(name), h5py.Dataset) else None



def label(h5, name, what):
    """Axis label WHAT, with the 'units' attribute of NAME if non-empty."""
    obj = h5.get(name)
    units = text(obj.attrs.get("units", "")) if obj is not None else ""
    return f"{what} [{units}]" if units else what




def lattice(h5):
    """Return (L, number of walkers, N sites) from the /muca attributes (files written before
    the other models existed have no 'sites': the 2D Ising model, N = L^2)."""
    attrs = h5["muca"].attrs
    if "L" not in attrs:
        fail(f"{h5.filename}: group /muca has no attribute L")
    size = int(attrs["L"])
    walkers = int(attrs["walkers"]) if "walkers" in attrs else None
    sites = int(attrs["sites"]) if "sites" in attrs else size * size
    return size, walkers, sites


def plot_log_dos(h5, path):
    """ln g(E) with errors on top; eps(E) and |ln g - exact| below (log y)."""
    size, _, sites = lattice(h5)
    e_per_site = read(h5, "muca/dos/energy") / sites
    log_g = read(h5, "muca/dos/log_g")
    error = read(h5, "muca/dos/log_g_error")
    exact = read_optional(h5, "muca/dos/log_g_exact")

    # Bins never visited (and energies no configuration has) are stored as
    # -inf; they cannot be drawn.
    ok = np.isfinite(log_g) & np.isfinite(error)

    fig, (top, bottom) = plt.subplots(
        2, 1, sharex=True, figsize=(6.4, 6.4),
        gridspec_kw={"height_ratios": [2, 1]}, constrained_layout=True)

    top.errorbar(e_per_site[ok], log_g[ok], yerr=error[ok], fmt="o", ms=2.5,
                 lw=0.8, capsize=1.5, color="C0", label="multicanonical")
    if exact is not None:
        good = np.isfinite(exact)
        top.plot(e_per_site[good], exact[good], "-", color="black", lw=0.8,
                 label="exact")
    top.set_ylabel(label(h5, "muca/dos/log_g", r"$\ln g(E)$"))
    top.set_title(f"density of states, {model_name(h5)}")
    # ln g is a dome: the bottom centre of the panel is the empty part.
    top.legend(loc="lower center")

    # The errors span orders of magnitude over the energy range, so only a
    # log scale shows both the tails and the centre.
    bottom.semilogy(e_per_site[ok], error[ok], "--", color="C0", lw=1.0,
                    label=r"jackknife error $\varepsilon(E)$")
    if exact is not None:
        both = ok & np.isfinite(exact)
        deviation = np.abs(log_g[both] - exact[both])
        # A deviation of exactly zero has no place on a log axis.
        shown = deviation > 0
        bottom.semilogy(e_per_site[both][shown], deviation[shown], "-",
                        color="C3", lw=0.8,
                        label=r"$|\ln g - \ln g_{\mathrm{exact}}|$")
    bottom.set_xlabel(label(h5, "muca/dos/energy", "E/N"))
    bottom.set_ylabel("error")
    bottom.legend(loc="best", fontsize="small")

    finish(fig, h5, path)


def plot_observable(ax, h5, beta, name, what):
    """One canonical observable: reweighted points with errors, exact line."""
    group = "muca/canonical/"
    value = read(h5, group + name)
    error = read_optional(h5, group + name + "_error")
    exact = read_optional(h5, group + name + "_exact")

    if exact is not None:
        ax.plot(beta, exact, "-", color="black", lw=0.8,
                label="exact, finite lattice", zorder=1)
    ax.errorbar(beta, value, yerr=error, fmt="o", ms=3, lw=0.8, capsize=1.5,
                color="C0", label="multicanonical", zorder=2)
    critical = beta_c(h5)
    if critical is not None:
        ax.axvline(critical[0], ls=":", color="0.4", lw=1.0, label=critical[1])
    ax.set_ylabel(label(h5, group + name, what))


def plot_canonical(h5, path):
    """U/N and C/N against beta, one panel each, sharing the beta axis."""
    size, walkers, _ = lattice(h5)
    beta = read(h5, "muca/canonical/beta")

    fig, (upper, lower) = plt.subplots(2, 1, sharex=True, figsize=(6.4, 6.4),
                                       constrained_layout=True)
    plot_observable(upper, h5, beta, "energy", "U/N")
    plot_observable(lower, h5, beta, "specific_heat", "C/N")
    lower.set_xlabel(label(h5, "muca/canonical/beta", r"$\beta$"))
    # U/N falls with beta, C/N peaks near beta_c: these corners stay clear.
    upper.legend(loc="upper right", fontsize="small")
    lower.legend(loc="upper right", fontsize="small")

    title = f"canonical observables, {model_name(h5)}"
    if walkers is not None:
        title += f", W = {walkers}"
    upper.set_title(title)

    finish(fig, h5, path)


def plot_iterations(h5, path):
    """Distances from a flat histogram (log y), visited width (twin axis)."""
    size, _, _ = lattice(h5)
    group = "muca/iterations/"
    kl = read(h5, group + "kullback_leibler")
    chebyshev = read(h5, group + "chebyshev")
    width = read(h5, group + "width")
    iteration = read_optional(h5, group + "iteration")
    if iteration is None:
        iteration = np.arange(len(kl))

    fig, ax = plt.subplots(figsize=(6.4, 4.4), constrained_layout=True)
    ax.semilogy(iteration, kl, "o-", ms=2.5, lw=0.8, color="C0",
                label="Kullback-Leibler divergence")
    ax.semilogy(iteration, chebyshev, "s-", ms=2.5, lw=0.8, color="C1",
                label="Chebyshev distance")
    ax.set_xlabel(label(h5, group + "iteration", "iteration"))
    ax.set_ylabel("distance from flat histogram")

    twin = ax.twinx()
    twin.plot(iteration, width, "-", color="C2", lw=1.0,
              label="visited width")
    twin.set_ylabel(label(h5, group + "width", "visited width"),
                    color="C2")
    twin.tick_params(axis="y", colors="C2")
    # The width never falls below zero; anchoring it there shows how much
    # of the energy range is still missing in the early iterations.
    twin.set_ylim(bottom=0)

    # One legend for both axes (twinx would otherwise give each its own),
    # above the plot: the three curves leave no corner free in general, and
    # a legend inside would be hidden by the twin axis drawn over it.
    handles, labels = ax.get_legend_handles_labels()
    more_handles, more_labels = twin.get_legend_handles_labels()
    ax.legend(handles + more_handles, labels + more_labels, ncol=3,
              loc="lower center", bbox_to_anchor=(0.5, 1.0),
              fontsize="small", frameon=False)
    fig.suptitle(f"weight iteration, {model_name(h5)}")

    finish(fig, h5, path)


def plot_double_peak(h5, path):
    """ln P(E) at beta_eq (normalised to its maximum) against E/N, with the two phases'
    mean energies and the valley: the picture behind the first-order analysis."""
    group = "muca/first_order/"
    _, _, sites = lattice(h5)
    beta = float(read(h5, group + "beta_eq"))
    energy = read(h5, "muca/dos/energy").astype(float)
    log_g = read(h5, "muca/dos/log_g")
    ok = np.isfinite(log_g)
    log_p = log_g[ok] - beta * energy[ok]
    log_p -= log_p.max()
    e = energy[ok] / sites

    fig, ax = plt.subplots(figsize=(6.4, 4.4), constrained_layout=True)
    ax.plot(e, log_p, "-", color="C0", lw=1.0, label=r"$\ln P_{\beta_{eq}}(E)$")
    for name, style in (("energy_ordered", "--"), ("energy_disordered", "--")):
        ax.axvline(float(read(h5, group + name)) / sites, ls=style, color="0.4", lw=0.8)
    depth = float(read(h5, group + "log_peak_to_valley"))
    ax.axhline(-depth, ls=":", color="C3", lw=0.8,
               label=rf"valley: $\ln(P_{{max}}/P_{{min}})$ = {depth:.3f}")
    sigma = float(read(h5, group + "interface_tension"))
    sigma_error = float(read(h5, group + "interface_tension_error"))
    beta_error = float(read(h5, group + "beta_eq_error"))
    ax.set_xlabel("E/N")
    ax.set_ylabel(r"$\ln P(E)$ (max = 0)")
    ax.set_title(f"{model_name(h5)}: " + rf"$\beta_{{eq}}$ = {beta:.5f}({beta_error:.5f}), "
                 + rf"$\beta\sigma_L$ = {sigma:.5f}({sigma_error:.5f})", fontsize="medium")
    # The valley floor is the lowest part worth showing; far tails would squash it.
    ax.set_ylim(bottom=-max(3.0 * depth, 5.0), top=0.5)
    ax.legend(loc="lower center", fontsize="small")
    finish(fig, h5, path)


def plot_tension(argv):
    """beta sigma_L against 1/L over several result files, with the weighted 1/L fit."""
    import argparse

    parser = argparse.ArgumentParser(
        description="Interface tension against 1/L from portamc-muca first-order runs.")
    parser.add_argument("results", nargs="+", help="result files (.h5), one per L")
    parser.add_argument("-o", "--output", default="tension.png", help="PNG file to write")
    args = parser.parse_args(argv)
    # The PNG must not land on a result file: a typo such as `-o L32.h5` would destroy it.
    if not args.output.lower().endswith(".png"):
        fail(f"-o {args.output}: the plot is written as PNG; name a .png file")
    import os
    if any(os.path.exists(r) and os.path.exists(args.output) and os.path.samefile(r, args.output)
           for r in args.results):
        fail(f"-o {args.output} is one of the result files")
    sizes, sigma, error, names = [], [], [], set()
    for path in args.results:
        with common.open_result(path, "muca", "portamc-muca") as h5:
            peak = h5.get("muca/first_order")
            if peak is None or int(peak.attrs.get("found", 0)) != 1:
                fail(f"{path}: no double peak (/muca/first_order) to take the tension from")
            sizes.append(int(h5["muca"].attrs["L"]))
            sigma.append(float(read(h5, "muca/first_order/interface_tension")))
            error.append(float(read(h5, "muca/first_order/interface_tension_error")))
            names.add(model_name(h5).split(", L =")[0])
    if len(set(sizes)) < 2:
        fail("the fit needs runs at two or more lattice sizes")
    if len(names) > 1:
        fail("the files hold different models: " + ", ".join(sorted(names)))
    x = 1.0 / np.array(sizes, dtype=float)
    y = np.array(sigma)
    e = np.array(error)
    # Weighted least squares of y = c + s x with weights 1/e^2; errors from the normal
    # equations, not rescaled (chi^2/dof says whether the errors describe the scatter).
    w = 1.0 / e**2
    a = np.array([[w.sum(), (w * x).sum()], [(w * x).sum(), (w * x * x).sum()]])
    b = np.array([(w * y).sum(), (w * x * y).sum()])
    cov = np.linalg.inv(a)
    c, slope = cov @ b
    dof = len(x) - 2
    chi2 = float((w * (y - c - slope * x) ** 2).sum())
    fig, ax = plt.subplots(figsize=(6.4, 4.4), constrained_layout=True)
    ax.errorbar(x, y, yerr=e, fmt="o", ms=4, capsize=2, color="C0", label=r"$\beta\sigma_L$")
    grid = np.linspace(0.0, x.max() * 1.05, 50)
    fit = (rf"$\beta\sigma$ = {c:.5f} $\pm$ {math.sqrt(cov[0, 0]):.5f}"
           + (rf", $\chi^2$/dof = {chi2 / dof:.2f}" if dof > 0 else ""))
    ax.plot(grid, c + slope * grid, "-", color="C1", lw=1.0, label=fit)
    ax.set_xlabel("1/L")
    ax.set_ylabel(r"$\beta\sigma_L = \ln(P_{max}/P_{min}) / (2L^{d-1})$")
    ax.set_title(f"interface tension, {names.pop()}")
    ax.set_xlim(left=0.0)
    ax.legend(loc="upper left", fontsize="small")
    try:
        fig.savefig(args.output, dpi=150)
    except OSError as exc:
        fail(f"cannot write {args.output}: {exc}")
    print(args.output)


def main(argv=None):
    import sys

    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--tension":
        plot_tension(argv[1:])
        return
    result, base = common.output_base(
        argv, "portamc-muca",
        "Plot a portamc-muca HDF5 result file as PNG images.")
    with common.open_result(result, "muca", "portamc-muca") as h5:
        plot_log_dos(h5, base + "_log_dos.png")
        plot_canonical(h5, base + "_canonical.png")
        plot_iterations(h5, base + "_iterations.png")
        peak = h5.get("muca/first_order")
        if peak is not None and int(peak.attrs.get("found", 0)) == 1:
            plot_double_peak(h5, base + "_double_peak.png")


if __name__ == "__main__":
    main()
