"""A keyboard clock for a table without a serial clock: the arbiter's (or a player's) key is the press.

Each line read from the stream is a press: ``red``/``r`` or ``black``/``b`` names the side, an empty
line is the side whose time runs. The times come from a :class:`~recorder.clock.model.ChessClock`
started with the first mover running when the clock starts (at the recording's start). Presses go
to the same queue type as the serial link's, stamped with the host's monotonic clock.

``rate`` is ``--clock-rate``: a video file replayed at ``rate`` times real time is a game whose
clock ran ``rate`` times as fast as the host's, so the times the keyboard clock keeps run at that
rate too (a serial clock replayed with the emulator at ``--speed`` does the same), and the times
left agree with the recording times the feed gives the presses, ``(host - origin) * rate``.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import TextIO

from recorder.clock.model import (
    CONNECTED,
    DISCONNECTED,
    FLAG_FALLEN,
    LEFT,
    QUIET,
    RIGHT,
    ChessClock,
    ClockNotice,
    SideMap,
)
from recorder.clock.presses import Item
from recorder.clocklog_input import ClockPress
from rules import BLACK, RED

TYPO_SPAN_S = 2.0  # host seconds before an unreadable line in which a press may have been meant

log = logging.getLogger(__name__)

_WORDS = {"red": RED, "r": RED, "black": BLACK, "b": BLACK}


class KeyboardClock:
    """Key presses to ClockPress values with software-kept times (``items`` is the queue)."""

    def __init__(self, base_ms: int, increment_ms: int = 0, *, first_mover: str = RED,
                 clock: Callable[[], float] = time.monotonic, max_items: int = 10_000, rate: float = 1.0) -> None:
        if not rate > 0:
            raise ValueError(f"clock rate {rate} must be positive")
        self.rate = rate
        self.model = ChessClock(base_ms, increment_ms)
        self.sides = SideMap(LEFT, confirmed=True)
        self.first_mover = first_mover
        self.clock = clock
        self.items: queue.Queue[Item] = queue.Queue(max_items)
        self.ignored = 0
        self._thread: threading.Thread | None = None
        self._started = False
        self.ended_at: float | None = None  # host time the input ended (Ctrl-D, a closed pipe)
        self._lock = threading.Lock()  # the model is read from the recording's thread too (flags)
        self._flagged: set[str] = set()

    def last_heard(self) -> float:
        """Host time up to which every press typed is queued: now, or when the input ended. (Asked
        by the recording at every frame: a flag that fell meanwhile is told then, as a clock's would be.)"""
        now = self.clock()
        if self._started:
            self._check_flags(now)
        return now if self.ended_at is None else self.ended_at

    def _check_flags(self, now: float) -> None:
        """Queue a ``flag_fallen`` notice for a side whose time ran out (once)."""
        with self._lock:
            reading = self.model.reading(self._game_time(now))
        for side in (LEFT, RIGHT):
            if reading.flag(side) and side not in self._flagged:
                self._flagged.add(side)
                colour = self.sides.colour(side)
                self.items.put(ClockNotice(now, FLAG_FALLEN, f"{colour}'s time is used up (art. 21.3)", colour))

    def _game_time(self, host: float) -> float:
        """The clock model's time (seconds) at host time ``host``: it runs at ``rate``."""
        return host * self.rate

    def go_on(self, side_to_move: str, left_ms: tuple[int, int] | None) -> None:
        """A game taken up again: ``side_to_move``'s time runs first, from the times the game's last
        press left (red's, black's), when there was one."""
        self.first_mover = side_to_move
        if left_ms is not None:
            red_ms, black_ms = left_ms
            with self._lock:
                self.model.set_left(self.sides.physical(RED), red_ms)
                self.model.set_left(self.sides.physical(BLACK), black_ms)
            # a flag that fell before was told then: not told again on taking the game up
            self._flagged |= {self.sides.physical(colour) for colour, ms in ((RED, red_ms), (BLACK, black_ms)) if ms == 0}

    def start_clock(self) -> None:
        """Start the first mover's time now."""
        now = self.clock()
        with self._lock:
            self.model.start(self.sides.physical(self.first_mover), self._game_time(now))
        self._started = True
        self.items.put(ClockNotice(now, CONNECTED, "keyboard clock started"))

    def key(self, line: str) -> ClockPress | None:
        """One typed line as a press (``None`` for a line that names no side)."""
        if not self._started:
            self.start_clock()
        now = self.clock()
        word = line.strip().lower()
        if word:
            colour = _WORDS.get(word)
            if colour is None:
                self.ignored += 1
                typed = line.strip()
                shown = repr(typed if len(typed) <= 40 else typed[:40] + "…")  # a pasted screenful is cut
                log.warning("keyboard clock: %s is not red, black or an empty line", shown)
                # the typist's slip, not a player's: a press meant then is lost, and a move just made
                # that shows no press gets a note (press_unheard), not a foul (as a clock log's bad line)
                self.items.put(ClockNotice(now, QUIET, f"keyboard clock: {shown} is not red, black or "
                                           "an empty line: a press typed then is lost", "", since=now - TYPO_SPAN_S))
                return None
            side = self.sides.physical(colour)
        else:
            side = self.model.running or self.model.turn
        game_now = self._game_time(now)
        with self._lock:
            self.model.press(side, game_now)
            red_ms = self.model.remaining_ms(self.sides.physical(RED), game_now)
            black_ms = self.model.remaining_ms(self.sides.physical(BLACK), game_now)
        self._check_flags(now)
        press = ClockPress(now, self.sides.colour(side), red_ms, black_ms)  # stamped in host time, as the link's
        self.items.put(press)
        return press

    def follow(self, stream: TextIO) -> KeyboardClock:
        """Read ``stream`` line by line in a daemon thread until it ends."""
        def run() -> None:
            why = "Ctrl-D, or stdin closed"
            try:
                for line in stream:
                    self.key(line)
            except (OSError, ValueError) as error:  # bytes that are not text, a read that failed
                why = f"it could not be read: {error}"
            finally:
                # no more presses can come: moves from here are not judged for theirs, and the arbiter is told
                self.ended_at = self.clock()
                self.items.put(ClockNotice(self.ended_at, DISCONNECTED, f"the keyboard clock's input ended ({why}): "
                                           "no presses are read from here, and moves are not checked for theirs"))

        if not self._started:
            self.start_clock()
        self._thread = threading.Thread(target=run, name="keyboard-clock", daemon=True)
        self._thread.start()
        return self
