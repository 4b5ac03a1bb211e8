"""The runtime: frame sources, vision, observer, resolver, clock link, store, exports and the CLI."""

import os

# numpy's OpenBLAS keeps its worker threads spinning for a while after every matrix product, and on
# two cores they take the CPU from onnxruntime: a 90-point classification right after a calibration
# took 50 ms instead of 29. Our products are small (9x9 scatter matrices, comb searches), so one
# BLAS thread loses nothing. Set before numpy loads; an explicit setting by the user wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# OpenCV prints its own warnings ("[ WARN:0@0.1] global loadsave.cpp ... findDecoder") before our
# error for a missing image or camera says the same in words; keep its errors only.
os.environ.setdefault("OPENCV_LOG_LEVEL", "ERROR")
