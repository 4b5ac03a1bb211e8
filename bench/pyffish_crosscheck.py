"""Cross-check of our rules against Fairy-Stockfish (``pyffish``), an independent engine.

Used by ``tests/rules/test_against_pyffish.py`` (a quick subset) and by
``bench/bench_rules.py`` (all 2 998 real games). ``pyffish`` is a test-only dependency.

Square names differ: ICCS counts ranks 0-9 from red's side, Fairy-Stockfish counts
them 1-10, so our ``h2e2`` is its ``h3e3``. Both write the board part of a Xiangqi FEN
the same way (rank 9 first, ``KABNRCP``, side ``w``/``b``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pyffish

from rules import Move, Position, square_name

logger = logging.getLogger(__name__)

VARIANT = "xiangqi"
REPO = Path(__file__).resolve().parent.parent
GAMES_FILE = REPO.parent / "shared" / "data" / "games_iccs.txt"
# Fairy-Stockfish's game_result for the side to move when it has lost (mate or stalemate).
SF_LOSS = -32000


def sf_square(sq: int) -> str:
    """Our square number as Fairy-Stockfish names it (ranks 1-10)."""
    name = square_name(sq)
    return name[0] + str(int(name[1]) + 1)


def to_sf(move: Move) -> str:
    """Our ``Move`` as a Fairy-Stockfish move string (``h2e2`` -> ``h3e3``)."""
    return sf_square(move.from_square) + sf_square(move.to_square)


def from_sf(text: str) -> str:
    """A Fairy-Stockfish move string as ICCS (``h10h8`` -> ``h9h7``).

    Its ranks run 1-10, so a square name has two or three characters.
    """
    split = next(i for i in range(2, len(text)) if text[i].isalpha())
    return "".join(part[0] + str(int(part[1:]) - 1) for part in (text[:split], text[split:]))


def read_games(path: Path = GAMES_FILE) -> list[tuple[str, list[str]]]:
    """(result, ICCS moves) for every line of the games file."""
    games = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            result, *moves = line.split()
            games.append((result, moves))
    return games


def spread(count: int, total: int) -> list[int]:
    """``count`` indices spread evenly over ``range(total)`` (first and last included)."""
    if count >= total:
        return list(range(total))
    if count <= 1:
        return [0]
    return sorted({round(i * (total - 1) / (count - 1)) for i in range(count)})


@dataclass
class Mismatch:
    """One position where the two engines disagree."""

    where: str
    fen: str
    only_ours: list[str]
    only_theirs: list[str]
    note: str = ""

    def __str__(self) -> str:
        extra = f" ({self.note})" if self.note else ""
        return f"{self.where}: {self.fen}: only ours {self.only_ours}, only pyffish {self.only_theirs}{extra}"


@dataclass
class CrossCheck:
    """Tally of a cross-check run."""

    positions: int = 0
    moves: int = 0
    ends: int = 0
    checks: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)


def compare_position(position: Position, where: str, report: CrossCheck, check_moves: bool = False) -> None:
    """Compare the legal move sets of one position (and the game end, if it has no moves).

    With ``check_moves`` also compare, move by move, whether it gives check (slow:
    one engine call per move).
    """
    fen = position.fen()
    compare_moves(position, fen, pyffish.legal_moves(VARIANT, fen, []), where, report)
    if check_moves:
        for move in position.legal_moves():
            theirs_check = bool(pyffish.gives_check(VARIANT, fen, [to_sf(move)]))
            report.checks += 1
            if theirs_check != position.gives_check(move):
                report.mismatches.append(
                    Mismatch(where, fen, [move.iccs], [], f"gives check: pyffish says {theirs_check}")
                )


def compare_moves(position: Position, fen: str, sf_moves: Sequence[str], where: str, report: CrossCheck) -> None:
    """Record whether ``sf_moves`` (pyffish's answer for ``fen``) equals our legal move set."""
    ours = sorted(move.iccs for move in position.legal_moves())
    theirs = sorted(from_sf(text) for text in sf_moves)
    report.positions += 1
    report.moves += len(ours)
    if ours != theirs:
        report.mismatches.append(
            Mismatch(where, fen, sorted(set(ours) - set(theirs)), sorted(set(theirs) - set(ours)))
        )
        return
    if not ours:
        report.ends += 1
        result = pyffish.game_result(VARIANT, fen, [])
        if result != SF_LOSS or not (position.is_checkmate() or position.is_stalemate()):
            report.mismatches.append(Mismatch(where, fen, [], [], f"game end: pyffish says {result}"))


def game_positions(moves: Sequence[str]) -> Iterator[Position]:
    """Every position of a game from the start, the final one included."""
    position = Position.start()
    yield position
    for text in moves:
        position = position.play(text)
        yield position


def check_games(
    games: Sequence[tuple[str, list[str]]], indices: Sequence[int], in_check: bool = False
) -> CrossCheck:
    """Compare legal move sets at every ply of the chosen games (``indices`` are 0-based lines).

    A position met before (same placement and side) is compared once.

    With ``in_check``, also ask pyffish whether each game move gives check and compare
    with ``in_check()`` of the position it leads to.
    """
    report = CrossCheck()
    seen: set[Position] = set()
    for index in indices:
        _, moves = games[index]
        previous: Position | None = None
        for ply, position in enumerate(game_positions(moves)):
            where = f"game line {index + 1} ply {ply}"
            if position not in seen:  # openings repeat across games: ask the engine once
                seen.add(position)
                compare_position(position, where, report)
            if in_check and previous is not None:
                move = Move.from_iccs(moves[ply - 1])
                theirs = bool(pyffish.gives_check(VARIANT, previous.fen(), [to_sf(move)]))
                report.checks += 1
                if theirs != position.in_check():
                    report.mismatches.append(
                        Mismatch(where, position.fen(), [], [], f"in check: pyffish says {theirs}")
                    )
            previous = position
    return report


def check_positions(
    positions: Sequence[Position], label: str = "position", check_moves: bool = False
) -> CrossCheck:
    """Compare legal move sets (and, with ``check_moves``, checks given) on arbitrary positions."""
    report = CrossCheck()
    for number, position in enumerate(positions):
        compare_position(position, f"{label} {number}", report, check_moves)
    return report
