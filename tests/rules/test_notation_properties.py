"""Every legal move formats and parses back to itself, in every notation: real games and random positions."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import InvalidFenError, Move, Position
from rules.notation import NOTATIONS, detect_notation, format_move, parse_move
from rules.squares import ADVISOR_POINTS, BLACK, ELEPHANT_POINTS, FILES, RED

SAMPLE_GAMES = 150


def _check_every_legal_move(position: Position) -> None:
    """Format each legal move in each notation (and the traditional/full-width form), parse it back."""
    for notation in NOTATIONS:
        written: dict[str, Move] = {}
        for move in position.legal_moves():
            text = format_move(position, move, notation)
            assert text not in written, f"{text} names {written.get(text)} and {move} in {position.fen()}"
            written[text] = move
            assert detect_notation(text) == notation
            assert parse_move(position, text, notation) == move, (text, position.fen())
            assert parse_move(position, text) == move
            if notation == "chinese":
                old_style = format_move(position, move, notation, traditional=True, fullwidth=True)
                assert parse_move(position, old_style) == move, (old_style, position.fen())
                short = format_move(position, move, notation, short=True)  # full where short names two moves
                assert parse_move(position, short, notation) == move, (short, position.fen())


def _check_game(moves: list[str]) -> int:
    """Round-trip the played move in every notation at every ply; returns the plies checked."""
    position = Position.start()
    for iccs in moves:
        move = Move.from_iccs(iccs)
        for notation in NOTATIONS:
            text = format_move(position, move, notation)
            assert parse_move(position, text) == move, (text, position.fen())
        old_style = format_move(position, move, traditional=True, fullwidth=True)
        assert parse_move(position, old_style) == move, (old_style, position.fen())
        position = position.play(move)
    return len(moves)


def test_sample_of_real_games_round_trips(games: list[tuple[str, list[str]]]) -> None:
    sample = random.Random(7).sample(games, SAMPLE_GAMES)
    assert sum(_check_game(moves) for _, moves in sample) > 100 * SAMPLE_GAMES / 2


@pytest.mark.slow
def test_all_games_round_trip(games: list[tuple[str, list[str]]]) -> None:
    assert len(games) == 2998
    assert sum(_check_game(moves) for _, moves in games) > 200_000


# --- random positions ------------------------------------------------------------------

# Variants a lenient reader must take: traditional and variant characters, numerals either way.
_CHINESE_VARIANTS = [
    str.maketrans({"车": "俥", "马": "傌", "炮": "包", "帅": "帥", "将": "將", "进": "進", "后": "後"}),
    str.maketrans({"车": "車", "马": "馬", "炮": "砲", "士": "仕", "象": "相", "卒": "兵"}),
    str.maketrans(dict(zip("123456789", "一二三四五六七八九", strict=True))),
    str.maketrans(dict(zip("一二三四五六七八九", "１２３４５６７８９", strict=True))),
]
_WXF_VARIANTS = [str.maketrans({".": "="}), str.maketrans({"E": "B", "H": "N"}), str.maketrans({".": " . "})]


def _check_variants(position: Position, rng: random.Random) -> None:
    for move in position.legal_moves():
        chinese = format_move(position, move, "chinese")
        variant = chinese.translate(rng.choice(_CHINESE_VARIANTS))
        assert parse_move(position, variant) == move, (variant, position.fen())
        wxf = format_move(position, move, "wxf").translate(rng.choice(_WXF_VARIANTS))
        assert parse_move(position, wxf.lower() if rng.random() < 0.5 else wxf) == move, (wxf, position.fen())


def _random_game_position(seed: int) -> Position:
    rng = random.Random(seed)
    position = Position.start()
    for _ in range(rng.randrange(0, 160)):
        moves = position.legal_moves()
        if not moves:
            break
        position = position.play(rng.choice(moves))
    return position


def _fen(cells: list[str], side: str) -> str:
    rows = []
    for rank in range(9, -1, -1):
        row = "".join(cells[rank * FILES : (rank + 1) * FILES])
        for run in range(9, 0, -1):
            row = row.replace("." * run, str(run))
        rows.append(row)
    return "/".join(rows) + (" w" if side == RED else " b")


def _crowded_position(seed: int) -> Position:
    """A legal placement with soldiers stacked on one or two files and doubled other pieces."""
    rng = random.Random(seed)
    for _ in range(500):
        cells = ["."] * 90
        for side in (RED, BLACK):
            case = str.upper if side == RED else str.lower
            palace = [r * FILES + f for f in (3, 4, 5) for r in ((0, 1, 2) if side == RED else (7, 8, 9))]
            cells[rng.choice([sq for sq in palace if cells[sq] == "."])] = case("K")
            across = range(5, 10) if side == RED else range(0, 5)
            soldier_files = rng.sample(range(FILES), rng.choice((1, 2, 2, 3)))
            for _ in range(rng.randint(2, 5)):
                free = [r * FILES + f for f in soldier_files for r in across if cells[r * FILES + f] == "."]
                if free:
                    cells[rng.choice(free)] = case("P")
            for letter, points in (("A", ADVISOR_POINTS[side]), ("B", ELEPHANT_POINTS[side])):
                for sq in rng.sample(sorted(points), rng.randint(0, 2)):
                    if cells[sq] == ".":
                        cells[sq] = case(letter)
            for letter in "RNC":
                file = rng.randrange(FILES)
                for _ in range(rng.randint(0, 2)):
                    sq = rng.randrange(10) * FILES + (file if rng.random() < 0.7 else rng.randrange(FILES))
                    if cells[sq] == ".":
                        cells[sq] = case(letter)
        try:
            return Position.from_fen(_fen(cells, rng.choice((RED, BLACK))))
        except InvalidFenError:
            continue
    raise AssertionError("no legal crowded placement in 500 tries")


seeds = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_random_play_positions_round_trip(seed: int) -> None:
    position = _random_game_position(seed)
    _check_every_legal_move(position)
    _check_variants(position, random.Random(seed))


@settings(max_examples=150, deadline=None)
@given(seeds)
def test_crowded_positions_round_trip(seed: int) -> None:
    position = _crowded_position(seed)
    _check_every_legal_move(position)
    _check_variants(position, random.Random(seed))


def test_crowded_positions_cover_every_tandem_soldier_form() -> None:
    """The generator above reaches 3, 4 and 5 soldiers on a file and two files of soldiers."""
    seen = set()
    for seed in range(400):
        position = _crowded_position(seed)
        for move in position.legal_moves():
            text = format_move(position, move, "wxf")
            if text[:2] in ("++", "--"):
                seen.add("four or five")
            elif text[0] == "P" and text[1].isdigit() and position.board[move.from_square % FILES::FILES].count(
                    position.board[move.from_square]) >= 3:
                seen.add("middle of three or five")
            elif text[0].isdigit():
                seen.add("two files")
    assert seen == {"four or five", "middle of three or five", "two files"}
