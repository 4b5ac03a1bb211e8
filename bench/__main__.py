"""Run every ``bench/bench_*.py`` module's ``main()`` in turn.

``python -m bench`` runs all of them; ``python -m bench rules vision`` runs those whose
module name contains one of the words (a word that names a module exactly picks that one alone:
``game`` is ``bench_game``, not ``bench_flat_games`` too). Options after the words go to the one
module they pick: ``python -m bench calibration --views 200``.
"""

from __future__ import annotations

import importlib
import inspect
import logging
import pkgutil
import sys
import time
from pathlib import Path

logger = logging.getLogger("bench")


def bench_modules(filters: list[str]) -> list[str]:
    """Names of the ``bench_*`` modules in this package, sorted, kept if they match a filter: a word
    naming a module exactly picks it alone, another picks every module whose name contains it."""
    folder = Path(__file__).resolve().parent
    names = sorted(info.name for info in pkgutil.iter_modules([str(folder)]) if info.name.startswith("bench_"))
    if filters:
        names = [name for name in names if any(
            name == f"bench_{word}" if f"bench_{word}" in names else word in name for word in filters)]
    return names


def main(argv: list[str] | None = None) -> int:
    """Run the chosen benchmarks; a failing one is reported and the others still run."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    words = list(sys.argv[1:] if argv is None else argv)
    first_option = next((i for i, word in enumerate(words) if word.startswith("-")), len(words))
    filters, options = words[:first_option], words[first_option:]
    if {"-h", "--help"} & set(options) and not filters:
        print("usage: python -m bench [WORD ...]\nruns every bench/bench_*.py whose name contains one of the "
              "words (all without words); each module's own options: python -m bench.bench_NAME --help\n"
              "modules: " + " ".join(name.removeprefix("bench_") for name in bench_modules([])))
        return 0
    names = bench_modules(filters)
    if not names:
        print(f"no benchmark module matches {filters}")
        return 2
    if options and len(names) != 1:
        print(f"options ({' '.join(options)}) go to one benchmark module; {filters} picks {len(names)}: "
              f"{' '.join(name.removeprefix('bench_') for name in names)}")
        return 2
    failed = []
    for name in names:
        print(f"=== bench.{name} ===", flush=True)
        started = time.perf_counter()
        try:
            module = importlib.import_module(f"bench.{name}")
            # a module whose main reads its options is given these (never this command's own words)
            if inspect.signature(module.main).parameters:
                module.main(options)
            elif set(options) & {"-h", "--help"}:
                print(f"bench.{name} takes no options: python -m bench {name.removeprefix('bench_')} runs it")
            elif options:
                raise SystemExit(f"bench.{name} takes no options")
            else:
                module.main()
        except Exception:
            logger.exception("bench.%s failed", name)
            failed.append(name)
        print(f"=== bench.{name}: {time.perf_counter() - started:.1f} s ===\n", flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
