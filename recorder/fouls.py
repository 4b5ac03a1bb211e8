"""Fouls (art. 8.1) and the losses they add up to (art. 4.1.8-4.1.10): each side's foul alerts
counted as they are raised, and the arbiter advised the moment a count decides the game.

A foul alert is one of ``FOUL_KINDS``: a move against the rules of play (an illegal move, or a move
out of turn, which breaks 2.1; art. 8.1.8) or a press of the clock without a move (8.1.7). The
rules turn counts of them into a loss: two presses without a move (4.1.9), two moves against the
rules at a provincial or lower event or a national junior one, one at other national events
(4.1.8), three fouls of any kind (4.1.10). The recorder does not know the event's level and never
decides a result: it gives advice (an advisory ``GameEnded``) for the arbiter to rule on, as it does
for a repetition verdict.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from recorder.events import (
    MISMATCH_PLIES,
    NO_FOUL,
    Alert,
    AlertAcknowledged,
    ClockAlert,
    Event,
    GameEnded,
    IllegalMoveAlert,
)
from rules import Position
from rules.squares import BLACK, RED, opponent, side_of

# alerts of what art. 8.1 counts as fouls: a move against the rules of play (8.1.8; a move out of
# turn breaks 2.1), and a press without a move (8.1.7). The arbiter rules on each (8.2)
FOUL_KINDS = frozenset({"illegal_move", "wrong_side", "press_without_move"})
MOVE_RULE_KINDS = frozenset({"illegal_move", "wrong_side"})  # 违反行棋规定 (art. 4.1.8, 8.1.8)

# the advice's reasons (GameEnded.reason), one per article
SECOND_PRESS, MOVE_RULES, THREE_FOULS = "second_press_without_move", "move_rule_breaches", "three_fouls"


@dataclass(frozen=True)
class FoulLoss:
    """A loss counted fouls decide (art. 4.1.8-4.1.10): the foul ``kinds`` counted, the ``fewest`` that
    lose at any level of event, the count the recorder advises at (``advised_at``), what they are."""

    article: str
    reason: str
    kinds: frozenset[str]
    fewest: int
    advised_at: int
    what: str

    def held(self, counts: dict[str, dict[str, int]], side: str) -> int:
        """How many of its kinds of foul ``side`` has in ``counts`` (per side, per kind: ``scoresheet.foul_alerts``)."""
        return sum(n for kind, n in counts.get(side, {}).items() if kind in self.kinds)


# in the order advice is given, the surest first: 4.1.9 and 4.1.10 hold at every level of event,
# 4.1.8 loses at two at a provincial or lower event or a national junior one, at one at other
# national events (which the recorder cannot know: it advises at two)
FOUL_LOSSES = (
    FoulLoss("4.1.9", SECOND_PRESS, frozenset({"press_without_move"}), 2, 2, "presses of the clock without a move"),
    FoulLoss("4.1.10", THREE_FOULS, FOUL_KINDS, 3, 3, "fouls"),
    FoulLoss("4.1.8", MOVE_RULES, MOVE_RULE_KINDS, 1, 2, "illegal moves or moves out of turn"),
)

FOUL_REASONS = frozenset(loss.reason for loss in FOUL_LOSSES)

_WHAT = {"illegal_move": "illegal move", "wrong_side": "move out of turn", "press_without_move": "press without a move"}


def offender(alert: Alert) -> str:
    """The side a foul alert blames (``red``/``black``), or "" when it cannot be told: an illegal
    move's piece, a clock alert's side; an alert read back from a PGN comment keeps its words only,
    which name the offender first."""
    if isinstance(alert, IllegalMoveAlert) and alert.piece:
        return side_of(alert.piece)
    side = alert.side if isinstance(alert, ClockAlert) else ""
    if not side:
        named = re.search(r"\b(red|black)\b", alert.text)
        side = named.group(1) if named else ""
    return side if side in (RED, BLACK) else ""


class FoulTally:
    """Each side's foul alerts in the order they are raised, as the arbiter ruled on them, and the
    advice when a count decides the game: one advice for each alert at most, the surest rule first
    (``FOUL_LOSSES``)."""

    def __init__(self, start: Position | None = None) -> None:
        self._fouls: dict[str, list[Alert]] = {RED: [], BLACK: []}
        self._start = start or Position.start()  # the game's start: moves are named as its sheet numbers them

    def seed(self, events: Iterable[Event]) -> None:
        """Count the foul alerts of a game recorded so far (a resumed game: its stored events, in
        order, an acknowledgement naming its alert by place), as ruled, giving no advice again."""
        placed: dict[int, Alert] = {}
        for place, event in enumerate(events, 1):
            if isinstance(event, Alert):
                placed[place] = event
            if isinstance(event, AlertAcknowledged) and event.ruling:
                target = placed.get(event.seq)
                if target is not None and target.kind == event.kind:
                    self.ruled(target, event.ruling)
            else:
                self.after([event])

    def ruled(self, alert: Alert, ruling: str) -> None:
        """The arbiter ruled ``alert`` no foul (``NO_FOUL``: it no longer counts) or a foul after all."""
        side = offender(alert)
        if alert.kind not in FOUL_KINDS or not side:
            return
        # matched by kind, time and ply: an alert read back from the store may have its time rounded
        fouls = [a for a in self._fouls[side] if _key(a) != _key(alert)]
        if ruling != NO_FOUL:
            fouls = sorted([*fouls, alert], key=lambda a: a.t)
        self._fouls[side] = fouls

    def after(self, events: list[Event]) -> list[GameEnded]:
        """The advice the foul alerts among ``events`` call for (the events are counted)."""
        advice: list[GameEnded] = []
        # a mismatch's doubted presses are forgotten before any foul of its batch is counted, and those
        # told with it are not counted: the press that revealed another game's log was advised as a
        # loss (a tester), and an illegal move told just before the mismatch as a third foul (a reviewer)
        mismatches = [event.ply for event in events if isinstance(event, Alert) and event.kind == "clock_log_mismatch"]
        for ply in mismatches:
            self._forget_presses_before(ply)  # another game's presses: not fouls (scoresheet.doubtful)
        for event in events:
            if not isinstance(event, Alert) or event.kind not in FOUL_KINDS:
                continue
            side = offender(event)
            if not side or (event.kind == "press_without_move" and any(doubted_by_mismatch(event, ply) for ply in mismatches)):
                continue
            self._fouls[side].append(event)
            found = self._decided(side, event)
            if found is not None:
                advice.append(found)
        return advice

    def _forget_presses_before(self, ply: int) -> None:
        for side, fouls in self._fouls.items():
            self._fouls[side] = [alert for alert in fouls if not (alert.kind == "press_without_move" and doubted_by_mismatch(alert, ply))]

    def _decided(self, side: str, alert: Alert) -> GameEnded | None:
        winner = "1-0" if side == BLACK else "0-1"
        for loss in FOUL_LOSSES:
            counted = [a for a in self._fouls[side] if a.kind in loss.kinds]
            if alert.kind in loss.kinds and len(counted) == loss.advised_at:
                return GameEnded(alert.t, alert.ply, winner, loss.reason, loss.article,
                                 _advice_text(loss, side, counted, self._start), advisory=True)
        return None


def loss_short(reason: str, loser: str, counts: dict[str, dict[str, int]]) -> str:
    """Why the foul loss ``reason`` (an advice's) no longer holds against ``loser`` with the fouls
    ``counts`` standing now (per side, per kind, as ruled: ``scoresheet.foul_alerts``), or "" when
    it holds or is no foul loss. An advice counted a foul the arbiter later ruled no foul, or a press
    without a move the clock's mismatch later put in doubt."""
    loss = next((loss for loss in FOUL_LOSSES if loss.reason == reason), None)
    if loss is None or loser not in counts:
        return ""
    held = loss.held(counts, loser)
    if held >= loss.advised_at:
        return ""
    return (f"no longer holds: a foul it counted no longer counts (ruled no foul, or a press put in doubt by "
            f"the clock's mismatch): {loser} has {held} of the {loss.advised_at} {loss.what} it needs")


def doubted_by_mismatch(alert: Alert, mismatch_ply: int) -> bool:
    """Whether a clock mismatch told at ``mismatch_ply`` puts ``alert`` (a press without a move) in doubt."""
    return mismatch_ply - MISMATCH_PLIES < alert.ply <= mismatch_ply


def _key(alert: Alert) -> tuple[str, float, int]:
    return alert.kind, round(alert.t, 1), alert.ply


def _advice_text(loss: FoulLoss, side: str, counted: list[Alert], start: Position) -> str:
    """The advice's words; each foul is placed by the move it came after, named as the scoresheet
    numbers it (the sheet that prints the advice has no plies: a reviewer)."""
    def when(alert: Alert) -> str:
        return start.after(alert.ply)

    listed = ", ".join(f"{_WHAT[a.kind]} {when(a)}" for a in counted)
    unless = "unless the arbiter rules one of them no foul: the decision is the arbiter's"
    if loss.reason == SECOND_PRESS:
        listed = " and ".join(when(a) for a in counted)
        return (f"{side} pressed the clock without a move a second time ({listed}): two such presses lose the "
                f"game (art. 4.1.9), {opponent(side)} wins, {unless}")
    if loss.reason == THREE_FOULS:
        return (f"{side}'s third foul ({listed}): three fouls lose the game (art. 4.1.10), {opponent(side)} wins, "
                f"{unless}")
    return (f"{side} broke the rules of moving a second time ({listed}): at a provincial or lower event, or a "
            f"national junior one, two such moves lose the game (art. 4.1.8; at other national events the first "
            f"one did), {opponent(side)} wins, {unless}")
