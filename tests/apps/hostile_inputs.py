#!/usr/bin/env python3
"""Feeds bad inputs to every app, as a careless or hostile user would, and checks each refusal.

For every case: exit code 2, a message on stderr that names the problem (the words given with
the case), no crash and no file left behind in the case's directory. A refusal that starts
a run instead is caught by its exit code and the files it writes, not by a clock: the only
time bound is a hang guard (HANG_SECONDS), far above any real answer, because on a loaded
host (a 64-core GPU machine running four suites at once) plain process start-up took 5-8 s.
The answer times are printed for information. Usage: hostile_inputs.py DIR_WITH_APPS
[--list]. Exit 0 when every case passes.
"""
import os
import subprocess
import sys
import tempfile
import time

# A valid input per app: every case breaks one thing in it or around it.
VALID = {
    "muca": "model: {L: 4, walkers: 4, seed: 3}\niteration: {kl_threshold: 0.01}\n"
            "production: {blocks: 4, updates_per_block: 500}\n",
    "su2": "lattice: {extents: [6, 6, 6, 4]}\nmodel: {beta: 2.3, start: hot, seed: 5}\n"
           "run: {thermalisation: 2, measurements: 8, updates_between_measurements: 1}\n",
    "josephson": "mode: escape\njunction: {V0: 1.0, beta: 0.05, theta: 0.3}\n"
                 "bias: {gamma: 0.5}\nrun: {realisations: 64, max_steps: 2000, seed: 21}\n",
    "tilings": "model: domino\nmode: cftp\nseed: 3\ndomain: {shape: aztec_diamond, n: 4}\n"
               "cftp: {samples: 4}\n",
    "cvf": "lattice: {L: 8}\nstate: {temperatures: [400], pressures: [0.1]}\n"
           "run: {seed: 7, thermalisation: 10, measurements: 20}\n"
           "analysis: {blocks: 4, autocorrelation_lags: 5}\n",
}
SEED_KEY = {"muca": "model.seed", "su2": "model.seed", "josephson": "run.seed",
            "tilings": "seed", "cvf": "run.seed"}
# Refused from the input and the flags alone, before the execution space starts (that takes
# seconds on a busy host): such answers must not show the startup line, which names Kokkos.
BEFORE_BACKEND = {"output is the input", "output is /dev/null", "output is a directory",
                  "output in a missing directory", "output is a symbolic link",
                  "output is a FIFO", "checkpoint is the output", "checkpoint is the input",
                  "checkpoint is /dev/null", "resume from a missing file",
                  "resume from an empty file", "resume from a directory"}
STARTUP_LINE = "(Kokkos "
# A refusal that has not answered by then is hung (it is not a speed test: see the docstring).
HANG_SECONDS = 120
# One integer key per app with its valid range, for range and type cases.
INT_KEY = {"muca": "model.L", "su2": "run.measurements", "josephson": "run.realisations",
           "tilings": "cftp.samples", "cvf": "lattice.L"}


def yaml_cases(app):
    """(name, input text, extra args, words): broken YAML and configuration."""
    v = VALID[app]
    first_key = v.split(":")[0]
    key = INT_KEY[app]
    section, leaf = key.split(".") if "." in key else (None, key)
    cases = [
        ("unclosed double quote at the end", v + 'output: {file: "x.h5\n', [], ["not closed"]),
        ("unclosed single quote at the end", v + "output: {file: 'x.h5\n", [], ["not closed"]),
        ("unclosed quote in the middle", 'output:\n  file: "x.h5\n' + v, [], ["not closed"]),
        ("quote swallowing a key", 'output:\n  file: "x.h5\n' + v + 'x: "\n', [],
         ["swallows line"]),
        ("tab indentation", v + "tabbed:\n  a: 1\n\tb: 2\n", [], ["tab"]),
        ("unknown top-level key", v + "bogus_section: {a: 1}\n", [], ["bogus_section"]),
        ("unknown nested key", v + "output: {fiel: x.h5}\n", [], ["fiel"]),
        ("duplicate key", v + first_key + ": 1\n", [], [first_key]),
        ("a list where a mapping belongs", "- 1\n- 2\n", [], [""]),
        ("a bare scalar document", "hello\n", [], [""]),
        ("unbalanced brace", v + "output: {file: x.h5\n", [], [""]),
        ("unbalanced bracket", v + "extra: [1, 2\n", [], [""]),
        ("binary garbage", "\x00\x01\x02\xff\xfe" * 20, [], [""]),
        ("a non-ASCII key", v + "\xc3\x28: 1\n", [], [""]),
        ("two documents", v + "---\n" + v, [], [""]),
        ("anchor to nowhere", v + "output: *nothing\n", [], [""]),
    ]
    for bad, words in (("-5", [key]), ("0", [key]), ("1e30", [key]), ("2.5", [key]),
                       ("'ten'", [key]), ("[1, 2]", [key]), ("{a: 1}", [key]), ("true", [key]),
                       ("null", [key]), ("0x7fffffffffffffffff", [key])):
        cases.append(("%s = %s" % (key, bad), v, ["--set", "%s=%s" % (key, bad)], words))
    seed = SEED_KEY[app]
    for bad in ("-1", "1.5", "abc", "99999999999999999999999"):
        cases.append(("%s = %s" % (seed, bad), v, ["--set", "%s=%s" % (seed, bad)], [seed]))
    for bad, words in (("nokey", ["nokey"]), ("=1", [""]), ("a.b.c.d=1", ["a.b.c.d"]),
                       ("output.file=", ["output"])):
        cases.append(("--set " + bad, v, ["--set", bad], words))
    return cases


def cli_cases(app):
    """(name, args, words): command lines that cannot run, with the valid input file."""
    return [
        ("unknown option", ["--frobnicate"], ["--frobnicate"]),
        ("unknown short option", ["-x"], ["-x"]),
        ("-o without a value", ["-o"], ["-o needs a value"]),
        ("--set without a value", ["--set"], ["--set needs a value"]),
        ("--resume without a value", ["--resume"], ["--resume needs a value"]),
        ("-o empty", ["-o", ""], ["needs a file name"]),
        ("--output= empty", ["--output="], ["needs a file name"]),
        ("--resume empty", ["--resume", ""], ["needs a file name"]),
        ("a second input file", ["second.yaml"], ["more than one input"]),
        ("--backend without a value", ["--backend"], ["--backend needs a value"]),
        ("--backend not in this build", ["--backend", "nonesuch"],
         ["--backend 'nonesuch' is not a backend of this build"]),
        ("--backend in capitals", ["--backend=SERIAL"], ["'SERIAL'", "serial"]),
    ]


def file_cases(app, d, inp):
    """(name, input path, args, words): files that must not be read or written."""
    big = os.path.join(d, "big.yaml")
    fifo = os.path.join(d, "fifo.yaml")
    sub = os.path.join(d, "sub")
    link = os.path.join(d, "link.h5")
    return [
        ("missing input", os.path.join(d, "absent.yaml"), [], ["absent.yaml"]),
        ("input is /dev/zero", "/dev/zero", [], ["/dev/zero"]),
        ("input is /dev/null", "/dev/null", [], ["/dev/null"]),
        ("input is a directory", sub, [], ["sub"]),
        ("input is a FIFO", fifo, [], ["fifo.yaml"]),
        ("input over 1 MiB", big, [], ["1 MiB"]),
        ("output is the input", inp, ["-o", inp], ["is also the output"]),
        ("output is /dev/null", inp, ["-o", "/dev/null"], ["character device"]),
        ("output is a directory", inp, ["-o", sub], ["directory"]),
        ("output in a missing directory", inp, ["-o", os.path.join(d, "nowhere", "x.h5")],
         ["does not exist"]),
        ("output is a symbolic link", inp, ["-o", link], ["symbolic link"]),
        ("output is a FIFO", inp, ["-o", fifo], ["FIFO"]),
    ]


def resume_cases(app, d, inp):
    """Unusable --resume files (every app has checkpoints)."""
    text = os.path.join(d, "text.ckpt")
    empty = os.path.join(d, "empty.ckpt")
    out = os.path.join(d, "out.h5")
    return [
        ("resume from a missing file", inp, ["--resume", os.path.join(d, "gone.ckpt")],
         ["gone.ckpt"]),
        ("resume from an empty file", inp, ["--resume", empty], ["empty.ckpt"]),
        ("resume from a text file", inp, ["--resume", text], ["text.ckpt"]),
        ("resume from the input", inp, ["--resume", inp], [os.path.basename(inp)]),
        ("resume from a directory", inp, ["--resume", os.path.join(d, "sub")], ["sub"]),
        ("checkpoint is the output", inp, ["-o", out, "--set", "checkpoint.file=" + out],
         ["are the same file"]),
        ("checkpoint is the input", inp, ["--set", "checkpoint.file=" + inp],
         ["is also the checkpoint"]),
        ("checkpoint is /dev/null", inp, ["--set", "checkpoint.file=/dev/null"],
         ["character device"]),
    ]


def prepare(d):
    """The fixed files of a case directory; returns them so that leftovers can be found."""
    os.mkdir(os.path.join(d, "sub"))
    os.mkfifo(os.path.join(d, "fifo.yaml"))
    with open(os.path.join(d, "big.yaml"), "w") as f:
        f.write("# padding\n" * (1024 * 1024 // 10 + 1))
    with open(os.path.join(d, "second.yaml"), "w") as f:
        f.write("{}\n")
    with open(os.path.join(d, "text.ckpt"), "w") as f:
        f.write("not a checkpoint\n")
    open(os.path.join(d, "empty.ckpt"), "w").close()
    os.symlink(os.path.join(d, "target.h5"), os.path.join(d, "link.h5"))


def run_case(binary, d, inp, args, words, before_backend=False):
    """Runs one case; returns a list of problems (empty when it passes)."""
    before = sorted(os.listdir(d))
    with open(os.devnull) as devnull:
        start = time.monotonic()
        try:
            p = subprocess.run([binary] + ([inp] if inp else []) + args, cwd=d, stdin=devnull,
                               capture_output=True, timeout=HANG_SECONDS)
        except subprocess.TimeoutExpired:
            return ["no answer within %d s: hung" % HANG_SECONDS], float(HANG_SECONDS)
        seconds = time.monotonic() - start
    problems = []
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode != 2:
        problems.append("exit code %d, not 2" % p.returncode)
    if not err.strip():
        problems.append("no message")
    for w in words:
        if w and w not in err:
            problems.append("message lacks %r" % w)
    if before_backend and STARTUP_LINE in err:
        problems.append("refused only after the execution space started")
    if "Segmentation" in err or "terminate called" in err or "Aborted" in err:
        problems.append("crash")
    after = sorted(os.listdir(d))
    if after != before:
        problems.append("files changed: %s" % sorted(set(after) ^ set(before)))
    if problems:
        problems.append("stderr: " + err.strip().replace("\n", " | ")[:300])
    return problems, seconds


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    apps_dir = os.path.abspath(sys.argv[1])
    listing = "--list" in sys.argv
    total = failed = 0
    times = []
    for app in VALID:
        binary = os.path.join(apps_dir, "portamc-" + app)
        with tempfile.TemporaryDirectory(prefix="portamc_hostile_" + app + "_") as d:
            prepare(d)
            inp = os.path.join(d, "in.yaml")
            with open(inp, "w") as f:
                f.write(VALID[app])
            cases = []
            for name, text, args, words in yaml_cases(app):
                cases.append((name, text, None, args, words))
            for name, args, words in cli_cases(app):
                cases.append((name, None, inp, args, words))
            for name, path, args, words in file_cases(app, d, inp) + resume_cases(app, d, inp):
                cases.append((name, None, path, args, words))
            for name, text, path, args, words in cases:
                total += 1
                if text is not None:
                    path = os.path.join(d, "case.yaml")
                    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                        f.write(text)
                if listing:
                    print("%s: %s" % (app, name))
                    continue
                problems, seconds = run_case(binary, d, path, args, words, name in BEFORE_BACKEND)
                times.append(seconds)
                if text is not None:
                    os.remove(path)
                if problems:
                    failed += 1
                    print("FAIL %s: %s\n  %s" % (app, name, "\n  ".join(problems)))
    if listing:
        print("%d cases" % total)
        return 0
    print("%d of %d hostile inputs refused cleanly" % (total - failed, total))
    if times:
        times.sort()
        median = times[len(times) // 2]
        print("answer times (information, not a check): median %.3f s, longest %.3f s"
              % (median, times[-1]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
