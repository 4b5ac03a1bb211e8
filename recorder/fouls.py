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

from recorder.events import MISMATCH_PLIES, Alert, ClockAlert, Event, GameEnded, IllegalMoveAlert
from rules.squares import BLACK, RED, opponent, side_of

# alerts of what art. 8.1 counts as fouls: a move against the rules of play (8.1.8; a move out of
# turn breaks 2.1), and a press without a move (8.1.7). The arbiter rules on each (8.2)
FOUL_KINDS = frozenset({"illegal_move", "wrong_side", "press_without_move"})
MOVE_RULE_KINDS = frozenset({"illegal_move", "wrong_side"})  # 违反行棋规定 (art. 4.1.8, 8.1.8)

# the advice's reasons (GameEnded.reason), one per article
SECOND_PRESS, MOVE_RULES, THREE_FOULS = "second_press_without_move", "move_rule_breaches", "three_fouls"

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
    """Each side's foul alerts in the order they are raised, and the advice when a count decides
    the game: one advice for each alert at most, the surest rule first (4.1.9 holds at every level,
    4.1.8 depends on the event's, 4.1.10 counts them all)."""

    def __init__(self) -> None:
        self._fouls: dict[str, list[Alert]] = {RED: [], BLACK: []}

    def seed(self, events: Iterable[Event]) -> None:
        """Count the foul alerts of a game recorded so far (a resumed game), giving no advice again."""
        self.after(list(events))

    def after(self, events: list[Event]) -> list[GameEnded]:
        """The advice the foul alerts among ``events`` call for (the events are counted)."""
        advice: list[GameEnded] = []
        for event in events:
            if isinstance(event, Alert) and event.kind == "clock_log_mismatch":
                self._forget_presses_before(event.ply)  # another game's presses: not fouls (scoresheet.doubtful)
            if not isinstance(event, Alert) or event.kind not in FOUL_KINDS:
                continue
            side = offender(event)
            if not side:
                continue
            self._fouls[side].append(event)
            found = self._decided(side, event)
            if found is not None:
                advice.append(found)
        return advice

    def _forget_presses_before(self, ply: int) -> None:
        for side, fouls in self._fouls.items():
            self._fouls[side] = [alert for alert in fouls if not (
                alert.kind == "press_without_move" and ply - MISMATCH_PLIES < alert.ply <= ply)]

    def _decided(self, side: str, alert: Alert) -> GameEnded | None:
        fouls = self._fouls[side]
        winner = "1-0" if side == BLACK else "0-1"
        presses = [a for a in fouls if a.kind == "press_without_move"]
        breaches = [a for a in fouls if a.kind in MOVE_RULE_KINDS]
        if alert.kind == "press_without_move" and len(presses) == 2:
            return _advice(alert, winner, SECOND_PRESS, "4.1.9",
                           f"{side} pressed the clock without a move a second time ({_when(presses)}): two such "
                           f"presses lose the game (art. 4.1.9), {opponent(side)} wins; the arbiter rules")
        if alert.kind in MOVE_RULE_KINDS and len(breaches) == 2:
            return _advice(alert, winner, MOVE_RULES, "4.1.8",
                           f"{side} broke the rules of moving a second time ({_listed(breaches)}): at a provincial "
                           f"or lower event, or a national junior one, two such moves lose the game (art. 4.1.8; "
                           f"at other national events the first one did), {opponent(side)} wins; the arbiter rules")
        if len(fouls) == 3:
            return _advice(alert, winner, THREE_FOULS, "4.1.10",
                           f"{side}'s third foul ({_listed(fouls)}): three fouls lose the game (art. 4.1.10), "
                           f"{opponent(side)} wins, unless the arbiter ruled one of them no foul; the arbiter rules")
        return None


def _advice(alert: Alert, result: str, reason: str, article: str, text: str) -> GameEnded:
    return GameEnded(alert.t, alert.ply, result, reason, article, text, advisory=True)


def _when(alerts: list[Alert]) -> str:
    return " and ".join(f"after ply {a.ply}" for a in alerts)


def _listed(alerts: list[Alert]) -> str:
    return ", ".join(f"{_WHAT[a.kind]} after ply {a.ply}" for a in alerts)
