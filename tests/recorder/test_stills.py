"""The camera's still frame of each alert is kept beside the store and named by an AlertFrame event."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from recorder.cli import main
from recorder.events import Alert, AlertFrame, IllegalMoveAlert
from recorder.stills import StillSaver
from recorder.store.db import GameStore

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_record_with_a_store_keeps_a_still_for_every_alert(tmp_path: Path) -> None:
    db = tmp_path / "store" / "games.sqlite3"
    db.parent.mkdir()
    status = main(["record", str(FIXTURES / "game_faults.mp4"), "--clock-log", str(FIXTURES / "game_faults.clock.jsonl"),
                   "--db", str(db), "--quiet"])
    assert status == 0
    events = GameStore(db).events(1)
    alerts = [e for e in events if isinstance(e, Alert)]
    stills = [e for e in events if isinstance(e, AlertFrame)]
    assert alerts and len(stills) == len(alerts)
    for alert, still in zip(alerts, stills, strict=True):
        assert still.t == alert.t and still.kind == alert.kind
        picture = db.parent / still.path
        assert picture.is_file() and picture.read_bytes()[:2] == b"\xff\xd8"  # a JPEG beside the store
        # in a folder of the store's own: another store beside it (the next round's) has its own game 1
        assert Path(still.path).parts[:3] == ("stills", "games", "game-1")


def test_a_still_that_cannot_be_written_is_skipped(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder should be")
    saver = StillSaver(blocker / "stills", tmp_path)
    alert = IllegalMoveAlert(1.0, "illegal_move", ("a0", "a1"), "2.2", "test")
    assert saver.save(np.zeros((48, 64, 3), np.uint8), alert) is None
