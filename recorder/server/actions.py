"""The arbiter's actions from the console, each appended to the game's log as an event naming who.

Acknowledging an alert (:class:`AlertAcknowledged`), correcting a move (:class:`MoveCorrected`:
the ply is set to the arbiter's move and the later plies are recorded again after it, or the
correction is refused when one of them is no longer legal) and marking the result
(:class:`ResultMarked`). The events carry the game's latest source time ``t`` (so the log stays in
time order) and the wall-clock time ``at``.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from typing import Any

from recorder.events import (
    FOUL,
    NO_FOUL,
    Alert,
    AlertAcknowledged,
    Event,
    GameEnded,
    PositionRestored,
    ResultMarked,
    corrections,
)
from recorder.fouls import FOUL_KINDS, FOUL_LOSSES
from recorder.scoresheet import RecordedGame, clock_left_text, foul_alerts, rebuild
from recorder.server.state import StoredEvent
from recorder.store.db import GameStore
from rules import RED, Move, Position, parse_move
from rules.errors import InvalidMoveError
from rules.squares import BLACK, opponent

log = logging.getLogger(__name__)

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
MAX_TEXT = 500
# an article of the competition rules (2011: articles 1 to 26, numbered down to four levels, 23.5.2.1)
_ARTICLE = re.compile(r"(?:[1-9]|1[0-9]|2[0-6])(?:\.[1-9][0-9]?){0,3}")


class ActionError(ValueError):
    """An action the game's record does not allow (the message says why); the server answers 409."""


class NeedsConfirming(ActionError):
    """An action the record speaks against that the arbiter may still mean (a result the other way round
    from the fouls recorded): refused until asked again with ``"anyway": true``; the console asks first."""


class MalformedAction(ActionError):
    """A request that names no valid action at all (a ply that is no number, a text that is no move
    or result); the server answers 400: no state of the game would allow it."""


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _t(events: list[StoredEvent]) -> float:
    return max((s.event.t for s in events), default=0.0)


def _text(value: Any, name: str) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise MalformedAction(f"{name} must be text of at most {MAX_TEXT} characters")
    return value.strip()


def acknowledge(store: GameStore, game_id: int, events: list[StoredEvent], body: dict[str, Any],
                by: str) -> list[Event]:
    """Acknowledge the alert numbered ``body["seq"]`` (every open alert with ``"all": true``); the
    advice for the arbiter (an advisory ``GameEnded``, such as a perpetual-check verdict) is
    acknowledged the same way, its ``reason`` as the kind. ``"ruling": "no_foul"`` (one alert of a
    foul kind, acknowledged or not) rules that no foul was committed: the alert is then not counted
    among the side's fouls; ``"ruling": "foul"`` withdraws that ruling (a mis-tap), and it counts again."""
    note = _text(body.get("note"), "note")
    ruling = body.get("ruling", "")
    if ruling not in ("", NO_FOUL, FOUL):
        raise MalformedAction(f'ruling must be "{NO_FOUL}" or "{FOUL}", not {ruling!r}')
    alerts: dict[int, Alert | GameEnded] = {
        s.seq: s.event for s in events
        if isinstance(s.event, Alert) or (isinstance(s.event, GameEnded) and s.event.advisory)}
    done = {s.event.seq for s in events if isinstance(s.event, AlertAcknowledged)}
    ruled = {s.event.seq: s.event.ruling for s in events if isinstance(s.event, AlertAcknowledged) and s.event.ruling}
    every = body.get("all", False)
    if not isinstance(every, bool):
        raise MalformedAction(f"all must be true or false, not {every!r}")
    if every and ruling:
        raise MalformedAction("rule on one alert at a time (name it by its seq), not all at once")
    if every:
        targets = [seq for seq in alerts if seq not in done]
    else:
        seq = body.get("seq")
        if seq is None:
            raise MalformedAction('name the alert to acknowledge ("seq": its number) or "all": true')
        if not isinstance(seq, int) or isinstance(seq, bool):
            raise MalformedAction(f"seq must be the number of an alert, not {seq!r}")
        if seq not in alerts:
            raise ActionError(f"game {game_id} has no alert or advice numbered {seq!r}")
        now = ruled.get(seq, "")
        if ruling == NO_FOUL and now == NO_FOUL:
            raise ActionError(f"alert {seq} of game {game_id} is already ruled no foul")
        if ruling == FOUL and now != NO_FOUL:
            raise ActionError(f"alert {seq} of game {game_id} counts as a foul already: only a no-foul ruling "
                              "can be withdrawn")
        if seq in done and not ruling:  # acknowledged, and the arbiter may still rule on it
            raise ActionError(f"alert {seq} of game {game_id} is already acknowledged")
        targets = [seq]
        target = alerts[seq]
        if ruling and not (isinstance(target, Alert) and target.kind in FOUL_KINDS):
            what = f"a {target.kind} alert" if isinstance(target, Alert) else "advice"
            raise ActionError(f"alert {seq} of game {game_id} is {what}, not a foul: acknowledge it instead")
    appended: list[Event] = []
    for seq in targets:
        target = alerts[seq]
        kind = target.kind if isinstance(target, Alert) else target.reason or "advice"
        event = AlertAcknowledged(_t(events), seq, kind, by, note, _now(), ruling)
        store.append(game_id, event)
        appended.append(event)
    log.info("game %d: %d alert(s) acknowledged by %s", game_id, len(appended), by)
    return appended


def correct(store: GameStore, game_id: int, events: list[StoredEvent], body: dict[str, Any], plies: list[str],
            start_fen: str, by: str) -> list[Event]:
    """Set ply ``body["ply"]`` to ``body["move"]`` (ICCS, WXF or Chinese); later plies are recorded again.

    ``body["was"]`` (optional) is the ply's move as the arbiter's page showed it (ICCS, "" for a ply
    not yet recorded): the correction is refused when the record says otherwise by now (two arbiters
    correcting one ply at once: the second is told, not silently overriding the first).

    ``plies`` are the game's current moves (ICCS). The ply after the last one adds a move the camera
    missed (a ``MoveCorrected`` with an empty ``was``: "ply N added by the arbiter"). Refused when the
    move is illegal there or a later ply becomes illegal after it (the arbiter then restores the
    position on the board).
    """
    ply = body.get("ply")
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 1:
        raise MalformedAction(f"ply must be a number from 1 to {len(plies) + 1}")
    if ply > len(plies) + 1:  # a number, but this game has not come so far
        raise ActionError(f"ply must be a number from 1 to {len(plies) + 1}")
    text = _text(body.get("move"), "move")
    if not text:
        raise MalformedAction("name the move (ICCS like h2e2, or Chinese like 炮二平五)")
    result = rebuild([stored.event for stored in events]).result
    if ply > len(plies) and result != "*":  # the signed sheet would read the game ended, then a move played
        # told before the move is read: after a mate every move added is illegal, which hid the reason
        raise ActionError(f"the game's result ({result}) is marked after ply {len(plies)}: a move added after "
                          "it would follow the end of the game; reopen it first (result *) if play went on")
    position = Position.from_fen(start_fen)
    for iccs in plies[:ply - 1]:
        position = position.play(Move.from_iccs(iccs))
    try:
        move = parse_move(position, text)
    except InvalidMoveError as error:  # no move in any position
        raise MalformedAction(f"ply {ply}: {error}") from None
    except ValueError as error:
        raise ActionError(f"ply {ply}: {error}") from None
    was = plies[ply - 1] if ply <= len(plies) else ""
    expected = body.get("was")
    if expected is not None and not isinstance(expected, str):
        raise MalformedAction(f"was must be the ply's move as the page showed it (ICCS, \"\" for none), not {expected!r}")
    if expected is not None and not _names(expected, position, was):  # another arbiter changed the ply meanwhile
        now = f"is now {was}" if was else "has no move now"
        shown = expected.strip() or "no move"
        raise ActionError(f"ply {ply} {now}, not {shown} as your page showed: someone changed the record "
                          "meanwhile; look at it again before correcting")
    if move.iccs == was:
        raise ActionError(f"ply {ply} is already {was}")
    sequence = [move] + [Move.from_iccs(iccs) for iccs in plies[ply:]]
    t, at = _t(events), _now()
    try:
        made: list[Event] = list(corrections(position, ply, sequence, was, t, by, clocks=_clock_of(events), at=at))
    except ValueError as error:
        raise ActionError(f"after the correction {error}: restore the position on the board instead "
                          f"(art. 5.8)") from None
    for event in made:
        store.append(game_id, event)
    log.info("game %d: ply %d %s %s by %s", game_id, ply, "corrected to" if was else "added:", move.iccs, by)
    return made


def take_back(store: GameStore, game_id: int, events: list[StoredEvent], body: dict[str, Any], plies: list[str],
              start_fen: str, by: str) -> list[Event]:
    """Take back the plies after ply ``body["ply"]`` (0: every ply): moves recorded that were not
    played as the game (analysis after the end, a spurious move), or the record put back with the
    board (art. 5.8). They stay in the log, marked taken back by the arbiter.

    ``body["was"]`` (optional) is the last ply's move as the arbiter's page showed it (ICCS): the
    take-back is refused when the record has moved on since (a move recorded meanwhile would be
    taken back unseen).
    """
    ply = body.get("ply")
    if not isinstance(ply, int) or isinstance(ply, bool) or ply < 0:
        raise MalformedAction(f"ply must be the last ply to keep, a number from 0 to {max(0, len(plies) - 1)}")
    if ply >= len(plies):
        raise ActionError(f"the game has {len(plies)} plies: nothing after ply {ply} to take back" if plies
                          else "the game has no moves to take back")
    expected = body.get("was")
    if expected is not None and not isinstance(expected, str):
        raise MalformedAction(f"was must be the last ply's move as the page showed it (ICCS), not {expected!r}")
    positions = [Position.from_fen(start_fen) if start_fen else Position.start()]  # after each ply, from 0
    for iccs in plies:
        positions.append(positions[-1].play(Move.from_iccs(iccs)))
    if expected is not None and not _names(expected, positions[-2], plies[-1]):
        raise ActionError(f"the record has changed since your page showed it (its last ply is now {plies[-1]}, "
                          f"ply {len(plies)}): look at it again before taking moves back")
    event = PositionRestored(_t(events), ply, positions[ply].fen(), tuple(plies[ply:]), by=by, at=_now())
    store.append(game_id, event)
    # a checkmate or stalemate taken back is no longer the game's end (the arbiter's own result stands)
    result = rebuild([*(stored.event for stored in events), event]).result
    if result != store.game(game_id).result:
        store.set_result(game_id, result)
    log.info("game %d: plies %d-%d taken back by %s", game_id, ply + 1, len(plies), by)
    return [event]


def _names(text: str, position: Position, iccs: str) -> bool:
    """Does ``text``, a ply's move as a page or script showed it, name ``iccs`` played from ``position``?
    ICCS in either case, with or without a dash (``G9-E7``, as the PGN writes it), WXF or Chinese; ""
    names no move."""
    text = text.strip()
    if not text or not iccs:
        return text == iccs
    if text.replace("-", "").lower() == iccs:
        return True
    try:
        return parse_move(position, text).iccs == iccs
    except ValueError:
        return False


def _clock_of(events: list[StoredEvent]) -> dict[int, tuple[int | None, int | None]]:
    """Each ply's clock times (red, black ms) as the log has them: from its move, or the press that
    completed it (a press often comes after the move is recorded)."""
    from recorder.events import ClockPressed, MoveRecorded

    found: dict[int, tuple[int | None, int | None]] = {}
    for stored in events:
        event = stored.event
        if isinstance(event, MoveRecorded | ClockPressed) and event.ply is not None:
            found[event.ply] = (event.red_ms, event.black_ms)
        elif isinstance(event, PositionRestored):  # the taken-back moves' times are not a later move's
            found = {ply: times for ply, times in found.items() if ply <= event.ply}
    return found


def mark_result(store: GameStore, game_id: int, events: list[StoredEvent], body: dict[str, Any], plies: list[str],
                start_fen: str, by: str) -> list[Event]:
    """Mark the result (``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` to reopen) with an optional reason.
    ``body["was"]`` (optional) is the result as the arbiter's page showed it: refused when the game's
    result is another by now (a second arbiter's stale page flipped a result marked a moment before).
    A game no recorder is running on is closed by a result and opened again by ``*`` (a running
    recorder closes its game when it stops).

    ``plies`` are the game's current moves (ICCS). When they end in checkmate or stalemate the rules
    have decided (art. 4.1.1, 4.1.2): another result, or reopening, needs the arbiter's reason in the
    note (the game may have ended before, say a draw agreed and the moves played on in analysis); a
    wrong record is put right by correcting its moves.
    """
    result = body.get("result")
    if result not in RESULTS:
        raise MalformedAction(f"result must be one of {', '.join(RESULTS)}")
    text = _text(body.get("text"), "text")
    decided = decided_result(plies, start_fen)
    if decided is not None and result != decided[0] and not text:
        raise ActionError(f"the record ends in {decided[1]} at ply {len(plies)}: the result is {decided[0]} "
                          "by the rules; if the record is wrong, correct its moves first, or give the reason "
                          "for another result in the note (e.g. a draw agreed before the moves played on)")
    article = _text(body.get("article"), "article")
    if article and not _ARTICLE.fullmatch(article):
        raise MalformedAction(f"article {article!r} is not one of the rules' articles: give its number, "
                              "e.g. 4.1.12 (a resignation) or 4.2.1 (a draw agreed)")
    recorded = rebuild([stored.event for stored in events])
    current = recorded.result
    expected = body.get("was")
    if expected is not None and expected not in RESULTS:
        raise MalformedAction(f"was must be the result as the page showed it ({', '.join(RESULTS)}), not {expected!r}")
    if expected is not None and expected not in (current, store.game(game_id).result or "*"):  # another arbiter
        # marked one meanwhile (the page shows the store's result where no event ends the game: an import's)
        marked = recorded.ended if isinstance(recorded.ended, ResultMarked) else None
        who = f" (marked by {marked.by})" if marked is not None and marked.by and current != "*" else ""
        raise ActionError(f"the result is now {current}{who}, not {expected} as your page showed: someone changed "
                          "it meanwhile; look at it again before marking")
    unfounded, turned = _fouls_short(article, result, recorded)
    unfounded = unfounded or _time_not_running(article, result, recorded)
    if turned and body.get("anyway") is not True:
        # the side with the fouls is the one winning: a slip of the result's side, not fouls the camera
        # missed; a reason does not pass it (an arbiter tester typed "black third foul" and gave black the
        # win over red, who had one foul to black's two, without a word)
        raise NeedsConfirming(f"{turned} If it is right all the same, mark it again and confirm (xqrec edit: --anyway)")
    if unfounded and not text and not turned:
        raise ActionError(unfounded)
    if result == "*" and current == "*":
        raise ActionError("the game has no result to take back: it is open")
    last = events[-1].event if events else None
    if isinstance(last, ResultMarked) and ((last.result or "*"), last.text) == (result, text):
        # the same marking again with nothing between: a second click (or a second arbiter a moment later)
        raise ActionError(f"the result {result} is marked already (by {last.by})")
    event = ResultMarked(_t(events), len(plies), None if result == "*" else result, "arbiter", article, text, False,
                         by=by, at=_now())
    store.append(game_id, event)
    game = store.game(game_id)
    if result == "*":
        store.set_result(game_id, "*")
        if game.status == "closed" and game.sessions:  # play goes on: to be gone on with (--resume), its sheet
            store.reopen_game(game_id)  # provisional; an imported game (never recorded here) stays as it is
    elif game.waiting:
        # no recorder is running to close it when it stops: the result ends the game, and its sheet is
        # one to sign (a tester stopped the recorder, marked 0-1, and printed a "provisional" sheet)
        store.close_game(game_id)
    log.info("game %d: result %s marked by %s", game_id, result, by)
    return [event]


def _fouls_short(article: str, result: str, game: RecordedGame) -> tuple[str, str]:
    """Why a loss marked under a foul article (4.1.8-4.1.10) is not what the record holds, or "":
    the loser has fewer foul alerts than the article needs (an arbiter tester marked 0-1 under 4.1.9
    for the side whose opponent had pressed twice). The arbiter may know of fouls the camera did
    not see: with a reason in the note the result is marked. Second, the same said where the
    winner holds the fouls the article needs (the result looks the other way round), or ""."""
    loss = next((loss for loss in FOUL_LOSSES if loss.article == article), None)
    if loss is None or result not in ("1-0", "0-1"):
        return "", ""
    need, what = loss.fewest, loss.what
    loser = BLACK if result == "1-0" else RED
    counts = foul_alerts(game)
    held = {side: loss.held(counts, side) for side in (RED, BLACK)}
    if held[loser] >= need:
        return "", ""
    other = opponent(loser)
    short = f"art. {article} needs {need} {what} by {loser}, the side losing by {result}, and the record holds {held[loser]}"
    if held[other] >= need:
        return short, f"{short}; {other} has {held[other]}: is the result the other way round?"
    return f"{short}. To mark it so anyway (fouls the camera did not see), give the reason in the note", ""


def _time_not_running(article: str, result: str, game: RecordedGame) -> str:
    """Why a loss on time (art. 21) is not what the clock shows, or "": the loser moved last, so its
    time stood still at what its press left (an arbiter tester marked black lost on time with 16:01
    on black's clock). A flag the clock reported fallen, or a game with no clock times, is taken."""
    if not (article == "21" or article.startswith("21.")) or result not in ("1-0", "0-1") or not game.plies:
        return ""
    loser = BLACK if result == "1-0" else RED
    last = game.plies[-1]
    if last.side != loser or last.clock_ms is None or any(a.kind == "flag_fallen" for a in game.alerts):
        return ""
    return (f"a loss on time (art. {article}) for {loser}, but {loser} moved last and its clock stopped with "
            f"{clock_left_text(last.clock_ms)} left: {opponent(loser)}'s time was running. To mark it so anyway, "
            "give the reason in the note")


def decided_result(plies: list[str], start_fen: str) -> tuple[str, str] | None:
    """(result, what happened) when the moves end in checkmate or stalemate: the side to move has lost."""
    position = Position.from_fen(start_fen) if start_fen else Position.start()
    for iccs in plies:
        position = position.play(Move.from_iccs(iccs))
    loser = "red" if position.side_to_move == RED else "black"
    result = "0-1" if position.side_to_move == RED else "1-0"
    if position.is_checkmate():
        return result, f"{loser} checkmated (art. 4.1.1)"
    if position.is_stalemate():
        return result, f"{loser} stalemated (art. 4.1.2)"
    return None
