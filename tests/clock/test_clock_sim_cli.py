"""``xqrec clock-sim`` as a process: it prints its pty path, and the link reads its scripted presses."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from recorder.clock.link import SerialClockLink
from recorder.clock.model import LEFT, RIGHT, SideMap
from recorder.clock.protocols import make_protocol
from recorder.clock.sim import parse_script
from recorder.clocklog_input import ClockPress


def test_scripts_in_both_forms() -> None:
    lines = ['{"t": 1.5, "event": "press", "side": "black"}', "# comment", "0.5 red", "2 r", "2.5 b",
             "2.7 left", '{"t": 3, "fault": "silence", "s": 2}']
    events = parse_script(lines, SideMap(RIGHT))  # red is the clock's right side
    assert [(e.t, e.side, e.fault) for e in events] == [(0.5, RIGHT, None), (1.5, LEFT, None), (2.0, RIGHT, None),
                                                          (2.5, LEFT, None), (2.7, LEFT, None), (3.0, None, "silence")]
    # r is red as the keyboard clock has it, whichever half of the clock red is on
    assert [e.side for e in parse_script(["1 r", "2 b"], SideMap(LEFT))] == [LEFT, RIGHT]
    with pytest.raises(ValueError, match="line 1"):
        parse_script(["1 purple"], SideMap())


def test_clock_sim_process_serves_a_script_and_keys(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text("0.2 red\n0.4 black\n", encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "recorder.cli", "clock-sim", "--protocol", "text",
                                "--script", str(script), "--wait-host", "--duration", "1.5",
                                "--time-control", "5+2"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdin is not None
        path = process.stdout.readline().strip()
        assert path.startswith("/dev/")
        link = SerialClockLink(path, make_protocol("text"), silence_s=0.5, answer_s=0.3).start()
        deadline = time.monotonic() + 3
        while sum(isinstance(i, ClockPress) for i in list(link.items.queue)) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        process.stdin.write("\nl\n")  # the running side (red) presses, then the left button again: no effect
        process.stdin.flush()
        process.wait(10)
        link.stop()
    finally:
        process.kill()
    presses = []
    while not link.items.empty():
        item = link.items.get_nowait()
        if isinstance(item, ClockPress):
            presses.append(item)
    assert [(p.side, p.red_ms // 1000) for p in presses[:2]] == [("red", 301), ("black", 301)]
    assert 301_000 < presses[1].black_ms <= 302_000
    assert [p.side for p in presses[2:]] == ["red", "red"]  # the keyboard's presses, the second one idle
    assert presses[3].red_ms == presses[2].red_ms  # no increment for an idle press


def test_clock_sim_stopped_with_sigterm_removes_its_link(tmp_path: Path) -> None:
    # tester 16: the --link symlink outlived the process, pointing at a pty number reused later
    link = tmp_path / "clock"
    process = subprocess.Popen([sys.executable, "-m", "recorder.cli", "clock-sim", "--protocol", "text",
                                "--link", str(link), "--no-keys"], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        assert process.stdout.readline().strip().startswith("/dev/") and link.is_symlink()
        process.terminate()
        assert process.wait(10) == 0
    finally:
        process.kill()
    assert not link.is_symlink()


def test_clock_sim_link_never_removes_what_is_not_an_emulators_link(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Tester: --link important.txt deleted the file (and would a device node, run as root)."""
    from recorder.cli import main

    notes = tmp_path / "important.txt"
    notes.write_text("notes", encoding="utf-8")
    other = tmp_path / "mine"
    other.symlink_to(notes)
    for path in (notes, other):
        assert main(["clock-sim", "--link", str(path), "--duration", "0.1", "--no-keys"]) == 2
        assert "is not an emulator's link to a pty" in capsys.readouterr().err
    assert notes.read_text(encoding="utf-8") == "notes" and other.is_symlink()
    assert main(["clock-sim", "--link", str(tmp_path / "nodir" / "clk"), "--duration", "0.1", "--no-keys"]) == 2
    assert "no folder" in capsys.readouterr().err


def test_a_live_clock_without_its_time_control_leaves_the_record_s_unknown() -> None:
    """Tester: a serial clock set to 90+30 was stored as TimeControl 900+10 (the keyboard clock's
    default) and time used worked out from it. Only the keyboard clock runs a time control itself."""
    import argparse

    from recorder.store.recording import info_from_args

    def tc(**given: object) -> str:
        base = dict(tc="", clock=None, clock_protocol="dgt", time_control=None, clock_setup="", clock_log=None,
                    date="2026.12.03", event="", site="", round="", board=None, red="", black="", camera_setup="")
        return info_from_args(argparse.Namespace(**{**base, **given})).time_control

    assert tc(clock="/dev/ttyUSB0") == ""  # unknown: the clock runs its own setting
    assert tc(clock="/dev/ttyUSB0", time_control="90+30") == "5400+30"
    assert tc(clock="-", clock_protocol="keyboard") == "900+10"  # the keyboard clock runs its default
    assert tc(clock="/dev/ttyUSB0", tc="5400+30") == "5400+30"


def test_the_keyboard_clock_runs_the_games_time_control() -> None:
    """A new user: --tc 5400+30 with --clock - ran the keyboard clock's 15+10 default, and the sheet
    then said the clock contradicted the time control. One option sets both; two must agree."""
    import argparse

    from recorder.clock.model import parse_time_control
    from recorder.store.recording import live_time_control

    def runs(**given: object) -> tuple[int, int] | None:
        base = dict(tc="", clock="-", clock_protocol="dgt", time_control=None)
        found = live_time_control(argparse.Namespace(**{**base, **given}))
        return None if found is None else parse_time_control(found)

    assert runs() is None  # the keyboard clock's default
    assert runs(tc="5400+30") == (5_400_000, 30_000) == runs(time_control="90+30")
    assert runs(tc="5400+30", time_control="90+30") == (5_400_000, 30_000)
    assert runs(tc="900", clock="/dev/ttyUSB0") == (900_000, 0)  # a clock on a link: its increment checked
    assert runs(tc="40/7200:1800", clock="/dev/ttyUSB0") is None
    with pytest.raises(ValueError, match="are not the same time control: give one of them"):
        runs(tc="5400+30", time_control="15+10")
    with pytest.raises(ValueError, match="the keyboard clock runs one period with an increment, not --tc 40/7200:1800"):
        runs(tc="40/7200:1800")
    assert runs(tc="5400+30", resume=3) is None  # a resumed game keeps its stored control (--tc is not taken)


def test_the_keyboard_clock_runs_the_time_control_the_store_gives() -> None:
    # a reviewer: a resumed game, or one whose control came from its event's other games, ran the
    # keyboard clock's 15+10 default under a record of 5400+30
    from recorder.clock.live import LiveClock

    clock = LiveClock("-", "keyboard")
    clock.know_time_control(5_400_000, 30_000)
    assert clock.keyboard is not None
    model = clock.keyboard.model
    assert (model.remaining_ms("left", 0.0), model.remaining_ms("right", 0.0), model.increment_ms) == (
        5_400_000, 5_400_000, 30_000)


def test_the_keyboard_protocol_with_a_port_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Tester: --clock /dev/ttyS0 --clock-protocol keyboard read stdin and stored the game as clocked on the port."""
    from recorder.cli import main

    assert main(["record", str(tmp_path / "game.mp4"), "--clock", "/dev/ttyS0", "--clock-protocol", "keyboard",
                 "--no-db"]) == 2
    assert "reads the keyboard (stdin), not /dev/ttyS0" in capsys.readouterr().err
