"""Notation and PGN: speed of formatting and parsing, a WXF cross-check with Fairy-Stockfish, the scoresheets.

Figures: microseconds per move to format and to parse in each notation over the real
games (the target is only "the full 2 998-game round trip in a few minutes"); how often
our strict WXF equals pyffish's and whether our lenient reader takes every pyffish text
(pyffish writes a plain file for tandem pieces when legality already tells them apart,
where the WXF standard always writes ``+``/``-``); and for the 300 original Big5
scoresheets, the read time, the exact-ICCS agreement and how many moves were written in a
form other than the strict one (e.g. ``象３退５`` for ``前象退５``).

``python -m bench notation`` or ``python -m bench.bench_notation --games 500``.
"""

from __future__ import annotations

import argparse
import collections
import logging
import statistics
import time
from pathlib import Path

import pyffish

from rules import Move, Position, RulesError, format_move, parse_move, read_pgn
from rules.notation import NOTATIONS
from rules.pgn import decode_pgn, split_records, tokenize

logger = logging.getLogger(__name__)

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"


def _read_games(limit: int | None) -> list[list[str]]:
    lines = (DATA / "games_iccs.txt").read_text(encoding="utf-8").splitlines()
    return [line.split()[1:] for line in lines[:limit]]


def _uci(iccs: str) -> str:
    """pyffish numbers ranks 1-10."""
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


def notation_pass(games: list[list[str]]) -> None:
    """Time format and parse per notation on every played move (each must read back to itself)."""
    format_us: dict[str, list[float]] = {n: [] for n in NOTATIONS}
    parse_us: dict[str, list[float]] = {n: [] for n in NOTATIONS}
    clock = time.perf_counter_ns
    started = time.perf_counter()
    for moves in games:
        position = Position.start()
        position.legal_moves()
        for iccs in moves:
            move = Move.from_iccs(iccs)
            for notation in NOTATIONS:
                start = clock()
                text = format_move(position, move, notation)
                format_us[notation].append((clock() - start) / 1000)
                start = clock()
                back = parse_move(position, text, notation)
                parse_us[notation].append((clock() - start) / 1000)
                assert back == move, (text, position.fen())
            position = position.play(move)
            position.legal_moves()
    elapsed = time.perf_counter() - started
    plies = len(format_us["iccs"])
    print(f"notation: {len(games)} games, {plies} plies: format+parse in 3 notations took {elapsed:.1f} s")
    for notation in NOTATIONS:
        print(
            f"  {notation:8s} format median {statistics.median(format_us[notation]):6.1f} us,"
            f" parse median {statistics.median(parse_us[notation]):6.1f} us"
        )


def pyffish_pass(games: list[list[str]]) -> None:
    """Compare our strict WXF with pyffish's; our lenient reader must take every pyffish text."""
    same, differ, unreadable = 0, 0, 0
    for moves in games:
        position = Position.start()
        for iccs in moves:
            move = Move.from_iccs(iccs)
            ours = format_move(position, move, "wxf")
            theirs = pyffish.get_san("xiangqi", position.fen(), _uci(iccs), False, pyffish.NOTATION_XIANGQI_WXF)
            if ours == theirs.replace("=", "."):
                same += 1
            else:
                differ += 1
                try:
                    unreadable += parse_move(position, theirs, "wxf") != move
                except RulesError:
                    unreadable += 1
            position = position.play(move)
    print(f"  WXF vs pyffish on {len(games)} games: {same} equal, {differ} differ (tandem pieces written"
          f" with a plain file by pyffish), {unreadable} of those unreadable to us")


def scoresheet_pass() -> None:
    """Read the Big5 scoresheets; count exact games and the moves written in a non-strict form."""
    folder = DATA / "pgn-chinese"
    files = sorted(folder.glob("*.pgn"))
    expected = (DATA / "games_iccs.txt").read_text(encoding="utf-8").splitlines()
    started = time.perf_counter()
    games = [(path, read_pgn(path.read_bytes())) for path in files]
    elapsed = time.perf_counter() - started
    exact = sum(
        1 for path, found in games
        if len(found) == 1 and not found[0].errors
        and [m.iccs for m in found[0].moves] == expected[int(path.stem) - 1].split()[1:]
    )
    loose: collections.Counter[str] = collections.Counter()
    total = 0
    for path, found in games:
        text, _ = decode_pgn(path.read_bytes())
        written = [value for kind, value in tokenize(split_records(text)[0][1]) if kind == "move"]
        position = found[0].start_position()
        for token, move in zip(written, found[0].moves, strict=False):
            total += 1
            strict = format_move(position, move, traditional=True, fullwidth=True)
            if strict != token:
                loose[f"{token[0]} for {strict[0]}{strict[1]}"] += 1
            position = position.play(move)
    print(f"scoresheets: {len(files)} Big5 files read in {elapsed:.1f} s; {exact} exact to the ICCS games")
    print(f"  {sum(loose.values())} of {total} moves ({100 * sum(loose.values()) / max(total, 1):.2f}%) "
          f"written without the strict 前/后: {dict(loose.most_common(8))}")


def run(limit: int | None, pyffish_games: int) -> None:
    if not (DATA / "games_iccs.txt").exists():
        print("notation: ../shared/data is not present; skipped")
        return
    games = _read_games(limit)
    notation_pass(games)
    pyffish_pass(games[:pyffish_games])
    scoresheet_pass()


def main() -> None:
    """All 2 998 games through the three notations, 300 beside pyffish, the 300 scoresheets."""
    run(None, 300)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="only the first N games (default all)")
    parser.add_argument("--pyffish-games", type=int, default=300, help="games compared with pyffish")
    arguments = parser.parse_args()
    run(arguments.games, arguments.pyffish_games)
