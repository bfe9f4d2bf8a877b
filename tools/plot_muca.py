#!/usr/bin/env python3
"""Plot a portamc-muca HDF5 result file.

Usage:
    tools/plot_muca.py RESULT.h5 [-o OUTDIR] [--prefix NAME]
    tools/plot_muca.py --tension RESULT.h5 RESULT.h5 ... [-o TENSION.png]
    tools/plot_muca.py --binder RESULT.h5 RESULT.h5 ... [-o BINDER.png]

Writes PNG files into OUTDIR (default: the directory of RESULT.h5), named
after NAME (default: the stem of RESULT.h5):

  NAME_log_dos.png     ln g(E) against E/N with jackknife errors, plus the
                       exact transfer-matrix ln g(E) where the file has it
                       (L <= 8); below, the error eps(E) and the deviation
                       |ln g - ln g_exact| on a log scale (cf. Fig. 7 of
                       Gross, Zierenberg, Weigel, Janke, CPC 224 (2018) 387).
                       Blume-Capel: ln Z_beta(n) against n/N, n the number
                       of non-zero spins.
  NAME_canonical.png   U/N and C/N against beta, reweighted from the
                       multicanonical run, with the Ferdinand-Fisher exact
                       finite-torus curves and the infinite-lattice beta_c.
                       Not for Blume-Capel, which is reweighted in D instead:
  NAME_crystal_field.png
                       (Blume-Capel) the density <n>/N of non-zero spins and
                       its susceptibility against the crystal field D at the
                       run's beta, exact curves where the file has them, and
                       D = z/2, the T = 0 transition, where it is in range.
  NAME_order_parameter.png
                       (files with /muca/order_parameter) <|m|>, the
                       susceptibility chi and the Binder cumulant U4 against
                       beta (Blume-Capel: against D).
  NAME_iterations.png  convergence of the weight iteration: Kullback-Leibler
                       divergence and Chebyshev distance of each histogram
                       from a flat one, and the number of energy bins visited.
  NAME_double_peak.png (only with /muca/first_order, a first-order run) the
                       canonical energy distribution ln P(E) at beta_eq, where
                       the two peaks are equally high, with the valley between
                       them; its depth gives the interface tension.
                       Blume-Capel: ln P(n) at D_eq against n/N.

The model (Ising 2D/3D, Potts, Blume-Capel) comes from the /muca attributes;
beta_c is marked where it is known exactly or to high precision.

With --tension, the first-order runs of one model at several L (each with
/muca/first_order) give one plot: the interface tension beta sigma_L against
1/L with errors, and the weighted least-squares line sigma_L = sigma + a/L
extrapolated to 1/L = 0, its intercept and error in the legend.

With --binder, runs of one model at several L (each with /muca/order_parameter)
give one plot: the Binder cumulant U4 against beta (Blume-Capel: D) for every
L with errors, and the crossings of consecutive sizes, bracketed by linear and
placed by local cubic interpolation of each curve, printed with errors propagated
from the two curves' errors.

Needs h5py and matplotlib (Debian: python3-h5py, python3-matplotlib).
"""

import math
import os
import sys

# Shared helpers, next to this script (Python puts the script's folder on sys.path).
import portamc_plotting as common
from portamc_plotting import fail, finish, h5py, np, plt, read, text

common.TOOL = "plot_muca"


def hamiltonian(h5):
    """The model's name in the /muca attributes (files from before the other models: ising)."""
    return text(h5["muca"].attrs.get("hamiltonian", "ising"))


def is_blume_capel(h5):
    """Blume-Capel runs are multicanonical in n and reweighted in D, not in beta."""
    return hamiltonian(h5) == "blume_capel"


def run_beta(h5):
    """The fixed inverse temperature of a Blume-Capel run."""
    attrs = h5["muca"].attrs
    if "beta" not in attrs:
        fail(f"{h5.filename}: a blume_capel result needs the /muca attribute beta")
    return float(attrs["beta"])


def beta_c(h5):
    """(beta_c, label) of the infinite-lattice transition of the file's model, or None."""
    attrs = h5["muca"].attrs
    kind = hamiltonian(h5)
    dimension = int(attrs.get("dimension", 2))
    if kind == "blume_capel":  # its beta is fixed; the transition is in D
        return None
    if kind == "ising" and dimension == 2:  # Onsager
        return math.log(1.0 + math.sqrt(2.0)) / 2.0, r"$\beta_c = \ln(1+\sqrt{2})/2$"
    if kind == "ising" and dimension == 3:  # Ferrenberg, Xu, Landau (2018)
        return 0.2216546, r"$\beta_c = 0.2216546$"
    if kind == "potts" and dimension == 2:  # self-duality
        q = int(attrs["q"])
        return math.log(1.0 + math.sqrt(q)), rf"$\beta_c = \ln(1+\sqrt{{{q}}})$"
    return None


def field_marker(h5, field):
    """(D, label) of the T = 0 transition D = z/2 (= dimension on a hypercubic lattice), where
    the ordered and the all-zero ground states meet, if it lies on the plotted FIELD grid; the
    finite-temperature transition has no closed form."""
    dimension = int(h5["muca"].attrs.get("dimension", 2))
    if np.min(field) <= dimension <= np.max(field):
        return float(dimension), rf"$D = z/2 = {dimension}$ ($T = 0$ transition)"
    return None


def model_parts(h5):
    """(name with its parameters, dimension), e.g. ('potts q = 10', 2)."""
    attrs = h5["muca"].attrs
    kind = hamiltonian(h5)
    dimension = int(attrs.get("dimension", 2))
    name = kind
    if kind == "potts":
        name += f" q = {int(attrs['q'])}"
    elif kind == "blume_capel":
        name += f" beta = {run_beta(h5):g}"
    return name, dimension


def model_name(h5):
    """E.g. 'potts q = 10, L = 32 (2D)' or 'blume_capel beta = 2, L = 16 (2D)'."""
    name, dimension = model_parts(h5)
    return f"{name}, L = {int(h5['muca'].attrs['L'])} ({dimension}D)"


def model_family(h5):
    """The model without its size, e.g. 'ising (3D)': the runs that one plot compares across L
    must agree on it (the dimension too, which 'ising' alone would hide)."""
    name, dimension = model_parts(h5)
    return f"{name} ({dimension}D)"


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
    """ln g(E) with errors on top; eps(E) and |ln g - exact| below (log y). For Blume-Capel
    the bins are n, the non-zero spins, and log_g is ln Z_beta(n)."""
    size, _, sites = lattice(h5)
    e_per_site = read(h5, "muca/dos/energy") / sites
    log_g = read(h5, "muca/dos/log_g")
    error = read(h5, "muca/dos/log_g_error")
    exact = read_optional(h5, "muca/dos/log_g_exact")

    # Bins never visited (and energies no configuration has) are stored as
    # -inf; they cannot be drawn.
    ok = np.isfinite(log_g) & np.isfinite(error)

    if is_blume_capel(h5):
        # The bin dataset keeps the name 'energy' (and its units) but holds n.
        x_label, y_label, bin_symbol = "n/N", r"$\ln Z_\beta(n)$", "n"
        title = f"weight of n non-zero spins, {model_name(h5)}"
        # ln Z_beta(n) rises from 0 at n = 0: the bottom right stays empty.
        where = "lower right"
    else:
        x_label = label(h5, "muca/dos/energy", "E/N")
        y_label = label(h5, "muca/dos/log_g", r"$\ln g(E)$")
        bin_symbol = "E"
        title = f"density of states, {model_name(h5)}"
        # ln g is a dome: the bottom centre of the panel is the empty part.
        where = "lower center"

    fig, (top, bottom) = plt.subplots(
        2, 1, sharex=True, figsize=(6.4, 6.4),
        gridspec_kw={"height_ratios": [2, 1]}, constrained_layout=True)

    top.errorbar(e_per_site[ok], log_g[ok], yerr=error[ok], fmt="o", ms=2.5,
                 lw=0.8, capsize=1.5, color="C0", label="multicanonical")
    if exact is not None:
        good = np.isfinite(exact)
        top.plot(e_per_site[good], exact[good], "-", color="black", lw=0.8,
                 label="exact")
    top.set_ylabel(y_label)
    top.set_title(title)
    top.legend(loc=where)

    # The errors span orders of magnitude over the energy range, so only a
    # log scale shows both the tails and the centre. A bin fixed by the
    # normalisation (Blume-Capel's n = 0) has error 0: no place on a log axis.
    positive = ok & (error > 0)
    bottom.semilogy(e_per_site[positive], error[positive], "--", color="C0", lw=1.0,
                    label=rf"jackknife error $\varepsilon({bin_symbol})$")
    if exact is not None:
        both = ok & np.isfinite(exact)
        deviation = np.abs(log_g[both] - exact[both])
        # A deviation of exactly zero has no place on a log axis.
        shown = deviation > 0
        bottom.semilogy(e_per_site[both][shown], deviation[shown], "-",
                        color="C3", lw=0.8,
                        label=r"$|\ln g - \ln g_{\mathrm{exact}}|$")
    bottom.set_xlabel(x_label)
    bottom.set_ylabel("error")
    bottom.legend(loc="best", fontsize="small")

    finish(fig, h5, path)


def plot_observable(ax, h5, group, x, name, what, marker):
    """One reweighted observable GROUP/NAME against X: points with errors, the exact line
    where the file has one, and MARKER = (x, label) of a transition, or None."""
    value = read(h5, group + name)
    error = read_optional(h5, group + name + "_error")
    exact = read_optional(h5, group + name + "_exact")

    if exact is not None:
        ax.plot(x, exact, "-", color="black", lw=0.8,
                label="exact, finite lattice", zorder=1)
    ax.errorbar(x, value, yerr=error, fmt="o", ms=3, lw=0.8, capsize=1.5,
                color="C0", label="multicanonical", zorder=2)
    if marker is not None:
        ax.axvline(marker[0], ls=":", color="0.4", lw=1.0, label=marker[1])
    ax.set_ylabel(label(h5, group + name, what))


def run_title(h5, what):
    """Plot title: WHAT, the model and, where recorded, the number of walkers."""
    _, walkers, _ = lattice(h5)
    title = f"{what}, {model_name(h5)}"
    if walkers is not None:
        title += f", W = {walkers}"
    return title


def plot_canonical(h5, path):
    """U/N and C/N against beta, one panel each, sharing the beta axis."""
    group = "muca/canonical/"
    beta = read(h5, group + "beta")
    critical = beta_c(h5)

    fig, (upper, lower) = plt.subplots(2, 1, sharex=True, figsize=(6.4, 6.4),
                                       constrained_layout=True)
    plot_observable(upper, h5, group, beta, "energy", "U/N", critical)
    plot_observable(lower, h5, group, beta, "specific_heat", "C/N", critical)
    lower.set_xlabel(label(h5, group + "beta", r"$\beta$"))
    # U/N falls with beta, C/N peaks near beta_c: these corners stay clear.
    upper.legend(loc="upper right", fontsize="small")
    lower.legend(loc="upper right", fontsize="small")
    upper.set_title(run_title(h5, "canonical observables"))

    finish(fig, h5, path)


def plot_crystal_field(h5, path):
    """Blume-Capel's counterpart of plot_canonical: <n>/N and its susceptibility against D."""
    group = "muca/crystal_field/"
    field = read(h5, group + "crystal_field")
    marker = field_marker(h5, field)

    fig, (upper, lower) = plt.subplots(2, 1, sharex=True, figsize=(6.4, 6.4),
                                       constrained_layout=True)
    plot_observable(upper, h5, group, field, "density", r"$\langle n\rangle/N$", marker)
    plot_observable(lower, h5, group, field, "density_susceptibility",
                    r"$(\langle n^2\rangle - \langle n\rangle^2)/N$", marker)
    lower.set_xlabel(label(h5, group + "crystal_field", "D"))
    # The density falls with D (the top right is empty); the susceptibility
    # peaks at the transition and is low at the ends.
    upper.legend(loc="upper right", fontsize="small")
    lower.legend(loc="upper right", fontsize="small")
    upper.set_title(run_title(h5, rf"reweighting in D at $\beta$ = {run_beta(h5):g}"),
                    fontsize="medium")

    finish(fig, h5, path)


def order_parameter(h5):
    """The /muca/order_parameter group if the run measured it, else None: older files have
    no group, and available = 0 says this run had no order parameter."""
    group = h5.get("muca/order_parameter")
    if isinstance(group, h5py.Group) and int(group.attrs.get("available", 0)) == 1:
        return group
    return None


def order_axis(h5):
    """(dataset name, symbol) of the order parameter's reweighting axis: beta, or the crystal
    field D for Blume-Capel."""
    group = h5["muca/order_parameter"]
    for name, symbol in (("beta", r"$\beta$"), ("crystal_field", "D")):
        if isinstance(group.get(name), h5py.Dataset):
            return name, symbol
    fail(f"{h5.filename}: /muca/order_parameter has neither beta nor crystal_field")


def binder_scale(ax, values):
    """Symmetric-log y axis for U4 when it dips far below its usual range [0, 2/3]: at a
    first-order transition it falls to about -1/(3 p), p the weight of the ordered peak, and a
    linear axis would flatten everything else (crossings included) into one line. A dip of a
    few units (Potts q = 10 at L = 32) still reads well on a linear axis."""
    lowest, highest = np.nanmin(values), np.nanmax(values)
    if lowest < -10.0:
        ax.set_yscale("symlog", linthresh=1.0)
        # The automatic margins are taken on the linear scale: on this one they would cut
        # the minimum's points in half and leave a decade empty above the top.
        ax.set_ylim(1.3 * lowest, highest + 0.3)


def plot_order_parameter(h5, path):
    """<|m|>, chi and U4 against beta (or D), one panel each."""
    group = "muca/order_parameter/"
    axis, symbol = order_axis(h5)
    x = read(h5, group + axis)
    marker = field_marker(h5, x) if axis == "crystal_field" else beta_c(h5)

    fig, panels = plt.subplots(3, 1, sharex=True, figsize=(6.4, 8.0),
                               constrained_layout=True)
    for ax, (name, what) in zip(panels, (("magnetisation", r"$\langle|m|\rangle$"),
                                         ("susceptibility", r"$\chi$"),
                                         ("binder", r"$U_4 = 1 - \langle m^4\rangle / "
                                                    r"3\langle m^2\rangle^2$"))):
        plot_observable(ax, h5, group, x, name, what, marker)
        if name == "binder":
            binder_scale(ax, read(h5, group + name))
        # The curves differ in shape by model (rising in beta, falling in D).
        ax.legend(loc="best", fontsize="small")
    panels[-1].set_xlabel(label(h5, group + axis, symbol))
    panels[0].set_title(run_title(h5, "order parameter"), fontsize="medium")

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


def decimals_for(error):
    """Decimals that show ERROR to two significant digits, and at least five."""
    if math.isfinite(error) and error > 0:
        return max(5, 1 - math.floor(math.log10(error)))
    return 5


def in_parentheses(value, error):
    """'1.990044(7)': the error in units of the value's last digit."""
    decimals = decimals_for(error)
    if not (math.isfinite(error) and error > 0):
        return f"{value:.{decimals}f}"
    return f"{value:.{decimals}f}({round(error * 10**decimals):d})"


def plot_double_peak(h5, path):
    """ln P(E) at beta_eq (normalised to its maximum) against E/N, with the two phases'
    mean energies and the valley: the picture behind the first-order analysis. For
    Blume-Capel, ln P(n) = ln Z_beta(n) - beta D_eq n at D_eq against n/N."""
    group = "muca/first_order/"
    _, _, sites = lattice(h5)
    bins = read(h5, "muca/dos/energy")  # E, or n for Blume-Capel
    log_g = read(h5, "muca/dos/log_g")
    if is_blume_capel(h5):
        field = float(read(h5, group + "crystal_field_eq"))
        field_error = float(read(h5, group + "crystal_field_eq_error"))
        slope = run_beta(h5) * field
        sides = ("nonzero_low", "nonzero_high")
        x_label, y_label = "n/N", r"$\ln P(n)$ (max = 0)"
        curve = r"$\ln P_{D_{eq}}(n)$"
        where = rf"$D_{{eq}}$ = {in_parentheses(field, field_error)}, "
    else:
        slope = float(read(h5, group + "beta_eq"))
        beta_error = float(read(h5, group + "beta_eq_error"))
        sides = ("energy_ordered", "energy_disordered")
        x_label, y_label = "E/N", r"$\ln P(E)$ (max = 0)"
        curve = r"$\ln P_{\beta_{eq}}(E)$"
        where = rf"$\beta_{{eq}}$ = {in_parentheses(slope, beta_error)}, "
    ok = np.isfinite(log_g)
    log_p = log_g[ok] - slope * bins[ok]
    log_p -= log_p.max()
    x = bins[ok] / sites

    fig, ax = plt.subplots(figsize=(6.4, 4.4), constrained_layout=True)
    ax.plot(x, log_p, "-", color="C0", lw=1.0, label=curve)
    for name in sides:
        ax.axvline(float(read(h5, group + name)) / sites, ls="--", color="0.4", lw=0.8)
    depth = float(read(h5, group + "log_peak_to_valley"))
    ax.axhline(-depth, ls=":", color="C3", lw=0.8,
               label=rf"valley: $\ln(P_{{max}}/P_{{min}})$ = {depth:.3f}")
    sigma = float(read(h5, group + "interface_tension"))
    sigma_error = float(read(h5, group + "interface_tension_error"))
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    # Two lines: a long model name (Blume-Capel's carries its beta) would not fit beside
    # the values.
    ax.set_title(f"{model_name(h5)}\n" + where
                 + rf"$\beta\sigma_L$ = {in_parentheses(sigma, sigma_error)}",
                 fontsize="medium")
    # The valley floor is the lowest part worth showing; far tails would squash it.
    ax.set_ylim(bottom=-max(3.0 * depth, 5.0), top=0.5)
    ax.legend(loc="lower center", fontsize="small")
    finish(fig, h5, path)


def several_results(argv, mode, description, default_output):
    """Parse the command line of a MODE (--tension, --binder) that plots several result files
    into one PNG."""
    import argparse

    parser = argparse.ArgumentParser(prog=f"{os.path.basename(sys.argv[0])} {mode}",
                                     description=description)
    parser.add_argument("results", nargs="+", help="result files (.h5), one per L")
    parser.add_argument("-o", "--output", default=default_output, help="PNG file to write")
    args = parser.parse_args(argv)
    # The PNG must not land on a result file: a typo such as `-o L32.h5` would destroy it.
    if not args.output.lower().endswith(".png"):
        fail(f"-o {args.output}: the plot is written as PNG; name a .png file")
    if any(os.path.exists(r) and os.path.exists(args.output) and os.path.samefile(r, args.output)
           for r in args.results):
        fail(f"-o {args.output} is one of the result files")
    return args


def save(fig, path):
    """Save a plot of several files (no single provenance footer fits) and release it."""
    try:
        fig.savefig(path, dpi=common.DPI)
    except OSError as exc:
        fail(f"cannot write {path}: {exc}")
    finally:
        plt.close(fig)
    print(path)


def plot_tension(argv):
    """beta sigma_L against 1/L over several result files, with the weighted 1/L fit."""
    args = several_results(
        argv, "--tension", "Interface tension against 1/L from portamc-muca first-order runs.",
        "tension.png")
    sizes, sigma, error, names = [], [], [], set()
    for path in args.results:
        with common.open_result(path, "muca", "portamc-muca") as h5:
            peak = h5.get("muca/first_order")
            if peak is None or int(peak.attrs.get("found", 0)) != 1:
                fail(f"{path}: no double peak (/muca/first_order) to take the tension from")
            sizes.append(int(h5["muca"].attrs["L"]))
            sigma.append(float(read(h5, "muca/first_order/interface_tension")))
            error.append(float(read(h5, "muca/first_order/interface_tension_error")))
            names.add(model_family(h5))
    if len(names) > 1:
        fail("the files hold different models: " + ", ".join(sorted(names)))
    if len(set(sizes)) < 2:
        fail("the fit needs runs at two or more lattice sizes")
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
    save(fig, args.output)


def read_binder(path):
    """One file's Binder cumulant: a namespace with L, model, axis (name, symbol, label),
    critical (beta_c or None) and the arrays x, u, e sorted by x, finite values only."""
    from types import SimpleNamespace

    with common.open_result(path, "muca", "portamc-muca") as h5:
        if order_parameter(h5) is None:
            fail(f"{path}: no order parameter (/muca/order_parameter missing or not "
                 "available) to take the Binder cumulant from")
        group = "muca/order_parameter/"
        name, symbol = order_axis(h5)
        x = read(h5, group + name)
        u = read(h5, group + "binder")
        e = read(h5, group + "binder_error")
        # U4 is undefined where <m^2> underflowed; such points cannot be interpolated.
        ok = np.isfinite(x) & np.isfinite(u) & np.isfinite(e)
        if np.count_nonzero(ok) < 2:
            fail(f"{path}: fewer than two finite values of the Binder cumulant")
        order = np.argsort(x[ok])
        return SimpleNamespace(
            path=path, size=int(h5["muca"].attrs["L"]), model=model_family(h5),
            axis=name, symbol=symbol, axis_label=label(h5, group + name, symbol),
            critical=beta_c(h5),
            x=x[ok][order], u=u[ok][order], e=e[ok][order])


def local_cubic(xs, ys, x):
    """Value and slope at X of the cubic through the four points of (XS, YS) nearest X (XS
    sorted, at least four points)."""
    i = int(np.searchsorted(xs, x))
    lo = min(max(i - 2, 0), len(xs) - 4)
    c = np.polyfit(xs[lo:lo + 4] - x, ys[lo:lo + 4], 3)
    return c[3], c[2]


def interpolate(curve, grid):
    """CURVE's U4 on GRID: local cubics through its four nearest points where it has four,
    else linear."""
    if len(curve.x) < 4:
        return np.interp(grid, curve.x, curve.u)
    return np.array([local_cubic(curve.x, curve.u, x)[0] for x in grid])


def refine_crossing(first, second, a, b):
    """The root in [A, B] of the difference of FIRST's and SECOND's local cubics (one cubic
    each inside a segment of the union of their grids), with both slopes there; None where a
    curve has fewer than four points or Newton's method leaves the segment."""
    if len(first.x) < 4 or len(second.x) < 4:
        return None
    x = 0.5 * (a + b)
    for _ in range(50):
        u1, s1 = local_cubic(first.x, first.u, x)
        u2, s2 = local_cubic(second.x, second.u, x)
        if s1 == s2:
            return None
        step = (u1 - u2) / (s1 - s2)
        if abs(step) <= 1e-12 * max(1.0, abs(x)):
            return x, u1, s1, s2
        x -= step
        if not a <= x <= b:
            return None
    return None


def crossings(first, second):
    """Where U4 of FIRST and SECOND cross: a list of (x, error, U4 there), and the common
    range (lo, hi) searched. The files may have different grids: both curves are interpolated
    by local cubics through each curve's four nearest points onto the union of their grids
    inside that range, a crossing is bracketed where the difference changes sign and placed
    where the difference of the cubics vanishes. Linear interpolation would bias it by about
    h^2 times the curvature (h the grid step), which grows with L (3D Ising, h = 0.001:
    +2..6e-6 at L = 4/6, against errors of 1.4e-4). A curve of fewer than four points is
    interpolated linearly. The error is the two curves' errors there over the difference of
    their slopes: dx = sqrt(e1^2 + e2^2) / |slope1 - slope2|."""
    lo = max(first.x[0], second.x[0])
    hi = min(first.x[-1], second.x[-1])
    grid = np.union1d(first.x, second.x)
    grid = grid[(grid >= lo) & (grid <= hi)]
    if len(grid) < 2:
        return [], (lo, hi)
    u1 = interpolate(first, grid)
    u2 = interpolate(second, grid)
    d = u1 - u2
    found = []
    last = len(grid) - 2
    for i in range(last + 1):
        # A sign change inside the segment, or an exact zero at its left end (the right
        # end's zero is the next segment's left end, except for the last segment).
        if not (d[i] * d[i + 1] < 0 or d[i] == 0 or (i == last and d[i + 1] == 0)):
            continue
        h = grid[i + 1] - grid[i]
        refined = refine_crossing(first, second, grid[i], grid[i + 1])
        if refined is not None:
            x, u, slope1, slope2 = refined
        else:
            step = d[i] - d[i + 1]
            t = d[i] / step if step != 0 else 0.0
            x, u = grid[i] + t * h, u1[i] + t * (u1[i + 1] - u1[i])
            slope1 = (u1[i + 1] - u1[i]) / h
            slope2 = (u2[i + 1] - u2[i]) / h
        spread = math.hypot(np.interp(x, first.x, first.e), np.interp(x, second.x, second.e))
        error = spread / abs(slope1 - slope2) if slope1 != slope2 else math.inf
        found.append((x, error, u))
    return found, (lo, hi)


def with_error(value, error):
    """'value +- error' with the error's first two significant digits (at least 5 decimals)."""
    decimals = decimals_for(error)
    return f"{value:.{decimals}f} +- {error:.{decimals}f}"


def plot_binder(argv):
    """U4 against beta (or D) for several L, with the crossings of consecutive sizes."""
    args = several_results(
        argv, "--binder", "Binder cumulants of several lattice sizes and their crossings, from "
        "portamc-muca runs with the order parameter.", "binder.png")
    runs = sorted((read_binder(path) for path in args.results), key=lambda run: run.size)
    models = {run.model for run in runs}
    if len(models) > 1:
        fail("the files hold different models: " + ", ".join(sorted(models)))
    axes = {run.axis for run in runs}
    if len(axes) > 1:
        fail("the files reweight along different axes: " + ", ".join(sorted(axes)))
    if len(runs) < 2:
        fail("crossings need runs at two or more lattice sizes")
    for one, other in zip(runs, runs[1:]):
        if one.size == other.size:
            fail(f"{one.path} and {other.path} are both at L = {one.size}")
    symbol = "beta" if runs[0].axis == "beta" else "D"

    fig, ax = plt.subplots(figsize=(6.4, 4.8), constrained_layout=True)
    for k, run in enumerate(runs):
        ax.errorbar(run.x, run.u, yerr=run.e, fmt="-", lw=1.0, elinewidth=0.6,
                    capsize=0, color=f"C{k}", label=f"L = {run.size}")
    points = []
    for one, other in zip(runs, runs[1:]):
        pair = f"L={one.size}/L={other.size}"
        found, (lo, hi) = crossings(one, other)
        if lo >= hi:
            print(f"no crossing {pair}: their {symbol} ranges do not overlap")
        elif not found:
            print(f"no crossing {pair} in [{lo:g}, {hi:g}]")
        for x, error, u in found:
            print(f"crossing {pair}: {symbol} = {with_error(x, error)}")
            points.append((x, error, u))
    if points:
        x, error, u = (np.array(column) for column in zip(*points))
        ax.errorbar(x, u, xerr=error, fmt="x", ms=7, mew=1.5, capsize=2, color="black",
                    zorder=3, label="crossings of consecutive L")
    if runs[0].critical is not None:
        ax.axvline(runs[0].critical[0], ls=":", color="0.4", lw=1.0,
                   label=runs[0].critical[1])
    ax.set_xlabel(runs[0].axis_label)
    binder_scale(ax, np.concatenate([run.u for run in runs]))
    ax.set_ylabel(r"$U_4 = 1 - \langle m^4\rangle / 3\langle m^2\rangle^2$")
    ax.set_title(f"Binder cumulant, {runs[0].model}")
    ax.legend(loc="best", fontsize="small")
    save(fig, args.output)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--tension":
        plot_tension(argv[1:])
        return
    if argv and argv[0] == "--binder":
        plot_binder(argv[1:])
        return
    result, base = common.output_base(
        argv, "portamc-muca",
        "Plot a portamc-muca HDF5 result file as PNG images.")
    with common.open_result(result, "muca", "portamc-muca") as h5:
        plot_log_dos(h5, base + "_log_dos.png")
        # Blume-Capel runs are reweighted in D: they have no /muca/canonical.
        if is_blume_capel(h5):
            plot_crystal_field(h5, base + "_crystal_field.png")
        else:
            plot_canonical(h5, base + "_canonical.png")
        if order_parameter(h5) is not None:
            plot_order_parameter(h5, base + "_order_parameter.png")
        plot_iterations(h5, base + "_iterations.png")
        peak = h5.get("muca/first_order")
        if peak is not None and int(peak.attrs.get("found", 0)) == 1:
            plot_double_peak(h5, base + "_double_peak.png")


if __name__ == "__main__":
    main()
