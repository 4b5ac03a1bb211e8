"""A clock emulator on a pseudo-terminal: two sides counting down, presses from a script or the keyboard.

:class:`ClockSim` speaks the DGT messages or the text lines of ``docs/clock-protocol.md`` with their
quirks: the DGT interface says nothing until the host asks (``0x4B``/``0x41``), answers ``0x4B`` with
an ``ack`` message and an all-zero message before the first reading; the text
clock says hello, reports every second and answers queries. Faults can be scripted (``silence``: the
cable pulled; ``noclock``: the DGT interface without its clock; ``garbage``: random bytes) and the
line can be made noisy (bytes changed or dropped at given rates), all seeded.

A script is JSON lines in the clock-log format (``{"t": 5.3, "event": "press", "side": "red"}``) or
with ``"fault"``/``"s"``/``"n"`` keys, or plain ``"<t> <side>"`` lines (side ``red``/``r``, ``black``/``b``,
as the keyboard clock names them, or the clock's ``left``/``l`` and ``right``). Times are seconds of the emulated
clock from its start.
"""

from __future__ import annotations

import json
import logging
import os
import random
import select
import time
import tty
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TextIO

from recorder.clock import dgt
from recorder.clock.model import LEFT, RIGHT, ChessClock, SideMap, other
from recorder.clock.text import TextMessage, checksum, format_line
from rules import BLACK, RED

log = logging.getLogger(__name__)

# the players' sides as the keyboard clock names them (``r`` is red there, never right), and the clock's halves
_SIDE_WORDS = {"r": RED, "b": BLACK, "l": LEFT, "left": LEFT, "right": RIGHT}


@dataclass(frozen=True)
class ScriptEvent:
    """At clock time ``t``: a press of ``side`` (physical) or a ``fault`` lasting ``s`` seconds / ``n`` bytes."""

    t: float
    side: str | None = None
    fault: str | None = None
    amount: float = 0.0


def _side(word: str, sides: SideMap) -> str:
    word = _SIDE_WORDS.get(word.strip().lower(), word.strip().lower())
    if word in (RED, BLACK):
        return sides.physical(word)
    if word in (LEFT, RIGHT):
        return word
    raise ValueError(f"side {word!r} is not red (r), black (b), left or right")


def parse_script(lines: Iterable[str], sides: SideMap) -> list[ScriptEvent]:
    """Script events from JSON or ``"<t> <side>"`` lines, in time order (blank and ``#`` lines skipped)."""
    events: list[ScriptEvent] = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            if line.startswith("{"):
                data = json.loads(line)
                if "fault" in data:
                    events.append(ScriptEvent(float(data["t"]), None, str(data["fault"]),
                                              float(data.get("s", data.get("n", 0)))))
                elif data.get("event", "press") == "press":
                    events.append(ScriptEvent(float(data["t"]), _side(str(data["side"]), sides)))
            else:
                t, word = line.split()
                events.append(ScriptEvent(float(t), _side(word, sides)))
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"clock script line {number}: {error}") from None
    return sorted(events, key=lambda e: e.t)


class ClockSim:
    """The emulated clock and its line; ``now`` arguments are real monotonic seconds."""

    def __init__(self, protocol: str, base_ms: int, increment_ms: int = 0, *, red_side: str = LEFT,
                 first_mover: str = RED, noise: float = 0.0, drop: float = 0.0, seed: int = 0,
                 speed: float = 1.0, report_s: float = 1.0) -> None:
        if protocol not in ("dgt", "text"):
            raise ValueError(f"protocol {protocol!r} is not dgt or text")
        if not (0 <= noise <= 1 and 0 <= drop <= 1) or speed <= 0:
            raise ValueError("noise and drop are rates in 0..1 and speed is positive")
        self.protocol = protocol
        self.sides = SideMap(red_side, confirmed=True)
        self.first_mover = first_mover
        self.clock = ChessClock(base_ms, increment_ms)
        self.noise, self.drop = noise, drop
        self.rng = random.Random(seed)
        self.speed = speed
        self.report_s = report_s
        self.started: float | None = None  # real time of the clock's start
        self.update_mode = False
        self.silent_until = -1.0  # real time
        self.no_clock_until = -1.0
        self._last_sent = b""
        self._last_report = -1e9
        self._seq = 0
        self._flags_sent: set[str] = set()
        self._out = bytearray()
        self.presses = 0
        self.pressed: list[tuple[float, str, bool]] = []  # (real time, side, flipped) of each press

    # --- time ---------------------------------------------------------------------------
    def clock_time(self, now: float) -> float:
        """Seconds of emulated clock since the start (``speed`` times real time)."""
        return 0.0 if self.started is None else (now - self.started) * self.speed

    def start(self, now: float) -> None:
        self.started = now
        self.clock.start(self.sides.physical(self.first_mover), 0.0)
        if self.protocol == "text":
            self._send_text("H", None, now)

    # --- input --------------------------------------------------------------------------
    def press(self, side: str, now: float) -> bool:
        """Button ``side`` (physical) pressed at real time ``now``; returns whether the clock flipped."""
        if self.started is None:
            return False
        flipped = self.clock.press(side, self.clock_time(now))
        self.presses += 1
        self.pressed.append((now, side, flipped))
        if self.protocol == "text" and now >= self.silent_until:
            self._send_text("P", side, now)
        return flipped

    def fault(self, kind: str, amount: float, now: float) -> None:
        """Start a fault: ``silence``/``noclock`` for ``amount`` clock seconds, ``garbage`` of ``amount`` bytes."""
        if kind == "silence":
            self.silent_until = now + amount / self.speed
        elif kind == "noclock":
            self.no_clock_until = now + amount / self.speed
        elif kind == "garbage":
            self._out += bytes(self.rng.randrange(256) for _ in range(int(amount)))
        else:
            raise ValueError(f"fault {kind!r} is not silence, noclock or garbage")

    def host_bytes(self, data: bytes, now: float) -> None:
        """Commands from the host."""
        if now < self.silent_until:
            return
        if self.protocol == "dgt":
            for byte in data:
                if byte == dgt.SEND_UPDATE_NICE:
                    self.update_mode = True
                    self._out += dgt.encode_ack(byte) + dgt.frame(dgt.TIME_MESSAGE, bytes(7))  # ack, empty reading
                elif byte == dgt.SEND_CLOCK:
                    self._send_dgt(now, force=True)
        elif b"$XQ,?*" + checksum("XQ,?").encode() in data:
            self._send_text("T", self._turn_side(), now)

    # --- output -------------------------------------------------------------------------
    def _turn_side(self) -> str | None:
        return self.clock.running

    def _send_text(self, kind: str, side: str | None, now: float) -> None:
        t = self.clock_time(now)
        message = TextMessage(self._seq, kind, side, self.clock.remaining_ms(LEFT, t),
                              self.clock.remaining_ms(RIGHT, t))
        self._seq = (self._seq + 1) % 65536
        self._out += format_line(message)

    def _send_dgt(self, now: float, force: bool = False) -> None:
        if self.started is None:
            message = dgt.frame(dgt.TIME_MESSAGE, bytes(7))  # the interface's all-zero reading
        else:
            message = dgt.encode_time(self.clock.reading(self.clock_time(now)), no_clock=now < self.no_clock_until)
        if force or message != self._last_sent:
            self._out += message
            self._last_sent = message

    def tick(self, now: float) -> bytes:
        """The bytes to put on the line now (after noise), with periodic reports and flags."""
        if self.started is not None:
            t = self.clock_time(now)
            for side in (LEFT, RIGHT):
                self.clock.remaining_ms(side, t)
                if self.clock.flags[side] and side not in self._flags_sent and self.protocol == "text":
                    self._send_text("F", side, now)
                    self._flags_sent.add(side)
        if self.protocol == "dgt" and self.update_mode:
            self._send_dgt(now)
        elif self.protocol == "text" and now - self._last_report >= self.report_s and self.started is not None:
            self._send_text("T", self._turn_side(), now)
            self._last_report = now
        out, self._out = bytes(self._out), bytearray()
        if now < self.silent_until:
            return b""
        return self._noisy(out)

    def _noisy(self, data: bytes) -> bytes:
        if not self.noise and not self.drop:
            return data
        out = bytearray()
        for byte in data:
            roll = self.rng.random()
            if roll < self.drop:
                continue
            out.append(self.rng.randrange(256) if roll < self.drop + self.noise else byte)
        return bytes(out)


def open_pty() -> tuple[int, int, str]:
    """A raw pseudo-terminal: (master fd, slave fd kept open so the line survives a host reconnect, path)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    tty.setraw(master)
    return master, slave, os.ttyname(slave)


def serve(sim: ClockSim, master: int, script: list[ScriptEvent], *, keys: TextIO | None = None,
          wait_host: bool = False, duration: float | None = None, stop: Callable[[], bool] = lambda: False,
          clock: Callable[[], float] = time.monotonic) -> None:
    """Run the emulator on ``master`` until the script, ``duration`` or ``stop`` ends it.

    With ``wait_host`` the clock starts when the host first writes (its set-up), which lines the
    script up with a recorder started at the same moment. ``keys`` lines press buttons: ``r``/``red``,
    ``b``/``black``, ``l``/``left``, ``right``, an empty line for the running side, ``q`` to quit (the end of ``keys`` does not).
    """
    pending = list(script)
    began = clock()
    if not wait_host:
        sim.start(began)
    last_script = script[-1].t if script else None
    typed = b""
    while not stop():
        now = clock()
        watched = [master] + ([keys] if keys is not None else [])
        readable, _, _ = select.select(watched, [], [], 0.02)
        now = clock()
        if master in readable:
            try:
                data = os.read(master, 512)
            except OSError:
                data = b""
            if data and sim.started is None:
                sim.start(now)
            sim.host_bytes(data, now)
        if keys is not None and keys in readable:
            chunk = os.read(keys.fileno(), 1024)  # raw reads: a buffered readline would hide queued lines
            if not chunk:
                keys = None  # end of input: the script (if any) goes on
            typed += chunk
            while b"\n" in typed:
                line, _, typed = typed.partition(b"\n")
                word = line.decode("utf-8", "replace").strip().lower()
                if word == "q":
                    return
                try:
                    side = _side(word, sim.sides) if word else sim.clock.running or sim.clock.turn
                    sim.press(side, now)
                except ValueError as error:
                    log.warning("%s", error)
        t = sim.clock_time(now)
        while pending and sim.started is not None and pending[0].t <= t:
            event = pending.pop(0)
            if event.fault is not None:
                sim.fault(event.fault, event.amount, now)
            elif event.side is not None:
                sim.press(event.side, now)
        out = sim.tick(now)
        if out:
            try:
                os.write(master, out)
            except OSError as error:
                log.debug("pty write failed: %s", error)
        if duration is not None and now - began >= duration:
            return
        if last_script is not None and not pending and keys is None and duration is None \
                and t >= last_script + 2.0 * sim.speed:
            return


__all__ = ["ClockSim", "ScriptEvent", "open_pty", "other", "parse_script", "serve"]
