"""Benchmarks: one ``bench_<area>.py`` module per area, each with a ``main() -> None`` that prints its figures.

Run them all with ``python -m bench`` (``make bench``), or some with ``python -m bench rules``.
"""

import recorder  # noqa: F401  (first: it sets numpy's BLAS threads before numpy loads)
