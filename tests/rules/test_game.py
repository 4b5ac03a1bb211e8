"""``Game``: recording, game ends (art. 3, 4), the natural limit (4.2.4, 22.2) and real repetitions."""

from __future__ import annotations

import pyffish
import pytest

from rules import Game, IllegalMoveError, Move, MoveKind, Position

GameRecord = tuple[str, list[str]]


def line(games: list[GameRecord], number: int) -> GameRecord:
    """The game on 1-based line ``number`` of games_iccs.txt."""
    return games[number - 1]


def test_push_pop_and_positions() -> None:
    game = Game()
    assert game.positions == (Position.start(),) and game.moves == () and game.ply == 0
    after = game.push("h2e2")
    game.push(Move.from_iccs("h9g7"))
    assert game.position.fen().startswith("rnbakab1r/9/1c4nc1/")
    assert len(game.positions) == len(game.moves) + 1 == 3 and game.positions[1] == after
    assert game.pop() == Move.from_iccs("h9g7")
    assert game.ply == 1 and game.position == after
    with pytest.raises(IllegalMoveError):
        game.push("a0a5")
    assert game.ply == 1
    game.pop()
    with pytest.raises(IndexError):
        game.pop()


def test_occurrences_are_kept_through_pop() -> None:
    shuffle = ["h0g2", "h9g7", "g2h0", "g7h9"]
    game = Game(moves=shuffle * 2)
    assert game.occurrences() == (0, 4, 8)
    game.pop()
    assert game.occurrences() == (3, 7) and game.occurrences(4) == (0, 4)
    game.push("g7h9")
    assert game.occurrences() == (0, 4, 8)
    assert game.repetition() is not None and game.repetition(4) is None


def test_start_position_and_moves_from_fen() -> None:
    start = Position.from_fen("3k5/9/9/9/9/9/9/9/R8/5K3 w - - 0 1")
    game = Game(start, ["a1d1"])
    assert game.start == start and game.position.in_check()


@pytest.mark.parametrize(("number", "winner"), [(3, "red"), (5, "black"), (64, "red")])
def test_real_games_end_in_checkmate(games: list[GameRecord], number: int, winner: str) -> None:
    result, moves = line(games, number)
    outcome = Game(moves=moves).outcome()
    assert outcome is not None
    assert (outcome.reason, outcome.article, outcome.winner, outcome.advisory) == ("checkmate", "4.1.1", winner, False)
    assert outcome.result == result
    assert "将死" in outcome.text


def test_stalemate_is_a_loss_for_the_side_to_move() -> None:
    # Black's general on d9 cannot move (the rook on e8 covers d8 and e9) and is not in check.
    game = Game(Position.from_fen("3k5/4R4/9/9/9/9/9/9/9/5K3 b"))
    outcome = game.outcome()
    assert outcome is not None
    assert (outcome.result, outcome.reason, outcome.article, outcome.advisory) == ("1-0", "stalemate", "4.1.2", False)
    assert "困毙" in outcome.text


def test_no_outcome_in_an_ordinary_position() -> None:
    assert Game(moves=["h2e2", "h9g7"]).outcome() is None


def test_no_attacking_pieces_left_is_an_advisory_draw() -> None:
    outcome = Game(Position.from_fen("3ak4/9/9/9/9/9/9/9/4A4/5K3 w")).outcome()
    assert outcome is not None and (outcome.reason, outcome.article, outcome.advisory) == ("no_attacking_pieces", "4.2.2", True)
    assert pyffish.has_insufficient_material("xiangqi", "3ak4/9/9/9/9/9/9/9/4A4/5K3 w - - 0 1", []) == (True, True)


# --- the natural limit (4.2.4, 22.2) -------------------------------------------------------------
QUIET_FEN = "3ak4/9/9/9/9/9/9/9/R8/5K3 w"
QUIET_CYCLE = ["a1b1", "d9e8", "b1a1", "e8d9"]  # no capture, no check


def test_natural_limit_counts_rounds_since_the_last_capture() -> None:
    game = Game(Position.from_fen(QUIET_FEN), QUIET_CYCLE * 29 + QUIET_CYCLE[:3])  # 119 plies
    assert game.quiet_rounds("red") == 59 and game.natural_limit() is None
    game.push(QUIET_CYCLE[3])
    outcome = game.natural_limit()
    assert outcome is not None
    assert (outcome.result, outcome.reason, outcome.article, outcome.advisory) == ("1/2-1/2", "natural_limit", "4.2.4", True)
    assert "自然限着" in outcome.text
    assert game.natural_limit(rounds=61) is None


def test_natural_limit_is_configurable_and_counts_plies_before_the_start() -> None:
    game = Game(Position.from_fen(QUIET_FEN + " - - 70 36"), QUIET_CYCLE * 2)  # 35 + 4 rounds
    assert game.quiet_rounds("black") == 39
    assert game.natural_limit(rounds=40) is None and game.natural_limit(rounds=39) is not None


def test_a_capture_restarts_the_count() -> None:
    start = Position.from_fen("3ak4/9/9/9/p8/9/9/9/R8/5K3 w - - 100 51")
    game = Game(start, ["a1a5"])
    assert game.quiet_rounds("red") == 0


def test_at_most_ten_checks_of_the_claimant_count() -> None:
    # Red checks on every move for 120 plies: for red's claim only 10 of its 60 checks count (22.2),
    # black's claim counts all 60 rounds.
    checks = ["a1d1", "d9e9"] + ["d1e1", "e9d9", "e1d1", "d9e9"] * 29 + ["d1e1", "e9d9"]
    game = Game(Position.from_fen("3k5/9/9/9/9/9/9/9/R8/5K3 w"), checks)
    assert game.ply == 120
    assert game.quiet_rounds("red") == 10 and game.quiet_rounds("black") == 60
    outcome = game.natural_limit()
    assert outcome is not None and "black may claim" in outcome.text and "red and" not in outcome.text
    assert game.natural_limit(max_checks_counted=60) is not None and game.quiet_rounds("red", 60) == 60


# --- repetition in real master games (shared/data/README.md) --------------------------------------
def test_line_13_ends_in_a_repetition_draw(games: list[GameRecord]) -> None:
    result, moves = line(games, 13)
    game = Game(moves=moves)
    outcome = game.outcome()
    assert result == "1/2-1/2" and outcome is not None
    assert (outcome.result, outcome.reason, outcome.article, outcome.advisory) == ("1/2-1/2", "draw_both_allowed", "25.2", True)
    episode, = game.repetitions()
    assert episode.start_ply == 56 and episode.codes == ("draw_both_allowed",)


@pytest.mark.parametrize(("number", "checker", "ply", "capture_ply"), [(255, "red", 74, 65), (1019, "black", 66, None)])
def test_perpetual_check_then_a_change(games: list[GameRecord], number: int, checker: str, ply: int,
                                       capture_ply: int | None) -> None:
    result, moves = line(games, number)
    game = Game(moves=moves)
    first = game.repetitions()[0]
    verdict = first.first
    assert verdict.ply == ply and verdict.code == "perpetual_check"
    assert verdict.conduct(checker).label_zh == "长将" and verdict.winner != checker
    # the checker changed its move: the next position is new (or follows a capture) and play went on
    assert len(game.occurrences(first.end_ply + 1)) <= 1
    assert result == "1-0" and game.ply > first.end_ply + 1
    if capture_ply is not None:
        # the cycle began with a capture (Rxd9+), which 23.2 does not count
        assert game.positions[capture_ply - 1].is_capture(game.moves[capture_ply - 1])
        assert game.occurrences(ply - 1)[0] > capture_ply


@pytest.mark.parametrize(("number", "most"), [(309, 9), (2432, 8), (2701, 9), (2762, 9)])
def test_positions_repeated_eight_or_nine_times(games: list[GameRecord], number: int, most: int) -> None:
    _, moves = line(games, number)
    episodes = Game(moves=moves).repetitions()
    assert max(e.max_count for e in episodes) == most


def test_line_2432_perpetual_chase_of_a_cannon(games: list[GameRecord]) -> None:
    # Red's horse chases black's unprotected cannon (b2/c2) for eight repetitions: red must change
    # (25.3); Fairy-Stockfish agrees on the culprit (it declares red's loss at once).
    _, moves = line(games, 2432)
    game = Game(moves=moves)
    episode = game.repetitions()[-1]
    assert episode.codes == ("must_change", "forbidden_not_changed")
    assert episode.first.must_change == "red" and episode.last.winner == "black"
    assert {c.target_piece for m in episode.first.moves if m.side == "red" for c in m.chases} == {"c"}
    # black's cannon, stepping to c2, sets up ...Ne2-c1+ after which it takes the red horse on c0 over
    # the checker, whatever red answers (抽将, 24.3): a chase between idle moves, so black stays allowed
    (drawn,) = {c for m in episode.first.moves if m.side == "black" for c in m.chases}
    assert drawn.check is not None and drawn.target_piece == "N" and not episode.first.black.forbidden
    sf_moves = [f"{m[0]}{int(m[1]) + 1}{m[2]}{int(m[3]) + 1}" for m in moves[: episode.start_ply]]
    ended, value = pyffish.is_optional_game_end("xiangqi", pyffish.start_fen("xiangqi"), sf_moves)
    assert ended and value < 0 and game.positions[episode.start_ply].side_to_move == "red"


def test_line_2204_a_chase_kept_standing_by_blocking_a_check_is_not_new(games: list[GameRecord]) -> None:
    # line 2204: black's chariot chases red's chariot (ply 64); red checks (65) and black blocks with
    # its horse (66), the chase standing as before: no new chase (26.1.2 "新的"), so black's cycle has
    # an idle move and only red's (一将一杀一捉) is forbidden at ply 70: red must change (25.3). Red
    # does; black's chase is then the only forbidden play (ply 74), and black, told then, loses only
    # after two rounds without changing (23.5.2.2)
    _, moves = line(games, 2204)
    game = Game(moves=moves)
    assert game.classify(64).kind is MoveKind.CHASE and game.classify(66).kind is MoveKind.IDLE
    told = [(ply, verdict.code, verdict.must_change) for ply in range(62, 81)
            if (verdict := game.repetition(ply)) is not None]
    assert told[:2] == [(70, "must_change", "red"), (74, "must_change", "black")]
    assert min(ply for ply, code, _ in told if code == "forbidden_not_changed") == 78


def test_line_2654_a_series_of_checks_makes_both_sides_forbidden(games: list[GameRecord]) -> None:
    # Red's chariot chases black's chariot on every move. Black's ...Ri6-f6 (plies 86, 90) is not idle:
    # it sets up ...Rf6xf2+ (the advisor, which the general cannot retake: the cannon on a2 covers f2
    # over the elephant), Kf1-e1 forced, ...Rg0-g1+, Ke1-e0 forced, ...Rf2xe2 (the loose elephant):
    # a piece won by a series of checks (24.3 连续将军), so black chases on every move too. Both
    # sides' chases are of the kinds 26.9.1 lists: drawn if neither changes (26.9.4), where red,
    # taken for the only forbidden side, was lost at ply 93 before series were followed.
    _, moves = line(games, 2654)
    game = Game(moves=moves)
    (chase,) = game.classify(86).chases
    assert chase.target_piece == "B" and chase.check == Move.from_iccs("f6f2") and chase.checks == 2
    for ply, code in ((89, "draw_both_forbidden"), (93, "draw_not_changed"), (95, "draw_not_changed")):
        verdict = game.repetition(ply)  # neither changed within two rounds of ply 89: the draw is due at 93
        assert verdict is not None and verdict.code == code, ply
        assert verdict.black.forbidden and verdict.black.grave and verdict.red.grave


def test_line_1957_a_check_whose_interposition_is_mated_chases_the_chariot(games: list[GameRecord]) -> None:
    # ...Rd1-d3 sets up ...Ch3-e3+: red either takes the cannon with the chariot on e6 and loses it to
    # ...Rd3xe3, or interposes the advisor (Af0-e1) and is mated by ...Rd3-d0. The mate covers that
    # answer (a second check), so black wins the chariot by checks (24.3) and, checking on its other
    # moves, must change against red's idle moves (25.3) instead of the draw of two allowed sides.
    _, moves = line(games, 1957)
    game = Game(moves=moves)
    (chase,) = game.classify(70).chases
    assert (chase.target_piece, chase.check, chase.checks) == ("R", Move.from_iccs("h3e3"), 2)
    verdict = game.repetition(76)
    assert verdict is not None and (verdict.code, verdict.must_change) == ("must_change", "black")


def test_moves_are_numbered_as_a_scoresheet_numbers_them() -> None:
    # one home for the sheet's numbering: the alerts, the notes and the sheets all use it
    assert [Position.start().move_name(ply) for ply in (1, 2, 3)] == ["move 1 (red)", "move 1 (black)", "move 2 (red)"]
    black_first = Position.from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 5")
    assert [black_first.numbered(ply) for ply in (1, 2)] == [(5, "black"), (6, "red")]
    assert [black_first.after(ply) for ply in (0, 1, 2)] == [
        "before the first move", "after move 5 (black)", "after move 6 (red)"]
