"""Repeated positions (重复局面, art. 23) and the 棋例 verdict on them (art. 25 and 26).

A position counts as repeated three times when it has stood on the board three times with the
same side to move (23.1). Following 23.2, the first move of the cycle (usually a piece coming in
from outside, 外来点) is counted, unless it was a capture: an occurrence produced by a capture
does not count. The moves of the last two cycles (from the third latest occurrence to the
latest) are classified (:mod:`rules.move_kinds`), each side's conduct is named (长将, 长杀, 长捉, or allowed moves), and
the verdict follows 25.1-25.3 and 26.9: one-sided perpetual check loses (25.1, 23.5.1); a side
with forbidden moves against a side with allowed moves must change (25.3); when both sides' moves
are forbidden, the one side whose conduct is of the kinds 26.9.1 lists (长杀, 一将一杀, chasing
chariots or unprotected pieces, alone or between checks) must change; a side told to change loses
if it makes two more moves without leaving the repetition (23.5.2: "两个回合内变着", 23.5.2.2, 4.1.5;
``Game.repetition``; here, the cycle repeating once more with that side still forbidden, the 1999
text's 24.3, which a cycle of two rounds makes the same); otherwise the game is drawn if neither changes within two rounds (23.5.2.1; 25.2 both allowed, 26.9.4 both forbidden,
as the 1999 text's 26.3 has it for every such case).

Without a threefold repetition, 23.4 lets a player ask for the same verdict once a side has gone
on attacking (checks, mate threats, chases) for nine rounds over three or more points, a cycle too
long to repeat a position three times in that span (:func:`long_attack`). Its other case, nine
rounds of allowed moves "of no positive meaning", is the arbiter's judgement and is not flagged.

When both sides chase so, 26.9.2-26.9.3 come first: a side chasing a chariot (an unprotected
piece) with one piece on every move, against a side chasing one jointly on every move (联合捉子,
24.17: two or more pieces together, see ``Chase.partners``), must change. Verdicts are advice:
the arbiter decides, and play goes on when a side changes its move.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from rules.move import Move
from rules.move_kinds import MoveClass, MoveKind
from rules.squares import BLACK, RED

logger = logging.getLogger(__name__)

#: Art. 23.4: rounds of repeating attacks after which a verdict may be asked for without a
#: threefold repetition (on two points a threefold repetition takes six).
LONG_ATTACK_ROUNDS = 9

_SIDE_ZH = {RED: "红方", BLACK: "黑方"}
_ADVICE = " 供裁判参考，以裁判裁决为准。 Advice for the arbiter, who decides."


class SideCategory(Enum):
    """A side's conduct over the repeated cycle (art. 24.9-24.14)."""

    PERPETUAL_CHECK = "perpetual_check"  # 长将
    PERPETUAL_MATE_THREAT = "perpetual_mate_threat"  # 长杀, 一将一杀
    PERPETUAL_CHASE = "perpetual_chase"  # 长捉, 一将一捉, 一杀一捉
    ALLOWED = "allowed"  # 闲 or attacks mixed with idle moves (允许着法)

    @property
    def forbidden(self) -> bool:
        """Is this a 禁止着法 (24.13)?"""
        return self is not SideCategory.ALLOWED


@dataclass(frozen=True, slots=True)
class SideConduct:
    """What one side did over the repeated cycle: its moves' kinds and the resulting category."""

    side: str
    category: SideCategory
    kinds: tuple[MoveKind, ...]
    label_zh: str
    label_en: str
    grave: bool = False  # of the kinds 26.9.1 lists: 长杀, 一将一杀, chases of chariots or unprotected pieces
    # for 长捉 of one form on every move (26.9.2-3): "single_chariot", "joint_chariot" (联合捉车, 24.17),
    # "single_loose" or "joint_loose" (of unprotected pieces); more than one where every move is of each
    forms: frozenset[str] = frozenset()

    @property
    def forbidden(self) -> bool:
        return self.category.forbidden

    @property
    def grave_zh(self) -> str:
        """What made the conduct grave, or not, in 26.9.1's terms."""
        if self.category is SideCategory.PERPETUAL_CHASE:
            return "捉车或无根子" if self.grave else "所捉为有根子（少根子或兑换得子）"
        return "杀" if self.grave else ""

    @property
    def grave_en(self) -> str:
        if self.category is SideCategory.PERPETUAL_CHASE:
            return ("chasing chariots or unprotected pieces" if self.grave
                    else "chasing protected pieces (short of protectors, or won in the exchange)")
        return "mate threats" if self.grave else ""


@dataclass(frozen=True, slots=True)
class RepetitionVerdict:
    """A position repeated at least three times, the classified moves and the advised decision.

    ``code`` is one of ``perpetual_check`` (a side loses, 25.1), ``must_change`` (a side must
    change, 25.3, 26.9.1-26.9.3), ``forbidden_not_changed`` (that side did not change and loses, 23.5.2.2),
    ``draw_both_allowed`` (25.2) or ``draw_both_forbidden`` (26.9.4), and ``draw_not_changed``
    when the position stands again after either draw with neither side changed (23.5.2.1: the draw
    is due). ``result`` is ``"1-0"``,
    ``"0-1"``, ``"1/2-1/2"`` or ``None`` while a side must still change. Advice, not a decision.
    ``basis`` is ``"threefold"`` (23.1) or ``"nine_rounds"`` (23.4: ``moves`` are then the nine
    rounds, and the position may have stood only once or twice).
    """

    fen: str
    ply: int
    count: int
    occurrences: tuple[int, ...]
    moves: tuple[MoveClass, ...]
    red: SideConduct
    black: SideConduct
    code: str
    result: str | None
    winner: str | None
    must_change: str | None
    article: str
    text: str
    basis: str = "threefold"

    @property
    def cycle(self) -> tuple[MoveClass, ...]:
        """The moves of the latest cycle (from the previous occurrence to this one; under 23.4 with
        no earlier occurrence, all the nine rounds)."""
        if len(self.occurrences) < 2:
            return self.moves
        start = self.occurrences[-2]
        return tuple(m for m in self.moves if m.ply > start)

    def conduct(self, side: str) -> SideConduct:
        return self.red if side == RED else self.black

    def describe(self) -> str:
        """Several lines for an arbiter: the verdict, each side's conduct and every move's kind."""
        plies = ", ".join(map(str, self.occurrences))
        if self.basis == "nine_rounds":
            first = self.moves[0].ply if self.moves else self.ply
            stood = (f"{LONG_ATTACK_ROUNDS} rounds of attacks, plies {first}-{self.ply}; "
                     f"position stood {self.count} time(s) at plies {plies}: {self.fen}")
        else:
            stood = f"position repeated {self.count} times at plies {plies}: {self.fen}"
        lines = [self.text, stood]
        for conduct in (self.red, self.black):
            lines.append(f"{conduct.side}: {conduct.label_zh} / {conduct.label_en}")
        lines.extend("  " + m.describe() for m in self.moves)
        return "\n".join(lines)


def side_conduct(side: str, kinds: Sequence[MoveKind]) -> SideConduct:
    """Name a side's conduct from the kinds of its moves over the cycle (24.9-24.14, 26.9.1)."""
    present = set(kinds)
    if not kinds or MoveKind.IDLE in present:
        attacks = len([k for k in kinds if k is not MoveKind.IDLE])
        if attacks:
            return SideConduct(side, SideCategory.ALLOWED, tuple(kinds), "允许着法（攻闲交替）",
                               f"allowed: {attacks} attacking and {len(kinds) - attacks} idle moves")
        return SideConduct(side, SideCategory.ALLOWED, tuple(kinds), "闲着（允许着法）", "idle moves (allowed)")
    if present == {MoveKind.CHECK}:
        return SideConduct(side, SideCategory.PERPETUAL_CHECK, tuple(kinds), "长将", "perpetual check")
    if MoveKind.CHASE not in present:
        zh = "长杀" if present == {MoveKind.MATE_THREAT} else "一将一杀"
        en = "perpetual mate threat" if present == {MoveKind.MATE_THREAT} else "alternating checks and mate threats"
        return SideConduct(side, SideCategory.PERPETUAL_MATE_THREAT, tuple(kinds), zh, en)
    if present == {MoveKind.CHASE}:
        zh, en = "长捉", "perpetual chase"
    else:
        parts = [k for k in (MoveKind.CHECK, MoveKind.MATE_THREAT) if k in present]
        zh = "".join("一" + k.chinese for k in parts) + "一捉"
        en = "alternating " + ", ".join(k.value.replace("_", " ") + "s" for k in parts) + " and chases"
    return SideConduct(side, SideCategory.PERPETUAL_CHASE, tuple(kinds), zh, en)


def conducts(moves: Sequence[MoveClass]) -> tuple[SideConduct, SideConduct]:
    """Red's and black's conduct over ``moves``, each marked grave when 26.9.1 lists it."""
    out = []
    for side in (RED, BLACK):
        own = [m for m in moves if m.side == side]
        conduct = side_conduct(side, [m.kind for m in own])
        out.append(replace(conduct, grave=_grave(conduct.category, own), forms=_chase_forms(conduct.category, own)))
    return out[0], out[1]


def _chase_forms(category: SideCategory, moves: Sequence[MoveClass]) -> frozenset[str]:
    """The forms of 长捉 every one of a side's moves shows, for 26.9.2-3: a chase of a chariot or of
    an unprotected piece (a false root is none, 24.16), by one piece or jointly (联合捉子, 24.17).
    A move that chases a piece of a kind with one piece is a single chase of it, whatever joint
    chases come with it. Only a side that chased on every move (长捉, not between checks) has any."""
    if category is not SideCategory.PERPETUAL_CHASE or any(m.kind is not MoveKind.CHASE for m in moves):
        return frozenset()
    common: set[str] | None = None
    for move in moves:
        here: set[str] = set()
        for chase in move.chases:
            if chase.grave and chase.check is None:
                here.add(("joint_" if chase.joint else "single_") + ("chariot" if chase.target_piece.upper() == "R"
                                                                     else "loose"))
        here -= {"joint_" + what for what in ("chariot", "loose") if "single_" + what in here}
        common = here if common is None else common & here
    return frozenset(common or ())


def _grave(category: SideCategory, moves: Sequence[MoveClass]) -> bool:
    """Is the conduct of the kinds 26.9.1 lists: 长杀 or 一将一杀, or chases (alone or between checks
    and mate threats) each of a chariot or an unprotected piece (长捉车, 长捉无根子, 一将一捉车...)?
    Perpetual check is left to 25.1; chasing short-protected pieces (少根子) is not listed."""
    if category is SideCategory.PERPETUAL_MATE_THREAT:
        return True
    if category is SideCategory.PERPETUAL_CHASE:
        return all(any(c.grave for c in m.chases) for m in moves if m.kind is MoveKind.CHASE)
    return False


# the draws told when a position stands a third time (either may still change; their article), and
# the draw due once neither side changed within the two rounds that gives (23.5.2.1)
DRAWS_TOLD = {"draw_both_allowed": "25.2", "draw_both_forbidden": "26.9.4"}
DRAW_NOT_CHANGED = "draw_not_changed"


def draw_due(told: RepetitionVerdict) -> RepetitionVerdict:
    """``told``, a draw either side could still have changed out of, as the draw due once neither
    did within two rounds (23.5.2.1)."""
    article = DRAWS_TOLD[told.code]
    text = (f"双方两个回合内均未变着，判和（第23.5.2.1条、第{article}条）。"
            f" Neither side changed within two rounds: the game is drawn (art. 23.5.2.1, {article})."
            " 供裁判参考，以裁判裁决为准。 Advice for the arbiter, who decides.")
    return replace(told, code=DRAW_NOT_CHANGED, article="23.5.2.1", text=text)


def judge(fen: str, ply: int, occurrences: Sequence[int], moves: Sequence[MoveClass],
          earlier: Sequence[MoveClass] = (), lost: set[str] | frozenset[str] = frozenset()) -> RepetitionVerdict:
    """The verdict for a position standing for the ``len(occurrences)``-th time at ``ply``.

    ``moves`` are the classified moves of the last two cycles (from ``occurrences[-3]`` to
    ``ply``); ``earlier`` those of the two cycles before the latest one (``occurrences[-4]`` to
    ``occurrences[-2]``), given when the position stands for the fourth time or more: a side told
    to change there (not one whose opponent was forbidden too, 26.9.4) and still forbidden now did
    not change and loses (23.5.2.2). ``lost`` names a
    side already found not to have changed (by the verdicts before this one, see ``Game.repetition``).
    """
    red, black = conducts(moves)
    count = len(occurrences)
    stubborn: set[str] = set(lost)
    if earlier and count >= 4:
        told = _decide(*conducts(earlier), set())[3]  # the side the cycles before were told to change
        if told is not None and (red if told == RED else black).forbidden:
            stubborn.add(told)
    code, result, winner, must, article, text = _decide(red, black, stubborn)
    logger.debug("repetition at ply %d (%d times): %s", ply, count, code)
    return RepetitionVerdict(fen, ply, count, tuple(occurrences), tuple(moves), red, black,
                             code, result, winner, must, article, text)


def _visits(moves: Sequence[Move]) -> Counter[tuple[int, int]]:
    """How often each of a side's pieces moved to each point: (piece, point) counts, a piece being
    told by following it from point to point (no capture in the stretch, so nothing else moves it)."""
    piece_at: dict[int, int] = {}
    visits: Counter[tuple[int, int]] = Counter()
    for move in moves:
        piece = piece_at.pop(move.from_square, move.from_square)
        piece_at[move.to_square] = piece
        visits[piece, move.to_square] += 1
    return visits


def goes_round(moves: Sequence[Move]) -> bool:
    """Does a side's play go round over the same points (交替重复) rather than somewhere: every
    point a piece moved to in the stretch, that piece moved to at least twice, but one (the point
    first reached from outside, 外来点, or one the stretch cut short)? Two pieces taking turns on
    one point do not make a cycle of it."""
    return sum(1 for n in _visits(moves).values() if n < 2) <= 1


def long_attack_points(moves: Sequence[Move]) -> int:
    """The points a side's play went round over (23.4 asks for three or more): every point a piece
    moved to, but the stretch's first when it was not reached again (the point first reached from
    outside). A point of a long cycle that the stretch holds once, further on, is one of them (a
    tester's five-point chase was told as "over 4 points")."""
    arrival = (moves[0].from_square, moves[0].to_square) if moves else None
    return len({point for key, n in _visits(moves).items() if n >= 2 or key != arrival for point in key[1:]})


def long_attack(fen: str, ply: int, occurrences: Sequence[int], moves: Sequence[MoveClass],
                stubborn: set[str] | frozenset[str] = frozenset()) -> RepetitionVerdict | None:
    """The verdict art. 23.4 allows without a threefold repetition, or ``None`` where it does not apply.

    ``moves`` are the classified moves of the last :data:`LONG_ATTACK_ROUNDS` rounds, with no
    capture among them. It applies when both sides' play goes round (:func:`goes_round`) and a
    side attacked on every move (长将, 长杀, 长捉 or their alternations) over three or more points;
    the decision is then the one for a repeated position (25, 26, 23.5). The rule speaks of the
    attacking side only; asking the other side's play to go round too is this implementation's
    restriction, so that a defence that goes somewhere is never judged. ``stubborn`` names a side
    told to change that went on for two more rounds (23.5.2: it loses).
    """
    by_side = {side: [m.move for m in moves if m.side == side] for side in (RED, BLACK)}
    if not all(goes_round(side_moves) for side_moves in by_side.values()):
        return None
    red, black = conducts(moves)
    attackers = [c for c in (red, black) if c.forbidden and long_attack_points(by_side[c.side]) >= 3]
    if not attackers:
        return None
    code, result, winner, must, article, text = _decide(red, black, set(stubborn))
    lead_zh = "；".join(f"{_SIDE_ZH[c.side]}在{long_attack_points(by_side[c.side])}个点上{c.label_zh}" for c in attackers)
    lead_en = "; ".join(f"{c.side}: {c.label_en} over {long_attack_points(by_side[c.side])} points" for c in attackers)
    lead = (f"{lead_zh}，连续{LONG_ATTACK_ROUNDS}个回合，未形成三次重复，经一方提出可按待判局面裁决（第23.4条）。"
            f" {lead_en[0].upper()}{lead_en[1:]}, for {LONG_ATTACK_ROUNDS} rounds without a threefold repetition:"
            " on a player's request this is judged as a repeated position (art. 23.4). ")
    logger.debug("nine rounds of attacks to ply %d: %s", ply, code)
    return RepetitionVerdict(fen, ply, len(occurrences), tuple(occurrences), tuple(moves), red, black,
                             code, result, winner, must, article, lead + text, basis="nine_rounds")


def _decide(red: SideConduct, black: SideConduct, stubborn: set[str]
            ) -> tuple[str, str | None, str | None, str | None, str, str]:
    advice = _ADVICE
    checkers = [c for c in (red, black) if c.category is SideCategory.PERPETUAL_CHECK]
    if len(checkers) == 1:
        loser = checkers[0].side
        winner = BLACK if loser == RED else RED
        text = (f"{_SIDE_ZH[loser]}单方面长将，判负（第25.1条、第23.5.1条）。"
                f" {loser.capitalize()} checks perpetually on its own and loses (art. 25.1, 23.5.1).")
        return "perpetual_check", _result(winner), winner, None, "25.1", text + advice
    graves = [c for c in (red, black) if c.grave]
    joint = _against_joint_chase(red, black) if len(graves) == 2 else None
    if joint is not None:
        bad, article, what_zh, what_en = joint
        good = black if bad is red else red
        return _must_change(bad, good, stubborn, f"25.4, {article}", article,
                            f"长捉{what_zh}", f"联合捉{what_zh}（第24.17条）",
                            f"a perpetual chase of {what_en} by one piece",
                            f"a joint chase of {what_en} (two or more pieces together, art. 24.17)")
    if red.forbidden and black.forbidden and len(graves) != 1:
        why_zh = "，均属第26.9.1条所列" if graves else ""
        why_en = ", both of the kinds art. 26.9.1 lists" if graves else ""
        text = (f"双方均为禁止着法（红方{red.label_zh}，黑方{black.label_zh}{why_zh}），"
                "双方两个回合内不变作和（第25.4条、第26.9.4条、第23.5.2.1条）。"
                f" Both sides' moves are forbidden (red: {red.label_en}; black: {black.label_en}{why_en});"
                " either may change within two rounds; if neither does, the game is drawn (art. 25.4, 26.9.4, 23.5.2.1).")
        return "draw_both_forbidden", "1/2-1/2", None, None, "26.9.4", text + advice
    if red.forbidden or black.forbidden:
        if red.forbidden and black.forbidden:  # only one side's of the kinds 26.9.1 lists: it changes
            bad = graves[0]
            good = black if bad is red else red
            articles, article = "25.4, 26.9.1", "26.9.1"
            bad_zh = f"{bad.label_zh}，{bad.grave_zh}，属第26.9.1条所列"
            good_zh = f"禁止着法（{good.label_zh}，{good.grave_zh}），不属第26.9.1条所列" if good.grave_zh else \
                f"禁止着法（{good.label_zh}），不属第26.9.1条所列"
            bad_en = f"{bad.label_en}, {bad.grave_en}: of the kinds art. 26.9.1 lists"
            good_en = f"forbidden moves not of those kinds ({good.label_en}" + \
                (f", {good.grave_en})" if good.grave_en else ")")
        else:
            bad, good = (red, black) if red.forbidden else (black, red)
            articles, article = "25.3", "25.3"
            bad_zh, good_zh, bad_en, good_en = bad.label_zh, good.label_zh, bad.label_en, good.label_en
        return _must_change(bad, good, stubborn, articles, article, bad_zh, good_zh, bad_en, good_en)
    text = ("双方均为允许着法，双方两个回合内不变作和（第25.2条、第23.5.2.1条）。"
            " Both sides' moves are allowed: either may change within two rounds; if neither does,"
            " the game is drawn (art. 25.2, 23.5.2.1).")
    return "draw_both_allowed", "1/2-1/2", None, None, "25.2", text + advice


def _must_change(bad: SideConduct, good: SideConduct, stubborn: set[str], articles: str, article: str,
                 bad_zh: str, good_zh: str, bad_en: str, good_en: str
                 ) -> tuple[str, str | None, str | None, str | None, str, str]:
    """``bad`` must change (its forbidden moves, against ``good``'s, by ``articles``), or has lost
    when it is in ``stubborn`` (told before and not changed, 23.5.2.2)."""
    other = BLACK if bad.side == RED else RED
    if bad.side in stubborn:
        text = (f"{_SIDE_ZH[bad.side]}为禁止着法（{bad.label_zh}），应变着而不变，判负（第23.5.2.2条、第4.1.5条）。"
                f" {bad.side.capitalize()} plays forbidden moves ({bad.label_en}) and did not change"
                " when told to: it loses (art. 23.5.2.2, 4.1.5).")
        return "forbidden_not_changed", _result(other), other, bad.side, "23.5.2.2", text + _ADVICE
    text = (f"{_SIDE_ZH[bad.side]}为禁止着法（{bad_zh}），{_SIDE_ZH[good.side]}为{good_zh}，"
            f"{_SIDE_ZH[bad.side]}必须变着，两个回合内不变判负（第{articles.replace(', ', '条、第')}条、第23.5.2.2条）。"
            f" {bad.side.capitalize()} plays forbidden moves ({bad_en}) against {good_en}:"
            f" {bad.side} must change within two rounds or lose (art. {articles}, 23.5.2.2).")
    return "must_change", None, None, bad.side, article, text + _ADVICE


def _against_joint_chase(red: SideConduct, black: SideConduct) -> tuple[SideConduct, str, str, str] | None:
    """26.9.2-3: one side chases a chariot (an unprotected piece) perpetually with one piece, the
    other jointly (联合捉子): the side chasing alone must change. (That side, the article, what is
    chased in Chinese and English), or None."""
    for what, article, what_zh, what_en in (("chariot", "26.9.2", "车", "a chariot"),
                                            ("loose", "26.9.3", "无根子", "an unprotected piece")):
        single = [c for c in (red, black) if "single_" + what in c.forms]
        joint = [c for c in (red, black) if "joint_" + what in c.forms]
        if len(single) == 1 and len(joint) == 1 and single[0] is not joint[0]:
            return single[0], article, what_zh, what_en
    return None


def _result(winner: str) -> str:
    return "1-0" if winner == RED else "0-1"
