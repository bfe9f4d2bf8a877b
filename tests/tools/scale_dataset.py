#!/usr/bin/env python3
"""Copy a result file and multiply one dataset of the copy by a factor (a doctored file).

Usage: scale_dataset.py SOURCE.h5 COPY.h5 /DATASET FACTOR

For the test of tools/compare_runs.py (tests/tools/CMakeLists.txt) that must find the
doctored estimate: an error left as it was and a value moved far outside it.
"""

import shutil
import sys

import h5py

source, copy, path, factor = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
shutil.copyfile(source, copy)
with h5py.File(copy, "r+") as h5:
    h5[path][...] = h5[path][()] * factor
print(f"{copy}: {path} scaled by {factor:g}")
