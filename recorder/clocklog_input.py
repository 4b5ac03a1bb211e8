"""Clock presses from a JSON-lines clock log (the format ``synth`` writes; the serial link feeds the same path).

A line reads ``{"t": seconds, "event": "press", "side": "red"|"black", "red_ms": n, "black_ms": n}``
(``t`` 0 or more, the times left whole milliseconds, 0 or more). Reading is lenient, as a log is an
edge of the system: a malformed line is logged, counted and skipped; but a file in which not one line
reads as a press while some could not be read at all is no clock log of this format, and
:func:`load_clock_log` refuses it (recording without the clock the user gave would be silent data
loss). :class:`ClockFeed` hands out the presses up to a given time, in order, so the session can
interleave them with the frames of the same clock.
"""

from __future__ import annotations

import bisect
import json
import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from rules import BLACK, RED

log = logging.getLogger(__name__)

LOG_BEYOND_S = 10.0  # a clock log's presses this long past the end of its source are not that source's


@dataclass(frozen=True)
class ClockPress:
    """One press: the button's side and the time each side has left after it (milliseconds)."""

    t: float
    side: str
    red_ms: int
    black_ms: int


EXAMPLE_LINE = '{"t": 5.348, "event": "press", "side": "red", "red_ms": 904652, "black_ms": 900000}'


class ClockLog(NamedTuple):
    """A clock log as read: its presses in time order, how many lines could not be read, and where
    those lines lay in time (from the press before them in the file to the press after them; to
    infinity after the last one): a press on such a line is lost, so a move then is not blamed on
    its player (the recorder notes it as ``press_unheard``)."""

    presses: list[ClockPress]
    skipped: int
    damaged: list[tuple[float, float]]


WARNED_LINES = 5  # malformed lines told one by one; the rest are counted (a wrong file is hundreds)


def parse_clock_lines(lines: Iterable[str], source: str = "clock log") -> tuple[list[ClockPress], int]:
    """Presses from JSON lines (sorted by time) and the number of lines skipped as malformed."""
    read, _ = _parse(lines, source)
    return read.presses, read.skipped


def _parse(lines: Iterable[str], source: str) -> tuple[ClockLog, str]:
    """The log read, and what was wrong with its first skipped line ("" when none)."""
    presses: list[ClockPress] = []
    numbers: list[int] = []  # the line each press was read from
    skipped = 0
    first = ""
    damaged: list[tuple[float, float]] = []
    read: set[ClockPress] = set()
    repeats = 0
    open_since: float | None = None  # a damaged stretch waiting for the next good press
    last_t = 0.0  # the time of the last press line read
    passed: set[str] = set()  # the unknown events warned of (once each)
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            press = _press(line)
        except _PassedOver as why:
            if why.args[0] not in passed:
                passed.add(why.args[0])
                log.warning("%s line %d: %s", source, number, why)
            continue
        except ValueError as error:
            if skipped < WARNED_LINES:
                log.warning("%s line %d skipped: %s", source, number, error)
            skipped += 1
            first = first or f"line {number}: {error}"
            if open_since is None:
                open_since = last_t
            continue
        if press is None:
            continue
        # the stretch a damaged line spoiled runs between the presses either side of it in the file,
        # repeated ones too (in a log appended to itself, the copy's damaged line lies between copies)
        if open_since is not None and press.t > open_since:  # (a press out of order leaves it open)
            if (open_since, press.t) not in damaged:  # (a copy's: told once)
                damaged.append((open_since, press.t))
            open_since = None
        last_t = press.t
        if press in read:  # a line written twice (a copy, a logger's retry, a log appended to itself): one press
            if repeats < WARNED_LINES:
                log.warning("%s line %d repeats an earlier press (%s at %.3f s): read once", source, number,
                            press.side, press.t)
            repeats += 1
            continue
        read.add(press)
        presses.append(press)
        numbers.append(number)
    if open_since is not None:
        damaged.append((open_since, math.inf))
    # a press whose time goes back (or ahead) of the presses around it in the file: a line written in
    # the wrong place, or a time written wrong. Which, the line alone cannot tell (a reviewer: lines
    # swapped whole, each time right, lost a genuine press when the odd one was dropped), so it is read
    # in time order as before, and named: a tester's press moved from 28.8 s to 2.8 s had the clock
    # told as set by hand with no word of the line that did it
    out = _out_of_order([press.t for press in presses])
    before_each, after_each = [0.0] * len(presses), [math.inf] * len(presses)  # the latest / earliest in order
    for i in range(1, len(presses)):
        before_each[i] = before_each[i - 1] if i - 1 in out else max(before_each[i - 1], presses[i - 1].t)
    for i in range(len(presses) - 2, -1, -1):
        after_each[i] = after_each[i + 1] if i + 1 in out else min(after_each[i + 1], presses[i + 1].t)
    told = 0
    for at in sorted(out):
        before, after = before_each[at], after_each[at]
        if before - presses[at].t > ORDER_SLACK_S or presses[at].t - after > ORDER_SLACK_S:
            told += 1
            if told > WARNED_LINES:
                continue
            log.warning("%s line %d: its time, %.3f s, is out of order with the presses around it in the file "
                        "(%s): read in time order; if the time was written wrong, the clock times after it may be "
                        "told as changed", source, numbers[at], presses[at].t,
                        f"between {before:.3f} s and {after:.3f} s" if math.isfinite(after) else f"after {before:.3f} s")
    if told > WARNED_LINES:
        log.warning("%s: %d more presses out of order in the file, each read in time order", source, told - WARNED_LINES)
    if skipped > WARNED_LINES and presses:  # (with none read, the caller's error says it all)
        log.warning("%s: %d more lines skipped", source, skipped - WARNED_LINES)
    if repeats > WARNED_LINES:
        log.warning("%s: %d more lines repeat earlier presses, each read once", source, repeats - WARNED_LINES)
    presses.sort(key=lambda p: p.t)
    return ClockLog(presses, skipped, damaged), first


ORDER_SLACK_S = 0.5  # presses logged this close may come in either order (a logger's threads): not told


def _out_of_order(times: list[float]) -> set[int]:
    """The fewest entries that keep ``times`` from running in order: those off one longest
    non-decreasing run through them (one time written wrong, too early or too late, is the one named)."""
    tails: list[float] = []  # the smallest last time of a run of each length found so far
    ends: list[int] = []  # ... and the index it ends at
    before = [-1] * len(times)  # the index before each one in its run
    for i, t in enumerate(times):
        length = bisect.bisect_right(tails, t)
        before[i] = ends[length - 1] if length else -1
        if length == len(tails):
            tails.append(t)
            ends.append(i)
        else:
            tails[length], ends[length] = t, i
    kept: set[int] = set()
    at = ends[-1] if ends else -1
    while at >= 0:
        kept.add(at)
        at = before[at]
    return set(range(len(times))) - kept


_FIELDS = ("t", "side", "red_ms", "black_ms")
MAX_LOG_T_S = 7 * 24 * 3600.0  # a press later than this after the video's start is not of that video
MAX_CLOCK_MS = 100 * 3600 * 1000  # no clock shows more time left (a day is the longest time control in use)


# events other than presses that a clock log may hold, passed over in silence (a flag fall, the clock
# started, paused or its times set): anything else is passed over with a warning
OTHER_EVENTS = frozenset({"flag", "start", "pause", "resume", "set", "stop"})


class _PassedOver(Exception):
    """A line of an event the log may hold but the recorder does not use: passed over, with a warning."""


def _press(line: str) -> ClockPress | None:
    """One line as a press (``None``: another kind of event); ``ValueError`` saying what is wrong."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        raise ValueError(f"not a JSON object: {line.strip()[:40]!r}") from None
    if not isinstance(data, dict):
        raise ValueError(f"not a JSON object: {line.strip()[:40]!r}")
    event = data.get("event", "press")
    if not isinstance(event, str):
        raise ValueError(f"event {event!r} is not a name (press, flag, ...)")
    event = event.strip().lower()
    if event != "press":
        if event not in OTHER_EVENTS:  # passed over like the others, but said: a typo would lose presses
            raise _PassedOver(f"event {event!r} is not a press (nor {', '.join(sorted(OTHER_EVENTS))}): passed over")
        return None
    missing = [name for name in _FIELDS if name not in data]
    if missing:
        raise ValueError(f"a press needs {', '.join(_FIELDS)}; missing {', '.join(missing)}")
    try:
        if any(isinstance(data[name], bool) for name in ("t", "red_ms", "black_ms")):
            raise TypeError
        press = ClockPress(float(data["t"]), str(data["side"]).strip().lower(), int(data["red_ms"]), int(data["black_ms"]))
    except (TypeError, ValueError, OverflowError):
        raise ValueError("t must be seconds and red_ms, black_ms whole milliseconds, "
                         f"not {data['t']!r}, {data['red_ms']!r}, {data['black_ms']!r}") from None
    if not math.isfinite(press.t) or not 0 <= press.t <= MAX_LOG_T_S:
        raise ValueError(f"t {data['t']!r} is not a time: seconds from the start, 0 to {MAX_LOG_T_S:.0f} (a week)")
    if not (0 <= press.red_ms <= MAX_CLOCK_MS and 0 <= press.black_ms <= MAX_CLOCK_MS):
        raise ValueError(f"red_ms {data['red_ms']!r}, black_ms {data['black_ms']!r}: a time left is 0 to "
                         f"{MAX_CLOCK_MS} ms (100 hours)")
    if press.side not in (RED, BLACK):
        raise ValueError(f"side {press.side!r} is not red or black")
    return press


def load_clock_log(path: str | Path) -> ClockLog:
    """Every press of a clock log file, in time order, how many lines could not be read (each
    skipped with a warning; bytes that are not UTF-8 spoil their line only) and where they lay.

    ``ValueError`` when lines could not be read and not one press could: the file is not a clock
    log of this format. A file with no lines, or only events other than presses, gives no press.
    """
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as source:  # -sig: a BOM (Notepad's) is no byte of line 1
            read, first = _parse(source, str(path))
    except FileNotFoundError:
        raise ValueError(f"clock log {path}: no such file") from None
    except IsADirectoryError:
        raise ValueError(f"clock log {path} is a folder, not a file of clock presses") from None
    if read.skipped and not read.presses:
        raise ValueError(f"clock log {path}: not one clock press could be read from its {read.skipped} line(s) "
                         f"({first}). Each press is one JSON object a line, as synth writes and "
                         f"docs/clock-protocol.md describes: {EXAMPLE_LINE}")
    return read


def read_clock_log(path: str | Path) -> list[ClockPress]:
    """Every press of a clock log file, in time order (malformed lines skipped with a warning; a file
    of nothing but malformed lines refused, as :func:`load_clock_log` does)."""
    return load_clock_log(path)[0]


class ClockFeed:
    """Presses handed out in time order: ``until(t)`` returns those at or before ``t`` not yet given."""

    def __init__(self, presses: Iterable[ClockPress], unheard: Iterable[tuple[float, float]] = ()) -> None:
        self._presses = sorted(presses, key=lambda p: p.t)
        self._next = 0
        self._unheard = list(unheard)  # a log's damaged lines (``ClockLog.damaged``): presses lost there

    def until(self, t: float) -> list[ClockPress]:
        start = self._next
        while self._next < len(self._presses) and self._presses[self._next].t <= t:
            self._next += 1
        return self._presses[start:self._next]

    def heard_until(self) -> float:
        """Recording time up to which every press is known: a log holds them all."""
        return math.inf

    def heard_at_end(self, end_t: float) -> float:
        """``heard_until`` at the end of the source."""
        return self.heard_until()

    def unheard(self) -> list[tuple[float, float]]:
        """Stretches (recording time) when the clock could not be heard, not handed out yet: in a log,
        those of its damaged lines."""
        told, self._unheard = self._unheard, []
        return told

    def remaining(self) -> list[ClockPress]:
        """The presses not handed out yet (e.g. after the last frame)."""
        rest = self._presses[self._next:]
        self._next = len(self._presses)
        return rest
