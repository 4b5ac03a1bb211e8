"""Every repetition in the 2 998 real games against Fairy-Stockfish's verdicts (slow: about a minute).

Fairy-Stockfish (pyffish) knows perpetual check and its own reading of chases; it does not know
mate threats (杀), 23.2's capture rule or 25.3's 'change first'. So the test asks for agreement
where both speak of the same thing: a side we find perpetually checking loses there too, and
whenever Fairy-Stockfish names a loser we name no other side and never call it a draw.
"""

from __future__ import annotations

from collections import Counter

import pyffish
import pytest

from rules import Game, RepetitionVerdict

GameRecord = tuple[str, list[str]]
START = pyffish.start_fen("xiangqi")


def culprit(verdict: RepetitionVerdict) -> str | None:
    if verdict.code in ("perpetual_check", "forbidden_not_changed"):
        return "black" if verdict.winner == "red" else "red"
    return verdict.must_change


def raw_count(game: Game, ply: int) -> int:
    """Occurrences of the position at ``ply`` counting the one a capture produced (unlike 23.2)."""
    position, count = game.positions[ply], 0
    for index in range(ply, -1, -1):
        count += game.positions[index] == position
        if index and game.positions[index - 1].is_capture(game.moves[index - 1]):
            break
    return count


@pytest.mark.slow
def test_repetition_verdicts_agree_with_pyffish(games: list[GameRecord]) -> None:
    tally: Counter[str] = Counter()
    for _, moves in games:
        game = Game(moves=moves)
        if not game.repetitions():
            continue
        converted = [f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}" for m in moves]
        for ply in range(1, game.ply + 1):
            if len(game.occurrences(ply)) < 2 and raw_count(game, ply) < 3:
                continue
            ended, value = pyffish.is_optional_game_end("xiangqi", START, converted[:ply])
            verdict = game.repetition(ply)
            mover = game.positions[ply].side_to_move
            loser = None if not ended or value == 0 else (mover if value < 0 else ("black" if mover == "red" else "red"))
            if verdict is not None and verdict.code == "perpetual_check":
                assert ended and loser == culprit(verdict), (moves[:ply], verdict.describe())
            if loser is None:
                tally["pyffish draw or nothing" if verdict is None else f"pyffish draw, ours {verdict.code}"] += 1
                continue
            if verdict is None:
                assert raw_count(game, ply) >= 3  # 23.2: the cycle's first move was a capture
                tally["pyffish loss, ours one ply later (23.2)"] += 1
                continue
            assert culprit(verdict) == loser, (moves[:ply], verdict.describe())
            tally[f"pyffish loss, ours {verdict.code}"] += 1
    print(dict(tally))
    assert tally["pyffish loss, ours perpetual_check"] > 50
