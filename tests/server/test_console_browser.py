"""End to end in Debian's headless chromium (Playwright): the arbiter console follows a game as it is
recorded, an injected illegal-move alert turns its tile red within a second, the arbiter
acknowledges it on the page, and the game's PGN downloads from its page.

Screenshots go to ``$XQREC_SCREENSHOTS`` when set (``docs/images`` for the docs), else a temp folder.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from recorder.events import AlertAcknowledged, ClockAlert, GameEnded, MoveRecorded
from recorder.store import GameInfo, GameStore
from rules import read_pgn
from tests.server.feeder import OPENINGS, illegal_alert, recorder_events, scripted_events

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the dev extra")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium (make system-deps)")

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--autoplay-policy=no-user-gesture-required"]
ROUND = {"event": "City Open 2026", "round": "5", "date": "2026.11.30", "time_control": "5400+30"}


def _other_boards(db: Path) -> None:
    """Boards 2-4 of the round, recorded before the page opens: one finished, one with an acknowledged
    clock alert and an open one, one quiet."""
    with GameStore(db) as store:
        two = store.create_game("camera-2", GameInfo(board=2, red="陈晓明", black="刘子健", **ROUND))
        store.begin_session(two)  # a recorder holds it (this process stands in for it)
        for event in scripted_events(OPENINGS["central_cannon"], 2):
            store.append(two, event)
        seq = store.append(two, ClockAlert(700.0, "press_without_move", (), "8.1.7",
                                           "black pressed the clock without moving", 16, "black"))
        store.append(two, AlertAcknowledged(705.0, seq, "press_without_move", "Zhang", "warned black"))
        three = store.create_game("camera-3", GameInfo(board=3, red="Ana Silva", black="Wei Zhou", **ROUND))
        events = scripted_events(OPENINGS["elephant"], 3)
        for event in events:
            store.append(three, event)
        store.append(three, GameEnded(events[-1].t + 5, 15, "1-0", "resigned", "", "black resigned", False))
        store.close_game(three)
        four = store.create_game("camera-4", GameInfo(board=4, red="黄海", black="Tran Minh", **ROUND))
        store.begin_session(four)
        for event in scripted_events(OPENINGS["pawn"], 4):
            store.append(four, event)


def _wait(page: Any, script: str, arg: Any = None) -> float:
    """Seconds until ``script`` is true on the page (the test fails past 1 s)."""
    start = time.monotonic()
    page.wait_for_function(script, arg=arg, timeout=1000, polling=20)
    return time.monotonic() - start


def test_console_follows_a_live_game_and_the_arbiter_acknowledges_its_alert(console: Any, tmp_path: Path) -> None:
    shots = Path(os.environ.get("XQREC_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    _other_boards(console.db)
    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(console.url + "/")
        page.wait_for_selector("#live.ok", timeout=5000)
        page.click("#sound")  # the sound toggle: also the user gesture that lets the page beep
        page.click("#sound")
        with GameStore(console.db) as store:
            game = store.create_game("game_short.mp4", GameInfo(board=1, red="李明", black="王强", **ROUND))
            store.begin_session(game)
            latencies = []
            for event in recorder_events("game_short"):
                store.append(game, event)
                if isinstance(event, MoveRecorded):
                    latencies.append(_wait(page, "([id, n]) => { const t = document.getElementById('game-' + id);"
                                                 " return t && Number(t.dataset.plies) === n; }", [game, event.ply]))
            moves = page.inner_text(f"#game-{game} .moves")
            assert "炮二平七" in moves and "炮2平1" in moves and "馬八進七" in moves  # Chinese notation (traditional)
            beeps = int(page.evaluate("Number(document.body.dataset.beeps || 0)"))
            store.append(game, illegal_alert(45.0, 10))
            latencies.append(_wait(page, "id => document.getElementById('game-' + id).classList.contains('alerting')",
                                   game))
        print(f"\nconsole update after a store append: max {max(latencies) * 1000:.0f} ms, "
              f"mean {sum(latencies) / len(latencies) * 1000:.0f} ms over {len(latencies)} events")
        assert max(latencies) < 1.0
        tile = page.locator(f"#game-{game}")
        assert "Illegal move" in tile.inner_text() and "art. 5.3" in tile.inner_text()
        assert int(page.evaluate("Number(document.body.dataset.beeps || 0)")) == beeps + 1  # it sounded
        assert "1 open alert" in page.inner_text("#summary")
        page.wait_for_timeout(300)
        page.screenshot(path=str(shots / "console-alert.png"))

        tile.locator("button.ack").click()  # no password set: the page asks for the arbiter's name
        page.fill("#signin [name=name]", "Zhang Wei")
        page.click("#signin button[value=ok]")
        _wait(page, "id => !document.getElementById('game-' + id).classList.contains('alerting')", game)
        with GameStore(console.db) as store:
            acked = [e for e in store.events(game) if isinstance(e, AlertAcknowledged)]
        assert [(e.by, e.kind) for e in acked] == [("Zhang Wei", "illegal_move")]
        assert "no open alerts" in page.inner_text("#summary")
        page.wait_for_timeout(600)  # let the alert's pulse settle
        page.screenshot(path=str(shots / "console.png"))

        page.click(f"#game-{game} a.players")
        page.wait_for_selector("#sheet td.mv", timeout=5000)
        assert "acknowledged by Zhang Wei" in page.inner_text("#alertlist")
        page.click("button[data-step=prev]")
        assert page.inner_text("#at").startswith("9.")
        page.click("#script")  # simplified characters
        assert "汉 界" in page.inner_html("#board")
        page.click("#script")
        assert "漢 界" in page.inner_html("#board")
        page.screenshot(path=str(shots / "console-game.png"))
        with page.expect_download() as download:
            page.click("#pgn")
        text = Path(download.value.path()).read_text(encoding="utf-8")
        (pgn,) = read_pgn(text)
        assert pgn.headers["Red"] == "李明" and len(pgn.moves) == 10
        assert "alert illegal_move g7 f5 (art. 5.3)" in text and "[%clk" in text
        assert errors == []
        browser.close()
