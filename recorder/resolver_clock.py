"""Clock presses against recorded moves: which press completed which ply, and what the arbiter must hear.

A press by the side whose time runs is *effective* (it flips the clock). Each recorded ply is
matched with a press by its mover: one already waiting (pressed before the board settled) or one
that comes later. Presses left unmatched for ``grace_s`` seconds become ``press_without_move``
alerts (art. 8.1.7; the second one loses the game, art. 4.1.9) unless the board was in trouble
around them (an arbiter restoring a position presses the clock back); plies left unpressed
become ``move_without_press`` alerts (art. 6: a player presses the clock after each move), judged
only once the clock has been heard after the ply's grace (its press may still be on the line) and
never when the clock went unheard around the ply (a lost link or a quiet line may have dropped the
press): such a ply gets a ``press_unheard`` note instead.
A ply made while the opponent's time still ran (the opponent's move just before it was told
unpressed) is not judged for its press: its mover's press could not change the clock, and a clock that reports only
changes (DGT) never tells of it (a ``press_unheard`` note). A press that changed nothing on the clock (the other side's time was running) is still a press
without a move when the opponent had moved since the presser's previous press: the opponent moved
without pressing, and the presser pressed before moving. Otherwise it is a second press of the
presser's own move and says nothing. A press that flipped the clock and was then taken by the
mover's next ply is also a press before moving when the board stood unchanged after it, until
the move began (``pressed_early``). The opponent's effective press soon after a press without a move,
with no move between, gives the time back to the player who pressed wrongly (the clock put right):
a ``press_back`` note, not a second foul. Presses by both sides within 0.3 s, neither taken by a move,
are a damaged message on the line and the good report after it (a lever read flipped and back): a
``press_glitch`` note, not two presses without a move.

A serial clock's sides are guessed (the side first seen running is taken for the first mover's):
when the clock was started with the wrong side running, the game's first press comes from the
side taken for the other colour just after the first mover's first move. Every press would then
be blamed on the wrong player; the book takes the clock's sides the other way round from there
(the presses waiting too) and tells the arbiter (``clock_sides_swapped``).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, replace

from recorder.clocklog_input import ClockPress
from recorder.events import MISMATCH_PLIES, ClockAlert, ClockNoted, ClockPressed, Event, recording_time
from rules import Position
from rules.squares import opponent

log = logging.getLogger(__name__)

MISMATCH_FAULTS = 4  # press faults within MISMATCH_PLIES plies: the presses are not of this board's game
LINE_GLITCH_S = 0.3  # presses by both sides closer than this are the line's doing: no hand presses back so fast
EARLY_PLIES = 3  # with no press heard by then, the plies' missing presses are judged (the clock is not used)


@dataclass
class _Pending:
    press: ClockPress
    effective: bool


@dataclass
class _Unpressed:
    ply: int
    side: str
    t: float
    judged: bool = True  # False: made while the camera was away; a press after it completes it, none is no foul
    ran: str = ""  # whose time ran when the ply was recorded


class ClockBook:
    """Bookkeeping of presses and plies; the resolver owns one when a clock is connected."""

    def __init__(self, running: str, grace_s: float = 4.0, match_window_s: float = 8.0,
                 early_margin_s: float = 0.3, press_before_s: float = 3.0, start: Position | None = None) -> None:
        self.running = running
        # the game's start, which the alerts name moves from as the scoresheet numbers them
        self.start = start if start is not None else Position.start().with_side_to_move(running)
        self.grace_s = grace_s
        self.match_window_s = match_window_s
        self.early_margin_s = early_margin_s  # how much sooner than the first motion a press must be to be early
        self.press_before_s = press_before_s  # how long before a ply is recorded its press may come (a camera's delay)
        self.pending: list[_Pending] = []
        self.unpressed: list[_Unpressed] = []
        self.presses = 0
        self.sides_guessed = False  # the presses' colours come from clock sides the link guessed (serial)
        self.swapped_at: float | None = None  # when the guessed sides were found the wrong way round
        self._first_running = running
        self.heard_until = math.inf  # the clock was heard up to here (a clock log: always)
        self.unheard: list[tuple[float, float]] = []  # stretches when the clock could not be heard
        self._pressed_at: dict[str, list[float]] = {}  # every press's time, by side
        self._plies: dict[int, tuple[str, float]] = {}  # ply -> (side, time recorded)
        self._made: dict[int, float] = {}  # ply -> when the board first stood still with it (made by then)
        self._faulted: list[ClockPress] = []  # effective presses alerted as press_without_move
        self._fault_plies: list[int] = []  # the plies of every press fault told
        self._not_pressed: set[int] = set()  # the plies told as move_without_press
        self.untrusted = False  # the presses were found not to follow this board: no longer judged

    def heard(self, until: float, unheard: list[tuple[float, float]]) -> None:
        """The clock was heard up to ``until``; ``unheard`` are newly known stretches it was not."""
        self.heard_until = until
        self.unheard += unheard

    def _unheard_around(self, entry: _Unpressed) -> tuple[float, float] | None:
        """A stretch without the clock when ``entry``'s press could have been made, if any."""
        for since, until in self.unheard:
            if since < entry.t + self.grace_s and until > entry.t - self.press_before_s:
                return since, until
        return None

    def press(self, press: ClockPress) -> ClockPressed:
        """Note a press; returns its event (``ply`` set when it completes an already recorded ply)."""
        if self.swapped_at is not None:
            press = _other_way_round(press)
        elif self.presses == 0 and self._first_press_contradicts(press):
            self._swap_sides(press.t, started_wrong=True)
            press = _other_way_round(press)
        self.presses += 1
        self._pressed_at.setdefault(press.side, []).append(press.t)
        effective = press.side == self.running
        if effective:
            self.running = opponent(self.running)
        match = None
        for item in reversed(self.unpressed):
            if item.side == press.side and item.t >= press.t - self.match_window_s:
                match = item
                break
        if match is not None:
            self.unpressed.remove(match)
            return ClockPressed(press.t, press.side, press.red_ms, press.black_ms, match.ply, effective)
        self.pending.append(_Pending(press, effective))
        return ClockPressed(press.t, press.side, press.red_ms, press.black_ms, None, effective)

    def moves_pressed(self, side_to_move: str, after_put_back: float | None = None) -> int:
        """How many moves the waiting presses announce: 2 when the side to move pressed and then the other.

        With ``after_put_back`` (when a position was last put back), presses made before it or up to
        ``grace_s`` after it are left out: the faulty move's press and the arbiter's press back (art.
        5.8), which ``expire`` leaves unjudged too."""
        since = -math.inf if after_put_back is None else after_put_back + self.grace_s
        sides = [p.press.side for p in self.pending if p.effective and p.press.t > since]
        if side_to_move in sides and opponent(side_to_move) in sides[sides.index(side_to_move) + 1:]:
            return 2
        return 1 if side_to_move in sides else 0

    def presses_waiting(self, since: float = -math.inf) -> int:
        """How many presses that flipped the clock wait for their moves (made at ``since`` or later)."""
        return sum(1 for p in self.pending if p.effective and p.press.t >= since)

    def take_press(self, side: str, t: float, since: float | None = None) -> ClockPress | None:
        """The waiting press that completed a ply by ``side`` recorded at ``t``, removed from the waiting list.

        A press is eligible when it came at most ``match_window_s`` before ``t`` (or before ``since``,
        when the ply was made earlier: a move read only once a troubled board was explained again)
        and no unmatched effective press by the other side came after it (that one would have ended
        the turn); of the eligible ones the latest that flipped the clock is taken, else the latest
        (a second press of the same move, which changed nothing, is left).
        """
        eligible = []
        earliest = (t if since is None else min(t, since)) - self.match_window_s
        for index, item in enumerate(self.pending):
            if item.press.side != side or item.press.t < earliest:
                continue
            if any(p.effective and p.press.side != side for p in self.pending[index + 1:]):
                continue
            eligible.append(index)
        if not eligible:
            return None
        flipped = [index for index in eligible if self.pending[index].effective]
        return self.pending.pop((flipped or eligible)[-1]).press

    def recorded(self, ply: int, side: str, t: float, since: float | None = None,
                 judged: bool = True, made: float | None = None) -> ClockPress | None:
        """A ply was recorded at ``t`` (made after ``since``, when known to be earlier than the usual
        window: see ``take_press``; made by ``made``, the still view that showed it, when given);
        returns the press that completed it, or notes it as unpressed unless not ``judged`` (a move
        made while the camera was away: when it was made is not known)."""
        first = not self._plies
        self._plies[ply] = (side, t)
        self._made[ply] = t if made is None else min(made, t)
        if first and self._sides_look_swapped(side, t, since):
            self._swap_sides(t, started_wrong=False)
        press = self.take_press(side, t, since)
        if press is None:  # its press may still come (a move read once the picture came back, then pressed)
            self.unpressed.append(_Unpressed(ply, side, t, judged, self.running))
        return press

    def added(self, plies: list[tuple[int, str]], t: float) -> None:
        """The arbiter added ``plies`` (ply, side) the camera missed, at ``t``: each takes the oldest
        waiting press of its side that flipped the clock, or, with none waiting, completes a press
        still to come (unjudged: when the move was made is not known). The presses made for moves the
        recorder could not read (glare) otherwise kept waiting: the next alert counted six moves
        unread where two were, and a hand over the board then read two waiting presses as moves made
        while the camera was away."""
        for ply, side in plies:
            waiting = next((item for item in self.pending if item.effective and item.press.side == side), None)
            if waiting is not None:
                self.pending.remove(waiting)
                self._plies[ply] = (side, waiting.press.t)
            else:
                self._plies[ply] = (side, t)
                self.unpressed.append(_Unpressed(ply, side, t, judged=False, ran=self.running))

    def _sides_look_swapped(self, side: str, t: float, since: float | None) -> bool:
        """At the game's first recorded ply (by ``side``): were all presses so far by the other colour,
        one of them flipping the clock near the move, and none matched? The guessed sides are then the
        wrong way round (named so, the clock started right: the first mover's press was heard)."""
        if not self.sides_guessed or self.swapped_at is not None or not self.pending or self.presses != len(self.pending):
            return False
        earliest = (t if since is None else min(t, since)) - self.match_window_s
        return (all(item.press.side == opponent(side) for item in self.pending)
                and any(item.press.t >= earliest for item in self.pending))

    def _first_press_contradicts(self, press: ClockPress) -> bool:
        """Is the game's first press heard by the colour that did not just move? With the clock started
        on the second mover's side, the first mover's press changes nothing (its own time was not
        running) and the first press heard is the second mover's, read as the first mover's."""
        if not self.sides_guessed or not self._plies:
            return False
        side, t = self._plies[max(self._plies)]
        return press.side != side and press.t - t <= self.match_window_s

    def _swap_sides(self, t: float, *, started_wrong: bool) -> None:
        """Take the clock's sides the other way round, the presses waiting included; ``started_wrong``:
        the clock was started with the second mover's time running (else only its sides were named
        the other way round)."""
        self.swapped_at = t
        self._pressed_at = {opponent(side): times for side, times in self._pressed_at.items()}
        running = opponent(self._first_running) if started_wrong else self._first_running
        redone = []
        for item in self.pending:
            press = _other_way_round(item.press)
            effective = press.side == running
            if effective:
                running = opponent(running)
            redone.append(_Pending(press, effective))
        self.pending, self.running = redone, running
        if started_wrong:  # the first mover pressed a clock whose time was not running: nothing heard, no foul
            self.unpressed = [entry for entry in self.unpressed if entry.side != self._first_running]
        log.warning("t=%.2f: the clock's first press came from the side taken for the other colour, just after "
                    "the first move: its sides are taken the other way round", t)

    def sides_swapped_alert(self, ply: int) -> ClockAlert:
        """The arbiter's alert for sides found the wrong way round at ply ``ply``."""
        assert self.swapped_at is not None
        text = (f"the clock's first press came from the side taken for the player who had not just moved (at "
                f"{recording_time(self.swapped_at)} into the recording, after {self.start.move_name(ply)}): the clock was started with the second mover's time running, "
                "or its sides were set the other way round. Its presses are now read the other way round (the "
                "player who pressed is the one who moved) and no press before is judged; check the clock's times, "
                "which may need setting right")
        return ClockAlert(self.swapped_at, "clock_sides_swapped", (), "", text, ply, "")

    def _judged(self, faults: list[ClockAlert], t: float, ply: int) -> list[Event]:
        """The press faults to tell: as they come, until ``MISMATCH_FAULTS`` of them fall within
        ``MISMATCH_PLIES`` plies. No player errs so often (the second press without a move loses the
        game), but presses of another game do: a clock log of another game (or the clock of the next
        board on the link) gave a tester's sheet 23 faults in 30 plies. Then one ``clock_log_mismatch``
        is told, and the presses are not judged until ``MISMATCH_PLIES`` plies go by without a fault
        (a clock started late, its presses following from then on: a later fault is told again)."""
        self._fault_plies += [fault.ply for fault in faults]
        recent = [at for at in self._fault_plies if ply - MISMATCH_PLIES < at <= ply]
        if self.untrusted:
            for fault in faults:
                log.info("t=%.2f: %s (not told: the clock's presses do not follow this board)", t, fault.text)
            last = max(self._fault_plies, default=0)
            if faults or ply - last < MISMATCH_PLIES:
                return []
            self.untrusted = False
            self._fault_plies = []
            text = (f"the clock's presses have followed the moves on the board for {ply - last} plies: they are "
                    "judged again")
            log.info("t=%.2f: %s", t, text)
            return [ClockNoted(t, "clock_follows_again", text, "", ply)]
        if len(recent) < MISMATCH_FAULTS:
            return list(faults)
        self.untrusted = True
        text = (f"the clock's presses do not follow the moves on the board: {len(recent)} presses without a move or "
                f"moves without a press within {MISMATCH_PLIES} plies. Is the clock log (or the clock on the link) "
                "this game's? Its presses are no longer judged, the faults told before this may be its own, and the "
                "moves' clock times may not be this game's")
        log.warning("t=%.2f: %s", t, text)
        return [*faults, ClockAlert(t, "clock_log_mismatch", (), "", text, ply, "")]

    def pressed_early(self, press: ClockPress | None, ply: int, t: float, still: tuple[float, float],
                      last_trouble: float | None) -> list[ClockAlert]:
        """An alert when ``press``, taken by ``ply`` recorded at ``t``, was made while the board still
        stood as before the move: ``still`` is (when the board was first seen as recorded, when motion
        over it first began after it was last seen so). Presses around board trouble are the arbiter's
        corrections."""
        seen, moving = still
        if press is None or not seen < press.t < moving - self.early_margin_s:
            return []
        if last_trouble is not None and last_trouble >= press.t - self.grace_s:
            return []
        text = (f"{press.side} pressed the clock at {recording_time(press.t)} into the recording before moving: the "
                f"board stood unchanged until {recording_time(moving)} (art. 8.1.7; a second time loses the game, art. 4.1.9)")
        return [event for event in self._judged([ClockAlert(t, "press_without_move", (), "8.1.7", text, ply, press.side)],
                                                t, ply) if isinstance(event, ClockAlert)]

    def excuse_pending(self, until: float) -> None:
        """Drop the waiting presses made up to ``until``: corrections around board trouble, not faults."""
        for item in self.pending:
            if item.press.t <= until:
                log.debug("press at %.2f s by %s made while the board was wrong: not judged", item.press.t,
                          item.press.side)
        self.pending = [item for item in self.pending if item.press.t > until]

    def told_unpressed(self, plies: set[int]) -> None:
        """The plies an earlier run of this game told as ``move_without_press`` (a resumed game): the
        next ply's mover is not blamed for a press the clock could not hear."""
        self._not_pressed |= plies

    def taken_back(self, plies: set[int]) -> None:
        """Forget plies removed from the record."""
        self.unpressed = [u for u in self.unpressed if u.ply not in plies]
        self._fault_plies = [at for at in self._fault_plies if at not in plies]
        self._not_pressed -= plies
        for ply in plies:
            self._plies.pop(ply, None)
            self._made.pop(ply, None)

    def _ply_at(self, t: float, ply: int) -> int:
        """The record's ply count at ``t``, ``ply`` being the count now: one less than the first ply
        made after ``t`` (its still view). An alert judged some seconds after its press is about the board as it
        stood then (a tester's sheet put a press made before ply 6 after ply 6)."""
        later = [number for number, at in self._made.items() if at > t and number <= ply]
        return min(later) - 1 if later else ply

    def _before_moving(self, press: ClockPress) -> bool:
        """Did the opponent move between the presser's previous press and ``press``? Then a press
        that changed nothing was made before the presser's own move, not after it."""
        earlier = [t for t in self._pressed_at.get(press.side, []) if t < press.t]
        since = max(earlier, default=float("-inf"))
        return any(side != press.side and since < self._made[ply] < press.t for ply, (side, _) in self._plies.items())

    def _pressed_back(self, item: _Pending) -> ClockPress | None:
        """The opponent's press without a move that effective ``item`` gave the time back for, if any:
        one made at most ``match_window_s`` before it, with no ply made between the two."""
        press = item.press
        for wronged in reversed(self._faulted):
            if wronged.side == press.side or not 0.0 < press.t - wronged.t <= self.match_window_s:
                continue
            if not any(wronged.t < at <= press.t for at in self._made.values()):
                self._faulted.remove(wronged)  # one press back gives one press's time back
                return wronged
        return None

    def _line_glitches(self, t: float, desynced: bool) -> list[_Pending]:
        """Waiting presses that are a damaged message and the good one after it: one side's press and the
        other's within ``LINE_GLITCH_S`` (no hand presses back that fast), neither taken by a move, the
        first of them past its grace."""
        if desynced:
            return []
        found: list[_Pending] = []
        for a, b in zip(self.pending, self.pending[1:], strict=False):
            if (a.press.side != b.press.side and b.press.t - a.press.t <= LINE_GLITCH_S
                    and t - a.press.t >= self.grace_s and all(a is not f for f in found)):
                found += [a, b]
        return found

    def expire(self, t: float, last_trouble: float | None, desynced: bool, ply: int) -> list[Event]:
        """Alerts for presses and plies left unmatched ``grace_s`` seconds before ``t``.

        ``last_trouble`` is the latest time of board trouble (an alert or a restored position) and
        ``desynced`` whether the board is wrong now: presses around trouble are the players' or the
        arbiter's corrections, not clock faults.
        """
        events: list[Event] = []
        faults: list[ClockAlert] = []
        keep: list[_Pending] = []
        glitches = self._line_glitches(t, desynced)
        if glitches:
            first, second = min(p.press.t for p in glitches), max(p.press.t for p in glitches)
            text = (f"the clock's line reported presses by both sides within {second - first:.1f} s at {recording_time(first)} "
                    "with no move: one damaged message and the next good one, not presses (nothing judged)")
            log.info("%s", text)
            events.append(ClockNoted(t, "press_glitch", text, "", ply))
        for item in self.pending:
            if any(item is glitch for glitch in glitches):
                continue
            if t - item.press.t < self.grace_s or desynced:
                # while the board is wrong a press waits: it may be the move's that the board shows
                # once it is explained again (an arbiter's correction, a view caught up)
                keep.append(item)
                continue
            near_trouble = last_trouble is not None and last_trouble >= item.press.t - self.grace_s
            wronged = self._pressed_back(item) if item.effective and not near_trouble else None
            if wronged is not None:
                p = item.press
                text = (f"{p.side} pressed the clock at {recording_time(p.t)} into the recording, {p.t - wronged.t:.1f} s after {wronged.side}'s "
                        f"press without a move, with no move between: the time given back to {wronged.side} "
                        "(the clock put right, not judged)")
                log.info("%s", text)
                events.append(ClockNoted(t, "press_back", text, p.side, self._ply_at(p.t, ply)))
            elif (item.effective or self._before_moving(item.press)) and not near_trouble:
                p = item.press
                unchanged = "" if item.effective else f" ({opponent(p.side)}'s time was running: the clock did not change)"
                text = (f"{p.side} pressed the clock at {recording_time(p.t)} into the recording without a move on the board{unchanged} "
                        "(art. 8.1.7; a second time loses the game, art. 4.1.9)")
                faults.append(ClockAlert(t, "press_without_move", (), "8.1.7", text, self._ply_at(p.t, ply), p.side))
                if item.effective:
                    self._faulted.append(p)
            else:
                log.debug("press at %.2f s by %s dropped (effective=%s, trouble=%s)", item.press.t,
                          item.press.side, item.effective, near_trouble)
        self.pending = keep
        still: list[_Unpressed] = []
        for entry in self.unpressed:
            if t - entry.t < self.grace_s:
                still.append(entry)
                continue
            if not entry.judged:
                log.info("ply %d by %s, made while the camera was away: no press matched, none judged", entry.ply,
                         entry.side)
                continue
            if self.sides_guessed and self.presses == 0 and len(self._plies) < EARLY_PLIES:
                # no press heard yet: a clock started on the wrong side hears the first mover's press as
                # nothing; the first press heard tells (see _first_press_contradicts)
                still.append(entry)
                continue
            if self.heard_until < entry.t + self.grace_s:
                still.append(entry)  # not heard since: its press may still come over the line
                continue
            gap = self._unheard_around(entry)
            if gap is not None:
                until = f"to {recording_time(gap[1])}" if math.isfinite(gap[1]) else "to the end"
                text = (f"{self.start.move_name(entry.ply)}: no clock press heard; the clock could not be heard "
                        f"from {recording_time(gap[0])} {until} of the recording, so a press may have been lost "
                        "on the line")
                events.append(ClockNoted(t, "press_unheard", text, entry.side, entry.ply))
                continue
            if entry.ply - 1 in self._not_pressed and entry.ran and entry.ran != entry.side:
                # the opponent's time still ran when the ply was made (its move before, told unpressed):
                # the opponent may press late, but this mover's press, made by then, could
                # not change the clock, and a clock that reports changes (DGT) says nothing of it. Its
                # press is not to be judged: the opponent's missing press is the fault, told already
                text = (f"{self.start.move_name(entry.ply)}: no clock press heard, but {opponent(entry.side)}'s time was "
                        f"still running ({opponent(entry.side)} had not pressed), so a press could not change the clock")
                if not self.untrusted:  # presses not of this board are not told of at all
                    events.append(ClockNoted(t, "press_unheard", text, entry.side, entry.ply))
                continue
            text = (f"{self.start.move_name(entry.ply)} was made but the clock was not pressed "
                    "(art. 6: press the clock after each move)")
            faults.append(ClockAlert(t, "move_without_press", (), "6", text, min(entry.ply, ply), entry.side))
            self._not_pressed.add(entry.ply)
        self.unpressed = still
        # the faults first: a press_back note refers to the press_without_move told with it (a new user read
        # the note before the alert)
        return self._judged(faults, t, ply) + events


def _other_way_round(press: ClockPress) -> ClockPress:
    """``press`` read with the clock's sides the other way round: the other colour, the times swapped."""
    return replace(press, side=opponent(press.side), red_ms=press.black_ms, black_ms=press.red_ms)
