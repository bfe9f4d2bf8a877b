#!/usr/bin/env python3
"""One app, one small input, every backend of the build (--backend), compared by
tools/compare_runs.py: what README's CPU-versus-GPU comparison promises a user.

    backends_agree.py --app PATH --compare tools/compare_runs.py --workdir DIR
                      --backends serial,openmp,cuda -- INPUT [--set KEY=VALUE ...]

Runs the input once without --backend (the build's default backend) and once with
--backend NAME for every listed backend, checks that each exits 0 and that its provenance
names the backend it was asked for, then compares every file with the first backend's
(compare_runs.py: bitwise where the docs promise it, within the errors otherwise) and
requires the verdict AGREE (exit 0). Exit 0 when all agree, 1 otherwise.
"""
import argparse
import os
import shutil
import subprocess
import sys

import h5py


def provenance_backend(path):
    with h5py.File(path, "r") as f:
        value = f["provenance/backend"][()]
    return value.decode() if isinstance(value, bytes) else str(value)


def run(command, what):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(f"FAIL: {what} exited with {result.returncode}:\n{result.stdout}{result.stderr}")
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", required=True)
    parser.add_argument("--compare", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--backends", required=True, help="comma-separated backend names")
    parser.add_argument("app_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    app_args = [a for a in args.app_args if a != "--"]
    backends = [b for b in args.backends.split(",") if b]
    name = os.path.basename(args.app)
    shutil.rmtree(args.workdir, ignore_errors=True)
    os.makedirs(args.workdir)

    failures = 0
    files = []  # (label, path)
    for backend in [None] + backends:
        label = backend or "default"
        out = os.path.join(args.workdir, f"{label}.h5")
        command = [args.app] + app_args + ["--quiet", "-o", out]
        if backend:
            command += ["--backend", backend]
        if run(command, f"{name} on {label}").returncode != 0:
            failures += 1
            continue
        recorded = provenance_backend(out)
        if backend and recorded.lower() != backend:
            print(f"FAIL: {name} --backend {backend} recorded backend '{recorded}'")
            failures += 1
        print(f"{name} on {label}: ran ({recorded})")
        files.append((label, out))

    reference = next((f for f in files if f[0] != "default"), None)
    for label, path in files:
        if reference is None or path == reference[1]:
            continue
        result = run([sys.executable, args.compare, reference[1], path],
                     f"compare_runs {reference[0]} vs {label}")
        verdict = [line for line in result.stdout.splitlines() if "AGREE" in line]
        print(f"{reference[0]} vs {label}: " + (verdict[-1] if verdict else "no verdict"))
        if result.returncode != 0:
            failures += 1
    if failures:
        print(f"{name}: {failures} failure(s)")
        return 1
    print(f"{name}: every backend ran and agreed ({', '.join(backends)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
