#!/usr/bin/env python3
"""tools/plot_muca.py's Binder crossings on curves whose crossing is known exactly.

U_L(x) = 0.6 - 0.3 [tanh(c L (x - x0 + s)) - tanh(c L s)] for L = 4 and 6 cross at x0 (and
again beyond the range), away from their inflection points, where linear interpolation is
biased by the curvature. On grids of step 1e-3 and 5e-3, offset from x0 and different for the
two curves, the crossing must land within 1e-6 (1e-3) and 1e-4 (5e-3) of x0, where linear
interpolation misses by more than 1e-5 and 2.5e-4, and its error must be sqrt(e1^2 + e2^2)
over the difference of the exact slopes (within 5 %). A curve of three points falls back to
linear interpolation, and curves that do not cross give no crossing. Prints "binder
crossings ok"."""

import math
import os
import sys
from types import SimpleNamespace

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "tools"))
import numpy as np  # noqa: E402
import plot_muca  # noqa: E402

X0, C, S = 0.2216546, 10.0, 0.006


def curve(size, step, offset, error):
    x = np.arange(0.20 + offset, 0.244, step)
    u = 0.6 - 0.3 * (np.tanh(C * size * (x - X0 + S)) - np.tanh(C * size * S))
    return SimpleNamespace(x=x, u=u, e=np.full_like(x, error))


def slope(size):
    return -0.3 * C * size / math.cosh(C * size * S) ** 2  # at x0


def linear_only(first, second):
    """The crossing of the two curves interpolated linearly (what the tool did before)."""
    grid = np.union1d(first.x, second.x)
    grid = grid[(grid >= max(first.x[0], second.x[0])) & (grid <= min(first.x[-1], second.x[-1]))]
    d = np.interp(grid, first.x, first.u) - np.interp(grid, second.x, second.u)
    i = int(np.nonzero(d[:-1] * d[1:] < 0)[0][0])
    return grid[i] + d[i] / (d[i] - d[i + 1]) * (grid[i + 1] - grid[i])


def check(condition, what):
    if not condition:
        sys.exit("binder crossings: " + what)


for step, tolerance, linear_bias in ((1e-3, 1e-6, 1e-5), (5e-3, 1e-4, 2.5e-4)):
    first, second = curve(4, step, 0.00037 * step / 1e-3, 1e-4), curve(6, step, 0.0, 2e-4)
    found, _ = plot_muca.crossings(first, second)
    check(len(found) == 1, f"step {step}: {len(found)} crossings, expected 1")
    x, error, u = found[0]
    check(abs(x - X0) < tolerance, f"step {step}: crossing {x:.9f}, exact {X0}")
    check(abs(linear_only(first, second) - X0) > linear_bias,
          f"step {step}: linear interpolation lands within {linear_bias} (the test is too easy)")
    want = math.hypot(1e-4, 2e-4) / abs(slope(4) - slope(6))
    check(abs(error / want - 1) < 0.05, f"step {step}: error {error:.3g}, expected {want:.3g}")
    check(abs(u - 0.6) < 1e-3, f"step {step}: U4 there {u}, expected 0.6")

# Three points: no cubic, the linear crossing, still inside its segment.
few = SimpleNamespace(x=np.array([0.215, 0.22, 0.225]), u=np.array([0.7, 0.6, 0.5]),
                      e=np.full(3, 1e-4))
flat = SimpleNamespace(x=np.array([0.215, 0.22, 0.225]), u=np.full(3, 0.58), e=np.full(3, 1e-4))
found, _ = plot_muca.crossings(few, flat)
check(len(found) == 1 and abs(found[0][0] - 0.221) < 1e-12, f"three points: {found}")
# Curves that do not cross.
apart = SimpleNamespace(x=few.x, u=few.u + 1.0, e=few.e)
check(plot_muca.crossings(few, apart)[0] == [], "curves apart: a crossing")
print("binder crossings ok")
