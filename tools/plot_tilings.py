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
                       map next to the height function; bibones (pairs of
                       neighbouring hexagonal cells of the triangular
                       lattice) as the union of their two hexagons, by
                       their 3 orientations; rectangle-triangle tilings as
                       their tiles (triangles T(v, d) and rectangles
                       R(v, o), rebuilt from the face codes), by kind and
                       orientation.
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
BIBONE_COLOURS = LOZENGE_COLOURS
# rect_triangle: triangles by direction mod 3 (light), rectangles by orientation (dark).
TRIANGLE_COLOURS = ["#a0cbe8", "#ffbe7d", "#ff9d9a"]
RECTANGLE_COLOURS = ["#2b5d8a", "#b5651d", "#9c2a2c"]
# Lattice directions d_0..d_5 of the triangular lattice in skewed coordinates.
DIRECTIONS = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]


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


def to_plane(u, v):
    """Skewed lattice coordinates (u e1 + v e2) to the plane."""
    return (u + v / 2, v * SQRT3_2)


def bibone_polygon(x, y, d):
    """The union of the hexagonal cells of site (x, y) and of its partner in direction d (the
    cells are those of the triangular lattice: corners at distance 1/sqrt(3), at 30 + 60 m
    degrees): A's six corners from theta + 30 on, then four of B's (the shared edge skipped)."""
    cx, cy = to_plane(x, y)
    theta = np.pi / 3 * d
    r = 1 / np.sqrt(3.0)
    bx, by = cx + np.cos(theta), cy + np.sin(theta)
    angles_a = theta + np.pi / 6 + np.pi / 3 * np.arange(6)
    angles_b = theta + 7 * np.pi / 6 + np.pi / 3 * np.arange(1, 5)
    return ([(cx + r * np.cos(a), cy + r * np.sin(a)) for a in angles_a]
            + [(bx + r * np.cos(a), by + r * np.sin(a)) for a in angles_b])


def hexagon(x, y):
    cx, cy = to_plane(x, y)
    r = 1 / np.sqrt(3.0)
    angles = np.pi / 6 + np.pi / 3 * np.arange(6)
    return [(cx + r * np.cos(a), cy + r * np.sin(a)) for a in angles]


def plot_bibone_tiling(h5, base):
    from matplotlib.collections import PolyCollection
    config = np.asarray(h5["tilings/configuration"][()], dtype=int)
    ys, xs = np.nonzero(config < 3)  # each bibone once, from its site whose partner is at d < 3
    polygons = [bibone_polygon(x, y, config[y, x]) for x, y in zip(xs, ys)]
    colours = [BIBONE_COLOURS[config[y, x]] for x, y in zip(xs, ys)]
    fig, ax = plt.subplots(figsize=(7, 7))
    edge = "k" if len(polygons) <= PATCH_LIMIT else "face"
    ax.add_collection(PolyCollection(polygons, facecolors=colours, edgecolors=edge,
                                     linewidths=0.3))
    for k, colour in enumerate(BIBONE_COLOURS):
        ax.plot([], [], "s", color=colour, label=f"orientation {k} ({k}/{k + 3})")
    ax.legend(loc="upper right", fontsize=7, framealpha=0.8)
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title(h5))
    save_both(fig, h5, base)


def face_corner(cx, cy, up, k):
    """Corner k (skewed coordinates) of U(cx, cy) (up) or D(cx, cy) (rect_triangle_geometry.hpp)."""
    if up:
        return (cx + (k == 1), cy + (k == 2))
    return (cx + (k != 1), cy + (k != 2))


def direction_of(a, b):
    """The direction index d with b = a + d_d (a and b neighbouring vertices)."""
    return DIRECTIONS.index((b[0] - a[0], b[1] - a[1]))


def tiles_claimed_by_face(cx, cy, up, code):
    """The tiles, ("T", v, d) or ("R", v, o), that a face code says cover the face (as
    rect_triangle_tiling.hpp's tiles_claimed_by_face)."""
    corners = [face_corner(cx, cy, up, k) for k in range(3)]
    if 1 <= code <= 3:
        k = code - 1
        v = corners[k]
        j = 2 * k if up else (2 * k + 3) % 6  # the face is star face j of v
        return [("R", v, (j - 1) % 3)]  # R(v, o) covers star faces o + 1 and o + 4 whole
    s = (code - 4) >> 2
    a, b = corners[(s + 1) % 3], corners[(s + 2) % 3]
    tiles = []
    for end, other, rect in ((a, b, code & 1), (b, a, (code >> 1) & 1)):
        d = direction_of(end, other)
        tiles.append(("R", end, d % 3) if rect else ("T", end, d))
    return tiles


def rect_triangle_tiles(config):
    """The distinct tiles of a face-code array (height, 2 * width), with the number of face
    parts claiming each (2 for a whole triangle, 6 for a whole rectangle)."""
    tiles = {}
    for cy, col in zip(*np.nonzero((config >= 1) & (config <= 15))):
        for tile in tiles_claimed_by_face(int(col) // 2, int(cy), col % 2 == 0,
                                          int(config[cy, col])):
            tiles[tile] = tiles.get(tile, 0) + 1
    return tiles


def tile_polygon(tile):
    kind, (x, y), d = tile
    if kind == "T":  # apex v, legs to v + d_{d-1} and v + d_{d+1}
        offsets = [(0, 0), DIRECTIONS[(d - 1) % 6], DIRECTIONS[(d + 1) % 6]]
    else:  # corners v + d_{o+1}, v + d_{o+2}, v + d_{o+4}, v + d_{o+5}
        offsets = [DIRECTIONS[(d + i) % 6] for i in (1, 2, 4, 5)]
    return [to_plane(x + du, y + dv) for du, dv in offsets]


def plot_rect_triangle_tiling(h5, base):
    from matplotlib.collections import PolyCollection
    config = np.asarray(h5["tilings/configuration"][()], dtype=int)
    tiles = rect_triangle_tiles(config)
    broken = sum(1 for (kind, _, _), n in tiles.items() if n != (2 if kind == "T" else 6))
    if broken:
        print(f"plot_tilings: warning: {broken} tiles are not claimed by all their faces")
    order = sorted(tiles)
    polygons = [tile_polygon(t) for t in order]
    colours = [TRIANGLE_COLOURS[d % 3] if kind == "T" else RECTANGLE_COLOURS[d]
               for kind, _, d in order]
    fig, ax = plt.subplots(figsize=(7, 7))
    edge = "k" if len(polygons) <= PATCH_LIMIT else "face"
    ax.add_collection(PolyCollection(polygons, facecolors=colours, edgecolors=edge,
                                     linewidths=0.3))
    for k in range(3):
        ax.plot([], [], "s", color=TRIANGLE_COLOURS[k], label=f"triangle d = {k}, {k + 3}")
    for k in range(3):
        ax.plot([], [], "s", color=RECTANGLE_COLOURS[k], label=f"rectangle o = {k}")
    ax.legend(loc="upper right", fontsize=7, framealpha=0.8)
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
    outside = outside_mask(h5, model, frozen.shape)
    if outside is not None:
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
        elif model == "bibone":
            draw_hexagons(ax, values)
        elif model == "rect_triangle":
            draw_faces(ax, values)
        else:
            ax.imshow(values, cmap="magma", vmin=0, vmax=1, interpolation="nearest")
        ax.set_title(name, fontsize=8)
        ax.set_aspect("equal")
    samples = int(h5["tilings/densities"].attrs.get("samples", 0))
    fig.suptitle(f"{title(h5)}, {samples} samples")
    common.finish(fig, h5, base + ".png")


def outside_mask(h5, model, shape):
    """Where the density maps' cells are outside the domain (None if the file does not say)."""
    if model == "rect_triangle":  # faces (row y, column 2 x + k): interleave up and down flags
        if "tilings/domain/up" in h5 and "tilings/domain/down" in h5:
            inside = np.empty(shape, dtype=bool)
            inside[:, 0::2] = np.asarray(h5["tilings/domain/up"][()]) != 0
            inside[:, 1::2] = np.asarray(h5["tilings/domain/down"][()]) != 0
            return ~inside
        return np.asarray(h5["tilings/configuration"][()]) == 0
    for flags in ("tilings/domain/faces", "tilings/domain/up", "tilings/domain/sites"):
        if flags in h5 and h5[flags].shape == shape:
            return np.asarray(h5[flags][()]) == 0
    return None


def draw_polygons(ax, polygons, values):
    from matplotlib.collections import PolyCollection
    keep = ~np.isnan(values)
    collection = PolyCollection([p for p, k in zip(polygons, keep) if k], cmap="magma",
                                edgecolors="face", linewidths=0.1)
    collection.set_array(values[keep])
    collection.set_clim(0, 1)
    ax.add_collection(collection)
    ax.autoscale_view()


def draw_hexagons(ax, values):
    """A per-site map of a bibone domain: one hexagonal cell per site."""
    ys, xs = np.indices(values.shape)
    draw_polygons(ax, [hexagon(x, y) for x, y in zip(xs.flat, ys.flat)], values.ravel())


def draw_faces(ax, values):
    """A per-face map (row y, column 2 x + k: U(x, y), D(x, y)) in its true geometry."""
    ys, cols = np.indices(values.shape)
    polygons = [[to_plane(*face_corner(c // 2, y, c % 2 == 0, k)) for k in range(3)]
                for y, c in zip(ys.flat, cols.flat)]
    draw_polygons(ax, polygons, values.ravel())


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
        elif model == "bibone":
            plot_bibone_tiling(h5, base + "_tiling")
        elif model == "rect_triangle":
            plot_rect_triangle_tiling(h5, base + "_tiling")
        else:
            fail(f"{result}: unknown model '{model}'")
        plot_densities(h5, base + "_densities")


if __name__ == "__main__":
    main()
