#!/usr/bin/env python3
"""Compare two outputs of one app and input made by different backends (or builds).

Usage:
    tools/compare_runs.py A.h5 B.h5 [--allow-config-difference] [--json FILE]
    tools/compare_runs.py --self-test

A and B are result files of the same portamc app (muca, su2, josephson, tilings, cvf), e.g.
one from a CUDA build and one from an OpenMP build run on the same input. Every dataset under
the app's group is put in one of four classes and reported:

bitwise      datasets the docs promise bit for bit across backends (the table BITWISE at the
             top of this file, with the doc that makes each promise; some promises hold
             only between host backends, Serial and OpenMP). Reported as "bitwise identical"
             or with the first element that differs. An app without a promise is said to be
             "compared statistically" only.
statistical  every estimate with an error beside it (docs/output.md): X with X_error,
             <stem>_mean with <stem>_error, a group's mean or value with its error. Per
             element z = (a - b) / sqrt(err_a^2 + err_b^2); the report gives max |z|, the
             number of |z| > 3 and chi^2 = sum z^2 over the elements with its p-value
             P(chi^2_dof > chi^2), dof = the number of elements.
             Rule: a dataset FAILS if p < 1e-3 or any |z| > 5.
             Elements are treated as independent; the elements of one curve (canonical
             energies over beta, ln g(E), V(R)) are correlated, which makes the p-value a
             guide only there, so the |z| > 5 rule stands beside it. Elements where both
             values are equal (also both NaN) count as agreeing; elements without a usable
             error (NaN or 0) or with a value in only one file are counted and reported,
             not failed.
timing       wall times (units s, or in a timing group, or named *seconds): a speed-up
             table with A's and B's backend and device (/provenance) as column headers.
not compared the rest (tau_int and n_eff beside an error, counts, theory values...): no
             promise and no error. Listed, with whether they happen to be identical
             (information only, no verdict).

Configurations: both files must hold the same resolved configuration (/config), except
for keys that cannot change the results (IGNORED_CONFIG_KEYS below):
    output.file, output.save_config (su2: a separate file), checkpoint.* (a resumed run
    is the uninterrupted one bit for bit), parallel.* (the rank decomposition: bitwise
    the one-rank result), muca model.storage, model.team_size, model.walkers_per_thread and
    model.occupancy (launch plans),
    josephson run.schedule, run.slots, run.steps_per_launch, run.compact_below (results
    bitwise independent of them), cvf algorithm.labelling (SW labelling scheme).
muca's model.walkers: auto is compared as the W the run took (/muca attribute walkers: 8 per
CPU thread, 270336 on an H100): set W in the input to compare a CPU run with a GPU run.
Files of different configurations are refused (exit 2) unless --allow-config-difference
is given (e.g. to compare two seeds); the differing keys are printed either way.

Exit codes: 0 every compared dataset agrees (bitwise where promised, statistically
elsewhere), 1 at least one disagrees, 2 bad input (a missing or unreadable file, not a
portamc output, files of different apps or configurations).

Needs numpy, h5py and PyYAML (Debian: python3-h5py, python3-yaml; a pyenv python3 may lack
them, then run it with /usr/bin/python3).
"""

import argparse
import fnmatch
import math
import os
import sys

# The chi^2 law, the error type and the small helpers are calibrate_seeds.py's: one
# implementation of the incomplete gamma function, tested by both self-tests.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calibrate_seeds import (EXIT_FAIL, EXIT_PASS, EXIT_USAGE, ToolError,  # noqa: E402
                             UsageParser, check_json_target, chi2_sf, finite_or_none,
                             import_h5py, write_json)

APPS = ("muca", "su2", "josephson", "tilings", "cvf")

# ---------------------------------------------------------------------------------------
# What the docs promise bit for bit across backends. One row per promise: the app, the
# datasets (fnmatch patterns relative to /<app>; `*` also crosses `/`), between which
# backends ("any", or "host": only when both files come from host backends, Serial/OpenMP),
# and the doc that makes the promise. Apps without a row are compared statistically.
# su2 has none on purpose: docs/models/su2.md, "Random numbers": "Float and double agree
# statistically, not bitwise, and so do different backends" (FMA contraction, math libraries).
# ---------------------------------------------------------------------------------------
_CVF_SERIES = ("hydrogen_bonds", "cooperative", "v_iso", "volume", "enthalpy", "order")

BITWISE = [
    {"app": "muca", "backends": "any",
     "datasets": ["iterations/iteration", "iterations/width", "iterations/therm_attempts",
                  "iterations/update_attempts", "iterations/histogram",
                  "iterations/log_weight", "iterations/kullback_leibler",
                  "iterations/chebyshev", "iterations/kl_series/*", "weights/*",
                  "production/updates_per_block", "production/therm_attempts",
                  "production/block_histograms", "production/group_histograms"],
     "reference": "docs/models/muca.md \"Algorithm\" (integer acceptance: CPU and GPU "
                  "trajectories bitwise identical) and \"Tests\" (one state checksum on Serial, "
                  "OpenMP and CUDA builds); README.md \"Tests\"; the weights are host arithmetic "
                  "on those histograms (docs/design.md, -ffp-contract=off)"},
    {"app": "josephson", "backends": "host",
     "datasets": ["escape/steps", "escape/outcome", "escape/escaped", "escape/censored",
                  "switching/steps", "switching/outcome", "switching/switched",
                  "switching/censored", "arrhenius/point_*/steps",
                  "arrhenius/point_*/outcome", "arrhenius/point_*/escaped",
                  "arrhenius/point_*/censored"],
     "reference": "docs/models/josephson.md \"Integrators\" (written-out sin/log: the same "
                  "rounding on every CPU backend; on CUDA float uses the special-function unit "
                  "and trajectories separate by rounding) and \"Noise\" (a trajectory is a pure "
                  "function of seed and realisation)"},
    {"app": "tilings", "backends": "any",
     "datasets": ["configuration", "heights", "densities/*", "samples/*", "cftp/*",
                  "glauber/steps"],
     "reference": "docs/models/tilings.md \"Glauber dynamics\" (integer decisions against "
                  "host thresholds: states bitwise identical on Serial, OpenMP and CUDA; "
                  "colour classes computed on the host for every backend), bit-sliced "
                  "kernel (\"the same on every backend\") and shuffling (32-bit thresholds)"},
    {"app": "cvf", "backends": "any",
     "datasets": ["configuration/*"] + [f"point_*/{s}/{d}" for s in _CVF_SERIES
                                        for d in ("step", "value")],
     "reference": "docs/models/cvf.md \"Metropolis\" (integer device arithmetic: CPU and GPU "
                  "runs with one seed bitwise identical), \"Packed Metropolis pass\" (bitwise "
                  "the same on every backend) and \"Swendsen-Wang\" (independent of labelling "
                  "and backend)"},
]

# Estimates whose error is not statistical: docs/output.md, josephson: "Quadrature error
# estimates of the theory (exact_mean_time_error) are not statistical".
NOT_STATISTICAL = {"josephson": ["theory/*", "*/theory/*"]}

# Configuration keys that cannot change the results (docs/config.md, with the docs each
# points to). fnmatch patterns on dotted keys.
IGNORED_CONFIG_KEYS = {
    "all": ["output.file", "checkpoint.*", "parallel.*"],
    "su2": ["output.save_config"],
    "muca": ["model.storage", "model.team_size", "model.walkers_per_thread", "model.occupancy"],
    "josephson": ["run.schedule", "run.slots", "run.steps_per_launch", "run.compact_below"],
    "cvf": ["algorithm.labelling"],
}

# `auto` values that the file records resolved, as (group, attribute): muca's `model.walkers:
# auto` is 8 walkers per CPU thread but 270336 on an H100, so two files of one input can hold
# different chains (docs/config.md); the resolved W is compared instead of the word.
RESOLVED_AUTO = {"muca": {"model.walkers": ("muca", "walkers")}}

# Backends whose promises marked "host" hold (Kokkos' host execution spaces).
HOST_BACKENDS = ("serial", "openmp", "threads", "hpx")

Z_FAIL = 5.0          # any |z| above this fails a dataset
P_FAIL = 1e-3         # a chi^2 p-value below this fails a dataset
Z_COUNT = 3.0         # |z| above this is counted in the report
RULE = (f"a dataset fails if its chi^2 p-value < {P_FAIL:g} or any |z| > {Z_FAIL:g}; "
        "bitwise datasets fail on any differing bit")


# ---------------------------------------------------------------------------------------
# Statistics (pure functions, --self-test)
# ---------------------------------------------------------------------------------------


def z_scores(a, b, error_a, error_b):
    """Per-element z and the elements that could not be compared.

    Returns (z list, equal count, incomparable count). Equal values, also both NaN or the
    same infinity, agree whatever their error; a value in one file only (NaN or infinite
    in the other) or an error that is NaN, infinite or 0 with unequal values cannot be
    turned into a z.
    """
    z, equal, incomparable = [], 0, 0
    for x, y, ex, ey in zip(a, b, error_a, error_b):
        if x == y or (math.isnan(x) and math.isnan(y)):
            equal += 1
            continue
        scale = math.sqrt(ex * ex + ey * ey) if math.isfinite(ex) and math.isfinite(ey) else 0.0
        if not (math.isfinite(x) and math.isfinite(y)) or not scale > 0.0:
            incomparable += 1
            continue
        z.append((x - y) / scale)
    return z, equal, incomparable


def statistical_verdict(z, equal, incomparable):
    """max |z|, |z| > 3 count, chi^2, dof, p and pass/fail for one dataset's z values."""
    chi2 = sum(v * v for v in z)
    dof = len(z)
    p = chi2_sf(chi2, dof) if dof else 1.0
    max_abs_z = max((abs(v) for v in z), default=0.0)
    return {
        "elements": dof + equal + incomparable,
        "equal": equal,
        "incomparable": incomparable,
        "max_abs_z": max_abs_z,
        "above_3": sum(abs(v) > Z_COUNT for v in z),
        "chi2": chi2,
        "dof": dof,
        "chi2_per_dof": chi2 / dof if dof else 0.0,
        "p_value": p,
        "pass": p >= P_FAIL and max_abs_z <= Z_FAIL,
    }


def first_difference(a, b):
    """None when a and b are bitwise the same array, else a description of the first difference.

    Bits, not values: -0.0 and +0.0, or two NaN payloads, differ; NaN equals the same NaN.
    """
    import numpy as np
    if a.dtype != b.dtype:
        return f"types differ: {a.dtype} vs {b.dtype}"
    if a.shape != b.shape:
        return f"shapes differ: {a.shape} vs {b.shape}"
    if a.dtype.kind in "biufc":
        bits_a = a.reshape(-1).view(np.uint8).reshape(a.size, -1)
        bits_b = b.reshape(-1).view(np.uint8).reshape(b.size, -1)
        differs = np.any(bits_a != bits_b, axis=1)
    else:  # strings and compound types: element equality
        differs = np.array([x != y for x, y in zip(a.reshape(-1), b.reshape(-1))], dtype=bool)
    if not differs.any():
        return None
    flat = int(np.argmax(differs))
    index = np.unravel_index(flat, a.shape) if a.shape else ()
    where = "[" + ", ".join(str(int(i)) for i in index) + "]" if a.shape else "(scalar)"
    return (f"first difference at {where}: {a.reshape(-1)[flat]!r} vs {b.reshape(-1)[flat]!r} "
            f"({int(differs.sum())} of {a.size} elements differ)")


def flatten_config(tree, prefix=""):
    """{'model': {'L': 4}} -> {'model.L': 4}; lists stay values."""
    flat = {}
    for key, value in (tree or {}).items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten_config(value, name + "."))
        else:
            flat[name] = value
    return flat


def ignored_keys(app):
    return IGNORED_CONFIG_KEYS["all"] + IGNORED_CONFIG_KEYS.get(app, [])


def config_differences(app, config_a, config_b, resolved_a=None, resolved_b=None):
    """[(key, value in A, value in B)] over the keys that can change results.

    resolved_*: {key: value} of `auto` keys as the run resolved them (RESOLVED_AUTO).
    """
    a, b = flatten_config(config_a), flatten_config(config_b)
    for flat, resolved in ((a, resolved_a or {}), (b, resolved_b or {})):
        flat.update({k: v for k, v in resolved.items() if flat.get(k) == "auto"})
    patterns = ignored_keys(app)
    missing = object()
    differences = []
    for key in sorted(set(a) | set(b)):
        if any(fnmatch.fnmatchcase(key, p) for p in patterns):
            continue
        value_a, value_b = a.get(key, missing), b.get(key, missing)
        if value_a != value_b:
            differences.append((key, "(absent)" if value_a is missing else value_a,
                                "(absent)" if value_b is missing else value_b))
    return differences


def bitwise_promise(app, relative_path, both_host):
    """The BITWISE row that promises this dataset (None if none applies to these backends)."""
    for row in BITWISE:
        if row["app"] != app or (row["backends"] == "host" and not both_host):
            continue
        if any(fnmatch.fnmatchcase(relative_path, p) for p in row["datasets"]):
            return row
    return None


def is_host_backend(backend):
    words = backend.lower().replace(",", " ").split()
    return bool(words) and all(w in HOST_BACKENDS for w in words)


# ---------------------------------------------------------------------------------------
# Reading the files
# ---------------------------------------------------------------------------------------


def as_text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if hasattr(value, "tolist"):
        value = value.tolist()
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    return str(value)


def open_output(h5py, path):
    """Open a result file and tell its app; ToolError (exit 2) for anything else."""
    if not os.path.isfile(path):
        raise ToolError(f"{path}: no such file")
    try:
        h5 = h5py.File(path, "r")
    except OSError as e:
        raise ToolError(f"{path}: not an HDF5 file ({e})")
    apps = [a for a in APPS if a in h5 and isinstance(h5[a], h5py.Group)]
    if len(apps) != 1 or "provenance" not in h5:
        h5.close()
        what = "no app group" if not apps else f"groups of several apps ({', '.join(apps)})"
        raise ToolError(f"{path}: not a portamc result file ({what}; expected /provenance and "
                        f"one of /{', /'.join(APPS)})")
    return h5, apps[0]


def provenance(h5, key):
    path = f"provenance/{key}"
    return as_text(h5[path][()]) if path in h5 else "?"


def read_config(h5, path):
    """The resolved configuration as a dict (/config: dataset, or root attribute)."""
    text = h5["config"][()] if "config" in h5 else h5.attrs.get("config")
    if text is None:
        raise ToolError(f"{path}: no /config (the resolved configuration)")
    try:
        import yaml
    except ImportError:
        raise ToolError(f"{sys.executable} has no PyYAML (Debian: python3-yaml), needed to "
                        "compare the configurations")
    try:
        return yaml.safe_load(as_text(text)) or {}
    except yaml.YAMLError as e:
        raise ToolError(f"{path}: /config is not YAML: {e}")


def resolved_auto(h5, app):
    """{key: value} of the `auto` configuration keys the file records resolved."""
    resolved = {}
    for key, (group, attribute) in RESOLVED_AUTO.get(app, {}).items():
        if group in h5 and attribute in h5[group].attrs:
            value = h5[group].attrs[attribute]
            resolved[key] = value.item() if hasattr(value, "item") else value
    return resolved


def walk(h5py, group, prefix=""):
    """Every dataset under group as (relative path, dataset), in a fixed order."""
    for name in sorted(group.keys()):
        item = group.get(name)
        path = f"{prefix}{name}"
        if isinstance(item, h5py.Group):
            yield from walk(h5py, item, path + "/")
        elif isinstance(item, h5py.Dataset):
            yield path, item


def split(path):
    parent, _, name = path.rpartition("/")
    return parent, name


def sibling(parent, name):
    return f"{parent}/{name}" if parent else name


def error_of(path, paths):
    """The error dataset beside an estimate (docs/output.md conventions), or None.

    X with X_error; <stem>_mean with <stem>_error (tilings summaries); a group's `mean` or
    `value` with the group's `error` (su2, cvf summary groups, wilson_loops).
    """
    parent, name = split(path)
    candidates = [sibling(parent, name + "_error")]
    if name.endswith("_mean"):
        candidates.append(sibling(parent, name[: -len("_mean")] + "_error"))
    # A group's `value` is its estimate only without a `mean`: su2 observable groups hold
    # the time series `value` beside the summary `mean`, `error`.
    if name == "mean" or (name == "value" and sibling(parent, "mean") not in paths):
        candidates.append(sibling(parent, "error"))
    return next((c for c in candidates if c in paths and c != path), None)


def is_timing(path, dataset):
    parent, name = split(path)
    units = as_text(dataset.attrs.get("units", ""))
    return "timing" in path.split("/") or name.endswith("seconds") or units == "s"


def is_seconds(path, dataset):
    units = as_text(dataset.attrs.get("units", ""))
    return units == "s" or split(path)[1].endswith("seconds")


# ---------------------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------------------


def classify(app, datasets_a, both_host, same_config):
    """Sort A's dataset paths into bitwise / statistical (with error path) / timing / rest.

    The bitwise promises are for one input: with another configuration (another seed) the
    promised datasets are compared like the rest.
    """
    paths = set(datasets_a)
    errors_used = set()
    bitwise, statistical, timing, rest = [], [], [], []
    not_statistical = NOT_STATISTICAL.get(app, [])
    for path, dataset in datasets_a.items():
        promise = bitwise_promise(app, path, both_host) if same_config else None
        error = error_of(path, paths)
        if promise is not None:
            bitwise.append((path, promise))
        elif is_timing(path, dataset):
            timing.append(path)
        elif error is not None and not any(fnmatch.fnmatchcase(path, p) for p in not_statistical):
            statistical.append((path, error))
            errors_used.add(error)
        else:
            rest.append(path)
    # An error dataset is reported with its estimate, not on its own.
    rest = [p for p in rest if p not in errors_used]
    return bitwise, statistical, timing, rest


def read_array(dataset):
    """The stored values as a numpy array (also scalars and strings), types kept."""
    import numpy as np
    return np.asarray(dataset[()])


def read_float(dataset):
    import numpy as np
    return np.asarray(dataset[()], dtype=float)


def compare_statistical(path, error, h5a, h5b, group):
    import numpy as np
    a, b = read_float(h5a[f"{group}/{path}"]), read_float(h5b[f"{group}/{path}"])
    ea, eb = read_float(h5a[f"{group}/{error}"]), read_float(h5b[f"{group}/{error}"])
    row = {"path": f"/{group}/{path}", "error": f"/{group}/{error}"}
    if a.shape != b.shape:
        return dict(row, pass_=False, problem=f"shapes differ: {a.shape} vs {b.shape}")
    try:
        # A scalar error is shared by the elements (as calibrate_seeds.py reads them).
        ea, eb = np.broadcast_to(ea, a.shape), np.broadcast_to(eb, a.shape)
    except ValueError:
        return dict(row, pass_=None, problem=f"error shape {ea.shape} does not pair with "
                    f"value shape {a.shape}: not compared")
    z, equal, incomparable = z_scores(a.ravel().tolist(), b.ravel().tolist(),
                                      ea.ravel().tolist(), eb.ravel().tolist())
    row.update(statistical_verdict(z, equal, incomparable))
    row["pass_"] = row.pop("pass")
    return row


def timing_rows(h5py, h5a, h5b, group, timing_paths):
    """(quantity, seconds in A, seconds in B): scalars, array sums, timing-group attributes."""
    rows = []
    for path in timing_paths:
        da, db = h5a[f"{group}/{path}"], h5b.get(f"{group}/{path}")
        if db is None or not is_seconds(path, da):
            continue
        label = path if da.shape == () else f"{path} (sum)"
        rows.append((label, float(read_float(da).sum()), float(read_float(db).sum())))
    # cvf keeps its wall times as attributes of point_<k>/timing groups.
    for name, item in walk_groups(h5py, h5a[group]):
        if split(name)[1] != "timing" or f"{group}/{name}" not in h5b:
            continue
        other = h5b[f"{group}/{name}"]
        for key in sorted(item.attrs):
            if key.endswith("seconds") and key in other.attrs:
                rows.append((f"{name}@{key}", float(item.attrs[key]), float(other.attrs[key])))
    return rows


def walk_groups(h5py, group, prefix=""):
    for name in sorted(group.keys()):
        item = group.get(name)
        if isinstance(item, h5py.Group):
            yield f"{prefix}{name}", item
            yield from walk_groups(h5py, item, f"{prefix}{name}/")


def compare(path_a, path_b, allow_config_difference):
    h5py = import_h5py()
    h5a, app = open_output(h5py, path_a)
    try:
        h5b, app_b = open_output(h5py, path_b)
    except ToolError:
        h5a.close()
        raise
    try:
        if app != app_b:
            raise ToolError(f"different apps: {path_a} is portamc-{app}, {path_b} is "
                            f"portamc-{app_b}")
        return compare_files(h5py, h5a, h5b, app, path_a, path_b, allow_config_difference)
    finally:
        h5a.close()
        h5b.close()


def compare_files(h5py, h5a, h5b, app, path_a, path_b, allow_config_difference):
    differences = config_differences(app, read_config(h5a, path_a), read_config(h5b, path_b),
                                     resolved_auto(h5a, app), resolved_auto(h5b, app))
    if differences and not allow_config_difference:
        lines = "\n".join(f"  {k}: {va!r} vs {vb!r}" for k, va, vb in differences)
        raise ToolError(f"the files were made from different configurations:\n{lines}\n"
                        "(--allow-config-difference compares them anyway)")
    sides = [{"file": p, "backend": provenance(h, "backend"), "device": provenance(h, "device"),
              "version": provenance(h, "version"), "git_hash": provenance(h, "git_hash")}
             for p, h in ((path_a, h5a), (path_b, h5b))]
    both_host = all(is_host_backend(s["backend"]) for s in sides)
    datasets_a = dict(walk(h5py, h5a[app]))
    datasets_b = dict(walk(h5py, h5b[app]))
    bitwise, statistical, timing, rest = classify(app, datasets_a, both_host, not differences)
    result = {
        "app": app, "a": sides[0], "b": sides[1], "both_host_backends": both_host,
        "config_differences": [{"key": k, "a": str(va), "b": str(vb)} for k, va, vb in differences],
        "rule": RULE,
        "bitwise_promise": promise_summary(app, both_host, not differences),
        "only_in_a": sorted(f"/{app}/{p}" for p in set(datasets_a) - set(datasets_b)),
        "only_in_b": sorted(f"/{app}/{p}" for p in set(datasets_b) - set(datasets_a)),
        "bitwise": [], "statistical": [], "timing": [], "not_compared": [],
    }
    for path, promise in bitwise:
        if path not in datasets_b:
            continue
        difference = first_difference(read_array(datasets_a[path]), read_array(datasets_b[path]))
        result["bitwise"].append({"path": f"/{app}/{path}", "identical": difference is None,
                                  "difference": difference, "reference": promise["reference"]})
    for path, error in statistical:
        if path in datasets_b and error in datasets_b:
            result["statistical"].append(compare_statistical(path, error, h5a, h5b, app))
    for label, seconds_a, seconds_b in timing_rows(h5py, h5a, h5b, app, timing):
        result["timing"].append({"quantity": f"/{app}/{label}", "a_seconds": seconds_a,
                                 "b_seconds": seconds_b,
                                 "a_over_b": seconds_a / seconds_b if seconds_b > 0 else None})
    for path in rest:
        if path in datasets_b:
            identical = first_difference(read_array(datasets_a[path]),
                                         read_array(datasets_b[path])) is None
            result["not_compared"].append({"path": f"/{app}/{path}", "identical": identical})
    failed = [r["path"] for r in result["bitwise"] if not r["identical"]]
    failed += [r["path"] for r in result["statistical"] if r["pass_"] is False]
    result["failed"] = failed
    result["pass"] = not failed
    return result


def promise_summary(app, both_host, same_config):
    rows = [r for r in BITWISE if r["app"] == app]
    if not rows:
        return f"no bitwise promise across backends for {app}: compared statistically"
    if not same_config:
        return (f"the configurations differ, and the bitwise promise for {app} holds for one "
                "input only: compared statistically")
    held = [r for r in rows if r["backends"] == "any" or both_host]
    if not held:
        return (f"no bitwise promise between these backends for {app} (only between host "
                "backends): compared statistically")
    return "; ".join(r["reference"] for r in held)


# ---------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------


def print_report(result):
    a, b = result["a"], result["b"]
    print(f"portamc-{result['app']}: comparing")
    for tag, side in (("A", a), ("B", b)):
        print(f"  {tag} = {side['file']}: backend {side['backend']}, device {side['device']}, "
              f"version {side['version']} ({side['git_hash']})")
    for d in result["config_differences"]:
        print(f"  configuration differs (allowed): {d['key']}: {d['a']} vs {d['b']}")
    for tag in ("a", "b"):
        for path in result[f"only_in_{tag}"]:
            print(f"  only in {tag.upper()}: {path}")
    print(f"\nBitwise: {result['bitwise_promise']}")
    for row in result["bitwise"]:
        verdict = "bitwise identical" if row["identical"] else f"DIFFERS: {row['difference']}"
        print(f"  {row['path']}: {verdict}")
    print(f"\nStatistical ({result['rule']}):")
    if result["statistical"]:
        print(f"  {'dataset':<52} {'n':>5} {'max|z|':>7} {'|z|>3':>5} {'chi2/dof':>9} "
              f"{'p':>9}  verdict")
    for row in result["statistical"]:
        print_statistical_row(row)
    print_timing(result)
    if result["not_compared"]:
        same = sum(r["identical"] for r in result["not_compared"])
        print(f"\nNot compared (no bitwise promise, no error; identical shown for information): "
              f"{len(result['not_compared'])} datasets, {same} identical")
        for row in result["not_compared"]:
            print(f"  {row['path']}: {'identical' if row['identical'] else 'differs'}")
    compared = len(result["bitwise"]) + sum(r["pass_"] is not None for r in result["statistical"])
    if result["pass"]:
        print(f"\nAGREE: all {compared} compared datasets agree")
    else:
        print(f"\nDISAGREE: {len(result['failed'])} of {compared} compared datasets: "
              + ", ".join(result["failed"]))


def print_statistical_row(row):
    if "problem" in row:
        print(f"  {row['path']:<52} {row['problem']}")
        return
    verdict = "pass" if row["pass_"] else "FAIL"
    notes = []
    if row["equal"] == row["elements"]:
        notes.append("identical")
    elif row["equal"]:
        notes.append(f"{row['equal']} equal")
    if row["incomparable"]:
        notes.append(f"{row['incomparable']} without a usable error or value in one file")
    note = f" ({', '.join(notes)})" if notes else ""
    print(f"  {row['path']:<52} {row['elements']:>5} {row['max_abs_z']:>7.3g} {row['above_3']:>5} "
          f"{row['chi2_per_dof']:>9.3g} {row['p_value']:>9.3g}  {verdict}{note}")


def print_timing(result):
    if not result["timing"]:
        return
    a, b = result["a"], result["b"]
    head_a, head_b = f"A: {a['backend']} ({a['device']})", f"B: {b['backend']} ({b['device']})"
    wa, wb = max(len(head_a), 12), max(len(head_b), 12)
    wq = max(len(row["quantity"]) for row in result["timing"])
    print("\nWall times in seconds (A/B: the speed-up of B over A, > 1 when B is faster; "
          "no verdict):")
    print(f"  {'quantity':<{wq}}  {head_a:>{wa}}  {head_b:>{wb}}  {'A/B':>7}")
    for row in result["timing"]:
        ratio = "-" if row["a_over_b"] is None else f"{row['a_over_b']:.3g}"
        print(f"  {row['quantity']:<{wq}}  {row['a_seconds']:>{wa}.4g}  {row['b_seconds']:>{wb}.4g}  "
              f"{ratio:>7}")


def json_record(result):
    """The result with JSON's vocabulary: no NaN or infinity, `pass` for each dataset."""
    record = dict(result)
    record["statistical"] = [{("pass" if k == "pass_" else k): finite_or_none(v)
                              for k, v in row.items()} for row in result["statistical"]]
    return record


# ---------------------------------------------------------------------------------------
# Self-test
# ---------------------------------------------------------------------------------------


def self_test():
    """The z and chi^2 statistics, the bitwise comparison, the configuration filter."""
    import numpy as np
    failures = []

    def close(what, got, expected, rtol):
        if not abs(got - expected) <= rtol * abs(expected):
            failures.append(f"{what}: {got!r}, expected {expected!r} (rtol {rtol})")

    def check(what, condition):
        if not condition:
            failures.append(what)

    # chi^2 p-values from tables: the 5 % and 0.1 % points of 1, 10 and 100 dof.
    for chi2, dof, p in [(3.841, 1, 0.05), (10.83, 1, 0.001), (18.31, 10, 0.05),
                         (29.59, 10, 0.001), (124.342, 100, 0.05), (149.449, 100, 0.001)]:
        close(f"chi2_sf({chi2}, {dof})", chi2_sf(chi2, dof), p, 2e-3)
    # z: (a - b) / sqrt(ea^2 + eb^2); equal values and unusable errors set apart.
    z, equal, incomparable = z_scores([1.0, 2.0, 5.0, float("nan"), 1.0, 3.0],
                                      [0.0, 2.0, 1.0, float("nan"), float("nan"), 4.0],
                                      [0.6, 1.0, 3.0, 1.0, 1.0, 0.0],
                                      [0.8, 1.0, 0.0, 1.0, 1.0, float("nan")])
    close("z of 1 +- 0.6 vs 0 +- 0.8", z[0], 1.0, 1e-15)
    close("z of 5 +- 3 vs 1 +- 0", z[1], 4.0 / 3.0, 1e-15)
    check(f"equal {equal}, expected 2 (2 = 2, NaN = NaN)", equal == 2)
    check(f"incomparable {incomparable}, expected 2 (one NaN, no error)", incomparable == 2)
    # The verdict: chi^2 = 2 over 2 dof passes (p = e^-1); one |z| of 6 fails alone.
    v = statistical_verdict([1.0, -1.0], 0, 0)
    close("p of chi^2 = 2, 2 dof", v["p_value"], math.exp(-1.0), 1e-12)
    check("chi^2 = 2 over 2 dof fails", v["pass"])
    check("|z| = 6 passes", not statistical_verdict([6.0] + [0.0] * 99, 0, 0)["pass"])
    check("|z| = 4.5 alone fails", statistical_verdict([4.5] + [0.0] * 99, 0, 0)["pass"])
    v = statistical_verdict([2.0] * 50, 0, 0)  # chi^2/dof = 4: p ~ 1e-19, every |z| small
    check(f"chi^2/dof = 4 over 50 dof passes (p = {v['p_value']:.3g})", not v["pass"])
    check("|z| > 3 count", statistical_verdict([3.5, -3.2, 2.9], 0, 0)["above_3"] == 2)
    check("no z at all fails", statistical_verdict([], 3, 0)["pass"])
    # Bitwise: identical arrays, the first differing element, -0 against +0, NaN against NaN.
    x = np.arange(12.0).reshape(3, 4)
    check("identical arrays differ", first_difference(x, x.copy()) is None)
    y = x.copy()
    y[1, 2] += 1.0
    y[2, 0] = -y[2, 0]
    text = first_difference(x, y) or ""
    check(f"first difference '{text}' lacks [1, 2] or the count", "[1, 2]" in text
          and "2 of 12" in text)
    check("-0.0 equals +0.0 bitwise", first_difference(np.array([0.0]), np.array([-0.0]))
          is not None)
    check("NaN differs from NaN", first_difference(np.array([np.nan]), np.array([np.nan])) is None)
    check("int32 vs int64 passed", first_difference(np.int32([1]), np.int64([1])) is not None)
    # Configurations: ignored keys, and a change that matters.
    a = {"model": {"L": 4, "seed": 1, "storage": "auto"}, "output": {"file": "a.h5"},
         "checkpoint": {"every": 600}}
    b = {"model": {"L": 4, "seed": 2, "storage": "global"}, "output": {"file": "b.h5"},
         "checkpoint": {"every": 10}}
    check(f"muca config differences {config_differences('muca', a, b)}",
          config_differences("muca", a, b) == [("model.seed", 1, 2)])
    check("su2 ignores model.storage", len(config_differences("su2", a, b)) == 2)
    a["model"]["walkers"] = b["model"]["walkers"] = "auto"
    check("muca walkers auto resolved to 8 and 270336 are equal",
          ("model.walkers", 8, 270336) in config_differences("muca", a, b, {"model.walkers": 8},
                                                            {"model.walkers": 270336}))
    # The bitwise table: a promised muca dataset, an estimate, josephson only on host backends.
    check("muca histogram not promised", bitwise_promise("muca", "iterations/histogram", False))
    check("muca log_g promised", not bitwise_promise("muca", "dos/log_g", True))
    check("josephson steps promised on CUDA", not bitwise_promise("josephson", "escape/steps",
                                                                  False))
    check("josephson steps not promised on host", bitwise_promise("josephson", "escape/steps",
                                                                  True))
    check("su2 has a promise", not any(r["app"] == "su2" for r in BITWISE))
    check("backend names", is_host_backend("OpenMP") and is_host_backend("Serial")
          and not is_host_backend("Cuda") and not is_host_backend(""))
    # Error companions (docs/output.md conventions).
    paths = {"canonical/energy", "canonical/energy_error", "summary/volume_mean",
             "summary/volume_error", "point_0/plaquette/mean", "point_0/plaquette/error",
             "canonical/energy_exact"}
    check("X_error", error_of("canonical/energy", paths) == "canonical/energy_error")
    check("<stem>_mean", error_of("summary/volume_mean", paths) == "summary/volume_error")
    check("group mean", error_of("point_0/plaquette/mean", paths) == "point_0/plaquette/error")
    check("exact has no error", error_of("canonical/energy_exact", paths) is None)
    for line in failures:
        print(f"FAIL {line}")
    print("self-test:", "FAIL" if failures else "PASS",
          f"(p of chi^2 = 18.31 with 10 dof: {chi2_sf(18.31, 10):.4f})")
    return EXIT_FAIL if failures else EXIT_PASS


# ---------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------


def parse_arguments(argv):
    parser = UsageParser(
        prog="compare_runs.py",
        description="Compare two portamc outputs of one app and input made by different "
                    "backends: bitwise where the docs promise it, within errors elsewhere.",
        epilog=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False)
    parser.add_argument("files", nargs="*", metavar="FILE", help="A.h5 B.h5")
    parser.add_argument("--allow-config-difference", action="store_true",
                        help="compare files of different configurations (e.g. other seeds)")
    parser.add_argument("--json", metavar="FILE", help="write the results to FILE as JSON")
    parser.add_argument("--self-test", action="store_true",
                        help="test the statistics and comparison functions, then exit")
    args = parser.parse_args(argv)
    if not args.self_test and len(args.files) != 2:
        parser.error("give two result files, A.h5 B.h5")
    return args


def main(argv):
    args = parse_arguments(argv)
    if args.self_test:
        return self_test()
    try:
        if args.json:
            check_json_target(args.json, args.files)
        result = compare(args.files[0], args.files[1], args.allow_config_difference)
    except ToolError as e:
        print(f"compare_runs.py: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    print_report(result)
    if args.json:
        write_json(args.json, json_record(result))
    return EXIT_PASS if result["pass"] else EXIT_FAIL


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
