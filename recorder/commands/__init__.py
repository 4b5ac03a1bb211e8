"""One module per ``xqrec`` sub-command; each exposes ``register(subparsers)``."""

import os
import shutil
import sys
from pathlib import Path


def command_name() -> str:
    """How to call ``xqrec`` from this shell: by name when it is on the path, else by its path in
    the virtual environment (``make demo`` does not activate it)."""
    beside = Path(sys.executable).parent / "xqrec"
    if shutil.which("xqrec") == str(beside) or not beside.exists():
        return "xqrec"
    try:
        relative = os.path.relpath(beside)
    except ValueError:  # another drive (Windows)
        return str(beside)
    # .venv/bin/xqrec from the project; from elsewhere the whole path (a tester was shown
    # ../../work/main/.venv/bin/xqrec)
    return relative if not relative.startswith(os.pardir) else str(beside)


def distinct_files(outputs: dict[str, Path | None], inputs: dict[str, Path | None]) -> None:
    """``ValueError`` when an output file is one of the inputs or another output: one typo must not
    overwrite a game's only video, or append the event log into its clock log."""
    def same(a: Path, b: Path) -> bool:
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
        return os.path.realpath(a) == os.path.realpath(b)

    named = [(option, path) for option, path in outputs.items() if path is not None]
    # an input not there yet counts too: a store the run will create (``--db``) is written before the
    # PGN beside it, which a path alike would then overwrite, or the other way round
    given_inputs = [(o, q) for o, q in inputs.items() if q is not None and (q.is_file() or not q.exists())]
    for i, (option, path) in enumerate(named):
        for other, given in given_inputs + named[:i]:
            if same(path, given):
                raise ValueError(f"{option} {path} is the file {other} names: give another path (nothing was written)")
