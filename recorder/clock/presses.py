"""Clock reports to presses: physical sides to red/black, lever changes to presses, flags to notices.

A press is the change of the lever (the side whose button went down pressed), cross-checked with
the turn the clock reports: a lever change that leaves the presser's own time running is a glitch
and is dropped. A protocol without a lever (the text lines) reports presses itself; when a report
shows the other side running without a press seen (a lost line), the press is inferred, dated by
the time the side now running has used since the report before. The first
side seen running is the first mover's (red's unless the game starts with black to move): this
confirms or corrects the default mapping, and a ``clock_mapping`` notice records it with the game.

The times are watched too, from the game's first press: a side's time can rise only at its own press
(an increment, or the next period's time under art. 6.2) and fall only by the time that has run, so
a change beyond that (the clock reset, or its times set by hand) gives a ``clock_times_changed``
notice once two reports agree on it (a damaged report is not a reset). Across a reconnect or a quiet
line presses may have been missed: each side may then have gained one increment per few seconds unheard.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple

from recorder.clock.model import (
    FLAG_FALLEN,
    LEFT,
    LOG_DAMAGED,
    MAPPING,
    RIGHT,
    SIDES,
    TIMES_CHANGED,
    ClockNotice,
    ClockReading,
    SideMap,
    other,
)
from recorder.clocklog_input import ClockPress
from recorder.events import recording_time
from rules import BLACK, RED

log = logging.getLogger(__name__)

Item = ClockPress | ClockNotice

TIME_TOLERANCE_MS = 1_500  # a DGT clock reports whole seconds
MAX_INCREMENT_MS = 60_000  # the largest increment per move a competition uses (art. 6.1's example: 30 s)
REPORT_GAP_S = 2.5  # a running clock reports each second: a longer gap may hide presses
MIN_TURN_S = 4.0  # of clock time: at the fastest, each side presses once in this long
PERIOD_MIN_MS = 300_000  # art. 6.2: a period's time added at a press is whole minutes, five or more


@dataclass(frozen=True)
class _Times:
    """Clock times trusted at host time ``at``: (left, right) ms, the side then running, and for how
    many host seconds since then presses may have gone unheard (a reconnect, a quiet line)."""

    times: tuple[int, int]
    at: float
    turn: str | None
    unheard_s: float = 0.0
    lost_messages: int = 0  # damaged or missing messages since: each may have been a press


def mapping_text(red_side: str, running_side: str) -> str:
    """The ``clock_mapping`` notice's text (``mapped_red_side`` reads it back from a stored game)."""
    return f"red is the clock's {red_side} side (the first running side was {running_side})"


def found_swapped_text(red_side: str, ply: int) -> str:
    """The ``clock_mapping`` notice's text once the recording found the guessed sides the wrong way
    round (read back by ``mapped_red_side``, so a resumed game keeps the sides found)."""
    return f"red is the clock's {red_side} side (its sides were found the other way round at ply {ply})"


_COLOUR_WORD = re.compile(r"\b(red|black)\b")
_NAMING_COLOURS = (FLAG_FALLEN, TIMES_CHANGED)  # the notices whose texts name the colours from the clock's sides


def named_other_way_round(notice: ClockNotice) -> ClockNotice:
    """``notice`` with red and black exchanged, for a clock whose sides were found to be the other way
    round after the link named them (a flag fall told as red's was black's)."""
    if notice.kind not in _NAMING_COLOURS:
        return notice
    text = _COLOUR_WORD.sub(lambda found: "black" if found.group(1) == "red" else "red", notice.text)
    side = {"red": "black", "black": "red"}.get(notice.side, notice.side)
    return replace(notice, text=text, side=side)


_MAPPED = re.compile(r"^red is the clock's (left|right) side\b")


def mapped_red_side(text: str) -> str | None:
    """The clock side a ``clock_mapping`` notice's text gives red, or None for another text."""
    found = _MAPPED.match(text)
    return found.group(1) if found else None


class PressTracker:
    """Turns a stream of readings (and explicit presses) into ClockPress values and notices."""

    def __init__(self, red_side: str = LEFT, first_mover: str = RED, *, confirm: bool = True,
                 rate: float = 1.0, increment_ms: int | None = None) -> None:
        if red_side not in SIDES:
            raise ValueError(f"clock side {red_side!r} is not left or right")
        self.map = SideMap(red_side, confirmed=not confirm)
        self.first_mover = first_mover
        self.rate = rate  # clock seconds per host second (an emulator run faster than real time)
        self.increment_ms = increment_ms  # the time control's increment when known
        self._gains: list[int] = []  # what each press seen added to the presser's time (ms)
        self._last_pressed: str | None = None  # the physical side of the last press
        self._over_gain: int | None = None  # the last press's rise beyond the increment (see _increment_told)
        self._held_rise: tuple[str, ClockNotice] | None = None  # its side and 'times changed', told if no second
        # rise confirms it
        self._lever: str | None = None
        self._turn: str | None = None
        self._flags: set[str] = set()
        self.presses = 0
        self.glitches = 0
        self.inferred = 0
        self.last: ClockReading | None = None  # the last report taken (damaged ones left out)
        self.times_changed = 0
        self._trusted: _Times | None = None  # the times last trusted, kept across reconnects
        self._previous: _Times | None = None  # and those trusted before them
        self._suspect: tuple[frozenset[str], _Times] | None = None  # the last report's jump: its sides and times
        self._last_report: tuple[float, bool] | None = None  # (host time, running) of the last report
        self._reconnected = False
        self._lost_messages = 0
        self._held: tuple[ClockPress, str] | None = None  # a press whose own times jumped, and its physical side
        self._let_go: list[ClockPress] = []  # a held press given up on (the link reset): out with the next items

    def release_held(self) -> list[ClockPress]:
        """The press held for its jumped time, as first reported (no report came to tell its time: the
        link was reset, or the recording ends), and any given up on before."""
        out, self._let_go = self._let_go, []
        held, self._held = self._held, None
        return out + ([held[0]] if held is not None else [])

    def rise_untold(self) -> list[ClockNotice]:
        """The rise held at a press (``_increment_told``) that no later press of that side judged, as
        the recording ends: told, since it may be a time set by hand, with the doubt that stays."""
        if self._held_rise is None:
            return []
        side, changed = self._held_rise
        self._held_rise, self._over_gain = None, None
        self.times_changed += 1
        text = (f"{changed.text}; or the clock adds more at each press than the time control gives: this rise "
                f"came at {self.map.colour(side)}'s last press heard, so no later press tells which")
        log.info("clock: %s", text)  # told as a clock_times_changed alert
        return [replace(changed, text=text)]

    def reset_link(self) -> None:
        """Forget the lever and turn (after a reconnect) so the first new report is not taken as a press."""
        self._let_go = self.release_held()  # a report after a reconnect may be a minute on: it says nothing of it
        self._lever = None
        self._turn = None
        self.last = None
        self._reconnected = True  # presses may have gone unheard until the next report

    def go_on(self, red_side: str | None, side_to_move: str) -> None:
        """A game taken up again (``record --resume``): the mapping its log holds (``red_side``) stands,
        confirmed; without one, the side running now is the side to move's, not the first mover's."""
        if red_side is not None:
            self.map = SideMap(red_side, confirmed=True)
        else:
            self.first_mover = side_to_move

    def _confirm(self, running_side: str, t: float) -> list[Item]:
        if self.map.confirmed:
            return []
        self.map.confirmed = True
        expected = self.map.physical(self.first_mover)
        if running_side != expected:
            self.map.red = other(self.map.red)
            log.info("clock: the first running side is %s; red is the clock's %s side", running_side,
                     self.map.red)  # told as a clock_mapping note
        return [ClockNotice(t, MAPPING, mapping_text(self.map.red, running_side), RED)]

    def _press_gain_ms(self) -> int:
        """The most a press may add to the presser's time: the time control's increment when given,
        else what the game's presses have added so far (after three), else ``MAX_INCREMENT_MS``."""
        if self.increment_ms is not None:
            return self.increment_ms + TIME_TOLERANCE_MS
        if len(self._gains) >= 3:  # the largest of the last few: a press misread from a damaged report adds nothing
            return min(MAX_INCREMENT_MS, max(self._gains[-7:])) + 2 * TIME_TOLERANCE_MS
        return MAX_INCREMENT_MS + TIME_TOLERANCE_MS

    def _jumps(self, base: _Times, times: tuple[int, int], t: float, pressed: str | None,
               turn: str | None) -> list[tuple[str, int, int]]:
        """(side, before, now) for each side whose time moved from ``base`` more than its presses and the
        time run allow. A press (in ``pressed``, or a change of the running side ``turn``) may add its
        increment to the presser's time, or art. 6.2's next period (whole minutes); presses that may
        have gone unheard add at most one increment each per side."""
        if turn is not None and base.turn is not None and turn != base.turn:
            pressed = pressed or base.turn  # a press not seen as such (a damaged report)
        unheard = math.ceil(base.unheard_s * self.rate / MIN_TURN_S) if base.unheard_s > 0 else 0
        unheard += base.lost_messages
        ran_ms = (t - base.at) * self.rate * 1000  # the most a side's time can have run down since
        gain_ms = self._press_gain_ms()
        jumps = []
        for side, before, now in zip(SIDES, base.times, times, strict=True):
            allowed = TIME_TOLERANCE_MS + unheard * gain_ms
            if side == pressed:
                allowed += gain_ms
                if _period_like(now - before, ran_ms):
                    continue
            if now - before > allowed or before - now > ran_ms + TIME_TOLERANCE_MS:
                jumps.append((side, before, now))
        return jumps

    def message_lost(self, count: int = 1) -> None:
        """The line lost or damaged ``count`` messages: each may have been a press not seen."""
        self._lost_messages += count

    def forget_times(self) -> None:
        """Trust the next report's times as they come (the clock was set for the game, or restarted
        with its own notice)."""
        self._let_go = self.release_held()
        self._trusted = self._previous = None
        self._suspect = None

    def _check_times(self, left_ms: int, right_ms: int, t: float, pressed: str | None,
                     turn: str | None = None) -> list[Item]:
        """A notice when the times moved more than presses and running time allow, in two reports running.

        ``pressed`` is the side whose press this report shows, ``turn`` the side running (``None``
        when stopped). Before the game's first press the clock may still be being set: its times are
        taken as they come. A jump seen once is held as a suspect (a damaged report); a jump back to
        the times trusted before the last ones means that those were the damaged report, and is taken
        silently.
        """
        times = (left_ms, right_ms)
        last, self._last_report = self._last_report, (t, turn is not None)
        base = self._trusted
        if base is None or self.presses == 0:
            self._trusted, self._previous, self._suspect = _Times(times, t, turn), None, None
            return []
        if last is not None and (self._reconnected or (last[1] and t - last[0] > REPORT_GAP_S)):
            base = replace(base, unheard_s=base.unheard_s + t - last[0])  # presses may have gone unheard
        if self._lost_messages:
            base = replace(base, lost_messages=base.lost_messages + self._lost_messages)
        self._trusted = base
        self._reconnected, self._lost_messages = False, 0
        jumps = self._jumps(base, times, t, pressed, turn)
        sides = frozenset(side for side, _, _ in jumps)
        if jumps and (self._suspect is None or self._suspect[0] != sides
                      or self._jumps(self._suspect[1], times, t, pressed, turn)):
            self._suspect = (sides, _Times(times, t, turn or base.turn))  # once, or two reports that disagree
            return []
        self._suspect = None
        held: list[Item] = []
        if pressed is not None and not jumps and base.unheard_s == 0 and base.lost_messages == 0:
            self._gains.append(max(0, times[SIDES.index(pressed)] - base.times[SIDES.index(pressed)]))
            if self._held_rise is not None and pressed == self._held_rise[0]:  # its next press added what it
                held, self._held_rise, self._over_gain = [self._held_rise[1]], None, None  # should: set by hand
                self.times_changed += 1
        prior = self._previous
        self._previous, self._trusted = base, _Times(times, t, turn or base.turn)
        if not jumps or (prior is not None and not self._jumps(prior, times, t, None, turn)):
            return held
        said = "; ".join(f"{self.map.colour(side)}'s from {clock_text(before)} to {clock_text(now)}"
                         for side, before, now in jumps)
        text = (f"the clock's times changed with no press or running time to explain it ({said}): the clock "
                "was reset or its times set by hand (art. 21.4: only the arbiter adjusts the clock)")
        changed = ClockNotice(t, TIMES_CHANGED, text, self.map.colour(jumps[0][0]) if len(jumps) == 1 else "")
        earlier, self._held_rise = self._held_rise, None
        increment = self._increment_told(jumps, t, changed)
        if increment:  # the second rise: the clock's increment, which the first one was too
            return held + increment
        if earlier is not None:  # a rise held before, which this change does not confirm
            self.times_changed += 1
            held.append(earlier[1])
        if increment is not None:  # a first rise: held
            return held
        self.times_changed += 1
        log.info("clock: %s", text)  # told as a clock_times_changed alert
        return held + [changed]

    def _increment_told(self, jumps: list[tuple[str, int, int]], t: float, changed: ClockNotice) -> list[Item] | None:
        """What to tell of a rise that may be the clock's own increment, not the time control's: a rise
        of the last presser's time alone, up to ``MAX_INCREMENT_MS``. The first is held (nothing said):
        the second, as large, tells once that the clock's increment is another, and from then on the
        clock's own increment is what a press may add (a tester's clock set to +10 s under a given 15+5
        raised 23 'times changed' alerts, one a press; then one, at the first press, that said the
        clock had been set by hand). A first rise that no second one confirms is told as ``changed``
        after all, at that side's next press. None when the jump is not such a rise."""
        if len(jumps) != 1 or self.increment_ms is None:
            return None
        side, before, now = jumps[0]
        gain = now - before
        if side != self._last_pressed or not 0 < gain <= MAX_INCREMENT_MS:
            self._over_gain = None
            return None
        earlier, self._over_gain = self._over_gain, gain
        if earlier is None or abs(gain - earlier) > TIME_TOLERANCE_MS:
            self._held_rise = (side, changed)  # the first such rise (or one unlike the last): wait for the next
            return []
        given, self.increment_ms = self.increment_ms, round(max(gain, earlier) / 1000) * 1000
        self._over_gain = None
        self.times_changed += 1
        text = (f"the clock adds {self.increment_ms // 1000} s at each press, not the {given // 1000} s of the time "
                "control given: check the clock's setting against the event's (and --time-control); its own "
                "increment is taken from here")
        log.info("clock: %s", text)  # told as a clock_times_changed alert
        return [ClockNotice(t, TIMES_CHANGED, text, "")]

    def _press(self, side: str, left_ms: int, right_ms: int, t: float) -> ClockPress:
        self._last_pressed = side
        self.presses += 1
        red_ms, black_ms = (left_ms, right_ms) if self.map.red == LEFT else (right_ms, left_ms)
        return ClockPress(t, self.map.colour(side), red_ms, black_ms)

    def reading(self, reading: ClockReading, t: float) -> list[Item]:
        """A time report received at host time ``t``."""
        items: list[Item] = []
        if reading.lever_down is not None and reading.running and reading.turn == reading.lever_down:
            # a damaged report (the line has no checksum): the presser's own time cannot still run.
            # Keep the lever we trust, so that the next good report does not read as a press.
            self.glitches += 1
            log.info("clock: lever down on %s but that side's time runs; report ignored", reading.lever_down)
            return items
        items += self._let_go
        self._let_go = []
        items += self._release_held(reading)
        if reading.running and reading.turn is not None:
            items += self._confirm(reading.turn, t)
        pressed: str | None = None
        press: ClockPress | None = None
        if reading.lever_down is not None:
            if self._lever is not None and reading.lever_down != self._lever:
                pressed = reading.lever_down
                press = self._press(reading.lever_down, *self._times_at_press(reading), t)
            self._lever = reading.lever_down
        elif reading.running and reading.turn is not None and self._turn not in (None, reading.turn):
            assert self._turn is not None
            self.inferred += 1
            pressed = self._turn
            log.info("clock: %s runs without a press seen; press by %s inferred", reading.turn, self._turn)
            press = self._press(self._turn, *self._times_at_press(reading), self._pressed_at(reading, t))
        checked = self._check_times(reading.left_ms, reading.right_ms, t, pressed,
                                    reading.turn if reading.running else None)
        if press is not None and pressed is not None and self._suspect is not None and pressed in self._suspect[0]:
            # the presser's own time jumped beyond its increment: a damaged report, or the clock set by
            # hand at the press. The next report tells which (``_release_held``): a scoresheet must not
            # carry a misread time (a tester's +23 s on a 10 s increment, read right a second later)
            self._held = (press, pressed)
        elif press is not None:
            items.append(press)
        items += checked
        if reading.running and reading.turn is not None:
            self._turn = reading.turn
        for side in SIDES:
            # a flag with the time at zero, or in two reports running (one damaged byte is not a flag fall)
            seen_before = self.last is not None and self.last.flag(side)
            if reading.flag(side) and (reading.ms(side) == 0 or seen_before):
                items += self.flag(side, t)
        self.last = reading
        return items

    def _release_held(self, reading: ClockReading) -> list[Item]:
        """The press held for its jumped time, given out with the report after it: the presser's time
        as this report shows it when its clock stands still since the press (so the time it had once
        pressed), else as first reported."""
        if self._held is None:
            return []
        (press, side), self._held = self._held, None
        standing = not reading.running or reading.turn != side
        if standing and (reading.lever_down is None or reading.lever_down == side):
            ms = reading.ms(side)
            said = press.red_ms if press.side == RED else press.black_ms
            if abs(ms - said) > TIME_TOLERANCE_MS:
                log.info("clock: %s's press at %.1f s reported %s, the report after it %s: the latter taken",
                         press.side, press.t, clock_text(said), clock_text(ms))
                press = replace(press, red_ms=ms) if press.side == RED else replace(press, black_ms=ms)
        return [press]

    def _times_at_press(self, reading: ClockReading) -> tuple[int, int]:
        """(left, right) ms at the press a report shows: the presser's as reported (its increment in),
        the side now running's as the report before had it while it stood still. A report a damaged
        line delayed shows that side's time already run down, and the times used would count the
        difference as a press lost on the line (a tester's gained an increment a side for each)."""
        left_ms, right_ms = reading.left_ms, reading.right_ms
        last, turn = self.last, reading.turn
        if last is None or turn is None or not reading.running or (last.running and last.turn == turn):
            return left_ms, right_ms
        stood = last.ms(turn)
        if not 0 <= stood - reading.ms(turn) <= MIN_TURN_S * 1000:
            return left_ms, right_ms  # not a time that ran since (a reset, a damaged report)
        return (stood, right_ms) if turn == LEFT else (left_ms, stood)

    def _pressed_at(self, reading: ClockReading, t: float) -> float:
        """When the press a report at ``t`` shows, without reporting it, was made: the time the side
        now running has used since the report before (it stood still until the press), not when the
        report came (up to a report's interval later). ``t`` when that cannot be told."""
        if self.last is None or self._last_report is None or reading.turn is None:
            return t
        since = self._last_report[0]
        ran_s = (self.last.ms(reading.turn) - reading.ms(reading.turn)) / 1000
        return t - ran_s if 0 <= ran_s <= t - since else t

    def press(self, side: str, left_ms: int, right_ms: int, t: float) -> list[Item]:
        """An explicit press of button ``side`` reported by the clock (times after the press)."""
        items: list[Item] = list(self.release_held())  # (a lever protocol's: not expected here) as it came
        if self._turn is None or self._turn == side:
            items += self._confirm(side, t)  # the first press is by the side that was running
            self._turn = other(side)
        items.append(self._press(side, left_ms, right_ms, t))
        items += self._check_times(left_ms, right_ms, t, side, other(side))
        return items

    def flag(self, side: str, t: float) -> list[Item]:
        """``side``'s flag fell (reported once)."""
        if side in self._flags:
            return []
        self._flags.add(side)
        colour = self.map.colour(side)
        return [ClockNotice(t, FLAG_FALLEN, f"{colour}'s time is used up (art. 21.3)", colour)]


class LogCheck(NamedTuple):
    """What a clock log's times show (``log_time_faults``): the notices of presses no clock can show,
    and the stretches of time whose presses the log lacks (the times moved by a press's increment
    with no line for it: lines deleted, or a logger that missed them)."""

    faults: list[ClockNotice]
    lost: list[tuple[float, float]]


def log_time_faults(presses: Sequence[ClockPress], unheard: Sequence[tuple[float, float]] = (),
                    increment_ms: int | None = None) -> LogCheck:
    """The presses of a clock log whose times no clock can show, as notices at their times, and the
    stretches whose presses it lacks.

    The serial link's checks (``PressTracker``), applied to a log's presses in turn: between two
    presses only the side that pressed second ran, and a press adds at most an increment (or art.
    6.2's next period). A press out of line with the one before is judged by the press after it:
    back in line with the times before, it was a line written wrong (``clock_log_damaged``: its
    move's clock time is not to be trusted); in line with it, the clock's times were changed then
    (``clock_times_changed``: reset or set by hand). A tester's log with 0:00 left for red on one
    press and 15:12 on the next was taken without a word. ``unheard``: the stretches of time in which
    lines of the log could not be read (``ClockLog.damaged``): presses there are lost, not missing.
    A press whose times moved as one more press each side would move them (an arbiter tester deleted
    the lines of plies 3 and 4: they were blamed on the players, and ply 5's good line called written
    wrong) marks the stretch since the press before as lost: its moves are not blamed for no press."""
    tracker = PressTracker(LEFT, confirm=False, increment_ms=increment_ms)
    notices: list[ClockNotice] = []
    lost: list[tuple[float, float]] = []
    if not presses:
        return LogCheck(notices, lost)
    base = _logged_times(presses[0])
    suspect: tuple[ClockPress, list[tuple[str, int, int]], _Times] | None = None
    for press in presses[1:]:
        times = _logged_times(press)
        pressed = LEFT if press.side == RED else RIGHT
        if any(since < press.t and until > base.at for since, until in unheard):
            base = replace(base, unheard_s=press.t - base.at)  # each few seconds may have held a press
        if suspect is not None:
            odd, jumps, before = suspect
            suspect = None
            # (the odd press's own increment, wherever its line went wrong, is allowed as a press unheard)
            if not tracker._jumps(replace(before, lost_messages=1), times.times, press.t, pressed, times.turn):
                notices.append(ClockNotice(odd.t, LOG_DAMAGED, _written_wrong_text(odd, before, times), odd.side))
                base = times
                continue
            notices.append(ClockNotice(odd.t, TIMES_CHANGED, _changed_text(jumps), ""))
            base = _logged_times(odd)
        jumps = tracker._jumps(base, times.times, press.t, pressed, times.turn)
        if jumps and not tracker._jumps(replace(base, lost_messages=base.lost_messages + 2), times.times, press.t,
                                        pressed, times.turn):
            lost.append((base.at, press.t))  # a press of each side missing from the log between
            base = times
            continue
        if jumps:
            suspect = (press, jumps, base)
            continue
        # what the press added: the change of the presser's time with the time its move ran put back (a
        # log has one line a move, not a report a second: a fast move after slow ones is no jump)
        change = times.times[SIDES.index(pressed)] - base.times[SIDES.index(pressed)]
        tracker._gains.append(max(0, change + round((press.t - base.at) * 1000)))
        base = times
    if suspect is not None:  # the last press: nothing after it tells which
        notices.append(ClockNotice(suspect[0].t, TIMES_CHANGED, _changed_text(suspect[1]), ""))
    return LogCheck(notices, lost)


def _logged_times(press: ClockPress) -> _Times:
    """A logged press's times as the tracker holds them (red on the left), the other side running."""
    return _Times((press.red_ms, press.black_ms), press.t, RIGHT if press.side == RED else LEFT)


def _changed_text(jumps: list[tuple[str, int, int]]) -> str:
    said = "; ".join(f"{RED if side == LEFT else BLACK}'s from {clock_text(before)} to {clock_text(now)}"
                     for side, before, now in jumps)
    return (f"the clock log's times changed with no press or running time to explain it ({said}): the clock "
            "was reset or its times set by hand (art. 21.4: only the arbiter adjusts the clock)")


def _written_wrong_text(press: ClockPress, before: _Times, after: _Times) -> str:
    def shown(times: tuple[int, int]) -> str:
        return f"red {clock_text(times[0])}, black {clock_text(times[1])}"

    return (f"the clock log's press by {press.side} at {recording_time(press.t)} shows times no clock can "
            f"({shown((press.red_ms, press.black_ms))}; the presses before and after it show {shown(before.times)} "
            f"and {shown(after.times)}): the line was written wrong, and its move's clock time is not to be trusted")


def _period_like(gain_ms: int, ran_ms: float) -> bool:
    """Is ``gain_ms`` a period's time added at a press (art. 6.2: five minutes or more, whole minutes,
    less what ran since the last report)?"""
    if gain_ms < PERIOD_MIN_MS - TIME_TOLERANCE_MS:
        return False
    off = gain_ms % 60_000
    return min(off, 60_000 - off) <= ran_ms + TIME_TOLERANCE_MS


def clock_text(ms: int) -> str:
    """Milliseconds as the clock shows them: h:mm:ss or m:ss."""
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
