"""The 棋例 kind of single moves (art. 24, 26): 将, 杀, 捉 and 闲 on hand-built positions."""

from __future__ import annotations

import pytest

from rules import Game, Move, MoveKind, Position, classify_move, move_kinds
from rules.move_kinds import SHORT_ROOT, chases, chases_by_check, mates_by_checks
from rules.squares import parse_square, square_name


def kind_of(fen: str, iccs: str, previous: str | None = None) -> tuple[MoveKind, str]:
    position = Position.from_fen(fen)
    before = Move.from_iccs(previous) if previous else None
    found = classify_move(position, Move.from_iccs(iccs), 1, before)
    return found.kind, found.describe()


def test_check_is_the_heaviest_kind() -> None:
    kind, _ = kind_of("3k5/9/9/9/9/9/9/9/R8/5K3 w", "a1d1")
    assert kind is MoveKind.CHECK


def test_chariot_attacking_a_protected_horse_is_not_a_chase() -> None:
    # 24.15/24.3: the rook on c9 protects the horse; R for N is a loss, so the move only follows (跟).
    kind, text = kind_of("2r1k4/9/2n6/9/9/9/9/7R1/9/5K3 w", "h2h7")
    assert kind is MoveKind.IDLE
    assert "跟" in text


def test_horse_attacking_a_protected_chariot_is_a_chase() -> None:
    # 24.3: the exchange still wins (a chariot for a horse), protected or not.
    kind, text = kind_of("2r1k4/9/9/2r6/9/9/5N3/9/9/5K3 w", "f3e5")
    assert kind is MoveKind.CHASE
    assert "chariot attacked by a red horse" in text


def test_horse_move_that_attacks_nothing_is_idle() -> None:
    kind, _ = kind_of("2r1k4/9/9/2r6/9/9/9/5N3/9/5K3 w", "f2e4")
    assert kind is MoveKind.IDLE


def test_pinned_protector_is_a_false_root() -> None:
    # 24.16: the c9 rook is pinned to its general by the a9 rook, so the horse counts as unprotected.
    # (the advisor e8 keeps the bare general from a mate by three checks, a 杀 that would outrank it)
    kind, text = kind_of("R1r1k4/4a4/2n6/9/9/9/9/7R1/9/5K3 w", "h2h7")
    assert kind is MoveKind.CHASE
    assert "false root" in text and "假根" in text


def test_a_soldier_whose_capture_would_uncover_a_check_chases_26_8() -> None:
    # the chariot comes behind the crossed soldier on the e-file: soldier takes horse would give check
    # by the chariot, so the soldier's attack on the loose horse counts as a chase (26.8), though a
    # soldier may otherwise chase freely (26.1)
    kind, text = kind_of("4k4/9/9/3nP4/9/9/9/9/R8/3K5 w", "a1e1")
    assert kind is MoveKind.CHASE and "red soldier e6 chases black horse d6" in text
    assert kind_of("4k4/9/9/3nP4/9/9/9/9/R8/3K5 w", "a1b1")[0] is MoveKind.IDLE  # the soldier's own chase


def test_a_new_chase_by_a_chariot_counts_though_a_soldier_already_attacked_the_piece() -> None:
    # the soldier on d5 may chase the horse (26.1); the chariot coming to a6 chases it for real
    kind, text = kind_of("4k4/9/9/3n5/3P5/9/9/9/9/R2K5 w", "a0a6")
    assert kind is MoveKind.CHASE and "red chariot a6 chases black horse d6" in text


def test_a_piece_whose_protector_would_lose_more_by_recapturing_is_short_of_protectors() -> None:
    # 24.15 少根子: the c9 chariot guards the c5 cannon, but NxC or CxC, RxN, CxR (or NxR) costs black
    # the chariot, so black would not recapture; it is chased, but not of 26.9.1's grave kinds.
    (chase,) = chases(Position.from_fen("2r1k4/9/9/9/2c6/9/2PN5/9/2C6/3K5 w"))
    assert (square_name(chase.target), chase.reason, chase.grave) == ("c5", SHORT_ROOT, False)
    assert chases(Position.from_fen("2r1k4/9/9/9/2c6/9/2P6/9/2C6/3K5 w")) == []  # without the horse: even
    (pinned,) = [c for c in chases(Position.from_fen("R1r1k4/9/2n6/9/9/9/9/7R1/9/5K3 w")) if c.target_piece == "r"]
    assert pinned.grave  # a chariot, unprotected


def test_offering_an_exchange_of_chariots_is_idle_unless_the_target_is_unprotected() -> None:
    kind, text = kind_of("2r1k4/9/2r6/9/9/9/9/7R1/9/5K3 w", "h2h7")
    assert kind is MoveKind.IDLE and "兑" in text  # 24.4
    kind, text = kind_of("4k4/9/2r6/9/9/9/9/7R1/9/5K3 w", "h2h7")
    assert kind is MoveKind.CHASE and "unprotected" in text  # 26.10
    # backed by another chariot, the offer could be taken up at no loss, but it also wins the loose
    # chariot if it is not: 兑兼捉 is a chase (26.4). A player tester took it for 兑 alone; the
    # replay now says why it is not
    kind, text = kind_of("4ka3/4a4/2r6/9/9/9/9/7RR/9/3K5 w", "h2h7")  # advisors: no 杀 by three checks
    assert kind is MoveKind.CHASE and "an offer that also chases is a chase (兑兼捉, 26.4" in text


def test_under_protected_piece_is_chased() -> None:
    # 24.15 少根子: the elephant alone guards the horse on g5 against the red horse and chariot;
    # NxN, BxN, RxB wins the elephant. Without the chariot it is a plain exchange offer (兑).
    kind, text = kind_of("4k4/9/4b4/9/6n2/9/9/3N5/9/3K2R2 w", "d2e4")
    assert kind is MoveKind.CHASE and "wins material in the exchange" in text
    kind, text = kind_of("4k4/9/4b4/9/6n2/9/9/3N5/9/3K5 w", "d2e4")
    assert kind is MoveKind.IDLE and "exchange (兑) the red horse for the black horse on g5" in text


def test_general_move_uncovering_a_chariot_chase_is_a_chase() -> None:
    # 26.1.1: the general steps aside and its chariot now attacks the unprotected horse.
    kind, text = kind_of("5k2r/9/9/9/4n4/9/9/9/4K4/4R4 w", "e1d1")
    assert kind is MoveKind.CHASE
    assert "chariot e0 chases black horse e5" in text


def test_general_answering_check_makes_no_chase() -> None:
    # 26.1.2: black's general escapes the check and so uncovers its chariot's attack on d0: idle.
    kind, text = kind_of("3k1Rb2/9/b8/6C2/6p1p/9/P2r2P1P/c3n4/N3A4/3A1K3 b", "d9d8")
    assert kind is MoveKind.IDLE
    assert "26.1.2" in text


def test_other_piece_answering_check_with_a_new_chase_is_a_chase() -> None:
    # 26.1.2: blocking the check with the chariot, which then attacks the unprotected red chariot.
    kind, text = kind_of("4k4/9/9/r6N1/9/9/9/4R4/9/3K5 b", "a6e6")
    assert kind is MoveKind.CHASE
    assert "chases red chariot e2" in text
    # the blocking chariot is pinned, so it does not chase the horse on h6
    assert "h6" not in text


def test_soldier_that_has_just_crossed_is_not_chased() -> None:
    # 26.7: taking a soldier that has just crossed the river is no gain; one that crossed earlier is.
    fen = "4k4/9/9/9/4P4/9/9/9/3K5/6r2 b"
    assert kind_of(fen, "g0g5", previous="e4e5")[0] is MoveKind.IDLE
    assert kind_of(fen, "g0g5", previous="d1d0")[0] is MoveKind.CHASE


def test_soldier_before_the_river_is_no_target() -> None:
    position = Position.from_fen("3ak4/9/9/2p3p2/9/9/2R6/9/9/3K5 w")
    assert chases(position) == []
    crossed = Position.from_fen("3ak4/9/9/9/9/2p3p2/9/2R6/9/3K5 w")
    assert [c.target_piece for c in chases(crossed)] == ["p"]


def test_capture_that_gets_the_capturer_mated_is_no_chase() -> None:
    # 24.3 and the 1999 text's 细则 7: after Rxh5 black mates with Ri0 (the horse covers f1).
    assert chases(Position.from_fen("4k3r/9/9/9/7c1/9/6n2/9/9/5K1R1 w")) == []
    assert len(chases(Position.from_fen("4k3r/9/9/9/7c1/9/9/9/9/5K1R1 w"))) == 1


def test_mate_threat() -> None:
    # 24.2: the advisor leaves e8, the generals' file opens and ...Rf9 would mate.
    assert kind_of("4k3r/4a4/9/9/9/9/9/9/9/R2A1K3 b", "e8d9")[0] is MoveKind.MATE_THREAT
    assert kind_of("4k3r/4a4/9/9/9/9/9/9/9/R2A1K3 b", "i9i8")[0] is MoveKind.IDLE


@pytest.mark.parametrize(("fen", "depth", "expected"), [
    ("4k3r/9/9/9/9/9/9/9/9/R2A1K3 b", 1, True),  # Rf9 mates at once
    ("4k3r/4a4/9/9/9/9/9/9/9/R2A1K3 b", 2, False),
])
def test_mates_by_checks(fen: str, depth: int, expected: bool) -> None:
    assert mates_by_checks(Position.from_fen(fen), depth) is expected


# --- 抽将: material won by checking first (24.3 "从下一着开始运用将军...得子") ---------------------------

LOOSE_HORSE_BEHIND_A_CHECK = "3k5/9/9/9/9/9/6n2/2c6/4A4/2NAK4 b"


def test_a_piece_won_after_a_check_is_chased_and_named_by_its_real_square() -> None:
    # the black horse comes to e2: next ...Ne2-c1+ and, whatever red answers, the cannon on c2 takes
    # the loose red horse on c0 over the checker (the only answers are general moves)
    kind, text = kind_of(LOOSE_HORSE_BEHIND_A_CHECK, "g3e2")
    assert kind is MoveKind.CHASE
    assert "black cannon c2 chases red horse c0 (after the check e2c1, 抽将: unprotected)" in text
    (chase,) = chases_by_check(Position.from_fen(LOOSE_HORSE_BEHIND_A_CHECK).play("g3e2").with_side_to_move("black"))
    assert chase.grave and chase.check == Move.from_iccs("e2c1")


def test_an_interposed_piece_is_named_by_the_square_it_comes_from() -> None:
    # game 2036 (ply 62): ...Rd8-b8 threatens ...Rb0+; red must interpose (advisor e1-d0 or elephant
    # a2-c0) and the cannon on a0 takes the interposer, which the general cannot retake (the chariot
    # guards it: 24.16). The advisor is taken on d0 but named where it stands now, e1.
    kind, text = kind_of("2b1ka3/3r5/4b4/p1p6/9/2P1P4/8R/B4C2B/4A4/c3K4 b", "d8b8")
    assert kind is MoveKind.CHASE
    assert "black cannon a0 chases red advisor e1 (after the check b8b0, 抽将: false root" in text


def test_a_follow_up_capture_answered_by_an_equal_recapture_is_no_chase() -> None:
    # with a red horse on b2 guarding c0, cannon takes horse and horse takes cannon: even (24.15, 26.6)
    assert kind_of("3k5/9/9/9/9/9/6n2/1Nc6/4A4/2NAK4 b", "g3e2")[0] is MoveKind.IDLE


def test_a_check_that_wins_nothing_is_no_chase() -> None:
    # with a red chariot on a1 the answer to ...Nc1+ is to take the checker: the cannon then wins nothing
    # (the horse on c0 is taken over no screen), so the whole line loses a horse
    assert kind_of("3k5/9/9/9/9/9/6n2/2c6/R3A4/2NAK4 b", "g3e2")[0] is MoveKind.IDLE
    assert kind_of("3k5/9/9/9/9/9/6n2/9/4A4/2NAK4 b", "g3e2")[0] is MoveKind.IDLE  # nothing to take after


def test_a_capturing_check_that_removes_a_protector_is_a_chase() -> None:
    # game 2503 (ply 100): the soldier steps aside, opening the g-file: ...Cg9xg0+ takes the elephant
    # that guards e2 with check, red's only answer Rg6xg0 takes the cannon, and ...Re4xe2 wins the now
    # loose cannon: a cannon and an elephant for a cannon. 26.1.1: the soldier's move counts as a chase.
    # The cannon had its elephant and black gives a cannon to win it: won in an exchange, so not a
    # chase of a loose piece that 26.9.1 makes grave.
    fen = "2bak1c2/4a4/4bn3/2P3R2/9/4r4/2C3p2/4C4/4A4/4KAB2 b"
    kind, text = kind_of(fen, "g3f3")
    assert kind is MoveKind.CHASE
    assert "black chariot e4 chases red cannon e2 (after the check g9g0, 抽将: wins material in the exchange)" in text
    (chase,) = chases_by_check(Position.from_fen(fen).play("g3f3").with_side_to_move("black"))
    assert not chase.grave


def test_a_soldier_taking_after_another_piece_checks_is_not_a_chase() -> None:
    # 26.8 "兵（卒）借其他子抽吃对方的子，按闲处理": with a soldier on b0 in the cannon's place, the same
    # check leaves the horse to the soldier only; the soldier's own attack on c0 is allowed (26.1)
    position = Position.from_fen("3k5/9/9/9/9/9/9/4n4/4A4/1pNAK4 b")
    assert chases_by_check(position) == []
    assert kind_of("3k5/9/9/9/9/9/6n2/9/4A4/1pNAK4 b", "g3e2")[0] is MoveKind.IDLE
    assert chases_by_check(Position.from_fen("3k5/9/9/9/9/9/9/2c1n4/4A4/2NAK4 b"))  # a cannon's take counts


def test_a_soldiers_allowed_attack_does_not_hide_a_chase_by_check_of_the_same_piece() -> None:
    # the loose horse on c0 is attacked by a black soldier on b0 (allowed, 26.1) and, once the horse
    # comes to e2, won by the cannon after ...Ne2-c1+: that chase counts
    kind, text = kind_of("3k5/9/9/9/9/9/6n2/2c6/4A4/1pNAK4 b", "g3e2")
    assert kind is MoveKind.CHASE and "black cannon c2 chases red horse c0 (after the check e2c1" in text


def test_a_discovered_check_forking_a_chariot_is_a_chase() -> None:
    # game 723 (ply 120): ...Rb5-d5 lines up behind the horse on d2; ...Nd2-c4 gives a discovered check
    # and attacks the chariot on e3: the general's move or the chariot interposing on d3 loses it
    kind, text = kind_of("4kab2/4a4/4b4/1PP1C4/1r6p/9/4R3P/3nB4/3K5/2B6 b", "b5d5")
    assert kind is MoveKind.CHASE and "black horse d2 chases red chariot e3 (after the check d2c4, 抽将" in text


def test_a_chase_by_check_that_stood_before_the_move_is_not_new() -> None:
    # 29.2 (1999): with the cannon already on c2 and the horse on e2, a move elsewhere chases nothing new
    assert kind_of("3k5/9/9/9/9/9/9/2c1n4/4A4/2NAK4 b", "d9d8")[0] is MoveKind.IDLE


# --- 连续将军: material won by a series of checks (24.3 "从下一着开始运用将军或连续“将军”得子") ------------

# The black general on e9 between its advisors, a loose black chariot on e4, the red horse on h6 (the
# black soldier on g6 closes its way to f7). Nh6-g8+ leaves only ...Ke8; Ng8-f6+ checks again and forks
# the chariot. The red general on d0 keeps the black one off d8 (facing generals).
SERIES = "3aka3/9/9/6pN1/9/4r4/9/9/9/3K5 w"


def answers(fen: str, *line: str) -> set[str]:
    """The legal replies after playing ``line`` from ``fen`` (the project's own move generator)."""
    position = Position.from_fen(fen)
    for iccs in line:
        position = position.play(iccs)
    return {m.iccs for m in position.legal_moves()}


def test_a_two_check_series_that_wins_a_loose_chariot_is_a_chase() -> None:
    assert answers(SERIES, "h6g8") == {"e9e8"}
    assert answers(SERIES, "h6g8", "e9e8", "g8f6") == {"e8f8", "e8e9", "e8e7"}
    for reply in ("e8f8", "e8e9", "e8e7"):
        assert "f6e4" in answers(SERIES, "h6g8", "e9e8", "g8f6", reply)  # the horse takes the chariot
    position = Position.from_fen(SERIES)
    assert chases(position) == []  # nothing is won directly, nor after a single check
    (chase,) = chases_by_check(position)
    assert (square_name(chase.attacker), square_name(chase.target), chase.target_piece) == ("h6", "e4", "r")
    assert chase.check == Move.from_iccs("h6g8") and chase.checks == 2 and chase.grave
    with pytest.MonkeyPatch.context() as patch:  # one check alone does not do it
        patch.setattr(move_kinds, "CHECK_SERIES_MAX", 1)
        move_kinds._chases_by_check.cache_clear()
        assert chases_by_check(position) == []
    move_kinds._chases_by_check.cache_clear()
    # the horse coming to h6 makes the chase: new, as from i8 it gives no check at all
    before = "3aka3/8N/9/6p2/9/4r4/9/9/9/3K5 w"
    assert chases_by_check(Position.from_fen(before)) == []
    kind, text = kind_of(before, "i8h6")
    assert kind is MoveKind.CHASE
    assert "red horse h6 chases black chariot e4 (after 2 checks from h6g8, 连续将军 抽将: unprotected)" in text


def test_a_series_chase_that_stood_before_the_move_is_not_new() -> None:
    after = Position.from_fen(SERIES).play("d0d1").with_side_to_move("red")
    assert [square_name(c.target) for c in chases_by_check(after)] == ["e4"]
    assert kind_of(SERIES, "d0d1")[0] is MoveKind.IDLE


def test_a_series_with_one_escaping_reply_is_no_chase() -> None:
    # the red general on f0 instead: after the second check ...Ke8-f8 puts the horse on f6 between the
    # generals, and Nf6xe4 would leave them facing (illegal), so that answer saves the chariot
    fen = "3aka3/9/9/6pN1/9/4r4/9/9/9/5K3 w"
    assert answers(fen, "h6g8") == {"e9e8"}
    assert "e8f8" in answers(fen, "h6g8", "e9e8", "g8f6")
    assert "f6e4" not in answers(fen, "h6g8", "e9e8", "g8f6", "e8f8")
    assert "f6e4" in answers(fen, "h6g8", "e9e8", "g8f6", "e8e9")  # the other answers still lose it
    assert chases_by_check(Position.from_fen(fen)) == []
    assert kind_of("3aka3/8N/9/6p2/9/4r4/9/9/9/5K3 w", "i8h6")[0] is MoveKind.IDLE


@pytest.mark.parametrize("fen", [
    "3aka3/9/9/6pN1/9/9/9/9/9/3K5 w",  # the same checks with nothing to win
    "3aka3/9/9/6pN1/9/r3c4/9/9/9/3K5 w",  # a cannon on e4 guarded by the chariot on a4: horse for cannon, even
])
def test_checks_that_gain_nothing_are_no_chase(fen: str) -> None:
    assert answers(fen, "h6g8") == {"e9e8"}
    assert answers(fen, "h6g8", "e9e8", "g8f6") == {"e8f8", "e8e9", "e8e7"}
    after = Position.from_fen(fen).play("h6g8").play("e9e8").play("g8f6").play("e8e9")
    assert {m.iccs for m in after.legal_moves() if after.gives_check(m)} >= {"f6g8", "f6d7"}  # checks go on
    if Position.from_fen(fen).piece_at("e4"):
        assert "a4e4" in answers(fen, "h6g8", "e9e8", "g8f6", "e8e9", "f6e4")  # the cannon is retaken
    assert chases_by_check(Position.from_fen(fen)) == []


@pytest.mark.parametrize(("fen", "line", "replies", "take"), [
    # 兵借其他子抽吃 (26.8): ...Rd8-f8+ Kf1-e1 (forced), ...Pc1-d1+ Ke1-e2 or -e0, and the soldier takes the
    # advisor on d0: after Ke0 the general cannot retake (it would face the black general on the d-file)
    ("9/3r5/3k5/9/9/9/9/9/2p2K3/3A5 b", ("d8f8", "f1e1", "c1d1"), {"e1e2", "e1e0"}, "d1d0"),
    # the soldier's own checks (26.1): Ph7-g7+ Kf7-f8 (forced), Pg7-g8+ Kf8-f9 or -f7, and Pg8xg9 takes the
    # elephant, which the general cannot retake outside its palace
    ("6b2/4a4/5k1P1/9/9/9/9/4K4/9/9 w", ("h7g7", "f7f8", "g7g8"), {"f8f9", "f8f7"}, "g8g9"),
])
def test_a_series_that_only_a_soldier_wins_from_is_no_chase(fen: str, line: tuple[str, ...], replies: set[str],
                                                            take: str) -> None:
    first, forced, second = line
    assert answers(fen, first) == {forced}
    assert answers(fen, first, forced, second) == replies
    for reply in replies:
        after = Position.from_fen(fen).play(first).play(forced).play(second).play(reply)
        assert take in {m.iccs for m in after.legal_moves()}  # the soldier can take the piece
        point = Move.from_iccs(take).to_square
        assert not any(m.to_square == point for m in after.play(take).legal_moves())  # and keep it
    assert chases_by_check(Position.from_fen(fen)) == []


def test_a_reply_met_by_mate_is_covered() -> None:
    # game 1957 (ply 70): ...Rd1-d3 sets up ...Ch3-e3+ (over the elephant). Red takes the cannon with the
    # chariot (Re6xe3, and ...Rd3xe3 wins the chariot) or interposes the advisor (Af0-e1, and ...Rd3-d0
    # mates): the mate, a second check, covers that answer, so the chariot is won by checks
    fen = "2bk1a3/4a1N2/n3b4/p3R1p1p/2p6/P5P2/7cP/4B4/3r5/2C1KAB2 b"
    threat = Position.from_fen(fen).play("d1d3").with_side_to_move("black").fen()  # were red to pass
    assert answers(threat, "h3e3") == {"f0e1", "e6e3"}
    mated = Position.from_fen(threat).play("h3e3").play("f0e1").play("d3d0")
    assert mated.in_check() and not mated.legal_moves()
    assert "d3e3" in answers(threat, "h3e3", "e6e3")
    kind, text = kind_of(fen, "d1d3")
    assert kind is MoveKind.CHASE
    assert "black chariot d3 chases red chariot e6 (after 2 checks from h3e3, 连续将军 抽将: unprotected)" in text


# From the shared games, the costliest series search there: a 3-check chase of the advisor on f7
COSTLY = "2b5C/5k3/4ba3/9/p1c2R2P/9/P8/1r3C3/3KA4/c4AB2 w"


def test_the_series_search_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[move_kinds._Series] = []

    class Recorded(move_kinds._Series):
        def __init__(self, real: Position) -> None:
            super().__init__(real)
            made.append(self)

    monkeypatch.setattr(move_kinds, "_Series", Recorded)
    move_kinds._chases_by_check.cache_clear()
    (chase,) = chases_by_check(Position.from_fen(COSTLY))
    assert chase.checks == 3 and made[-1].spent <= move_kinds.SERIES_WORK_MAX
    monkeypatch.setattr(move_kinds, "SERIES_WORK_MAX", 60)  # less work than it needs: the lines left escape
    move_kinds._chases_by_check.cache_clear()
    assert chases_by_check(Position.from_fen(COSTLY)) == []
    # the budget is looked at before each follow-up search: past it, at most one search's captures
    assert 60 <= made[-1].spent <= 60 + 20
    monkeypatch.setattr(move_kinds, "SERIES_WORK_MAX", 0)  # no series at all: the single checks stay
    move_kinds._chases_by_check.cache_clear()
    assert chases_by_check(Position.from_fen(SERIES)) == []
    assert chases_by_check(Position.from_fen(LOOSE_HORSE_BEHIND_A_CHECK).play("g3e2").with_side_to_move("black"))
    move_kinds._chases_by_check.cache_clear()


@pytest.mark.parametrize(("fen", "kind"), [
    # the chariot a3 is the only root of the chariot a1, which the black chariot i1 attacks: taking the
    # cannon g3 gives a chariot for a cannon, 得不偿失: idle (26.5)
    ("3aka3/9/9/9/9/R8/6c2/9/R7r/3K5 w - - 0 1", MoveKind.IDLE),
    # nothing left behind: a chase of an unprotected cannon
    ("3aka3/9/9/9/9/R8/6c2/9/9/3K5 w - - 0 1", MoveKind.CHASE),
])
def test_a_root_taking_at_a_loss_is_idle_26_5(fen: str, kind: MoveKind) -> None:
    classified = classify_move(Position.from_fen(fen), Move.from_iccs("a4a3"))
    assert classified.kind is kind
    if kind is MoveKind.IDLE:  # the arbiter is told why
        # not 跟 (24.7 follows a piece with a root; the cannon has none)
        assert classified.notes == ("attacks the black cannon on g3 but cannot win it: taking it would leave the "
                                    "red chariot on a1 to be taken, 得不偿失 (26.5)",)


def test_a_pinned_piece_taking_at_a_loss_does_not_chase_26_5() -> None:
    # a tester's case: the horse c2 takes the cannon e3 only by uncovering the chariot c0 to the black
    # chariot c7 (被牵子, 26.5). The move still chases by checking first (c0d0, then the horse is free)
    position = Position.from_fen("3k5/9/2r6/9/9/9/4c4/2NA5/9/2R2K3 w - - 0 1")
    (chase,) = classify_move(position, Move.from_iccs("d2e1")).chases
    assert chase.check == Move.from_iccs("c0d0")


def test_a_piece_that_can_be_taken_only_at_a_loss_is_not_offered_24_5() -> None:
    # an arbiter tester: the advisor put between the chariot and its general was noted 献, though the
    # chariot taking it is retaken by the general (a chariot for an advisor: 24.5 says no offer)
    blocked = classify_move(Position.from_fen("R3ka3/4a4/2c6/9/9/9/9/9/9/5K3 b - - 0 1"), Move.from_iccs("e8d9"))
    assert not any("献" in note for note in blocked.notes)
    # a horse put where the chariot takes it for free is offered
    free = classify_move(Position.from_fen("3k5/9/9/9/9/9/9/R8/9/4K1n2 b - - 0 1"), Move.from_iccs("g0h2"))
    assert any("offers (献) the black horse on h2" in note for note in free.notes), free.notes


def test_a_cannon_over_its_own_screen_chases_jointly_24_17() -> None:
    # the horse on b4 is the cannon's screen: without it the cannon could not take (联合捉子)
    found = chases(Position.from_fen("3k5/9/1r7/9/9/1N7/9/9/9/1C2K4 w"))
    assert [(square_name(c.attacker), square_name(c.target), c.joint) for c in found] == [("b0", "b7", True)]
    assert [square_name(sq) for sq in found[0].partners] == ["b4"]
    assert "jointly with b4 (联合捉子)" in found[0].describe()


def test_a_chariot_alone_on_a_loose_piece_is_no_joint_chase() -> None:
    found = chases(Position.from_fen("3k5/9/9/1n7/9/1R7/9/9/9/4K4 w"))
    assert [(square_name(c.target), c.joint) for c in found] == [("b6", False)]


def test_two_attackers_on_a_piece_protected_once_chase_it_jointly() -> None:
    # the chariot behind the horse protects it: the red chariot alone would lose itself for a horse,
    # with the red horse also attacking it the exchange wins; neither piece alone chases it
    found = chases(Position.from_fen("1r1k5/9/9/1n7/9/N8/9/1R7/9/4K4 w"))
    assert [(square_name(c.target), c.joint) for c in found] == [("b6", True)]
    assert not chases(Position.from_fen("1r1k5/9/9/1n7/9/N8/9/9/9/4K4 w"))
    assert not chases(Position.from_fen("1r1k5/9/9/1n7/9/9/9/1R7/9/4K4 w"))


def test_a_piece_shielding_its_own_general_is_no_partner_in_a_chase() -> None:
    # the red advisor on e1 blocks the black chariot's file to the red general: taking it off would
    # leave red in check, which says nothing about the chariot's chase of the loose horse
    found = chases(Position.from_fen("3k5/9/9/1n7/9/1R7/9/4r4/4A4/4K4 w"))
    assert [(square_name(c.target), c.partners) for c in found] == [("b6", ())]


def _placed(pieces: dict[str, str]) -> Position:
    board = ["."] * 90
    for name, piece in pieces.items():
        board[parse_square(name)] = piece
    return Position("".join(board), "red")


def test_a_second_shield_of_the_general_is_no_partner() -> None:
    # (a reviewer's case) the chariot e2 takes the loose horse a2; the horse e4 only doubles the
    # shield of the general e0 against the black chariot e8: without it the chariot is pinned
    (chase,) = chases(_placed({"e0": "K", "e2": "R", "e4": "N", "e8": "r", "d9": "k", "a2": "n"}))
    assert chase.partners == ()


def test_a_cannon_screen_that_also_shields_the_general_is_a_partner() -> None:
    # the cannon a2 jumps the horse e2, which also shields the general e0, to take the loose horse h2
    (chase,) = chases(_placed({"e0": "K", "a2": "C", "e2": "N", "e8": "r", "d9": "k", "h2": "n"}))
    assert chase.partners == (parse_square("e2"),)


def test_the_general_as_a_cannon_screen_is_a_partner() -> None:
    (chase,) = chases(_placed({"e1": "K", "e0": "C", "d9": "k", "e6": "n", "a9": "r"}))
    assert chase.partners == (parse_square("e1"),)


def test_a_piece_keeping_a_defenders_line_shut_is_a_partner() -> None:
    # the horse b8 stands between the black chariot b9 and the black cannon b6 it would protect:
    # without it the red chariot's capture loses the chariot for a cannon (24.17, read as written)
    (chase,) = chases(_placed({"e0": "K", "b2": "R", "b6": "c", "b8": "N", "b9": "r", "d9": "k"}))
    assert chase.partners == (parse_square("b8"),)


def _cycle_kinds(fen: str, moves: list[str]) -> tuple[Game, list[MoveKind]]:
    game = Game(Position.from_fen(fen), moves)
    return game, [game.classify(ply).kind for ply in range(1, len(moves) + 1)]


def test_a_root_leaving_to_check_is_the_checkers_doing() -> None:
    # 26.3 "做为根的子，自己离线断根'将军'...造成被保护的子失根被捉，责由自负": red's chariot, the horse
    # i1's only root, leaves to check; black's block lets its chariot i5 take the horse, but that is
    # red's own doing: the block is idle, black alternates idle and chase, the repetition is drawn
    game, kinds = _cycle_kinds("4k4/9/2n6/4C4/8r/9/9/4B4/R7N/4K4 w", ["a1a9", "c7d9", "a9a1", "d9c7"] * 2)
    assert kinds[:4] == [MoveKind.CHECK, MoveKind.IDLE, MoveKind.IDLE, MoveKind.CHASE]
    assert game.repetition().code == "draw_both_allowed"  # type: ignore[union-attr]


def test_a_block_that_keeps_a_standing_chase_is_not_a_new_chase() -> None:
    # 26.1.2: only a *new* chase made by answering check counts; black's chariot attacked the loose
    # horse i1 before red's check, and the block only lets it stand
    _, kinds = _cycle_kinds("4k4/9/2n6/4C4/8r/9/9/9/4A3N/R3K1B2 w", ["a0a9", "c7d9", "a9a0", "d9c7"] * 2)
    assert kinds[1] is MoveKind.IDLE


def test_a_mate_threat_the_check_left_open_is_self_inflicted() -> None:
    # 24.18 自毙, 26.3: red's cannon checks from c9 and so leaves its back rank to black's chariots;
    # the threat after black's block is red's own doing, not a new one (nor is winning the checker
    # by checking, which its own landing left open)
    game, kinds = _cycle_kinds("3ak4/r6N1/9/9/r8/9/9/4pp3/9/2C2K3 w", ["c0c9", "d9e8", "c9c0", "e8d9"] * 2)
    assert kinds[1] is MoveKind.IDLE and "自毙" in game.classify(2).kind_text
    assert game.repetition().code == "draw_both_allowed"  # type: ignore[union-attr]


def test_a_mate_threat_by_three_checks_in_a_row_is_a_mate_threat() -> None:
    # 24.2 杀 "...下一着将军或连续将军以将死对方" sets no limit on the checks (a reviewer's case): after
    # Rd6-d7, Rh6-f6+ Ae8-f7 Rf6xf7+ Kf8-e8 Rd7-e7 mates; after Rd7-d6 (the general on f9) Rd6-f6+
    # mates within three checks. Red's shuttle is 长杀, forbidden against black's idle parries (25.3)
    start = Position.from_fen("9/4ak3/9/3R3R1/1C7/9/r8/9/3K1c3/9 w")
    game = Game(start, ["d6d7", "f8f9", "d7d6", "f9f8"] * 2)
    assert mates_by_checks(game.positions[1].with_side_to_move("red"), 3)
    assert not mates_by_checks(game.positions[1].with_side_to_move("red"), 2)
    assert [game.classify(ply).kind for ply in (1, 3)] == [MoveKind.MATE_THREAT] * 2
    verdict = game.repetition()
    assert verdict is not None and (verdict.code, verdict.must_change) == ("must_change", "red")


def test_an_answer_to_a_discovered_check_is_not_charged_with_the_roots_own_desertion() -> None:
    # 26.3 "做为根的子，自己离线断根'将军'...责由自负" (a reviewer's case): black's horse e5 guards the
    # cannon c4 (attacked by red's horse b2) and closes its chariot's e-file; ...Ne5-g6 uncovers check
    # and leaves c4 rootless. Red's block Rh2-e2 takes no part in the attack on c4: idle, not a chase
    # (the chariot, removed to judge what stood open, was all that kept the generals from facing)
    game = Game(Position.from_fen("3ak4/4r4/7c1/9/4n4/2c6/9/1N5R1/9/4K4 b"), ["e5g6", "h2e2", "g6e5", "e2h2"] * 2)
    assert game.classify(1).kind is MoveKind.CHECK
    assert game.classify(2).kind is MoveKind.IDLE, game.classify(2).describe()
    verdict = game.repetition()
    assert verdict is not None and (verdict.code, verdict.result) == ("draw_both_allowed", "1/2-1/2")
    # the same desertion by a direct check was judged so already
    direct = Game(Position.from_fen("3k2b2/9/2r6/7c1/9/2c6/9/1N5R1/9/4K4 b"), ["c7e7", "h2e2", "e7c7", "e2h2"] * 2)
    assert direct.classify(2).kind is MoveKind.IDLE and direct.repetition().code == "draw_both_allowed"  # type: ignore[union-attr]


def test_a_block_making_a_chase_of_its_own_is_still_a_chase() -> None:
    # 26.1.2: a chase the answer itself makes is new, with the earlier position known too
    game = Game(Position.from_fen("4k4/9/9/r6N1/9/9/9/3R5/9/3K5 w"), ["d2e2", "a6e6"])
    assert game.classify(2).kind is MoveKind.CHASE and "chases red chariot e2" in game.classify(2).kind_text


def test_horse_offered_beside_a_chariot_to_a_rooted_horse_is_an_exchange_offer() -> None:
    # 26.11.2 (车马同时与马): the black horse d7 has a root (the advisor); taken up, the offer is horse
    # for horse (Nd7xc5 Rd5xc5) and the root loses nothing: 兑, idle. Red's cycle is one offer and
    # one chase of the loose cannon: allowed, and the repetition is drawn
    game, kinds = _cycle_kinds("5kb2/4a4/3n5/9/3R5/N8/2c6/9/9/3K5 w", ["a4c5", "g9i7", "c5a4", "i7g9"] * 2)
    assert kinds[0] is MoveKind.IDLE and "26.11.2" in game.classify(1).kind_text
    assert game.repetition().code == "draw_both_allowed"  # type: ignore[union-attr]


def test_a_lone_attackers_chase_of_an_elephant_carries_the_key_point_note() -> None:
    # 26.2 守和要点: with one attacking piece left, a chase of an advisor or elephant may be idle if the
    # piece holds a key point for the draw: the arbiter judges; the move says so
    kind, text = kind_of("2b1k4/9/9/9/9/9/9/9/9/R2K5 w", "a0a9")
    assert kind is MoveKind.CHASE and "26.2" in text
    kind, text = kind_of("2b1k4/9/9/9/9/9/9/9/9/R2KN4 w", "a0a9")  # two attackers: no such note
    assert kind is MoveKind.CHASE and "26.2" not in text


def test_the_piece_a_check_took_excuses_nothing_and_a_general_uncovering_check_is_read() -> None:
    # a reviewer: a capturing check left the piece it took on the board the answer was measured
    # against, so a new chase (and a new mate threat) read as idle; a general stepping aside to
    # uncover a cannon's check was taken off the board, and classifying the answer crashed
    game = Game(Position.from_fen("4k4/9/4r4/9/C1p1r2N1/9/9/9/9/3K5 w"), ["a5e5", "e7h7"])
    assert game.classify(2).kind is MoveKind.CHASE
    game = Game(Position.from_fen("8N/5k3/4r4/9/9/9/7n1/3K5/9/5nR2 w"), ["g0f0", "h3f4"])
    assert game.classify(2).kind is MoveKind.MATE_THREAT
    game = Game(Position.from_fen("4k4/9/9/9/4r4/9/9/9/4K4/4C4 w"), ["e1d1", "e5a5"])
    assert game.classify(2).kind is MoveKind.MATE_THREAT
