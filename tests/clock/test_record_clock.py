"""``xqrec record --clock``: a fixture game video recorded against ``clock-sim`` on a pty, with clock faults.

The emulator replays the video's clock log (DGT messages at 8x, the video read at the same rate) with
line noise, a burst of garbage and the cable pulled for a while. The record must have every move of
the truth, the clock's times on the moves it heard ([%clk] in the PGN), the gap logged as clock alerts,
the plies pressed while the cable was out noted as ``press_unheard`` (the line, not the player, lost
those presses: no ``move_without_press``), and no crash.
"""

from __future__ import annotations

import functools
import json
import os
import threading
from pathlib import Path

import pytest

import recorder.clock.live
import recorder.sources
from recorder.cli import main
from recorder.clock.link import SerialClockLink
from recorder.clock.sim import ClockSim, ScriptEvent, open_pty, parse_script, serve
from recorder.events import ClockAlert, ClockNoted, ClockPressed, read_events
from recorder.scoresheet import rebuild
from tests.recorder.oracle import OracleClassifier, use_oracle_in_record

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
VIDEO = FIXTURES / "game_short.mp4"
SPEED = 8.0
SILENCE = (14.5, 6.0)  # clock seconds: the cable out from 14.5 s to 20.5 s (presses at 16.4 and 19.9 lost)


def _record_against(sim: ClockSim, script: list[ScriptEvent], options: list[str]) -> int:
    """``xqrec record`` of the fixture video against ``sim`` on a pty playing ``script``; its status."""
    master, slave, path = open_pty()
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(sim, master, script),
                              kwargs={"wait_host": True, "stop": stop.is_set}, daemon=True)
    thread.start()
    try:
        return main(["record", str(VIDEO), "--clock", path, "--clock-protocol", "dgt", "--clock-rate", str(SPEED),
                     "--quiet", *options])
    finally:
        stop.set()
        thread.join(5)
        os.close(master)
        os.close(slave)


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_record_with_a_dgt_clock_on_a_pty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    oracle = OracleClassifier(truth)
    use_oracle_in_record(oracle, monkeypatch.setattr)
    # the pulled cable lasts 0.75 s of real time: notice it sooner than the default 3 s of silence
    quick_link = functools.partial(SerialClockLink, silence_s=0.3, answer_s=0.2, backoff_s=(0.05, 0.2))
    monkeypatch.setattr(recorder.clock.live, "SerialClockLink", quick_link)

    sim = ClockSim("dgt", 900_000, 10_000, noise=0.002, drop=0.002, seed=3, speed=SPEED)
    log_lines = (FIXTURES / "game_short.clock.jsonl").read_text(encoding="utf-8").splitlines()
    script = parse_script(log_lines, sim.sides)
    script += [ScriptEvent(7.0, None, "garbage", 50), ScriptEvent(SILENCE[0], None, "silence", SILENCE[1])]
    script.sort(key=lambda e: e.t)
    events_path, pgn = tmp_path / "g.events.jsonl", tmp_path / "g.pgn"
    status = _record_against(sim, script, ["--events", str(events_path), "--pgn", str(pgn)])
    assert status == 0
    # the clock does not say its setting, and no --tc was given: told at the start (a tester's PGN had none)
    assert "the game's time control is not known" in capsys.readouterr().err
    events = list(read_events(events_path))
    game = rebuild(events)
    assert game.moves == truth["moves"]
    alerts = [e for e in events if isinstance(e, ClockAlert)]
    kinds = [a.kind for a in alerts]
    noted = [e.kind for e in events if isinstance(e, ClockNoted)]  # logged, not alerted
    assert "clock_mapping" in noted and "clock_disconnected" in kinds and noted.count("clock_connected") >= 2
    assert "clock_connected" not in kinds and "clock_mapping" not in kinds
    lost_plies = [p["ply"] for p in truth["clock"]["presses"] if SILENCE[0] < p["t"] < sum(SILENCE)]
    assert len(lost_plies) == 2
    assert "move_without_press" not in kinds
    unheard = sorted(e.ply for e in events if isinstance(e, ClockNoted) and e.kind == "press_unheard")
    assert unheard == sorted(lost_plies)
    # the note that the clock is back (which ends the stretch it could not be heard) comes before the
    # notes that depend on it (tester 16 saw them the other way round)
    back = next(i for i, e in enumerate(events) if isinstance(e, ClockNoted) and "back on" in e.text)
    assert back < min(i for i, e in enumerate(events) if isinstance(e, ClockNoted) and e.kind == "press_unheard")
    assert "press_without_move" not in kinds
    assert "clock_times_changed" not in kinds and "clock_restarted" not in kinds  # noise and a gap are no reset
    pressed = {e.ply for e in events if isinstance(e, ClockPressed) and e.ply is not None}
    assert pressed == set(range(1, len(truth["moves"]) + 1)) - set(lost_plies)
    by_ply = {p["ply"]: p for p in truth["clock"]["presses"]}
    for event in events:
        if isinstance(event, ClockPressed) and event.ply is not None:
            want = by_ply[event.ply]
            assert abs(event.red_ms - want["red_ms"]) <= 2_000 and abs(event.black_ms - want["black_ms"]) <= 2_000
    text = pgn.read_text(encoding="utf-8")
    assert text.count("[%clk") == len(truth["moves"]) - len(lost_plies)


@pytest.mark.skipif(not VIDEO.exists(), reason="fixture video missing")
def test_a_clock_started_on_the_wrong_side_is_told_and_no_player_is_blamed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a tester started the clock with black's time running: the first running side mapped black's
    # half to red, and every correct press became a foul (10 false alerts, times used swapped)
    from rules import BLACK

    truth = json.loads((FIXTURES / "game_short.truth.json").read_text(encoding="utf-8"))
    use_oracle_in_record(OracleClassifier(truth), monkeypatch.setattr)
    sim = ClockSim("dgt", 900_000, 10_000, first_mover=BLACK, speed=SPEED)
    log_lines = (FIXTURES / "game_short.clock.jsonl").read_text(encoding="utf-8").splitlines()
    events_path = tmp_path / "g.events.jsonl"
    assert _record_against(sim, parse_script(log_lines, sim.sides), ["--events", str(events_path), "--no-db"]) == 0
    events = list(read_events(events_path))
    assert rebuild(events).moves == truth["moves"]
    kinds = [e.kind for e in events if isinstance(e, ClockAlert)]
    assert kinds == ["clock_sides_swapped"]  # told once, and no press blamed on a player
    pressed = [e for e in events if isinstance(e, ClockPressed) and e.ply is not None]
    assert len(pressed) >= len(truth["moves"]) - 1
    assert all((e.side == "red") == ((e.ply or 0) % 2 == 1) for e in pressed)
    # the sides found are logged as the last clock_mapping note: a resumed game takes them from it
    from recorder.clock.presses import mapped_red_side

    mapped = [mapped_red_side(e.text) for e in events if isinstance(e, ClockNoted) and e.kind == "clock_mapping"]
    assert len(mapped) == 2 and mapped[0] != mapped[1]
