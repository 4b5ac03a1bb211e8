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
