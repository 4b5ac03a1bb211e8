"""A folder a camera is still writing into (``record --follow``): read as written, timed by the camera,
a pause reported as a lost camera, and a stopped recording taken up again by the same command."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from recorder.cli import main
from recorder.events import Alert
from recorder.scoresheet import rebuild
from recorder.sources import FollowedFolderSource, Frame, Gap, Lost, SourceItem, open_source
from tests.recorder.oracle import OracleClassifier, use_oracle_in_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VIDEO = FIXTURES / "game_short.mp4"


def _picture(value: int) -> bytes:
    import cv2

    ok, data = cv2.imencode(".jpg", np.full((48, 64, 3), value, np.uint8))
    assert ok
    return data.tobytes()


class Camera:
    """A camera writing pictures into ``folder`` on a fake clock: ``plan`` is (time, name, bytes) writes."""

    def __init__(self, folder: Path, plan: list[tuple[float, str, bytes]], now: float) -> None:
        self.folder, self.plan, self.now = folder, sorted(plan, key=lambda step: step[0]), now
        self.write_due()

    def write_due(self) -> None:
        while self.plan and self.plan[0][0] <= self.now:
            when, name, data = self.plan.pop(0)
            path = self.folder / name
            path.write_bytes(data)
            os.utime(path, (when, when))

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.write_due()


def _read(source: FollowedFolderSource, frames: int) -> list[SourceItem]:
    items: list[SourceItem] = []
    for item in source:
        items.append(item)
        if sum(isinstance(i, Frame) for i in items) == frames:
            source.stop()
    return items


def test_pictures_are_read_as_written_timed_by_the_camera_and_a_pause_is_a_lost_camera(tmp_path: Path) -> None:
    start = 1_000_000.0
    full = _picture(120)
    plan = [(start, "f000.jpg", _picture(10)), (start + 0.1, "f001.jpg", _picture(20)),
            (start + 0.5, "f002.jpg", _picture(30)),
            # the camera stops for 14.5 s, then writes one picture in two parts (the reader must wait for it)
            (start + 15.0, "f003.jpg", full[: len(full) // 2]), (start + 15.3, "f003.jpg", full),
            (start + 15.5, "f004.jpg", _picture(40))]
    camera = Camera(tmp_path, plan, now=start + 0.05)  # the first picture is there when the recording starts
    source = FollowedFolderSource(tmp_path, clock=lambda: camera.now, sleep=camera.sleep)
    items = _read(source, frames=5)
    frames = [i for i in items if isinstance(i, Frame)]
    assert [round(f.t, 3) for f in frames] == [0.0, 0.1, 0.5, 15.3, 15.5]  # when written, from the first picture
    assert [int(f.image.mean()) for f in frames] == [10, 20, 30, 120, 40]  # the half-written picture was waited for
    kinds = [type(i).__name__ for i in items]
    assert kinds == ["Frame", "Frame", "Frame", "Lost", "Gap", "Frame", "Frame"]
    lost, gap = (i for i in items if isinstance(i, (Lost, Gap)))
    assert isinstance(lost, Lost) and lost.t == pytest.approx(0.5)
    assert isinstance(gap, Gap) and (gap.t, gap.t_resumed) == pytest.approx((0.5, 15.3))
    assert source.skipped == 0


def test_a_damaged_picture_is_skipped_once_the_camera_is_done_with_it(tmp_path: Path) -> None:
    start = 2_000_000.0
    plan = [(start, "a.jpg", _picture(10)), (start + 0.1, "b.jpg", _picture(20)[:100]),
            (start + 0.2, "c.jpg", _picture(30)), (start + 2.0, "d.jpg", _picture(40))]
    camera = Camera(tmp_path, plan, now=start)
    source = FollowedFolderSource(tmp_path, clock=lambda: camera.now, sleep=camera.sleep)
    frames = [i for i in _read(source, frames=3) if isinstance(i, Frame)]
    assert [int(f.image.mean()) for f in frames] == [10, 30, 40] and source.skipped == 1


def test_follow_is_for_folders_and_times_its_pictures_itself(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a folder"):
        open_source(str(tmp_path / "game.mp4"), follow=True)
    with pytest.raises(ValueError, match="--fps does not apply with --follow"):
        open_source(str(tmp_path), fps=10.0, follow=True)
    assert isinstance(open_source(str(tmp_path), follow=True), FollowedFolderSource)


def _camera_frames(folder: Path, frames: range, origin: float) -> None:
    """Frames ``frames`` of the fixture video as the pictures a camera wrote at 10 per second."""
    import cv2

    reader = cv2.VideoCapture(str(VIDEO))
    for index in range(frames.stop):
        ok, image = reader.read()
        assert ok
        if index in frames:
            path = folder / f"cam{index:05d}.jpg"
            assert cv2.imwrite(str(path), image)
            os.utime(path, (origin + index / 10, origin + index / 10))
    reader.release()


def _stopped_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C once every picture in the folder has been read (the operator stops the recorder)."""
    real = FollowedFolderSource.__iter__

    def until_read(self: FollowedFolderSource) -> Iterator[SourceItem]:
        pictures = len(self._listed())
        for item in real(self):
            yield item
            if isinstance(item, Frame) and item.index == pictures - 1:
                raise KeyboardInterrupt

    monkeypatch.setattr(FollowedFolderSource, "__iter__", until_read)


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_stopped_recording_of_a_followed_folder_goes_on_with_the_same_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A tester's camera wrote into a folder; every run read the folder as it stood, alerted that it
    grew and left a second game behind. Followed, the same command takes the game up where it stopped."""
    from recorder.store.db import GameStore

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    _stopped_when_read(monkeypatch)
    folder, db = tmp_path / "camera", tmp_path / "games.sqlite3"
    folder.mkdir()
    origin = 1_700_000_000.0
    _camera_frames(folder, range(0, 200), origin)  # 20 s: plies 1-5 are made by 19.3 s
    command = ["record", str(folder), "--follow", "--db", str(db), "--quiet"]
    assert main(command) == 130  # stopped by hand: the game is open
    (game,) = GameStore(db).games()
    assert game.state != "finished" and rebuild(GameStore(db).events(game.id)).moves == truth["moves"][:5]
    _camera_frames(folder, range(200, truth["frames"]), origin)  # the camera wrote on meanwhile
    assert main(command) == 130
    (game,) = GameStore(db).games()  # the same game, not a second one
    events = GameStore(db).events(game.id)
    assert rebuild(events).moves == truth["moves"]
    assert not [e for e in events if isinstance(e, Alert)]  # no folder-grew or lost-camera alert
    moves = [e for e in events if type(e).__name__ == "MoveRecorded"]
    lags = [m.t - p["t_complete"] for m, p in zip(moves, truth["plies"], strict=True)]  # on the camera's times
    assert all(0 <= lag <= 0.5 for lag in lags), lags
    assert "images were added" not in capsys.readouterr().err
