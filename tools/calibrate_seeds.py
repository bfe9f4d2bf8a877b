#!/usr/bin/env python3
"""Check a run's error bars by repeating it with k seeds.

Usage:
    tools/calibrate_seeds.py --app build/apps/portamc-su2 --input input/su2.yaml \\
        --seeds 8 --dataset /su2/point_0/plaquette [--dataset PATH[@INDEX][=EXACT] ...] \\
        [--first-seed 1] [--index I] [--exact VALUE] [--set KEY=VALUE ...] \\
        [--seed-key KEY] [--app-arg ARG ...] [--launcher "mpiexec -n 4"] \\
        [--workdir DIR] [--keep] [--reuse] [--json FILE] [--quantile 0.001] \\
        [--all-warnings]
    tools/calibrate_seeds.py --self-test

The app runs k times, with seeds first-seed .. first-seed + k - 1, as
    APP INPUT --quiet --set SETS... --set SEED_KEY=S -o WORKDIR/seed-S.h5
and each --dataset is read from every result with the error written beside it.
The scatter over the seeds is compared with the errors:
    chi^2 = sum_i (m_i - m)^2 / e_i^2,
m the exact value (k degrees of freedom) or the error-weighted mean (k - 1).
Honest errors give a chi^2 inside [q(p), q(1 - p)] of the chi^2 law, p = --quantile
(0.001 by default: the rule of core's stats::calibrate_errors).

--dataset PATH[@INDEX][=EXACT]
    PATH   an HDF5 path of the estimate: a dataset (`/muca/canonical/energy`,
           `/josephson/escape/mean_time`, `/tilings/summary/vertical_fraction_mean`, or
           just `/tilings/summary/vertical_fraction`) or a summary group holding
           `mean` or `value` with `error` (`/su2/point_0/plaquette`, `/cvf/point_0/density`).
    INDEX  the element of an array: `@12`, or `@2,3` for a 2-D array (Python-style,
           negative counts from the end). --index gives it for datasets without one.
    EXACT  the exact value: a number (`=0.5`) or a path in the result files
           (`=/muca/canonical/energy_exact`, with its own `@INDEX` if it differs).
           --exact gives it for datasets without one. Without it the reference is the
           error-weighted mean.

Where the error is looked for (the conventions of docs/output.md):
    summary group G (or G/mean, G/value):  G/error, G/tau_int, G/n_eff
    dataset G/X:   G/X_error (or G/<stem>_error for X = <stem>_mean),
                   G/X_tau_int, G/X_n_eff, else the group's shared G/tau_int, G/n_eff
A companion of the value's shape is indexed like it; a scalar one is shared.

The seed key is model.seed (muca, su2), run.seed (josephson, cvf) or seed (tilings),
chosen from the app's file name; --seed-key names another.

Exit codes: 0 every dataset passes, 1 at least one fails, 2 usage errors, a failed run
of the app, or a dataset that cannot be checked (missing, no error, NaN or error <= 0).

Needs numpy and h5py (Debian: python3-h5py; a pyenv python3 may lack it, then run it
with /usr/bin/python3).
"""

import argparse
import glob
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

EXIT_PASS, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

# Seed keys by app: the keys declared in apps/<app>/keys.cpp (tilings: a top-level `seed`).
SEED_KEYS = {
    "muca": "model.seed",
    "su2": "model.seed",
    "josephson": "run.seed",
    "cvf": "run.seed",
    "tilings": "seed",
}


class ToolError(Exception):
    """Anything that stops the check before a verdict: exit code 2 with the message."""


# ---------------------------------------------------------------------------------------
# The --json file (shared with compare_runs.py)
# ---------------------------------------------------------------------------------------


def check_json_target(path, inputs):
    """Refuses, before any work, a --json path that would destroy a file: one of the files the
    tool reads (`inputs`), or an existing directory, device, FIFO or symbolic link (the file
    is replaced by a rename, which would replace the node or the link itself)."""
    if os.path.lexists(path) and (os.path.islink(path) or not os.path.isfile(path)):
        raise ToolError(f"--json {path}: exists and is not a regular file")
    for other in inputs:
        if other and os.path.exists(path) and os.path.exists(other) and \
                os.path.samefile(path, other):
            raise ToolError(f"--json {path}: is also the input {other}")


def write_json(path, record):
    """Writes `record` under a temporary name beside `path`, then renames it: an interrupted
    or failed write leaves neither a truncated file that looks finished nor a damaged older
    one."""
    temp = f"{path}.tmp-{os.getpid()}"
    try:
        with open(temp, "w") as f:
            json.dump(record, f, indent=2)
            f.write("\n")
        os.replace(temp, path)
    finally:
        if os.path.exists(temp):
            os.remove(temp)


# ---------------------------------------------------------------------------------------
# The chi^2 law
# ---------------------------------------------------------------------------------------


def _log_gamma_prefactor(a, x):
    """ln(x^a e^-x / Gamma(a)), kept in logs so large a and x do not overflow."""
    return a * math.log(x) - x - math.lgamma(a)


def _lower_gamma_series(a, x):
    """P(a, x) by its power series sum x^n / (a (a+1) ... (a+n)).

    The terms shrink once n > x - a, so this is the branch for x < a + 1.
    """
    term = 1.0 / a
    total = term
    n = 0
    while abs(term) > abs(total) * 1e-17 and n < 100000:
        n += 1
        term *= x / (a + n)
        total += term
    return total * math.exp(_log_gamma_prefactor(a, x))


def _upper_gamma_fraction(a, x):
    """Q(a, x) by its continued fraction (evaluated with Lentz's method).

    The fraction converges fast for x >= a + 1, where the series would need many terms,
    and it gives the small upper tail directly instead of as 1 - (a number near 1).
    """
    smallest = 1e-300
    b = x + 1.0 - a
    c = 1.0 / smallest
    d = 1.0 / b
    result = d
    for i in range(1, 100000):
        coefficient = -i * (i - a)
        b += 2.0
        d = coefficient * d + b
        d = smallest if abs(d) < smallest else d
        c = b + coefficient / c
        c = smallest if abs(c) < smallest else c
        d = 1.0 / d
        step = c * d
        result *= step
        if abs(step - 1.0) < 1e-16:
            break
    return result * math.exp(_log_gamma_prefactor(a, x))


def _check_gamma_arguments(a, x):
    if not (a > 0 and x >= 0):
        raise ValueError(f"regularized gamma needs a > 0 and x >= 0 (a = {a}, x = {x})")


def regularized_lower_gamma(a, x):
    """P(a, x) = gamma(a, x) / Gamma(a), the CDF of a Gamma(a, 1) variable."""
    _check_gamma_arguments(a, x)
    if x == 0:
        return 0.0
    if x < a + 1.0:
        return _lower_gamma_series(a, x)
    return 1.0 - _upper_gamma_fraction(a, x)


def regularized_upper_gamma(a, x):
    """Q(a, x) = 1 - P(a, x), computed directly where it is small (x >= a + 1)."""
    _check_gamma_arguments(a, x)
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return 1.0 - _lower_gamma_series(a, x)
    return _upper_gamma_fraction(a, x)


def chi2_cdf(x, dof):
    """P(chi^2_dof <= x): a chi^2 with dof degrees of freedom is Gamma(dof/2, 2)."""
    _check_dof(dof)
    return 0.0 if x <= 0 else regularized_lower_gamma(0.5 * dof, 0.5 * x)


def chi2_sf(x, dof):
    """P(chi^2_dof > x), accurate also where it is tiny."""
    _check_dof(dof)
    return 1.0 if x <= 0 else regularized_upper_gamma(0.5 * dof, 0.5 * x)


def _check_dof(dof):
    if dof <= 0:
        raise ValueError(f"chi^2 needs a positive number of degrees of freedom, not {dof}")


def chi2_quantile(p, dof):
    """The x with chi2_cdf(x, dof) = p, by bisection (the CDF is increasing)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, not {p}")
    # Upper quantiles are bisected on the tail probability itself: 1 - CDF near 1 would keep
    # only the absolute precision of the CDF, a few digits of a tail of 1e-9.
    tail = 1.0 - p

    def below(x):
        """Whether x lies below the quantile."""
        return chi2_sf(x, dof) > tail if p > 0.5 else chi2_cdf(x, dof) < p

    low, high = 0.0, dof + 10.0 * math.sqrt(2.0 * dof) + 50.0
    # Far tails can lie beyond the first guess: widen until bracketed.
    while below(high):
        low, high = high, 2.0 * high
    # A relative tolerance: the lower quantiles of 1 dof are ~1e-6, an absolute one would
    # lose them.
    for _ in range(400):
        middle = 0.5 * (low + high)
        if below(middle):
            low = middle
        else:
            high = middle
        if high - low <= 1e-13 * high:
            break
    return 0.5 * (low + high)


def calibrate(means, errors, exact, tail):
    """chi^2 of the means around the exact value or the error-weighted mean, and its verdict."""
    weights = [1.0 / (e * e) for e in errors]
    weighted_mean = sum(w * m for w, m in zip(weights, means)) / sum(weights)
    reference = weighted_mean if exact is None else exact
    z = [(m - reference) / e for m, e in zip(means, errors)]
    chi2 = sum(v * v for v in z)
    dof = len(means) - (0 if exact is not None else 1)
    low, high = chi2_quantile(tail, dof), chi2_quantile(1.0 - tail, dof)
    return {
        "reference": reference,
        "reference_kind": "weighted mean" if exact is None else "exact value",
        "weighted_mean": weighted_mean,
        "weighted_mean_error": 1.0 / math.sqrt(sum(weights)),
        "z": z,
        "chi2": chi2,
        "dof": dof,
        "low": low,
        "high": high,
        # How far the errors are off: about 1 when honest, 2 when they are half the scatter.
        "scatter_over_error": math.sqrt(chi2 / dof),
        "pass": low <= chi2 <= high,
    }


# ---------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------


def parse_index(text, where):
    """'3' -> (3,), '2,3' -> (2, 3); a usage error names the argument it came from."""
    try:
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise ToolError(f"{where}: index '{text}' is not a comma-separated list of integers")


def split_path_index(text, where):
    """'PATH@INDEX' -> (PATH, index or None)."""
    path, at, index = text.partition("@")
    if not path.startswith("/"):
        raise ToolError(f"{where}: '{path}' is not an absolute HDF5 path (one that starts with /)")
    return path, (parse_index(index, where) if at else None)


def parse_dataset(text, default_index, default_exact):
    """One --dataset PATH[@INDEX][=EXACT] into a dict; EXACT a number or PATH[@INDEX]."""
    where = f"--dataset {text}"
    target, equals, exact_text = text.partition("=")
    path, index = split_path_index(target, where)
    spec = {"path": path, "index": index if index is not None else default_index,
            "exact": default_exact, "exact_path": None, "exact_index": None}
    if equals:
        if exact_text.startswith("/"):
            spec["exact"] = None
            spec["exact_path"], spec["exact_index"] = split_path_index(exact_text, where)
        else:
            spec["exact"] = parse_number(exact_text, where)
    return spec


def parse_number(text, where):
    try:
        value = float(text)
    except ValueError:
        raise ToolError(f"{where}: '{text}' is neither a number nor an HDF5 path")
    if not math.isfinite(value):
        raise ToolError(f"{where}: the exact value must be finite")
    return value


class UsageParser(argparse.ArgumentParser):
    """argparse exits with 2 on a usage error already; this only adds the pointer to --help."""

    def error(self, message):
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see --help)\n")


def parse_arguments(argv):
    parser = UsageParser(
        prog="calibrate_seeds.py",
        description="Check a run's error bars by repeating it with k seeds (chi^2 over seeds).",
        epilog=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False)
    parser.add_argument("--app", help="the app to run, e.g. build/apps/portamc-su2")
    parser.add_argument("--input", help="its YAML input (optional: the app's defaults)")
    parser.add_argument("--seeds", type=int, default=8, help="k, the number of runs (default 8)")
    parser.add_argument("--first-seed", type=int, default=1, help="the first seed (default 1)")
    parser.add_argument("--dataset", action="append", default=[], metavar="PATH[@INDEX][=EXACT]",
                        help="an estimate to check (repeatable)")
    parser.add_argument("--index", help="element of array datasets given without @INDEX, e.g. 3 "
                        "or 2,3")
    parser.add_argument("--exact", help="exact value for datasets given without =EXACT "
                        "(a number or an HDF5 path)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", dest="sets",
                        help="passed to the app as --set KEY=VALUE (repeatable)")
    parser.add_argument("--seed-key", help="configuration key of the seed (default: from the "
                        "app's name)")
    parser.add_argument("--app-arg", action="append", default=[], metavar="ARG",
                        help="another argument for the app, e.g. --app-arg=--kokkos-num-threads=16 "
                        "(repeatable)")
    parser.add_argument("--launcher", default="", help="command put before the app, e.g. "
                        "'mpiexec -n 4'")
    parser.add_argument("--workdir", help="where the result files go (default: a temporary "
                        "directory)")
    parser.add_argument("--keep", action="store_true", help="keep the result files")
    parser.add_argument("--reuse", action="store_true", help="read WORKDIR/seed-S.h5 where it "
                        "exists instead of running that seed again")
    parser.add_argument("--all-warnings", action="store_true", help="pass on every warning line "
                        "of every run (default: the first of each kind)")
    parser.add_argument("--json", metavar="FILE", help="write the numbers to FILE as JSON")
    parser.add_argument("--quantile", type=float, default=0.001, metavar="P",
                        help="probability in each tail of the pass range (default 0.001)")
    parser.add_argument("--self-test", action="store_true", help="test the chi^2 functions and "
                        "the parsing, then exit")
    args = parser.parse_args(argv)
    if args.self_test:
        return args
    try:
        check_arguments(args)
    except ToolError as e:
        parser.error(str(e))
    return args


def check_arguments(args):
    """Everything that can be refused before a run; fills args.specs and args.seed_key."""
    if not args.app:
        raise ToolError("--app is required")
    if not args.dataset:
        raise ToolError("at least one --dataset is required")
    if args.seeds < 2:
        raise ToolError("--seeds must be at least 2 (a scatter needs two runs)")
    if args.first_seed < 0:
        raise ToolError("--first-seed must be >= 0")
    if not 0.0 < args.quantile < 0.5:
        raise ToolError("--quantile must lie in (0, 0.5)")
    if args.reuse and not args.workdir:
        raise ToolError("--reuse needs --workdir (the files to reuse)")
    if args.input and not os.path.isfile(args.input):
        raise ToolError(f"--input {args.input}: no such file")
    if not shutil.which(args.app):
        raise ToolError(f"--app {args.app}: not an executable")
    if args.json:
        check_json_target(args.json, [shutil.which(args.app), args.input])
    index = parse_index(args.index, "--index") if args.index else None
    exact = None
    exact_path = None
    if args.exact is not None:
        if args.exact.startswith("/"):
            exact_path = args.exact
        else:
            exact = parse_number(args.exact, "--exact")
    args.specs = []
    for text in args.dataset:
        # A global path exact value goes through the same parser as a per-dataset one.
        if exact_path is not None and "=" not in text:
            text = f"{text}={exact_path}"
        args.specs.append(parse_dataset(text, index, exact))
    args.seed_key = args.seed_key or seed_key_for(args.app)
    for assignment in args.sets:
        key, equals, _ = assignment.partition("=")
        if not equals:
            raise ToolError(f"--set {assignment}: expected KEY=VALUE")
        if key == args.seed_key:
            raise ToolError(f"--set {assignment}: the seed is what this tool varies "
                            "(use --first-seed)")


def seed_key_for(app):
    name = os.path.basename(app)
    for model, key in SEED_KEYS.items():
        if model in name:
            return key
    raise ToolError(f"cannot tell the seed key from the app name '{name}': give --seed-key")


# ---------------------------------------------------------------------------------------
# Reading an estimate and its error
# ---------------------------------------------------------------------------------------


def import_h5py():
    try:
        import h5py
    except ImportError:
        raise ToolError(f"{sys.executable} has no h5py (Debian: apt-get install python3-h5py; "
                        "or run this tool with /usr/bin/python3)")
    return h5py


def join(group_path, name):
    return group_path.rstrip("/") + "/" + name


def parent_of(path):
    return path.rsplit("/", 1)[0] or "/"


def missing_path_message(h5, path):
    """What is there instead: the members of the deepest group of path that exists."""
    group = parent_of(path)
    while group not in h5 and group != "/":
        group = parent_of(group)
    members = ", ".join(sorted(h5[group].keys())) or "nothing"
    return f"{path} is not in the file ({group} holds: {members})"


def locate(h5, path):
    """Paths of value, error candidates, tau_int and n_eff candidates for one estimate.

    Follows the layouts of docs/output.md: summary groups (su2 observables, cvf means and
    jackknife estimates) hold mean/value beside error, tau_int, n_eff; plain datasets (muca,
    josephson, tilings, the su2 and cvf scan tables) have X_error, X_tau_int, X_n_eff beside
    X, tilings' X_mean has X_error, and josephson shares one tau_int, n_eff per group.
    """
    if path not in h5 and join(parent_of(path), path.rsplit("/", 1)[1] + "_mean") in h5:
        path = path + "_mean"  # tilings: summary/<observable> is written as <observable>_mean
    if path not in h5:
        raise ToolError(missing_path_message(h5, path))
    obj = h5[path]
    h5py = import_h5py()
    if isinstance(obj, h5py.Group):
        values = [join(path, "mean"), join(path, "value")]
        found = [v for v in values if v in h5]
        if not found:
            raise ToolError(f"{path} is a group without the estimate: looked for "
                            f"{' and '.join(values)}")
        value, group, stems = found[0], path, []
    else:
        value, group = path, parent_of(path)
        name = path.rsplit("/", 1)[1]
        stems = [] if name in ("mean", "value") else [name]
        if name.endswith("_mean"):
            stems.append(name[: -len("_mean")])
    # The bare names error/tau_int/n_eff belong to the group's estimate; for a plain dataset
    # only tau_int and n_eff may be shared (josephson), an `error` would be someone else's.
    shared_error = [join(group, "error")] if not stems else []
    return {
        "value": value,
        "error": [join(group, s + "_error") for s in stems] + shared_error,
        "tau_int": [join(group, s + "_tau_int") for s in stems] + [join(group, "tau_int")],
        "n_eff": [join(group, s + "_n_eff") for s in stems] + [join(group, "n_eff")],
    }


def element(h5, path, index, shape_of_value, what):
    """One number from path: indexed like the value when shaped like it, shared if scalar."""
    data = h5[path]
    if data.shape == shape_of_value:
        chosen = data[index] if index is not None else data[()]
    elif data.shape == ():
        chosen = data[()]
    else:
        raise ToolError(f"{what} {path} has shape {data.shape}, the value {shape_of_value}: "
                        "they do not pair element by element")
    return float(chosen)


def check_index(path, shape, index):
    if shape == () and index is not None:
        raise ToolError(f"{path} is a scalar: drop the index @{','.join(map(str, index))}")
    if shape != () and index is None:
        raise ToolError(f"{path} has shape {shape}: name an element, {path}@I"
                        + (",J" if len(shape) > 1 else "") + " (or --index)")
    if index is not None:
        if len(index) != len(shape):
            raise ToolError(f"{path} has shape {shape}: the index needs {len(shape)} "
                            f"component(s), not {len(index)}")
        for i, n in zip(index, shape):
            if not -n <= i < n:
                raise ToolError(f"{path} has shape {shape}: index {index} is out of range")


def first_present(h5, candidates):
    return next((c for c in candidates if c in h5), None)


def read_estimate(h5, spec):
    """mean, error, tau_int, n_eff (None where not written) and where each came from."""
    where = locate(h5, spec["path"])
    shape = h5[where["value"]].shape
    check_index(where["value"], shape, spec["index"])
    index = spec["index"]
    error_path = first_present(h5, where["error"])
    if error_path is None:
        raise ToolError(f"no error found for {where['value']}: looked for "
                        f"{', '.join(where['error'])}")
    row = {
        "mean": element(h5, where["value"], index, shape, "value"),
        "error": element(h5, error_path, index, shape, "error"),
        "paths": {"value": where["value"], "error": error_path},
    }
    for key in ("tau_int", "n_eff"):
        path = first_present(h5, where[key])
        row[key] = None
        if path is not None and h5[path].shape in (shape, ()):
            row[key] = element(h5, path, index, shape, key)
            row["paths"][key] = path
    if spec["exact_path"] is not None:
        row["exact"] = read_exact(h5, spec, shape)
    return row


def read_exact(h5, spec, shape_of_value):
    path = spec["exact_path"]
    if path not in h5:
        raise ToolError(f"exact value: {missing_path_message(h5, path)}")
    data = h5[path]
    index = spec["exact_index"]
    if index is None and data.shape == shape_of_value:
        index = spec["index"]  # an exact table beside the estimate, e.g. canonical/*_exact
    check_index(path, data.shape, index)
    return float(data[index] if index is not None else data[()])


# ---------------------------------------------------------------------------------------
# Running the app
# ---------------------------------------------------------------------------------------


def app_command(args, seed, output):
    command = shlex.split(args.launcher) + [args.app]
    if args.input:
        command.append(args.input)
    command.append("--quiet")
    for assignment in args.sets:
        command += ["--set", assignment]
    command += ["--set", f"{args.seed_key}={seed}", "-o", output] + args.app_arg
    return command


def run_seed(args, seed, output, warnings_seen):
    """Run one seed; a failed run stops the tool with the app's own message."""
    command = app_command(args, seed, output)
    started = time.monotonic()
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    except OSError as e:
        raise ToolError(f"seed {seed}: cannot start {command[0]}: {e}")
    seconds = time.monotonic() - started
    if done.returncode != 0:
        message = (done.stderr + done.stdout).strip() or "(no message)"
        raise ToolError(f"seed {seed}: the app exited with code {done.returncode}:\n"
                        f"  {shlex.join(command)}\n{message}")
    pass_on_warnings(done.stderr, seed, warnings_seen, args.all_warnings)
    return seconds


def pass_on_warnings(stderr, seed, seen, show_all):
    """Print the app's warnings, by default only the first of each kind.

    Apps print warnings on stderr even with --quiet (an unreliable error bar); they explain a
    failing check, so they are passed on. The k runs repeat the same warnings with other
    numbers in them (N_eff, tau_int): a line whose words were seen before is only counted.
    """
    for line in stderr.splitlines():
        kind = re.sub(r"[-+]?\d[\d.]*(e[-+]?\d+)?", "#", line.strip())
        if not kind:
            continue
        if show_all or kind not in seen:
            print(f"seed {seed}: {line}", file=sys.stderr)
        seen[kind] = seen.get(kind, 0) + 1


def report_repeated_warnings(seen, show_all):
    repeats = sum(count - 1 for count in seen.values())
    if repeats and not show_all:
        print(f"({repeats} more warning line(s) like those above from later seeds; "
              "--all-warnings prints them)", file=sys.stderr)


def collect(args, workdir, written):
    """Run (or reuse) every seed and read every dataset: rows[dataset][seed].

    written collects the result files of the runs made here (to remove them unless --keep).
    """
    h5py = import_h5py()
    rows = [[] for _ in args.specs]
    seconds = []
    warnings_seen = {}
    for n, seed in enumerate(range(args.first_seed, args.first_seed + args.seeds), start=1):
        output = os.path.join(workdir, f"seed-{seed}.h5")
        if args.reuse and os.path.exists(output):
            print(f"seed {seed} ({n}/{args.seeds}): reusing {output}", file=sys.stderr)
        else:
            written.append(output)
            seconds.append(run_seed(args, seed, output, warnings_seen))
            print(f"seed {seed} ({n}/{args.seeds}): {seconds[-1]:.2f} s", file=sys.stderr)
        # Read right after the run: a misspelled path fails after one run, not after k.
        with h5py.File(output, "r") as h5:
            for spec, dataset_rows in zip(args.specs, rows):
                try:
                    row = read_estimate(h5, spec)
                except ToolError as e:
                    raise ToolError(f"seed {seed} ({os.path.basename(output)}): {e}")
                row["seed"] = seed
                dataset_rows.append(row)
    report_repeated_warnings(warnings_seen, args.all_warnings)
    return rows, seconds


def reference_value(spec, rows):
    """The exact value of a dataset: given, or read from the files (the same in each)."""
    if spec["exact_path"] is None:
        return spec["exact"]
    values = [row["exact"] for row in rows]
    if any(abs(v - values[0]) > 1e-12 * max(abs(values[0]), 1e-300) for v in values):
        raise ToolError(f"exact value {spec['exact_path']} differs between the seeds: {values}")
    return values[0]


def evaluate(spec, rows, tail):
    means = [row["mean"] for row in rows]
    errors = [row["error"] for row in rows]
    for row in rows:
        if not (math.isfinite(row["mean"]) and math.isfinite(row["error"]) and row["error"] > 0):
            raise ToolError(f"{row['paths']['value']}: seed {row['seed']} gives mean "
                            f"{row['mean']} with error {row['error']}: cannot be checked (every "
                            "mean and error must be finite and every error positive)")
    exact = reference_value(spec, rows)
    result = calibrate(means, errors, exact, tail)
    result["exact"] = exact
    return result


# ---------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------


def describe(spec, rows):
    paths = rows[0]["paths"]
    label = spec["path"]
    if spec["index"] is not None:
        label += "@" + ",".join(map(str, spec["index"]))
    if spec["exact_path"] is not None:
        label += f" (exact value from {spec['exact_path']})"
    elif spec["exact"] is not None:
        label += f" (exact value {spec['exact']:.10g})"
    companions = ", ".join(f"{k}: {paths[k]}" for k in ("error", "tau_int", "n_eff") if k in paths)
    return f"{label}\n  value: {paths['value']}; {companions}"


def optional(value, width, digits):
    return f"{'-':>{width}}" if value is None else f"{value:{width}.{digits}g}"


def print_report(spec, rows, result, tail):
    print(describe(spec, rows))
    print(f"  {'seed':>6} {'mean':>17} {'error':>11} {'tau_int':>9} {'n_eff':>9} {'z':>7}")
    for row, z in zip(rows, result["z"]):
        print(f"  {row['seed']:>6} {row['mean']:17.10g} {row['error']:11.4g} "
              f"{optional(row['tau_int'], 9, 4)} {optional(row['n_eff'], 9, 4)} {z:+7.2f}")
    print(f"  weighted mean {result['weighted_mean']:.10g} +- {result['weighted_mean_error']:.3g}")
    if result["exact"] is not None:
        print(f"  exact value   {result['exact']:.10g}")
    verdict = "PASS" if result["pass"] else "FAIL"
    print(f"  chi^2 = {result['chi2']:.4g} with {result['dof']} dof around the "
          f"{result['reference_kind']}; pass range [{result['low']:.4g}, {result['high']:.4g}] "
          f"(two-sided, {tail:g} in each tail): {verdict}")
    print(f"  sqrt(chi^2/dof) = {result['scatter_over_error']:.3g} (scatter over the seeds in "
          "units of the errors; 1 when honest)")
    print()


def print_header(args, seconds):
    last = args.first_seed + args.seeds - 1
    command = shlex.join(app_command(args, "S", "seed-S.h5"))
    print(f"{args.seeds} seeds ({args.seed_key} = {args.first_seed}..{last}) of {command}")
    if seconds:
        print(f"{sum(seconds):.1f} s of runs, {sum(seconds) / len(seconds):.2f} s each")
    print()


def finite_or_none(value):
    """JSON has no NaN or infinity."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def json_record(args, specs, all_rows, results, seconds):
    datasets = []
    for spec, rows, result in zip(specs, all_rows, results):
        datasets.append({
            "path": spec["path"],
            "index": list(spec["index"]) if spec["index"] is not None else None,
            "paths": rows[0]["paths"],
            "exact": result["exact"],
            "exact_path": spec["exact_path"],
            "reference": result["reference_kind"],
            "rows": [{"seed": r["seed"], "mean": finite_or_none(r["mean"]),
                      "error": finite_or_none(r["error"]),
                      "tau_int": finite_or_none(r["tau_int"]),
                      "n_eff": finite_or_none(r["n_eff"]), "z": z}
                     for r, z in zip(rows, result["z"])],
            **{k: result[k] for k in ("weighted_mean", "weighted_mean_error", "chi2", "dof",
                                      "low", "high", "scatter_over_error", "pass")},
        })
    return {
        "app": args.app,
        "input": args.input,
        "sets": args.sets,
        "seed_key": args.seed_key,
        "seeds": list(range(args.first_seed, args.first_seed + args.seeds)),
        "quantile": args.quantile,
        "run_seconds": seconds,
        "datasets": datasets,
        "pass": all(r["pass"] for r in results),
    }


# ---------------------------------------------------------------------------------------
# Self-test
# ---------------------------------------------------------------------------------------


def self_test():
    """Known chi^2 quantiles and CDF values, the statistic and the --dataset syntax."""
    failures = []

    def close(what, got, expected, rtol):
        if not abs(got - expected) <= rtol * abs(expected):
            failures.append(f"{what}: {got!r}, expected {expected!r} (rtol {rtol})")

    # Quantiles from standard chi^2 tables (4-5 significant figures).
    for p, dof, expected in [(0.001, 8, 0.8571), (0.999, 8, 26.12), (0.001, 7, 0.5985),
                             (0.999, 7, 24.32), (0.95, 1, 3.841), (0.999, 1, 10.83),
                             (0.001, 1, 1.571e-6), (0.05, 10, 3.940), (0.5, 100, 99.33)]:
        close(f"chi2_quantile({p}, {dof})", chi2_quantile(p, dof), expected, 1e-3)
    # Closed forms: 2 dof is an exponential law, 1 dof a squared normal.
    for x in (0.01, 1.0, 5.0, 40.0):
        close(f"chi2_cdf({x}, 2)", chi2_cdf(x, 2), 1.0 - math.exp(-0.5 * x), 1e-12)
        close(f"chi2_cdf({x}, 1)", chi2_cdf(x, 1), math.erf(math.sqrt(0.5 * x)), 1e-12)
    for p in (1e-6, 0.001, 0.5, 0.999, 1 - 1e-9):
        close(f"chi2_quantile({p}, 2)", chi2_quantile(p, 2), -2.0 * math.log1p(-p), 1e-10)
    # The upper tail keeps its relative precision far out (2 dof: exp(-x/2)).
    for x in (60.0, 200.0, 1000.0):
        close(f"chi2_sf({x}, 2)", chi2_sf(x, 2), math.exp(-0.5 * x), 1e-12)
    # Large dof on both branches of the incomplete gamma function: the CDF at the quantile.
    for dof in (3, 64, 1000):
        for p in (0.001, 0.999):
            close(f"chi2_cdf(chi2_quantile({p}, {dof}))", chi2_cdf(chi2_quantile(p, dof), dof),
                  p, 1e-9)
    # The statistic: around an exact value k dof, around the weighted mean k - 1.
    r = calibrate([1.0, 2.0, 3.0], [1.0, 1.0, 1.0], 2.0, 0.001)
    close("chi^2 around exact 2", r["chi2"], 2.0, 1e-15)
    if r["dof"] != 3:
        failures.append(f"dof around an exact value: {r['dof']}, expected 3")
    r = calibrate([1.0, 3.0], [1.0, 2.0], None, 0.001)
    close("weighted mean", r["weighted_mean"], 1.4, 1e-15)
    close("chi^2 around the weighted mean", r["chi2"], 0.16 + 2.56 / 4.0, 1e-14)
    if r["dof"] != 1 or not r["pass"]:
        failures.append(f"dof/pass around the weighted mean: {r['dof']}, {r['pass']}")
    if calibrate([0.0] * 8, [1.0] * 8, 100.0, 0.001)["pass"]:
        failures.append("means 100 errors away from the exact value passed")
    # --dataset syntax.
    spec = parse_dataset("/a/b@2,3=/a/c@1", None, None)
    if (spec["path"], spec["index"], spec["exact_path"], spec["exact_index"]) != \
            ("/a/b", (2, 3), "/a/c", (1,)):
        failures.append(f"parse '/a/b@2,3=/a/c@1': {spec}")
    spec = parse_dataset("/a/b=-1.5e-3", (4,), None)
    if (spec["index"], spec["exact"]) != ((4,), -1.5e-3):
        failures.append(f"parse '/a/b=-1.5e-3' with --index 4: {spec}")
    for bad in ("a/b", "/a@x", "/a=pi"):
        try:
            parse_dataset(bad, None, None)
            failures.append(f"'{bad}' was accepted")
        except ToolError:
            pass
    for line in failures:
        print(f"FAIL {line}")
    print("self-test:", "FAIL" if failures else "PASS",
          f"(chi2 8 dof: q(0.001) = {chi2_quantile(0.001, 8):.4f}, "
          f"q(0.999) = {chi2_quantile(0.999, 8):.4f})")
    return EXIT_FAIL if failures else EXIT_PASS


# ---------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------


def prepare_workdir(args):
    """(directory, whether this tool created it): only what it created is removed."""
    if not args.workdir:
        return tempfile.mkdtemp(prefix="calibrate-seeds-"), True
    created = not os.path.isdir(args.workdir)
    os.makedirs(args.workdir, exist_ok=True)
    return args.workdir, created


def clean_up(args, workdir, created, written):
    if args.keep:
        print(f"result files kept in {workdir}", file=sys.stderr)
        return
    if created:
        shutil.rmtree(workdir, ignore_errors=True)
        return
    # A directory given by the user stays, and so do the files reused from it; the files of
    # this invocation's runs go, with what a failed run left beside them (its temporary
    # file <output>.tmp-<pid>, a checkpoint <output>.checkpoint).
    for output in written:
        for path in glob.glob(glob.escape(output) + "*"):
            os.remove(path)


def check(args):
    workdir, created = prepare_workdir(args)
    written = []
    try:
        all_rows, seconds = collect(args, workdir, written)
        results = [evaluate(s, rows, args.quantile) for s, rows in zip(args.specs, all_rows)]
    finally:
        clean_up(args, workdir, created, written)
    print_header(args, seconds)
    for spec, rows, result in zip(args.specs, all_rows, results):
        print_report(spec, rows, result, args.quantile)
    passed = sum(r["pass"] for r in results)
    print(f"{passed} of {len(results)} dataset(s) pass")
    if args.json:
        write_json(args.json, json_record(args, args.specs, all_rows, results, seconds))
    return EXIT_PASS if passed == len(results) else EXIT_FAIL


def main(argv):
    args = parse_arguments(argv)
    if args.self_test:
        return self_test()
    try:
        return check(args)
    except ToolError as e:
        print(f"calibrate_seeds.py: error: {e}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
