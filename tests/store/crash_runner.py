"""``python -m tests.store.crash_runner ARGS...``: ``xqrec record ARGS`` with the truth stand-in classifier.

The crash test runs this as a subprocess and kills it with SIGKILL; it is the real record command
(the real video decoding, session, resolver and store), only the piece classifier answers from
the fixture video's truth file (named by ``--truth`` first on the command line).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from recorder.cli import main
from tests.recorder.oracle import OracleClassifier, use_oracle_in_record


def run(argv: list[str]) -> int:
    """``argv`` is ``--truth FILE`` followed by the record command's arguments."""
    if argv[:1] != ["--truth"]:
        raise SystemExit("usage: crash_runner --truth TRUTH.json record ARGS...")
    truth = json.loads(Path(argv[1]).read_text(encoding="utf-8"))
    oracle = OracleClassifier(truth)
    use_oracle_in_record(oracle, setattr)
    return main(argv[2:])


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
