#!/usr/bin/env python3
"""Plot a portamc-su2 HDF5 result file.

Usage:
    tools/plot_su2.py RESULT.h5 [-o OUTDIR] [--prefix NAME]

Writes PNG files into OUTDIR (default: the directory of RESULT.h5), named
after NAME (default: the stem of RESULT.h5):

  NAME_potential.png   (files with Wilson loops) the static potential V(R) a
                       with jackknife errors, unsmeared and APE-smeared where
                       measured, each with its fit V0 - alpha/R + sigma R over
                       the fit range and the lattice spacing it gives. With
                       several couplings: NAME_potential_point<k>.png, one
                       per coupling.
  NAME_polyakov.png    (files with two or more couplings, e.g. a beta scan)
                       <|P|> and <P> against beta above, the susceptibility
                       chi = N_s (<P^2> - <|P|>^2) below.
  NAME_polyakov_histogram.png
                       histogram of the spatial-average Polyakov loop P at
                       every coupling (normalised to unit area).
  NAME_flow.png        (files with the gradient flow) t^2 <E(t)> from the
                       plaquette and the clover with the reference line and
                       t0, w0 with their errors; the topological charge Q at
                       t_max over the Monte Carlo chain and its histogram.
                       With several couplings: NAME_flow_point<k>.png.

Needs h5py and matplotlib (Debian: python3-h5py, python3-matplotlib).
"""

import sys

# Shared helpers, next to this script (Python puts the script's folder on sys.path).
import portamc_plotting as common
from portamc_plotting import fail, finish, h5py, np, plt, read, text

common.TOOL = "plot_su2"









def lattice_text(h5):
    """'16^3 x 4'-style description of the lattice (matplotlib mathtext)."""
    extents = [int(n) for n in read(h5, "su2/extents")]
    spatial, time = extents[:-1], extents[-1]
    if len(set(spatial)) == 1 and len(spatial) > 1:
        space = f"{spatial[0]}^{{{len(spatial)}}}"
    else:
        space = r" \times ".join(str(n) for n in spatial)
    return rf"${space} \times {time}$"


def points(h5):
    """The point_<k> groups in order of k."""
    names = [n for n in h5["su2"] if n.startswith("point_")]
    names.sort(key=lambda n: int(n.split("_", 1)[1]))
    return [h5["su2"][n] for n in names]


def potential_ok(group, name):
    """True if GROUP has a potential NAME whose analysis succeeded."""
    obj = group.get(name)
    return isinstance(obj, h5py.Group) and text(obj.attrs.get("status", "")) == "ok"


def plot_potential(h5, point, path):
    """V(R) with errors and the Cornell fit, unsmeared and smeared."""
    beta = float(point.attrs["beta"])
    fig, ax = plt.subplots(figsize=(6.4, 4.8), constrained_layout=True)
    drawn = False
    styles = (("potential", "unsmeared", "C0", "o"),
              ("potential_smeared", "APE smeared", "C3", "s"))
    for offset, (name, what, colour, marker) in enumerate(styles):
        status = point.get(name)
        if status is None:
            continue
        if not potential_ok(point, name):
            print(f"plot_su2: {point.name}/{name}: not plotted: "
                  f"{text(status.attrs.get('status', 'no status'))}",
                  file=sys.stderr)
            continue
        g = point[name]
        r = read(h5, g.name + "/r")
        v = read(h5, g.name + "/v")
        err = read(h5, g.name + "/v_error")
        ok = np.isfinite(v)
        # Shift the two data sets apart a little so their error bars stay
        # readable where they agree.
        shift = 0.06 * (offset - 0.5)
        ax.errorbar(r[ok] + shift, v[ok], yerr=err[ok], fmt=marker, ms=3.5,
                    lw=0.8, capsize=2, color=colour, label=f"{what}")
        v0, alpha, sigma = (float(g[k][()]) for k in ("v0", "alpha", "sigma"))
        sigma_err = float(g["sigma_error"][()])
        a_fm, a_err = float(g["spacing_fm"][()]), float(g["spacing_fm_error"][()])
        lo, hi = int(g.attrs["fit_r_min"]), int(g.attrs["fit_r_max"])
        x = np.linspace(max(0.5, lo - 0.4), hi + 0.4, 200)
        ax.plot(x, v0 - alpha / x + sigma * x, "-", lw=1.0, color=colour,
                label=(rf"fit R = {lo}-{hi}: $\sigma a^2 = {sigma:.4f}"
                       rf"\pm{sigma_err:.4f}$, $a = {a_fm:.4f}\pm{a_err:.4f}$ fm"))
        drawn = True
    if not drawn:
        plt.close(fig)
        return False
    ax.set_xlabel("R / a")
    ax.set_ylabel("V(R) a")
    ax.set_title(rf"static potential, $\beta = {beta:g}$, {lattice_text(h5)}")
    # V(R) rises with R: the upper left corner stays clear.
    ax.legend(loc="upper left", fontsize="small")
    finish(fig, h5, path)
    return True


def plot_polyakov(h5, path):
    """<|P|>, <P> and chi against beta from the /su2/scan table."""
    beta = read(h5, "su2/scan/beta")
    order = np.argsort(beta)
    beta = beta[order]

    def column(name):
        return (read(h5, f"su2/scan/{name}")[order],
                read(h5, f"su2/scan/{name}_error")[order])

    fig, (upper, lower) = plt.subplots(2, 1, sharex=True, figsize=(6.4, 6.4),
                                       constrained_layout=True)
    p_abs, p_abs_err = column("polyakov_abs")
    p, p_err = column("polyakov")
    upper.errorbar(beta, p_abs, yerr=p_abs_err, fmt="o-", ms=3, lw=0.8,
                   capsize=2, color="C0", label=r"$\langle |P| \rangle$")
    upper.errorbar(beta, p, yerr=p_err, fmt="s:", ms=3, lw=0.8, capsize=2,
                   color="C1", label=r"$\langle P \rangle$")
    upper.axhline(0.0, color="0.6", lw=0.6)
    upper.set_ylabel("Polyakov loop")
    upper.legend(loc="upper left", fontsize="small")
    upper.set_title(f"Polyakov loop against beta, {lattice_text(h5)}")

    chi, chi_err = column("polyakov_susceptibility")
    lower.errorbar(beta, chi, yerr=chi_err, fmt="o-", ms=3, lw=0.8,
                   capsize=2, color="C2")
    lower.set_ylabel(r"$\chi = N_s(\langle P^2\rangle - \langle|P|\rangle^2)$")
    lower.set_xlabel(r"$\beta$")
    finish(fig, h5, path)


def plot_histograms(h5, path):
    """Normalised histograms of the spatial-average Polyakov loop."""
    groups = points(h5)
    fig, ax = plt.subplots(figsize=(6.4, 4.4), constrained_layout=True)
    colours = plt.cm.viridis(np.linspace(0.0, 0.9, max(len(groups), 1)))
    lo, hi = 1.0, -1.0
    for colour, g in zip(colours, groups):
        edges = read(h5, g.name + "/polyakov_histogram/edges")
        counts = read(h5, g.name + "/polyakov_histogram/counts")
        total = counts.sum()
        if total <= 0:
            continue
        density = counts / (total * np.diff(edges))
        filled = np.nonzero(counts)[0]
        lo, hi = min(lo, edges[filled[0]]), max(hi, edges[filled[-1] + 1])
        ax.stairs(density, edges, color=colour, lw=1.0,
                  label=rf"$\beta = {float(g.attrs['beta']):g}$")
    if hi > lo:
        # The histogram spans [-1, 1]; show only the part that was visited.
        margin = 0.1 * (hi - lo)
        ax.set_xlim(max(-1.0, lo - margin), min(1.0, hi + margin))
    ax.set_xlabel("P (spatial average of the Polyakov loop)")
    ax.set_ylabel("probability density")
    ax.set_title(f"Polyakov-loop histogram, {lattice_text(h5)}")
    ax.legend(loc="upper right", fontsize="x-small",
              ncol=2 if len(groups) > 6 else 1)
    finish(fig, h5, path)


def with_error(value, error):
    """'v \\pm e' for mathtext, NaN as 'n/a'."""
    if not np.isfinite(value):
        return r"{\rm n/a}"
    return rf"{value:.4g} \pm {error:.2g}"


def plot_flow(h5, point, path):
    """t^2 E(t) with t0 and w0, and the history and histogram of Q(t_max)."""
    f = point.name + "/flow"
    if "t2_energy_plaquette" not in h5[f]:
        return  # flowed, but too few configurations after equilibration to analyse
    t = read(h5, f + "/t")
    reference = float(h5[f].attrs["reference"])
    fig, (left, middle, right) = plt.subplots(1, 3, figsize=(13.0, 4.2),
                                              constrained_layout=True,
                                              gridspec_kw={"width_ratios": [1.3, 1.3, 0.7]})
    for kind, colour in (("plaquette", "C0"), ("clover", "C1")):
        curve = read(h5, f"{f}/t2_energy_{kind}")
        left.plot(t, curve, color=colour, lw=1.2,
                  label=rf"$t^2\langle E_{{\rm {kind[:4]}}}\rangle$")
        if f"t2_energy_{kind}_error" in h5[f]:  # files before the curve had errors lack it
            error = read(h5, f"{f}/t2_energy_{kind}_error")
            left.fill_between(t, curve - error, curve + error, color=colour, alpha=0.3, lw=0)
        t0, t0_error = read(h5, f"{f}/t0_{kind}"), read(h5, f"{f}/t0_{kind}_error")
        w0, w0_error = read(h5, f"{f}/w0_{kind}"), read(h5, f"{f}/w0_{kind}_error")
        if np.isfinite(t0):
            left.axvspan(t0 - t0_error, t0 + t0_error, color=colour, alpha=0.2)
            left.axvline(t0, color=colour, ls="--", lw=0.8,
                         label=rf"$t_0/a^2 = {with_error(t0, t0_error)}$")
        if np.isfinite(w0):
            left.axvline(w0 * w0, color=colour, ls=":", lw=0.8,
                         label=rf"$w_0/a = {with_error(w0, w0_error)}$")
    left.axhline(reference, color="grey", lw=0.8)
    left.set_xlabel(r"flow time $t/a^2$")
    left.set_ylabel(r"$t^2 \langle E(t) \rangle$")
    left.set_title(rf"$\beta = {float(point.attrs['beta']):g}$, {lattice_text(h5)}")
    left.legend(loc="upper left", fontsize="x-small")
    step = read(h5, f + "/charge_at_t_max/step")
    q = read(h5, f + "/charge_at_t_max/value")
    middle.plot(step, q, ".", ms=3, color="C2")
    middle.set_xlabel("updates")
    middle.set_ylabel(rf"$Q(t = {float(h5[f].attrs['t_max']):g})$")
    chi, chi_error = (read(h5, f + "/topological_susceptibility"),
                      read(h5, f + "/topological_susceptibility_error"))
    middle.set_title(rf"$\chi_t a^4 = {with_error(chi, chi_error)}$")
    edges = np.arange(np.floor(q.min()) - 0.5, np.ceil(q.max()) + 1.0, 0.25) if len(q) else [0, 1]
    right.hist(q, bins=edges, orientation="horizontal", color="C2", alpha=0.7)
    right.set_xlabel("configurations")
    right.sharey(middle)
    finish(fig, h5, path)


def main(argv=None):
    result, base = common.output_base(
        argv, "portamc-su2",
        "Plot a portamc-su2 HDF5 result file as PNG images: the "
        "static potential with its fit, and the Polyakov loop against beta "
        "for a beta scan.")
    with common.open_result(result, "su2", "portamc-su2") as h5:
        groups = points(h5)
        if not groups:
            fail(f"{result} has no /su2/point_<k> groups")
        for k, g in enumerate(groups):
            suffix = "" if len(groups) == 1 else f"_point{k}"
            if "potential" in g or "potential_smeared" in g:
                plot_potential(h5, g, f"{base}_potential{suffix}.png")
            if "flow" in g:
                plot_flow(h5, g, f"{base}_flow{suffix}.png")
        if len(groups) >= 2:
            plot_polyakov(h5, base + "_polyakov.png")
        plot_histograms(h5, base + "_polyakov_histogram.png")


if __name__ == "__main__":
    main()
