#!/usr/bin/env python3
"""Exit 0 when two portamc result files hold bitwise the same data, else print the first
differences and exit 1. Compared: every dataset (values, dtype, shape) and every attribute,
except what describes the run rather than its results: /provenance (host, date, command line)
and groups named `timing` (wall times, launches, concurrent slots), and the objects named by
--ignore PATH (repeatable, e.g. muca/iterations/seconds).
--tolerance PATTERN=RTOL (repeatable) compares the floating-point datasets whose path matches
the shell-style PATTERN (fnmatch, e.g. 'su2/*plaquette*') to a relative tolerance RTOL instead
of bit for bit: for results that are sums over ranks, equal only to rounding."""
import fnmatch
import sys

import h5py
import numpy as np

SKIPPED_GROUPS = {"timing"}
IGNORED = set()
TOLERANCES = []  # (pattern, rtol)


def tolerance_of(name):
    name = name.strip("/")
    for pattern, rtol in TOLERANCES:
        if fnmatch.fnmatchcase(name, pattern):
            return rtol
    return None


def skipped(name):
    name = name.strip("/")
    parts = name.split("/")
    return (parts[0] == "provenance" or any(p in SKIPPED_GROUPS for p in parts) or
            any(name == i or name.startswith(i + "/") for i in IGNORED))


def items(f):
    out = {}

    def visit(name, obj):
        if skipped(name):
            return
        out[name] = obj

    f.visititems(visit)
    return out


def same_value(a, b, rtol=None):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    if rtol is not None and a.dtype.kind == "f":
        return bool(np.allclose(a, b, rtol=rtol, atol=0, equal_nan=True))
    if a.dtype.kind in "fc":
        # Bitwise: NaNs of the same pattern compare equal, -0 and +0 do not.
        return a.tobytes() == b.tobytes()
    return np.array_equal(a, b)


def main(first, second):
    problems = []
    with h5py.File(first, "r") as fa, h5py.File(second, "r") as fb:
        a, b = items(fa), items(fb)
        for name in sorted(set(a) ^ set(b)):
            problems.append(f"{name}: only in {first if name in a else second}")
        for name in sorted(set(a) & set(b)):
            oa, ob = a[name], b[name]
            if isinstance(oa, h5py.Dataset) != isinstance(ob, h5py.Dataset):
                problems.append(f"{name}: dataset in one file, group in the other")
                continue
            if isinstance(oa, h5py.Dataset) and not same_value(oa[()], ob[()],
                                                               tolerance_of(name)):
                problems.append(f"{name}: values differ")
            for key in sorted(set(oa.attrs) | set(ob.attrs)):
                if key not in oa.attrs or key not in ob.attrs:
                    problems.append(f"{name}@{key}: attribute only in one file")
                elif not same_value(oa.attrs[key], ob.attrs[key]):
                    problems.append(f"{name}@{key}: attribute differs")
        if not a:
            problems.append("no datasets compared")
    for p in problems[:20]:
        print(p)
    if problems:
        print(f"{first} and {second}: {len(problems)} difference(s)")
        return 1
    print(f"{first} and {second}: identical ({len(a)} objects compared)")
    return 0


if __name__ == "__main__":
    args = sys.argv[1:]
    while "--ignore" in args:
        i = args.index("--ignore")
        if i + 1 >= len(args):
            sys.exit("--ignore needs a path")
        IGNORED.add(args[i + 1].strip("/"))
        del args[i:i + 2]
    while "--tolerance" in args:
        i = args.index("--tolerance")
        if i + 1 >= len(args) or "=" not in args[i + 1]:
            sys.exit("--tolerance needs PATTERN=RTOL")
        pattern, rtol = args[i + 1].rsplit("=", 1)
        TOLERANCES.append((pattern.strip("/"), float(rtol)))
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit("usage: compare_h5.py FIRST.h5 SECOND.h5 [--ignore PATH]... "
                 "[--tolerance PATTERN=RTOL]...")
    sys.exit(main(args[0], args[1]))
