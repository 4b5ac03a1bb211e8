"""The game rebuilt from its event log, and its text scoresheet.

The event log is the single record: :func:`rebuild` replays it (moves, clock presses, moves taken
back by a restoration, alerts, the game's end) into a :class:`RecordedGame`, each ply with the press
that completed it (the move times and time used are worked out from the presses in
:mod:`recorder.exports.times`);
:func:`scoresheet_text` writes the scoresheet in Chinese notation (art. 7.5), one round a line, with the
game's end and the advice for the arbiter (a perpetual-check verdict calls for a ruling).
The exports (PGN, PDF, the full text record) live in :mod:`recorder.exports`.
"""

from __future__ import annotations

import itertools
import logging
import unicodedata
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from recorder.events import (
    NO_FOUL,
    SOURCE_CHANGED,
    Alert,
    AlertAcknowledged,
    ClockPressed,
    Event,
    GameEnded,
    MoveRecorded,
    PositionRestored,
    RecordingStarted,
    ResultMarked,
    SourceGap,
)
from recorder.fouls import FOUL_KINDS, FOUL_REASONS, doubted_by_mismatch, loss_short, offender
from rules import START_FEN, Move, Position, RulesError, format_move
from rules.squares import BLACK, RED

log = logging.getLogger(__name__)


@dataclass
class PlyEntry:
    """One recorded ply as the log has it."""

    ply: int
    iccs: str
    chinese: str
    side: str
    t: float
    confidence: float
    clock_ms: int | None = None  # the mover's time left after the press that completed the move
    press: ClockPressed | None = None  # that press, where the log has it


@dataclass
class RecordedGame:
    """A game rebuilt from an event log."""

    start_fen: str = START_FEN
    plies: list[PlyEntry] = field(default_factory=list)
    corrected: list[PlyEntry] = field(default_factory=list)  # taken back by a restoration (art. 5.8)
    taken_back: list[list[PlyEntry]] = field(default_factory=list)  # the same, one list a restoration
    alerts: list[Alert] = field(default_factory=list)
    no_foul: list[Alert] = field(default_factory=list)  # the foul alerts the arbiter ruled no foul
    # presses without a move told just before the clock's presses were found not to follow the board
    # (``clock_log_mismatch``): the log's, more likely than the player's; not counted as fouls
    doubtful: list[Alert] = field(default_factory=list)
    presses: list[ClockPressed] = field(default_factory=list)  # every press, in recorded order
    ended: GameEnded | None = None
    advice: list[GameEnded] = field(default_factory=list)
    source: str = ""
    # when the game went on from another source: (its last time, the first time of the new one), the
    # time between not the game's (a file's times go on a second after the stored ones)
    source_changes: list[tuple[float, float]] = field(default_factory=list)

    @property
    def moves(self) -> list[str]:
        return [p.iccs for p in self.plies]

    @property
    def result(self) -> str:
        return self.ended.result if self.ended is not None and self.ended.result else "*"


def foul_alerts(game: RecordedGame) -> dict[str, dict[str, int]]:
    """Per side (red, black), how many alerts of each foul kind (``FOUL_KINDS``) the game raised:
    what the arbiter counts for art. 4.1.8 (two illegal moves lose in most events). An alert the
    arbiter ruled no foul is not counted, nor a press without a move the clock's mismatch put in doubt
    (``RecordedGame.doubtful``: an arbiter tester's sheet gave both players two, a loss under 4.1.9)."""
    counts: dict[str, dict[str, int]] = {RED: {}, BLACK: {}}
    for alert in game.alerts:
        if alert.kind not in FOUL_KINDS or any(alert is left for left in (*game.no_foul, *game.doubtful)):
            continue
        side = offender(alert)
        if side in counts:
            counts[side][alert.kind] = counts[side].get(alert.kind, 0) + 1
    return counts


def advice_withdrawn(game: RecordedGame, reason: str, result: str) -> str:
    """Why a foul loss advised (``reason``, for ``result``) no longer holds in ``game`` as ruled now,
    or "" while it holds (see ``fouls.loss_short``): a foul it counted was ruled no foul, or was a
    press the clock's mismatch put in doubt. The console, the PGN and the sheets say so alike (a
    tester's PDF printed three losses advised, against both players, beside a foul box counting none)."""
    if reason not in FOUL_REASONS or not (game.no_foul or game.doubtful):
        return ""
    return loss_short(reason, BLACK if result == "1-0" else RED, foul_alerts(game))


LOST_PLIES_FILLED = 2  # plies lost in a row (damaged store rows) that are put back when one way alone fits


def _fill_lost_plies(game: RecordedGame, event: MoveRecorded) -> None:
    """Put back the plies missing before ``event`` (their record lost: damaged store rows), up to
    ``LOST_PLIES_FILLED`` of them, when one sequence of legal moves alone leads, with ``event``'s
    move, to the position ``event`` recorded after it. Two rows lost in a row numbered the later
    moves two plies early on a tester's sheet (black's moves as red's, a PGN no reader replays)."""
    missing = event.ply - 1 - len(game.plies)
    if not 1 <= missing <= LOST_PLIES_FILLED:
        return
    try:
        position = Position.from_fen(game.start_fen)
        for entry in game.plies:
            position = position.play(entry.iccs)
        target = event.fen_after.split()[:2]
        found = list(itertools.islice(_routes(position, missing, Move.from_iccs(event.iccs), target), 2))  # one is put back
    except (RulesError, ValueError):
        return
    if len(found) != 1:
        return
    for move in found[0]:
        log.warning("event log: ply %d is missing; %s put back, the one way to ply %d's position",
                    len(game.plies) + 1, move.iccs, event.ply)
        game.plies.append(PlyEntry(len(game.plies) + 1, move.iccs, format_move(position, move),
                                   position.side_to_move, event.t, 0.0))
        position = position.play(move)


def _routes(position: Position, depth: int, last: Move, target: list[str]) -> Iterator[tuple[Move, ...]]:
    """The sequences of ``depth`` legal moves from ``position`` after which ``last`` is legal and
    leads to the placement and side to move ``target``."""
    for move in position.legal_moves():
        after = position.play(move)
        if depth == 1:
            if after.is_legal(last) and after.play(last).fen().split()[:2] == target:
                yield (move,)
        else:
            yield from ((move, *rest) for rest in _routes(after, depth - 1, last, target))


def rebuild(events: Iterable[Event]) -> RecordedGame:
    """Replay an event log into the game it records (later events override earlier ones)."""
    game = RecordedGame()
    placed: dict[int, Alert] = {}  # alerts by their place in the log, as an acknowledgement names them
    rulings: dict[int, tuple[Alert, str]] = {}  # the arbiter's latest ruling on each foul alert, by its place
    for place, event in enumerate(events, 1):
        if isinstance(event, RecordingStarted):
            game.start_fen, game.source = event.start_fen, event.source
        elif isinstance(event, MoveRecorded):
            del game.plies[event.ply - 1:]
            if game.ended is not None and game.ended.ply >= event.ply and not isinstance(game.ended, ResultMarked):
                game.ended = None  # the position it was judged on is gone (the arbiter's own result stands)
            _fill_lost_plies(game, event)
            if len(game.plies) != event.ply - 1:
                log.warning("event log: ply %d recorded after only %d plies", event.ply, len(game.plies))
            clock = _mover_ms(event.side, event.red_ms, event.black_ms)
            game.plies.append(PlyEntry(event.ply, event.iccs, event.chinese, event.side, event.t,
                                       event.confidence, clock, _press_of(game.presses, event)))
        elif isinstance(event, ClockPressed):
            game.presses.append(event)
            if event.ply is not None and 0 < event.ply <= len(game.plies):
                entry = game.plies[event.ply - 1]
                if entry.side == event.side:
                    entry.clock_ms = _mover_ms(event.side, event.red_ms, event.black_ms)
                    entry.press = event
        elif isinstance(event, PositionRestored):
            game.corrected += game.plies[event.ply:]
            if game.plies[event.ply:]:
                game.taken_back.append(game.plies[event.ply:])
            del game.plies[event.ply:]
            if game.ended is not None and game.ended.ply > event.ply and not isinstance(game.ended, ResultMarked):
                game.ended = None  # the position it was judged on is gone (the arbiter's own result stands)
        elif isinstance(event, GameEnded):
            if event.advisory:
                game.advice.append(event)
            else:  # a result marked as * opens the game again: no end stands (its reason is a note)
                game.ended = None if isinstance(event, ResultMarked) and not event.result else event
        elif isinstance(event, Alert):
            game.alerts.append(event)
            placed[place] = event
        elif isinstance(event, AlertAcknowledged) and event.ruling and event.seq < place \
                and (target := placed.get(event.seq)) is not None and target.kind == event.kind:
            rulings[event.seq] = (target, event.ruling)
        elif isinstance(event, SourceGap) and event.reason == SOURCE_CHANGED:
            game.source_changes.append((event.t, event.t_resumed))
    game.no_foul = [alert for alert, ruling in rulings.values() if ruling == NO_FOUL]
    mismatches = [(index, alert.ply) for index, alert in enumerate(game.alerts) if alert.kind == "clock_log_mismatch"]
    game.doubtful = [alert for index, alert in enumerate(game.alerts)
                     if alert.kind == "press_without_move" and any(
                         index < at and doubted_by_mismatch(alert, ply) for at, ply in mismatches)]
    return game


def _press_of(presses: list[ClockPressed], move: MoveRecorded) -> ClockPressed | None:
    """The press a move's clock times come from (the press came before the move was recorded, or the
    move was recorded again with the times of its press): the latest by the mover with those times."""
    if move.red_ms is None or move.black_ms is None:
        return None
    for press in reversed(presses):
        if (press.side, press.red_ms, press.black_ms) == (move.side, move.red_ms, move.black_ms):
            return press
    return None


def _mover_ms(side: str, red_ms: int | None, black_ms: int | None) -> int | None:
    return red_ms if side == RED else black_ms


def hms(seconds: int) -> str:
    """Whole seconds as ``H:MM:SS``."""
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def clock_left_text(ms: int) -> str:
    """Time left on a clock as ``H:MM:SS``: the whole seconds a clock counting down shows (904.6 s is 0:15:04)."""
    return hms(max(0, int(ms) // 1000))


def advice_text(advice: GameEnded) -> str:
    """A verdict left to the arbiter (perpetual check, the natural limit...) as one sentence."""
    article = f", art. {advice.article}" if advice.article else ""
    suggests = f", suggests {advice.result}" if advice.result else ""
    return f"arbiter's ruling needed ({advice.reason.replace('_', ' ')}{article}{suggests}): {advice.text}"


def move_label(ply: int, start: Position) -> str:
    """Ply ``ply``'s place on the sheet: ``5.`` for red's move of round 5, ``5...`` for black's."""
    number, side = start.numbered(ply)
    return f"{number}{'.' if side == RED else '...'}"


def round_of(ply: int, start: Position | None = None) -> str:
    """Where a ply count points: from the start position ply 3 -> ``after move 2 (red)``, ply 4 ->
    ``after move 2 (black)``: the words the alerts and the foul advice use (``Position.move_name``),
    so that a note on the sheet and the alert it came from name the move alike."""
    return (start or Position.start()).after(ply)


def scoresheet_text(game: RecordedGame, *, title: str = "", with_clock: bool = True, verdicts: bool = True) -> str:
    """The scoresheet in Chinese notation (art. 7.5): round number, red's move, black's move, one round a line.

    With ``verdicts`` the game's end and the advice for the arbiter (each with the ply it came
    after) follow the moves; leave them out where the notes list them (the text export)."""
    lines = []
    if title:
        lines += [title, ""]
    position = Position.from_fen(game.start_fen)
    row: list[str] = []
    number = position.fullmove
    if position.side_to_move != RED:
        row = ["……"]
    for entry in game.plies:
        # named from the position, as the PDF names them (a store written before a notation fix keeps
        # the old names: the two sheets of one game must agree); the stored name where it cannot be played
        try:
            move = Move.from_iccs(entry.iccs)
            text = format_move(position, move, "chinese")
            position = position.play(move)
        except (RulesError, ValueError):
            text = entry.chinese
        if with_clock and entry.clock_ms is not None:
            text += f" ({clock_left_text(entry.clock_ms)})"
        row.append(text)
        if len(row) == 2:
            # padded by the columns a terminal gives it (a Chinese character takes two), not by characters:
            # set up with black to move, the first row's "……" put black's move 4 columns left (a reviewer)
            lines.append(f"{number:>3}. " + "  ".join(_padded(cell, 20) for cell in row).rstrip())
            row, number = [], number + 1
    if row:
        lines.append(f"{number:>3}. {row[0]}")
    if verdicts and game.ended is not None:
        lines += ["", f"{game.ended.result or ''} {game.ended.text}".strip()]
    if verdicts and game.advice:
        start = Position.from_fen(game.start_fen)
        lines += [""] + [f"{round_of(advice.ply, start)}: {advice_text(advice)}" for advice in game.advice]
    if game.taken_back:  # each restoration's moves, in the order they were taken back
        start = Position.from_fen(game.start_fen)
        taken = "; ".join(", ".join(f"{move_label(e.ply, start)} {e.chinese or e.iccs}" for e in group)
                          for group in game.taken_back)
        lines += ["", f"taken back (art. 5.8): {taken}"]
    return "\n".join(lines) + "\n"


def _padded(text: str, columns: int) -> str:
    """``text`` padded to ``columns`` terminal columns (a Chinese character takes two)."""
    width = sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)
    return text + " " * max(1, columns - width)


def side_by_side(game: RecordedGame, truth_moves: list[str], start_fen: str = START_FEN) -> str:
    """The recorded moves next to the true ones, in Chinese notation, one ply a line, marking differences."""
    position = Position.from_fen(start_fen)
    lines = [f"{'ply':>4}  {_padded('recorded', 16)}truth"]
    right = 0
    for index in range(max(len(game.plies), len(truth_moves))):
        got = game.plies[index].chinese if index < len(game.plies) else "-"
        want = "-"
        if index < len(truth_moves):
            move = Move.from_iccs(truth_moves[index])
            want = format_move(position, move, "chinese")
            position = position.play(move)
        same = index < len(game.plies) and index < len(truth_moves) and game.plies[index].iccs == truth_moves[index]
        right += 1 if same else 0
        lines.append(f"{index + 1:>4}  {_padded(got, 16)}{_padded(want, 16)}{'' if same else '  <-- differs'}".rstrip())
    lines.append(f"{right}/{len(truth_moves)} plies as in the truth")
    return "\n".join(lines) + "\n"
