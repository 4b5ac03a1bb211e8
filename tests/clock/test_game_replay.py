"""A recorded game's clock log replayed by the emulator at 8x through a pty, with line faults.

The link must hand the session the game's presses at their recording times (within the line's
jitter, after the one offset of starting the two ends), in the log's colours and times, lose only the
presses made while the cable was out, report that gap, and take no damaged byte for a press.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

from recorder.clock.feed import LiveClockFeed
from recorder.clock.link import SerialClockLink
from recorder.clock.model import CONNECTED, DISCONNECTED, MAPPING, TIMES_CHANGED
from recorder.clock.presses import PressTracker
from recorder.clock.protocols import make_protocol
from recorder.clock.sim import ClockSim, ScriptEvent, open_pty, parse_script, serve
from recorder.clocklog_input import read_clock_log

LOG = Path(__file__).resolve().parents[1] / "fixtures" / "game_short.clock.jsonl"
SPEED = 8.0
UNTIL = 33.0  # clock seconds of the log replayed (8 presses)
SILENCE = (14.5, 6.0)  # clock seconds: the cable out from 14.5 s to 20.5 s


@pytest.mark.skipif(not LOG.exists(), reason="fixture clock log missing")
@pytest.mark.slow  # the record end-to-end test (test_record_clock.py) covers this path quickly
@pytest.mark.parametrize("protocol", ["dgt", "text"])
def test_game_clock_log_through_the_link(protocol: str) -> None:
    truth = [p for p in read_clock_log(LOG) if p.t <= UNTIL]
    sim = ClockSim(protocol, 900_000, 10_000, noise=0.002, drop=0.002, seed=11, speed=SPEED)
    script = [e for e in parse_script(LOG.read_text(encoding="utf-8").splitlines(), sim.sides) if e.t <= UNTIL]
    script += [ScriptEvent(10.0, None, "garbage", 40), ScriptEvent(SILENCE[0], None, "silence", SILENCE[1])]
    script.sort(key=lambda e: e.t)
    master, slave, path = open_pty()
    link = SerialClockLink(path, make_protocol(protocol, PressTracker(rate=SPEED)), silence_s=0.3, answer_s=0.2, backoff_s=(0.05, 0.2))
    thread = threading.Thread(target=serve, args=(sim, master, script), kwargs={"wait_host": True, "duration": UNTIL / SPEED + 0.4}, daemon=True)
    thread.start()
    origin = time.monotonic()
    link.start()
    feed = LiveClockFeed(link.items, origin, SPEED, settle_s=0.1)
    thread.join(10)
    link.stop()
    os.close(master)
    os.close(slave)
    presses = feed.until(1e9)
    notices = feed.remaining_notices()
    lost = [p for p in truth if SILENCE[0] < p.t < sum(SILENCE)]
    expected = [p for p in truth if p not in lost]
    assert len(lost) == 2
    assert [p.side for p in presses] == [p.side for p in expected]
    offsets = sorted(got.t - want.t for got, want in zip(presses, expected, strict=True))
    offset = offsets[len(offsets) // 2]  # the two ends start a few milliseconds apart (more on a busy machine)
    assert abs(offset) < 1.5
    for got, want in zip(presses, expected, strict=True):
        assert abs(got.t - want.t - offset) < 0.8, (got, want)
        assert abs(got.red_ms - want.red_ms) <= 2_000 and abs(got.black_ms - want.black_ms) <= 2_000, (got, want)
    kinds = [n.kind for n in notices]
    assert kinds[:2] == [CONNECTED, MAPPING] and DISCONNECTED in kinds and kinds.count(CONNECTED) >= 2
    assert TIMES_CHANGED not in kinds  # line noise and the gap are no change of the clock's times
    back = [n for n in notices if n.kind == CONNECTED][1]
    assert SILENCE[0] < back.t < sum(SILENCE) + 3.0 and "gap" in back.text
    assert json.dumps([n.text for n in notices])  # plain text, loggable
