"""``xqrec replay``: replay a recorded game through the rules and print its scoresheet with verdicts.

Reads a PGN file (any notation, UTF-8/GBK/Big5) or a line of the shared ``games_iccs.txt``,
checks every move, and prints the record in Chinese notation (art. 7.5) two columns per
round, with the repetition verdicts (棋例) and the game's end as the rules see it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rules import RED, Game, Move, Position, format_move
from rules.move_kinds import MoveClass
from rules.pgn import PgnError, read_pgn_game

SHARED_DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@dataclass
class ReplayRecord:
    """A game to replay: its headers (PGN tag names), start position and moves."""

    headers: dict[str, str]
    start: Position
    moves: list[Move]
    notes: dict[int, list[str]] = field(default_factory=dict)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("replay", help="replay a game through the rules: scoresheet and verdicts")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("pgn", nargs="?", type=Path, help="a PGN file (its first game, or the one --game names)")
    parser.add_argument("--game", type=int, default=None, metavar="N", help="which game of the PGN file (1, 2, ...)")
    source.add_argument("--line", type=int, help="line number of ../shared/data/games_iccs.txt")
    parser.add_argument("--encoding", metavar="CODEC",
                        help="the PGN file's text encoding (e.g. latin-1, big5, gbk) when it is not guessed "
                        "right (as games --import takes it)")
    parser.add_argument("--notation", choices=("chinese", "wxf", "iccs"), default="chinese")
    parser.add_argument("--traditional", action="store_true", help="traditional characters (車馬帥...)")
    parser.set_defaults(handler=run)


def load_shared_line(line: int, data: Path = SHARED_DATA) -> ReplayRecord:
    """Game ``line`` (1-based) of ``games_iccs.txt`` with its tags from the index file."""
    games = (data / "games_iccs.txt").read_text(encoding="utf-8").splitlines()
    if not 1 <= line <= len(games):
        raise ValueError(f"--line must be between 1 and {len(games)}")
    result, *iccs = games[line - 1].split()
    headers = {"Game": "Chinese Chess", "Result": result}
    index = data / "games_iccs.index.tsv"
    if index.exists():
        rows = index.read_text(encoding="utf-8").splitlines()
        names = rows[0].split("\t")
        for row in rows[1:]:
            values = dict(zip(names, row.split("\t"), strict=False))
            if values.get("line") == str(line):
                headers.update(Event=values.get("event", ""), Date=values.get("date", ""),
                               Red=values.get("red", ""), Black=values.get("black", ""))
                break
    position, moves = Position.start(), []
    for text in iccs:
        move = Move.from_iccs(text)
        position = position.play(move)
        moves.append(move)
    return ReplayRecord(headers, Position.start(), moves)


def load_pgn(path: Path, number: int | None = None, encoding: str | None = None) -> ReplayRecord:
    """Game ``number`` (1-based; the first when None) of a PGN file (in ``encoding`` when given, else
    guessed); a file of several games read without a number says so on stderr, so the others are not
    taken for missing."""
    from recorder.commands.games import decoded

    if number is not None and number < 1:  # game 0 was game 1, game 2 of one refused
        raise ValueError(f"--game must be 1 or more, not {number}")
    try:
        data = path.read_bytes()
        game, count = read_pgn_game(decoded(data, encoding) if encoding else data, number or 1)
    except PgnError as error:  # an unreadable encoding: name the file it is about, and the way on
        hint = "; give the file's encoding with --encoding (e.g. latin-1)" if "decode" in str(error) and not encoding else ""
        raise ValueError(f"{path}: {error}{hint}") from None
    if not count:
        raise ValueError(f"{path}: no game found")
    if game is None:
        raise ValueError(f"--game must be between 1 and {count}: {path} holds {count} game(s)")
    if number is None and count > 1:
        print(f"note: {path} holds {count} games; this is game 1 (--game N for another)", file=sys.stderr)
    if game.cut:  # a record cut short at a move it cannot read would pass for the whole game
        raise ValueError(f"{path}: " + "; ".join(game.errors))
    for note in game.errors + game.notes:  # the moves all read (a bad tag line left out): replayed, as
        print(f"note: {path}: {note}", file=sys.stderr)  # games --import stores it, with what was left out named
    headers = dict(game.headers)
    if game.result != "*":  # the result closing the movetext counts without a Result tag too
        headers["Result"] = game.result
    return ReplayRecord(headers, game.start_position(), list(game.moves))


def _move_label(index: int, written: list[str], record: ReplayRecord) -> str:
    """The record's move ``index`` (0-based) as a scoresheet names it: ``31. 炮六进一``, ``30... 车1进1``."""
    slot = index + (record.start.side_to_move != RED)  # black's first move fills a row's second column
    return f"{record.start.fullmove + slot // 2}{'.' if slot % 2 == 0 else '...'} {written[index]}"


def _left_by(end_ply: int, written: list[str], record: ReplayRecord) -> str:
    """Who broke off the repetition that lasted to ``end_ply``, and with what move (or that the record
    ends in it)."""
    if end_ply >= len(written):
        return "the record ends in it"
    label = _move_label(end_ply, written, record)
    side = "red (红方)" if not label.split()[0].endswith("...") else "black (黑方)"
    return f"{side} then left it with {label} (ply {end_ply + 1})"


def _why(moves: Sequence[MoveClass], written: list[str], record: ReplayRecord) -> str:
    """The moves a verdict judged, one per line below its note: what each was (check, chase of
    what, idle...), so the arbiter can check the verdict against the board."""
    return "".join(f"\n{_move_label(m.ply - 1, written, record)} (ply {m.ply}): {m.kind_text}" for m in moves)


def scoresheet_lines(record: ReplayRecord, notation: str = "chinese", traditional: bool = False) -> list[str]:
    """The record as text: tags, two columns per round, verdict notes, the outcome."""
    game = Game(record.start)
    written: list[str] = []
    for move in record.moves:
        written.append(format_move(game.position, move, notation, traditional=traditional))
        game.push(move)
    notes: dict[int, list[str]] = {}
    for episode in game.repetitions():
        for verdict in episode.verdicts:
            notes.setdefault(verdict.ply, []).append(f"position repeated {verdict.count}x (重复{verdict.count}次): "
                                                     f"{verdict.text}" + _why(verdict.cycle, written, record))
        if episode.end_ply > episode.start_ply:
            notes.setdefault(episode.end_ply, []).append(
                f"repetition lasts to here, a position stood {episode.max_count}x; " + _left_by(episode.end_ply, written, record))
    for verdict in game.long_attacks():
        notes.setdefault(verdict.ply, []).append(f"nine rounds of attacks (23.4): {verdict.text}"
                                                 + _why(verdict.cycle, written, record))
    lines = [f"{key}: {value}" for key, value in record.headers.items() if value]
    lines.append("")
    first_black = record.start.side_to_move != RED
    rows: list[tuple[int, str, str]] = []
    plies = ([""] if first_black else []) + written
    for index in range(0, len(plies), 2):
        red = plies[index]
        black = plies[index + 1] if index + 1 < len(plies) else ""
        rows.append((index // 2 + record.start.fullmove, red, black))
    heading = "红方 Red"
    width = max(max((_display_width(red) for _, red, _ in rows), default=0) + 4, _display_width(heading) + 2)
    lines.append(f"回合  {_pad(heading, width)}黑方 Black")  # 回合 is as wide as the move numbers' "   1."
    ply = 0 if not first_black else -1
    for number, red, black in rows:
        lines.append(f"{number:>4}. {_pad(red, width)}{black}")
        for offset, label in ((1, f"{number}. {red}"), (2, f"{number}... {black}")):
            for note in notes.get(ply + offset, []):  # named by its move: the row also holds the other side's
                first, *more = note.split("\n")
                lines.append(f"      ! after {label} (ply {ply + offset}): {first}")
                lines.extend(f"          {line}" for line in more)
        ply += 2
    outcome = game.outcome()
    lines.append("")
    lines.append(f"Result as recorded: {record.headers.get('Result', '*')}")
    if outcome is None:
        lines.append("Rules: the game has not ended on the board (resignation, agreement or time).")
    else:
        kind = "advice for the arbiter" if outcome.advisory else "final"
        # advice may have no result yet (a side must change): the rules' sentence alone, no "None"
        lines.append(f"Rules ({kind}): " + (f"{outcome.result} — " if outcome.result else "") + outcome.text)
    return lines


def _display_width(text: str) -> int:
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(1, width - _display_width(text))


def run(args: argparse.Namespace) -> int:
    if args.line is not None and args.game is not None:
        raise ValueError("--game picks a game of a PGN file; --line names one game already")
    record = load_shared_line(args.line) if args.line is not None else load_pgn(args.pgn, args.game, args.encoding)
    print("\n".join(scoresheet_lines(record, args.notation, args.traditional)))
    return 0
