"""``python -m tests.store.crash_runner ARGS...``: ``xqrec record ARGS`` with the truth stand-in classifier.

The crash test runs this as a subprocess and kills it with SIGKILL; it is the real record command
(the real video decoding, session, resolver and store), only the piece classifier answers from
the fixture video's truth file (named by ``--truth`` first on the command line).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import recorder.commands.record as record_command
import recorder.sources
from recorder.cli import main
from recorder.sources import Frame, Gap
from tests.recorder.oracle import OracleClassifier


def run(argv: list[str]) -> int:
    """``argv`` is ``--truth FILE`` followed by the record command's arguments."""
    if argv[:1] != ["--truth"]:
        raise SystemExit("usage: crash_runner --truth TRUTH.json record ARGS...")
    truth = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    oracle = OracleClassifier(truth)
    real_open = recorder.sources.open_source

    class Tracked:
        """The real source, telling the stand-in which frame it is reading."""

        def __init__(self, inner: Any) -> None:
            self.inner, self.frame_count = inner, inner.frame_count

        def __iter__(self) -> Iterator[Frame | Gap]:
            for item in self.inner:
                if isinstance(item, Frame):
                    oracle.frame = item.index
                yield item

        def stop(self) -> None:
            self.inner.stop()

    recorder.sources.open_source = lambda spec, fps=None: Tracked(real_open(spec, fps=fps))  # type: ignore[assignment]
    record_command._classifier = lambda args: oracle  # type: ignore[assignment]
    return main(argv[2:])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
