"""Cross-check with Fairy-Stockfish (pyffish): legal move sets, checks and game ends must agree.

The quick set covers 80 real games spread over the file plus seeded random positions;
the whole file (2 998 games) runs under the ``slow`` marker and in ``make bench``.
"""

from __future__ import annotations

import random

import pytest

pyffish = pytest.importorskip("pyffish")

from bench.pyffish_crosscheck import (  # noqa: E402  (after the importorskip on purpose)
    GAMES_FILE,
    CrossCheck,
    check_games,
    check_positions,
    from_sf,
    read_games,
    sf_square,
    spread,
    to_sf,
)
from rules import Move, Position  # noqa: E402
from tests.rules.random_positions import play_randomly, random_placement  # noqa: E402

QUICK_GAMES = 80


@pytest.fixture(scope="module")
def games() -> list[tuple[str, list[str]]]:
    if not GAMES_FILE.exists():
        pytest.skip("../shared/data/games_iccs.txt is not present")
    return read_games()


def assert_agrees(report: CrossCheck) -> None:
    assert report.positions > 0
    shown = "\n".join(str(m) for m in report.mismatches[:10])
    assert not report.mismatches, f"{len(report.mismatches)} mismatches of {report.positions} positions:\n{shown}"


def test_square_mapping_both_ways() -> None:
    assert sf_square(0) == "a1" and sf_square(89) == "i10"
    move = Move.from_iccs("h2e2")
    assert to_sf(move) == "h3e3"
    assert from_sf("h3e3") == "h2e2" and from_sf("b10c8") == "b9c7" and from_sf("a1a10") == "a0a9"
    for sq_from, sq_to in ((0, 89), (89, 0), (4, 13), (85, 67)):
        text = to_sf(Move(sq_from, sq_to))
        assert Move.from_iccs(from_sf(text)) == Move(sq_from, sq_to)


def test_fen_conventions_match_pyffish() -> None:
    # Same start FEN, and the same FEN after a move (board, side and counters).
    start = Position.start()
    assert pyffish.start_fen("xiangqi") == start.fen()
    for line in (["h2e2", "h9g7"], ["h2h9", "i9h9", "h0g2"]):
        position = start
        for text in line:
            position = position.play(text)
        theirs = pyffish.get_fen("xiangqi", start.fen(), [to_sf(Move.from_iccs(t)) for t in line])
        assert theirs.split()[:2] == position.fen().split()[:2]


def test_game_file_has_all_games(games: list[tuple[str, list[str]]]) -> None:
    assert len(games) == 2998
    assert spread(QUICK_GAMES, len(games))[0] == 0 and spread(QUICK_GAMES, len(games))[-1] == len(games) - 1


def test_legal_moves_agree_on_a_spread_of_real_games(games: list[tuple[str, list[str]]]) -> None:
    report = check_games(games, spread(QUICK_GAMES, len(games)))
    assert_agrees(report)
    assert report.positions > 5000 and report.moves > 150_000


def test_in_check_agrees_along_real_games(games: list[tuple[str, list[str]]]) -> None:
    # Lines 3 and 64 end in mate or stalemate; 255 holds perpetual checks.
    report = check_games(games, [2, 63, 254], in_check=True)
    assert_agrees(report)
    assert report.ends >= 2 and report.checks > 150


def test_legal_moves_agree_on_random_play() -> None:
    rng = random.Random(20260)
    positions = [p for _ in range(6) for p in play_randomly(rng, 120)]
    report = check_positions(positions, "random play position")
    assert_agrees(report)


def test_legal_moves_and_checks_agree_on_random_placements() -> None:
    rng = random.Random(4242)
    placements = [random_placement(rng) for _ in range(200)]
    assert_agrees(check_positions(placements, "random placement"))
    report = check_positions(placements[:25], "random placement", check_moves=True)
    assert_agrees(report)
    assert report.checks > 100


def test_mate_and_stalemate_agree() -> None:
    # Mate: chariot on d8 guarded by the horse on c6, e9 covered by the red general; stalemate: black has no move and is not in check.
    mate = Position.from_fen("3k5/3R5/9/2N6/9/9/9/9/9/4K4 b")
    stalemate = Position.from_fen("3k5/4P4/9/9/9/9/9/9/9/4K4 b")
    assert mate.is_checkmate() and not mate.is_stalemate()
    assert stalemate.is_stalemate() and not stalemate.is_checkmate()
    report = check_positions([mate, stalemate], "end position")
    assert_agrees(report)
    assert report.ends == 2


@pytest.mark.slow
def test_legal_moves_agree_on_every_game(games: list[tuple[str, list[str]]]) -> None:
    report = check_games(games, range(len(games)))
    assert_agrees(report)
