#!/usr/bin/env python3
"""Plot a portamc-josephson HDF5 result file.

Usage:
    tools/plot_josephson.py RESULT.h5 [-o OUTDIR] [--prefix NAME]

Writes PNG files into OUTDIR (default: the directory of RESULT.h5), named
after NAME (default: the stem of RESULT.h5), by the file's mode:

  escape      NAME_escape.png: the empirical CDF of the escape times against
              the exponential CDF 1 - exp(-t/tau) with the theory's mean tau
              (of the rate named by the attribute rate_formula: the exact
              Pontryagin mean for overdamped dynamics by default, else 1/rate
              of the Kramers-type formula), and below the histogram against
              the exponential density.
  switching   NAME_switching.png: the empirical CDF of the switching biases
              against the Fulton-Dunkleberger CDF on the theory's rate (with
              the current in A on a second axis for a junction given in
              physical units), and below the histogram against the
              Fulton-Dunkleberger density.
  arrhenius   NAME_arrhenius.png: ln <tau> against 1/theta with standard
              errors, the fits of the paper's eq. (12) ln <tau> = a + DU/theta
              and eq. (13) ln(theta <tau>) = a + DU/theta, the theory mean
              times, and a line of the washboard barrier's slope; 1/D on the
              top axis (the paper's Fig. 10 axis, D = beta theta).
              NAME_arrhenius_cdfs.png: the escape-time CDF of every
              temperature in units of its mean, against 1 - exp(-t/<tau>).

Censored realisations (no escape within the step cap) are not escape times:
the ECDFs end at the escaped fraction, and the titles say how many there were.

Needs h5py and matplotlib (Debian: python3-h5py, python3-matplotlib).
"""

# Shared helpers, next to this script (Python puts the script's folder on sys.path).
import portamc_plotting as common
from portamc_plotting import fail, finish, h5py, np, plt, read, text

common.TOOL = "plot_josephson"


def scalar(h5, name):
    """A scalar dataset as a float."""
    return float(read(h5, name))


def attr(h5, path, name, default=""):
    """An attribute as text (default if absent)."""
    obj = h5.get(path)
    if obj is None or name not in obj.attrs:
        return default
    return text(obj.attrs[name])


def rate_name(h5, path):
    """The rate a theory group is built on (attribute rate_formula; formula in older files)."""
    name = attr(h5, path, "rate_formula") or attr(h5, path, "formula")
    return "exact, Pontryagin" if name == "exact_overdamped_pontryagin" else name.replace("_", " ")


def junction_text(h5):
    """'V0 = 1, beta = 0.05, theta = 0.2'-style description of the run."""
    p = "josephson/parameters/"
    parts = [rf"$V_0 = {scalar(h5, p + 'V0'):.4g}$", rf"$\beta = {scalar(h5, p + 'beta'):.4g}$"]
    if p + "theta" in h5:
        parts.append(rf"$\theta = {scalar(h5, p + 'theta'):.4g}$")
    if p + "gamma" in h5:
        parts.append(rf"$\gamma = {scalar(h5, p + 'gamma'):.4g}$")
    return ", ".join(parts) + f" ({attr(h5, 'josephson', 'dynamics')})"


def ecdf_steps(x, p):
    """Step-function coordinates of an ECDF that starts at 0 left of the data."""
    if len(x) == 0:
        return np.array([0.0]), np.array([0.0])
    return np.concatenate(([x[0]], x)), np.concatenate(([0.0], p))


def plot_escape(h5, path):
    g = "josephson/escape/"
    t = read(h5, g + "ecdf_t")
    p = read(h5, g + "ecdf_p")
    escaped = int(read(h5, g + "escaped"))
    censored = int(read(h5, g + "censored"))
    mean, err = scalar(h5, g + "mean_time"), scalar(h5, g + "mean_time_error")
    fig, (upper, lower) = plt.subplots(2, 1, figsize=(6.4, 6.8), constrained_layout=True)
    x, y = ecdf_steps(t, p)
    upper.step(x, y, where="post", color="C0", lw=1.2,
               label=rf"simulation, $\langle\tau\rangle = {mean:.4g} \pm {err:.2g}$")
    source = attr(h5, g + "theory", "cdf_mean_source")
    theory_cdf = read(h5, g + "theory/cdf")
    tau = float("nan")
    if len(theory_cdf) > 0:
        tt = read(h5, g + "theory/cdf_t")
        if g + "theory/kramers_mean_time" in h5:  # theory/mean_time is the CDF's tau
            tau = scalar(h5, g + "theory/mean_time")
            what = rate_name(h5, g + "theory")
        else:  # older files: the CDF used the exact mean where there was one
            tau = scalar(h5, g + "theory/exact_mean_time") if source == "exact" else \
                scalar(h5, g + "theory/mean_time")
            what = "exact, Pontryagin" if source == "exact" else rate_name(h5, g + "theory")
        upper.plot(tt, theory_cdf, "--", color="C3", lw=1.2,
                   label=rf"$1 - e^{{-t/\tau}}$, $\tau = {tau:.4g}$ ({what})")
    else:
        print(f"plot_josephson: no theory CDF: {attr(h5, g + 'theory', 'cdf_status')}")
    upper.set_xlabel(r"escape time $t$ ($\hbar/E_C$)")
    upper.set_ylabel(r"$P(\tau \leq t)$")
    upper.set_title(f"escape-time CDF: {escaped} escaped, {censored} censored\n"
                    f"{junction_text(h5)}", fontsize="medium")
    upper.legend(loc="lower right", fontsize="small")

    edges = read(h5, g + "histogram/edges")
    counts = read(h5, g + "histogram/counts")
    total = escaped + censored
    if total > 0 and counts.sum() > 0:
        # Normalised by all realisations, like the ECDF, so the areas compare with the theory.
        lower.stairs(counts / (total * np.diff(edges)), edges, color="C0", lw=1.0,
                     label="simulation")
    if np.isfinite(tau) and tau > 0:
        tt = np.linspace(0.0, edges[-1], 300)
        lower.plot(tt, np.exp(-tt / tau) / tau, "--", color="C3", lw=1.2,
                   label=r"$e^{-t/\tau}/\tau$")
    lower.set_xlabel(r"escape time $t$ ($\hbar/E_C$)")
    lower.set_ylabel("probability density")
    lower.legend(loc="upper right", fontsize="small")
    finish(fig, h5, path)


def plot_switching(h5, path):
    g = "josephson/switching/"
    x = read(h5, g + "ecdf_gamma")
    p = read(h5, g + "ecdf_p")
    switched = int(read(h5, g + "switched"))
    censored = int(read(h5, g + "censored"))
    mean, err = scalar(h5, g + "mean_bias"), scalar(h5, g + "mean_bias_error")
    fig, (upper, lower) = plt.subplots(2, 1, figsize=(6.4, 6.8), constrained_layout=True)
    sx, sy = ecdf_steps(x, p)
    upper.step(sx, sy, where="post", color="C0", lw=1.2,
               label=rf"simulation, $\langle\gamma_{{sw}}\rangle = {mean:.5f} \pm {err:.1g}$")
    status = attr(h5, g + "theory", "status")
    grid = read(h5, g + "theory/gamma")
    if status == "ok" and len(grid) > 0:
        tm = scalar(h5, g + "theory/mean")
        upper.plot(grid, read(h5, g + "theory/cdf"), "--", color="C3", lw=1.2,
                   label=rf"Fulton-Dunkleberger ({rate_name(h5, g + 'theory')}), "
                         rf"mean {tm:.5f}")
    else:
        print(f"plot_josephson: no Fulton-Dunkleberger curve: {status}")
    upper.set_xlabel(r"switching bias $\gamma_{sw} = I_{sw}/I_c$")
    upper.set_ylabel(r"$P(\gamma_{sw} \leq \gamma)$")
    ramp = (rf"$\gamma_0 = {scalar(h5, 'josephson/parameters/gamma0'):.4g}$, "
            rf"$\nu = {scalar(h5, 'josephson/parameters/nu'):.3g}$")
    upper.set_title(f"switching-bias CDF: {switched} switched, {censored} censored\n"
                    f"{junction_text(h5)}, {ramp}", fontsize="medium")
    upper.legend(loc="lower right", fontsize="small")
    if "josephson/parameters/physical/critical_current" in h5:
        ic = scalar(h5, "josephson/parameters/physical/critical_current")
        top = upper.secondary_xaxis("top", functions=(lambda g: g * ic * 1e6,
                                                      lambda i: i / (ic * 1e6)))
        top.set_xlabel(r"switching current ($\mu$A)")

    edges = read(h5, g + "histogram/edges")
    counts = read(h5, g + "histogram/counts")
    total = switched + censored
    if total > 0 and counts.sum() > 0:
        lower.stairs(counts / (total * np.diff(edges)), edges, color="C0", lw=1.0,
                     label="simulation")
    if status == "ok" and len(grid) > 0:
        lower.plot(grid, read(h5, g + "theory/density"), "--", color="C3", lw=1.2,
                   label="Fulton-Dunkleberger")
    lower.set_xlabel(r"switching bias $\gamma_{sw}$")
    lower.set_ylabel("probability density")
    lower.legend(loc="upper left", fontsize="small")
    finish(fig, h5, path)


def fit_ok(group):
    return isinstance(group, h5py.Group) and text(group.attrs.get("status", "")).startswith("ok")


def plot_arrhenius(h5, path):
    g = "josephson/arrhenius/"
    theta = read(h5, g + "theta")
    mean = read(h5, g + "mean_time")
    err = read(h5, g + "mean_time_error")
    censored = read(h5, g + "censored")
    beta = scalar(h5, "josephson/parameters/beta")
    x = 1.0 / theta
    ok = np.isfinite(mean) & (mean > 0)
    fig, ax = plt.subplots(figsize=(6.4, 5.0), constrained_layout=True)
    ax.errorbar(x[ok], np.log(mean[ok]), yerr=err[ok] / mean[ok], fmt="o", ms=4, color="k",
                capsize=2, label=r"simulation $\ln\langle\tau\rangle$", zorder=3)
    biased = ok & (censored > 0)
    if biased.any():
        ax.plot(x[biased], np.log(mean[biased]), "o", ms=9, mfc="none", color="C1",
                label="with censored realisations (biased low)")
    xs = np.linspace(x.min(), x.max(), 200) if len(x) > 1 else x
    barrier = scalar(h5, g + "theory/barrier")
    for name, colour, style, prefactor, label in (
            ("fit_plain", "C0", "--", False, "eq. (12)"),
            ("fit_theta_prefactor", "C3", "-.", True, "eq. (13)")):
        fit = h5.get(g + name)
        if not fit_ok(fit):
            print(f"plot_josephson: {name}: {text(fit.attrs.get('status', '')) if fit else 'absent'}")
            continue
        a, du = float(fit["intercept"][()]), float(fit["barrier"][()])
        du_err = float(fit["barrier_error"][()])
        # Eq. (13) fits ln(theta <tau>): on the ln <tau> axis it is a + DU/theta - ln theta.
        y = a + du * xs + (np.log(xs) if prefactor else 0.0)
        ax.plot(xs, y, style, color=colour, lw=1.2,
                label=rf"{label}: $\Delta U = {du:.4f} \pm {du_err:.4f}$")
    if g + "theory/kramers_mean_time" in h5:
        mean_theory = read(h5, g + "theory/kramers_mean_time")
        formula = attr(h5, g + "theory", "kramers_formula").replace("_", " ")
    else:  # older files: theory/mean_time was the formula's
        mean_theory = read(h5, g + "theory/mean_time")
        formula = attr(h5, g + "theory", "formula").replace("_", " ")
    good = np.isfinite(mean_theory) & (mean_theory > 0)
    if good.any():
        ax.plot(x[good], np.log(mean_theory[good]), "s", mfc="none", ms=6, color="C2",
                label=f"Kramers-type 1/rate ({formula})")
    if g + "theory/exact_mean_time" in h5:
        exact = read(h5, g + "theory/exact_mean_time")
        good = np.isfinite(exact) & (exact > 0)
        ax.plot(x[good], np.log(exact[good]), "D", mfc="none", ms=6, color="C4",
                label="exact mean first-passage time")
    if np.isfinite(barrier) and ok.any():
        # The theory barrier as a slope, through the weighted centre of the data.
        w = (mean[ok] / err[ok]) ** 2 if (err[ok] > 0).all() else np.ones(ok.sum())
        xc = np.average(x[ok], weights=w)
        yc = np.average(np.log(mean[ok]), weights=w)
        ax.plot(xs, yc + barrier * (xs - xc), ":", color="0.4", lw=1.2,
                label=rf"slope of the washboard barrier $\Delta U = {barrier:.4f}$")
    ax.set_xlabel(r"$1/\theta$ ($E_C^{-1}$)")
    ax.set_ylabel(r"$\ln\langle\tau\rangle$ ($\tau$ in $\hbar/E_C$)")
    top = ax.secondary_xaxis("top", functions=(lambda v: v / beta, lambda v: v * beta))
    top.set_xlabel(r"$1/D$, $D = \beta\theta$")
    ax.set_title(f"Arrhenius plot, {junction_text(h5)}", fontsize="medium")
    ax.legend(loc="upper left", fontsize="x-small")
    finish(fig, h5, path)


def plot_arrhenius_cdfs(h5, path):
    g = "josephson/arrhenius/"
    names = [n for n in h5[g] if n.startswith("point_")]
    names.sort(key=lambda n: int(n.split("_", 1)[1]))
    fig, ax = plt.subplots(figsize=(6.4, 4.6), constrained_layout=True)
    colours = plt.cm.viridis(np.linspace(0.0, 0.9, max(len(names), 1)))
    for colour, name in zip(colours, names):
        point = g + name + "/"
        mean = scalar(h5, point + "mean_time")
        t = read(h5, point + "ecdf_t")
        if not (np.isfinite(mean) and mean > 0) or len(t) == 0:
            continue
        x, y = ecdf_steps(t / mean, read(h5, point + "ecdf_p"))
        theta = float(h5[point].attrs["theta"])
        ax.step(x, y, where="post", color=colour, lw=1.0, label=rf"$\theta = {theta:g}$")
    u = np.logspace(-3, 1.2, 200)
    ax.plot(u, 1 - np.exp(-u), "--", color="C3", lw=1.2, label=r"$1 - e^{-t/\langle\tau\rangle}$")
    ax.set_xscale("log")
    ax.set_xlabel(r"$t / \langle\tau\rangle$")
    ax.set_ylabel(r"$P(\tau \leq t)$")
    ax.set_title("escape-time CDFs in units of their mean", fontsize="medium")
    ax.legend(loc="upper left", fontsize="x-small", ncol=2 if len(names) > 6 else 1)
    finish(fig, h5, path)


def main(argv=None):
    result, base = common.output_base(
        argv, "portamc-josephson",
        "Plot a portamc-josephson HDF5 result file as PNG images: escape-time or "
        "switching-bias CDFs with their theory, or the Arrhenius plot with its fits.")
    with common.open_result(result, "josephson", "portamc-josephson") as h5:
        mode = attr(h5, "josephson", "mode")
        if mode == "escape":
            plot_escape(h5, base + "_escape.png")
        elif mode == "switching":
            plot_switching(h5, base + "_switching.png")
        elif mode == "arrhenius":
            plot_arrhenius(h5, base + "_arrhenius.png")
            plot_arrhenius_cdfs(h5, base + "_arrhenius_cdfs.png")
        else:
            fail(f"{result}: unknown mode '{mode}' in /josephson")


if __name__ == "__main__":
    main()
