"""The plain-text record of a stored game: its header, the scoresheet (art. 7.5) and the alerts.

The scoresheet body is :func:`recorder.scoresheet.scoresheet_text`; this adds what the arbiter
needs beside it: who, where, the time control, time used by each side (as the clock shows it:
:func:`recorder.exports.times.time_used`), and the notes the PGN and PDF carry too
(:func:`recorder.exports.pgn.game_notes`: every alert, restoration and correction, the advice for the
arbiter and the game's end) with the move number each came after.
"""

from __future__ import annotations

from collections.abc import Sequence

from recorder.events import Event, kind_title
from recorder.exports.pgn import game_notes, how_ended
from recorder.exports.times import clock_text, time_control_line, time_control_of, time_used, time_used_upto
from recorder.scoresheet import foul_alerts, rebuild, round_of, scoresheet_text
from recorder.store.db import GameInfo
from rules import START_FEN, Position


def export_text(events: Sequence[Event], info: GameInfo | None = None, title: str = "", void: str = "") -> str:
    """The game's record as text: header lines, scoresheet with clock times, alerts with move numbers;
    ``void`` why the arbiter voided the game, if so (said under its result)."""
    info = info or GameInfo()
    game = rebuild(events)
    lines = [title or "中国象棋比赛记录表 / Xiangqi scoresheet"]
    pairs = [("Event", info.event), ("Site", info.site), ("Date", info.date), ("Round", info.round),
             ("Board", "" if info.board is None else str(info.board)), ("Red", info.red),
             ("Black", info.black), ("Time control", time_control_line(game, info.time_control)), ("Result", game.result + (f" ({how})" if (how := how_ended(game)) else "")),
             ("Void", f"{void} (not a record of the round)" if void else "")]
    if game.start_fen.split()[:2] != START_FEN.split()[:2]:  # set up: the record replays from here only
        pairs.append(("Start (FEN)", game.start_fen))
    lines += [f"{name + ':':<14}{value}" for name, value in pairs if value]
    used = time_used(game, time_control_of(game, info.time_control)[0])
    if any(value is not None for value in used.values()):
        upto = time_used_upto(game)
        lines.append("Time used:    " + ", ".join(f"{side} {clock_text(ms)}" for side, ms in used.items()
                                                  if ms is not None)
                     + (f" (to {Position.from_fen(game.start_fen).move_name(upto)}: no press heard after it)"
                        if upto is not None else ""))
    fouls = foul_alerts(game)
    if any(fouls.values()) or game.no_foul or game.doubtful:  # what the arbiter counts for art. 4.1.8 (each theirs to rule on, 8.2)
        lines.append("Foul alerts:  " + "; ".join(
            f"{side} {sum(kinds.values())}" + (" (" + ", ".join(f"{kind_title(kind).lower()} {count}" for kind, count in
                                                               kinds.items()) + ")" if kinds else "")
            for side, kinds in fouls.items())
            + (f"; {len(game.no_foul)} more ruled no foul by the arbiter" if game.no_foul else "")
            + (f"; {len(game.doubtful)} press(es) without a move not counted: told just before the clock's presses "
               "were found not to follow the board" if game.doubtful else ""))
    lines.append("")
    body = scoresheet_text(game, verdicts=False)  # the end and the advice are among the notes
    notes = game_notes(events, game, sheet=True)
    if notes:
        start = Position.from_fen(game.start_fen)
        body += "\nAlerts, corrections and verdicts:\n" + "".join(f"  {round_of(ply, start)}: {text}\n"
                                                                 for ply, text in notes)
    return "\n".join(lines) + "\n" + body

