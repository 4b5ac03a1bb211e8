"""The real serial code path through a pty pair: the emulator on the master, the link on the slave."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from recorder.clock.link import SerialClockLink
from recorder.clock.model import (
    CONNECTED,
    DISCONNECTED,
    LEFT,
    MAPPING,
    NO_CLOCK,
    QUIET,
    RESTARTED,
    RIGHT,
    TIMES_CHANGED,
    ClockNotice,
)
from recorder.clock.presses import Item, PressTracker
from recorder.clock.protocols import DgtProtocol, make_protocol
from recorder.clock.sim import ClockSim, ScriptEvent, open_pty, serve
from recorder.clocklog_input import ClockPress


def _link(path: str, protocol: str, tracker: PressTracker | None = None) -> SerialClockLink:
    return SerialClockLink(path, make_protocol(protocol, tracker), silence_s=0.4, answer_s=0.3,
                           backoff_s=(0.05, 0.2)).start()


@contextmanager
def running_sim(sim: ClockSim, script: list[ScriptEvent], link_path: Path | None = None,
                duration: float = 2.5) -> Iterator[str]:
    master, slave, path = open_pty()
    if link_path is not None:
        if link_path.is_symlink():
            link_path.unlink()
        link_path.symlink_to(path)
    stop = threading.Event()
    thread = threading.Thread(target=serve, args=(sim, master, script),
                              kwargs={"wait_host": True, "stop": stop.is_set, "duration": duration}, daemon=True)
    thread.start()
    try:
        yield path
        thread.join(duration + 2)
    finally:
        stop.set()
        thread.join(2)
        os.close(master)
        os.close(slave)


def _drain(link: SerialClockLink) -> list[Item]:
    items = []
    while not link.items.empty():
        items.append(link.items.get_nowait())
    return items


@pytest.mark.parametrize("protocol", ["dgt", "text"])
def test_presses_arrive_with_colours_and_times(protocol: str) -> None:
    sim = ClockSim(protocol, 300_000, 5_000, red_side=RIGHT)  # a clock turned round: red on its right
    script = [ScriptEvent(0.2 + 0.25 * k, RIGHT if k % 2 == 0 else LEFT) for k in range(4)]
    with running_sim(sim, script, duration=1.6) as path:
        link = _link(path, protocol, PressTracker(LEFT))
    link.stop()
    items = _drain(link)
    presses = [i for i in items if isinstance(i, ClockPress)]
    notices = [i for i in items if isinstance(i, ClockNotice)]
    assert [p.side for p in presses] == ["red", "black", "red", "black"]
    assert [n.kind for n in notices][:2] == [CONNECTED, MAPPING] and "right" in notices[1].text
    gaps = [b.t - a.t for a, b in zip(presses, presses[1:], strict=False)]
    assert all(0.15 < g < 0.4 for g in gaps), gaps
    last = presses[-1]
    assert 300_000 <= last.red_ms <= 310_000 and 300_000 <= last.black_ms <= 310_000
    if isinstance(link.protocol, DgtProtocol):  # the interface's quirks were met and passed over
        assert link.protocol.counts.get("ack", 0) >= 1 and link.protocol.counts.get("empty", 0) >= 1


def test_silence_noclock_and_noise_are_survived() -> None:
    sim = ClockSim("dgt", 300_000, 0, noise=0.003, drop=0.003, seed=5)
    # the clock off the interface for 1.6 s: reported on two messages (one alone may be a damaged byte)
    script = [ScriptEvent(0.2, LEFT), ScriptEvent(0.3, None, "noclock", 1.6), ScriptEvent(2.1, None, "silence", 1.2),
              ScriptEvent(3.6, RIGHT), ScriptEvent(3.8, None, "garbage", 60), ScriptEvent(4.0, LEFT)]
    with running_sim(sim, script, duration=4.6) as path:
        link = _link(path, "dgt")
    link.stop()
    items = _drain(link)
    kinds = [i.kind for i in items if isinstance(i, ClockNotice)]
    assert kinds.count(CONNECTED) >= 2 and DISCONNECTED in kinds and NO_CLOCK in kinds
    backs = [i for i in items if isinstance(i, ClockNotice) and i.kind == CONNECTED][1:]
    assert any("gap" in b.text and b.since is not None for b in backs)
    # the interface answered while the clock was off it: that stretch is unheard too
    assert any("DGT interface again" in b.text and b.since is not None and 0.5 < b.t - b.since < 2.2 for b in backs)
    presses = [i for i in items if isinstance(i, ClockPress)]
    assert [p.side for p in presses] == ["red", "black", "red"]


@pytest.mark.parametrize("protocol", ["dgt", "text"])
def test_a_line_quiet_for_a_while_is_noted_with_when_it_was_last_heard(protocol: str) -> None:
    # quiet for 1.4 s: longer than quiet_s, shorter than it takes to call the clock lost
    sim = ClockSim(protocol, 300_000, 0, report_s=0.1)
    script = [ScriptEvent(0.2, LEFT), ScriptEvent(0.8, None, "silence", 1.4), ScriptEvent(1.2, RIGHT),
              ScriptEvent(1.5, LEFT)]
    with running_sim(sim, script, duration=3.0) as path:
        link = SerialClockLink(path, make_protocol(protocol), silence_s=2.0, answer_s=1.0, quiet_s=0.8,
                               backoff_s=(0.05, 0.2)).start()
    link.stop()
    items = _drain(link)
    notices = [i for i in items if isinstance(i, ClockNotice)]
    quiet = [n for n in notices if n.kind == QUIET]
    assert len(quiet) == 1 and DISCONNECTED not in [n.kind for n in notices if n.t < quiet[0].t]
    assert quiet[0].since is not None and 1.1 < quiet[0].t - quiet[0].since < 3.0, quiet
    presses = [i for i in items if isinstance(i, ClockPress)]
    assert presses[0].side == "red" and all(p.t <= quiet[0].since or p.t >= quiet[0].t for p in presses)
    assert link.last_heard is not None and link.last_heard >= quiet[0].t


def test_a_vanished_port_is_reopened_when_it_returns(tmp_path: Path) -> None:
    link_path = tmp_path / "clock"
    with running_sim(ClockSim("text", 300_000), [ScriptEvent(0.2, LEFT)], link_path, duration=0.6):
        link = _link(str(link_path), "text")
    time.sleep(0.3)  # the pty is gone: the link fails to open and backs off
    with running_sim(ClockSim("text", 300_000), [ScriptEvent(0.2, LEFT)], link_path, duration=0.8):
        pass
    link.stop()
    assert link.open_failures >= 1
    notices = [i for i in _drain(link) if isinstance(i, ClockNotice) and i.kind != MAPPING]
    # a new clock on the port says hello after a press of the game: restarted; the second sim ends too
    assert [n.kind for n in notices] == [CONNECTED, DISCONNECTED, CONNECTED, RESTARTED, DISCONNECTED]
    assert "gap" in notices[2].text


def test_a_clock_that_comes_back_with_other_times_is_noticed(tmp_path: Path) -> None:
    link_path = tmp_path / "clock"
    with running_sim(ClockSim("dgt", 300_000), [ScriptEvent(0.2, LEFT)], link_path, duration=0.8):
        link = _link(str(link_path), "dgt")
    time.sleep(0.3)
    # the same port, a clock set to 10 minutes a side: the game's times are gone
    with running_sim(ClockSim("dgt", 600_000), [ScriptEvent(0.2, LEFT)], link_path, duration=1.5):
        pass
    link.stop()
    items = _drain(link)
    changed = [i for i in items if isinstance(i, ClockNotice) and i.kind == TIMES_CHANGED]
    assert len(changed) == 1 and "to 9:5" in changed[0].text and "21.4" in changed[0].text
    # the note that the clock is back gives its times before and after the gap: a reset within what
    # the gap's presses could explain is still there for the arbiter to see (a clock tester)
    (back,) = [i for i in items if isinstance(i, ClockNotice) and i.kind == CONNECTED and "back on" in i.text]
    assert "its times were red 4:59, black 4:59 when it was lost and are red 10:00" in back.text


def test_a_port_that_never_answers_is_said_once(tmp_path: Path) -> None:
    link = _link(str(tmp_path / "no-such-port"), "dgt")
    time.sleep(0.5)
    link.stop()
    notices = [i for i in _drain(link) if isinstance(i, ClockNotice)]
    assert link.open_failures >= 3 and len(notices) == 1
    assert notices[0].kind == DISCONNECTED and "no clock" in notices[0].text
