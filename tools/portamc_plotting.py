"""Helpers shared by the tools/plot_*.py scripts: opening a portamc result file with
clear one-line errors, reading datasets, and saving figures with a provenance footer.

A script sets TOOL to its own name (used as the error prefix) before calling anything.
Needs h5py and matplotlib (Debian: python3-h5py, python3-matplotlib).
"""

import os
import sys

try:
    import h5py
    import matplotlib
    import numpy as np
except ImportError as exc:
    # A python3 without the packages (e.g. a pyenv one first on PATH) should
    # say what is missing rather than print a traceback.
    sys.exit(f"portamc plotting: error: {exc}; install python3-h5py and "
             "python3-matplotlib, or run with /usr/bin/python3")

# Select a non-interactive backend before pyplot is imported, so the scripts
# run on headless machines (clusters, CI) without a display.
matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

TOOL = "plot"
DPI = 150


def fail(message):
    """Exit with a one-line message on stderr instead of a traceback."""
    sys.exit(f"{TOOL}: error: {message}")


def open_result(path, group, app):
    """Open PATH read-only and check that it is a result of APP (has /GROUP)."""
    if not os.path.isfile(path):
        fail(f"no such file: {path}")
    try:
        h5 = h5py.File(path, "r")
    except OSError as exc:
        fail(f"cannot read {path} as HDF5: {exc}")
    if not isinstance(h5.get(group), h5py.Group):
        h5.close()
        fail(f"{path} is not a {app} result (no /{group} group)")
    return h5


def dataset(h5, name):
    """Return the dataset NAME, failing clearly if a required one is absent."""
    obj = h5.get(name)
    if not isinstance(obj, h5py.Dataset):
        fail(f"{h5.filename} has no dataset {name}")
    return obj


def read(h5, name):
    """Read the whole dataset NAME as a float array."""
    return np.asarray(dataset(h5, name)[()], dtype=float)


def text(value):
    """Decode an HDF5 string (bytes or str) to str."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def provenance(h5):
    """One-line footer naming the program and commit that wrote the file."""
    fields = []
    for key, fmt in (("software", "{}"), ("version", "{}"),
                     ("git_hash", "git {}"), ("date", "{}")):
        obj = h5.get(f"provenance/{key}")
        if isinstance(obj, h5py.Dataset):
            fields.append(fmt.format(text(obj[()])))
    return "  ".join(fields)


def finish(fig, h5, path):
    """Add the provenance footer, save FIG to PATH and release it."""
    footer = provenance(h5)
    if footer:
        fig.text(0.99, 0.005, footer, ha="right", va="bottom",
                 fontsize=6, color="0.5")
    try:
        fig.savefig(path, dpi=DPI)
    except OSError as exc:
        fail(f"cannot write {path}: {exc}")
    finally:
        plt.close(fig)
    print(path)


def output_base(argv, app, description):
    """Parse the common command line (result file, -o/--outdir, --prefix) and return
    (result path, path prefix for the PNGs), creating the output directory."""
    import argparse

    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("result", help=f"{app} result file (.h5)")
    parser.add_argument("-o", "--outdir",
                        help="output directory (default: the input file's)")
    parser.add_argument("--prefix",
                        help="file-name prefix (default: the input's stem)")
    args = parser.parse_args(argv)
    outdir = args.outdir or os.path.dirname(os.path.abspath(args.result))
    prefix = args.prefix or os.path.splitext(os.path.basename(args.result))[0]
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as exc:
        fail(f"cannot create output directory {outdir}: {exc}")
    return args.result, os.path.join(outdir, prefix)
