#!/usr/bin/env python3
"""Plot a portamc-tilings HDF5 result file.

Usage:
    tools/plot_tilings.py RESULT.h5 [-o OUTDIR] [--prefix NAME]

Writes into OUTDIR (default: the directory of RESULT.h5), named after NAME
(default: the stem of RESULT.h5):

  NAME_tiling.png, NAME_tiling.svg
                       the last sample. Dominoes coloured by their 4 types
                       (north, south, east, west: orientation and which end
                       is the black square); lozenges by their 3
                       orientations; six-vertex states as the vertex-type
                       map next to the height function.
  NAME_densities.png   tile-type densities averaged over the samples, one
                       panel per type, and the frozen/disordered map (the
                       largest type density per cell: 1 in frozen regions,
                       so the arctic circle / ellipse / limit shape shows as
                       the edge of the bright, frozen region).

Large tilings (more than 40000 cells) are drawn as one image instead of one
polygon per tile, which keeps the SVG small. Needs h5py and matplotlib
(Debian: python3-h5py, python3-matplotlib); runs without a display.
"""

# Shared helpers, next to this script (Python puts the script's folder on sys.path).
import portamc_plotting as common
from portamc_plotting import fail, np, plt, text

common.TOOL = "plot_tilings"

SQRT3_2 = np.sqrt(3.0) / 2
PATCH_LIMIT = 40000
DOMINO_COLOURS = {"north": "#d62728", "south": "#1f77b4", "east": "#2ca02c",
                  "west": "#ff7f0e"}
LOZENGE_COLOURS = ["#4e79a7", "#f28e2b", "#e15759"]


def save_both(fig, h5, base):
    """Save FIG as BASE.svg and BASE.png (the latter through common.finish)."""
    try:
        fig.savefig(base + ".svg")
    except OSError as exc:
        fail(f"cannot write {base}.svg: {exc}")
    print(base + ".svg")
    common.finish(fig, h5, base + ".png")


def domino_types(config):
    """Per face: 0 north, 1 south, 2 east, 3 west, -1 outside. A domino's type is its
    orientation and whether its black square (r + c even) is its first (top/left) half."""
    rows, cols = config.shape
    r, c = np.indices((rows, cols))
    black = (r + c) % 2 == 0
    vertical = (config == 0) | (config == 2)
    top_or_left = (config == 2) | (config == 1)  # the partner lies south / east
    black_first = black == top_or_left
    types = np.where(vertical, np.where(black_first, 0, 1), np.where(black_first, 2, 3))
    return np.where(config < 4, types, -1)


def plot_domino_tiling(h5, base):
    config = np.asarray(h5["tilings/configuration"][()], dtype=int)
    types = domino_types(config)
    names = ["north", "south", "east", "west"]
    colours = [DOMINO_COLOURS[n] for n in names]
    rows, cols = config.shape
    fig, ax = plt.subplots(figsize=(7, 7))
    if config.size > PATCH_LIMIT:
        rgb = np.ones((rows, cols, 3))
        for t, colour in enumerate(colours):
            rgb[types == t] = plt.matplotlib.colors.to_rgb(colour)
        ax.imshow(rgb, interpolation="nearest", extent=(0, cols, rows, 0))
    else:
        from matplotlib.patches import Rectangle
        for r in range(rows):
            for c in range(cols):
                d = config[r, c]
                if d == 1:  # partner east: draw the horizontal domino once
                    ax.add_patch(Rectangle((c, r), 2, 1, facecolor=colours[types[r, c]],
                                           edgecolor="k", linewidth=0.3))
                elif d == 2:  # partner south
                    ax.add_patch(Rectangle((c, r), 1, 2, facecolor=colours[types[r, c]],
                                           edgecolor="k", linewidth=0.3))
        ax.set_xlim(0, cols)
        ax.set_ylim(rows, 0)
    for name, colour in zip(names, colours):
        ax.plot([], [], "s", color=colour, label=name)
    ax.legend(loc="upper right", fontsize=7, framealpha=0.8)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title(h5))
    save_both(fig, h5, base)


def lozenge_polygon(x, y, k):
    """Corners (skewed lattice coordinates) of the lozenge on up triangle (x, y), partner k."""
    if k == 0:
        corners = [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)]
    elif k == 1:
        corners = [(x, y), (x + 1, y), (x, y + 1), (x - 1, y + 1)]
    else:
        corners = [(x, y), (x + 1, y - 1), (x + 1, y), (x, y + 1)]
    return [(u + v / 2, v * SQRT3_2) for u, v in corners]


def plot_lozenge_tiling(h5, base):
    from matplotlib.collections import PolyCollection
    config = np.asarray(h5["tilings/configuration"][()], dtype=int)
    ys, xs = np.nonzero(config < 3)
    polygons = [lozenge_polygon(x, y, config[y, x]) for x, y in zip(xs, ys)]
    colours = [LOZENGE_COLOURS[config[y, x]] for x, y in zip(xs, ys)]
    fig, ax = plt.subplots(figsize=(7, 7))
    edge = "k" if len(polygons) <= PATCH_LIMIT else "face"
    ax.add_collection(PolyCollection(polygons, facecolors=colours, edgecolors=edge,
                                     linewidths=0.3))
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title(h5))
    save_both(fig, h5, base)


def plot_six_vertex_state(h5, base):
    types = np.asarray(h5["tilings/configuration"][()], dtype=int)
    heights = np.asarray(h5["tilings/heights"][()], dtype=float)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5))
    cmap = plt.get_cmap("tab10", 6)
    im = left.imshow(types, cmap=cmap, vmin=-0.5, vmax=5.5, interpolation="nearest")
    bar = fig.colorbar(im, ax=left, ticks=range(6))
    bar.ax.set_yticklabels(["a1", "a2", "b1", "b2", "c1", "c2"])
    left.set_title("vertex types")
    im = right.imshow(heights, cmap="viridis", interpolation="nearest")
    fig.colorbar(im, ax=right, label="height")
    right.set_title("height function")
    fig.suptitle(title(h5))
    save_both(fig, h5, base)


def density_panels(h5):
    group = h5["tilings/densities"]
    names = list(group)
    order = {"north": 0, "east": 1, "south": 2, "west": 3}
    names.sort(key=lambda n: order.get(n, 10 + sorted(group).index(n)))
    return names, [np.asarray(group[n][()], dtype=float) for n in names]


def plot_densities(h5, base):
    names, maps = density_panels(h5)
    if not maps:
        fail(f"{h5.filename} has no densities")
    model = text(h5["tilings"].attrs.get("model", "domino"))
    frozen = np.max(np.stack(maps), axis=0)
    # Cells outside the domain are blank rather than "density 0" (black).
    for flags in ("tilings/domain/faces", "tilings/domain/up"):
        if flags in h5:
            outside = np.asarray(h5[flags][()]) == 0
            maps = [np.where(outside, np.nan, m) for m in maps]
            frozen = np.where(outside, np.nan, frozen)
    if model == "six_vertex":  # the c density is the most telling map
        maps.append(maps[names.index("c1")] + maps[names.index("c2")])
        names.append("c1 + c2")
    maps.append(frozen)
    names.append("largest type density (1: frozen)")
    columns = min(len(maps), 4)
    rows = (len(maps) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(3.2 * columns, 3.2 * rows), squeeze=False)
    for ax in axes.flat:
        ax.axis("off")
    for ax, name, values in zip(axes.flat, names, maps):
        if model == "lozenge":
            draw_skewed(ax, values)
        else:
            ax.imshow(values, cmap="magma", vmin=0, vmax=1, interpolation="nearest")
        ax.set_title(name, fontsize=8)
        ax.set_aspect("equal")
    samples = int(h5["tilings/densities"].attrs.get("samples", 0))
    fig.suptitle(f"{title(h5)}, {samples} samples")
    common.finish(fig, h5, base + ".png")


def draw_skewed(ax, values):
    """A per-cell map of a triangular-lattice domain in its true (sheared) geometry."""
    rows, cols = values.shape
    v, u = np.meshgrid(np.arange(rows + 1), np.arange(cols + 1), indexing="ij")
    ax.pcolormesh(u + v / 2, v * SQRT3_2, values, cmap="magma", vmin=0, vmax=1)


def title(h5):
    g = h5["tilings"]
    model = text(g.attrs.get("model", ""))
    domain = text(g["domain"].attrs.get("description", "")) if "domain" in g else ""
    return f"{model} {text(g.attrs.get('mode', ''))}: {domain}"


def main(argv=None):
    result, base = common.output_base(
        argv, "portamc-tilings",
        "Plot a portamc-tilings HDF5 result file: the last sampled tiling "
        "(PNG and SVG) and the tile-type density maps (arctic curves).")
    with common.open_result(result, "tilings", "portamc-tilings") as h5:
        model = text(h5["tilings"].attrs.get("model", ""))
        if model == "domino":
            plot_domino_tiling(h5, base + "_tiling")
        elif model == "lozenge":
            plot_lozenge_tiling(h5, base + "_tiling")
        elif model == "six_vertex":
            plot_six_vertex_state(h5, base + "_tiling")
        else:
            fail(f"{result}: unknown model '{model}'")
        plot_densities(h5, base + "_densities")


if __name__ == "__main__":
    main()
