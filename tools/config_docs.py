#!/usr/bin/env python3
"""Keeps the key tables of docs/config.md equal to what the apps' --help prints.

Each app section of docs/config.md holds, after the line "# portamc-<app> input reference", the
table that `portamc-<app> --help` prints after its own such line: both come from the app's
schema, the one declaration of its keys. The prose around the tables is written by hand.

    tools/config_docs.py --apps BUILD/apps [--docs docs/config.md]          # rewrite the tables
    tools/config_docs.py --apps BUILD/apps [--docs docs/config.md] --check  # exit 1 if stale

Exit codes: 0 up to date (or rewritten), 1 stale (--check; the differing apps are named),
2 usage errors (an app or a section missing).
"""
import argparse
import os
import subprocess
import sys

APPS = ["muca", "su2", "josephson", "tilings", "cvf"]


def table_after_heading(lines, heading):
    """(start, end) of the table that follows `heading`: its first and one-past-last line."""
    try:
        at = lines.index(heading)
    except ValueError:
        return None
    start = at + 1
    while start < len(lines) and not lines[start].startswith("|"):
        start += 1
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return start, end


def help_table(binary, heading):
    out = subprocess.run([binary, "--help"], capture_output=True, text=True, check=True).stdout
    lines = out.split("\n")
    span = table_after_heading(lines, heading)
    if span is None or span[0] == span[1]:
        raise SystemExit(f"error: {binary} --help prints no table after '{heading}'")
    return lines[span[0]:span[1]]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--apps", required=True, help="folder holding the portamc-* executables")
    parser.add_argument("--docs", default=os.path.join(os.path.dirname(__file__), "..", "docs",
                                                       "config.md"))
    parser.add_argument("--check", action="store_true", help="only report whether it is stale")
    args = parser.parse_args()
    with open(args.docs, encoding="utf-8") as f:
        lines = f.read().split("\n")
    stale = []
    for app in APPS:
        binary = os.path.join(args.apps, "portamc-" + app)
        if not os.access(binary, os.X_OK):
            print(f"error: no executable {binary}", file=sys.stderr)
            return 2
        heading = f"# portamc-{app} input reference"
        span = table_after_heading(lines, heading)
        if span is None:
            print(f"error: {args.docs} has no line '{heading}'", file=sys.stderr)
            return 2
        table = help_table(binary, heading)
        if lines[span[0]:span[1]] != table:
            stale.append(app)
            lines[span[0]:span[1]] = table
    if args.check:
        if stale:
            print(f"{args.docs} is stale for " + ", ".join("portamc-" + a for a in stale) +
                  ": run tools/config_docs.py --apps <build>/apps", file=sys.stderr)
            return 1
        print(f"{args.docs} matches the apps' --help")
        return 0
    with open(args.docs, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print(("rewrote the tables of " + ", ".join(stale)) if stale else "already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
