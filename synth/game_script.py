"""Turn a game (start position, moves, seed, faults to inject) into a :class:`Timeline`.

The script is the choreography of a game at the board: the board still while a player
thinks; for each move a hand reaches in from the mover's side, lifts the piece, removes a
captured piece, places the piece with a new rotation and offset, and leaves; the player
presses the clock as the hand goes. Faults an arbiter must handle are injected on request
(see :data:`synth.video_faults.INJECTION_KINDS`) and recorded with the outcome expected.
Everything is drawn from ``random.Random(seed)``.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from rules import BLACK, RED, IllegalMoveError, InvalidMoveError, Move, Position
from synth.clocklog import GameClock, parse_time_control
from synth.video_actions import Choreographer
from synth.video_faults import INJECTION_KINDS, neighbours
from synth.video_timeline import (
    BoardState,
    Bump,
    LightKey,
    Placement,
    Timeline,
    clear_of_others,
    state_from_dict,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ScriptOptions:
    """Pacing and rarity knobs of a game video (seconds unless named otherwise)."""

    time_control: str = "15+10"
    think_min: float = 1.0
    think_max: float = 6.0
    think_median: float = 2.2
    lead_in: float = 1.5
    tail: float = 2.0
    hand_speed: float = 1.0
    nudge_rate: float = 0.15
    bump_rate: float = 0.02
    bumps: int | None = None
    light_changes: bool = True

    def __post_init__(self) -> None:
        if not 0 < self.think_min <= self.think_median <= self.think_max:
            raise ValueError("need 0 < think_min <= think_median <= think_max")
        if self.hand_speed <= 0:
            raise ValueError("hand_speed must be positive")
        parse_time_control(self.time_control)


def parse_injections(specs: Sequence[str]) -> list[tuple[str, int | None]]:
    """``["illegal@5", "knock"]`` -> ``[("illegal", 5), ("knock", None)]`` (ply numbers from 1)."""
    parsed: list[tuple[str, int | None]] = []
    for spec in specs:
        for item in spec.split(","):
            item = item.strip()
            if not item:
                continue
            kind, _, ply = item.partition("@")
            kind = kind.strip().replace("-", "_")
            if kind not in INJECTION_KINDS:
                raise ValueError(f"unknown injection {kind!r}; choose from {', '.join(INJECTION_KINDS)}")
            if ply:
                if not ply.strip().isdigit() or int(ply) < 1:
                    raise ValueError(f"injection {item!r}: the ply must be a number from 1")
                parsed.append((kind, int(ply)))
            else:
                parsed.append((kind, None))
    return parsed


def _check_moves(start: Position, moves: Sequence[str]) -> list[Position]:
    """The positions before each move and after the last; raises ``ValueError`` naming the bad ply."""
    positions = [start]
    for ply, text in enumerate(moves, 1):
        try:
            positions.append(positions[-1].play(Move.from_iccs(text)))
        except (IllegalMoveError, InvalidMoveError) as error:
            raise ValueError(f"move {ply} ({text}) cannot be played: {error}") from None
    return positions


def _assign_plies(wanted: list[tuple[str, int | None]], positions: list[Position], moves: Sequence[str],
                  rng: random.Random) -> dict[int, str]:
    """Ply -> injection kind; plies left open are drawn among the plies where the kind fits."""
    count = len(moves)
    taken: dict[int, str] = {}

    def fits(kind: str, ply: int) -> bool:
        if ply < 1 or ply > count or ply in taken:
            return False
        if kind == "quick_pair":
            return ply + 1 <= count and ply + 1 not in taken and taken.get(ply - 1) != "quick_pair"
        if taken.get(ply - 1) == "quick_pair":
            return False
        if kind == "knock":
            move = Move.from_iccs(moves[ply - 1])
            return bool(neighbours(positions[ply].board, [move.to_square], {move.to_square}))
        if kind == "wrong_side":
            before = positions[ply - 1]
            other = before.with_side_to_move(BLACK if before.side_to_move == RED else RED)
            return any(not other.is_capture(m) for m in other.legal_moves())
        return True

    def clashes(kind: str, ply: int) -> bool:
        # A move left unpressed and, next, a press without a move by the opponent: the mover's
        # "press back" then completes the unpressed move late (before the opponent moved, no foul)
        # and the opponent's press changed nothing, so neither case would be the one it names.
        return ((kind == "no_press" and taken.get(ply + 1) == "press_no_move")
                or (kind == "press_no_move" and taken.get(ply - 1) == "no_press"))

    fixed = [(k, p) for k, p in wanted if p is not None]
    free = [k for k, p in wanted if p is None]
    for kind, ply in fixed:
        assert ply is not None
        if not fits(kind, ply) or clashes(kind, ply):
            raise ValueError(f"cannot inject {kind} at ply {ply} of a {count}-ply game (taken or unfit)")
        taken[ply] = kind
        if kind == "quick_pair":
            taken[ply + 1] = "quick_pair_second"
    for kind in free:
        # Keep the first two plies plain so every video opens with ordinary moves.
        options = [p for p in range(min(3, count), count + 1) if fits(kind, p)]
        if not any(not clashes(kind, p) for p in options):
            raise ValueError(f"no room to inject {kind} in a {count}-ply game")
        # drawn again on a clash, not from a shorter list: a plan without one stays as it was
        ply = options[rng.randrange(len(options))]
        while clashes(kind, ply):
            ply = options[rng.randrange(len(options))]
        taken[ply] = kind
        if kind == "quick_pair":
            taken[ply + 1] = "quick_pair_second"
    return taken


def _initial_state(position: Position, rng: random.Random) -> BoardState:
    """Pieces as set up before the game: near their points, roughly upright for their owners."""
    pieces: dict[int, Placement] = {}
    for sq, piece in position.pieces():
        rotation, dx, dy = rng.gauss(0.0, 6.0), rng.gauss(0.0, 0.03), rng.gauss(0.0, 0.03)
        pieces[sq] = Placement(piece, rotation, *clear_of_others(pieces, sq, dx, dy))
    return state_from_dict(pieces)


def _light_plan(duration: float, rng: random.Random, changes: bool) -> list[LightKey]:
    """Slow drifts of brightness, colour and a gentle gradient (clouds, a lamp, people moving)."""
    keys = [LightKey(0.0, 1.0, (1.0, 1.0, 1.0), (0.0, 0.0))]
    if not changes:
        keys.append(LightKey(duration, 1.0, (1.0, 1.0, 1.0), (0.0, 0.0)))
        return keys
    t = 0.0
    while t < duration:
        t += rng.uniform(8.0, 20.0)
        last = keys[-1]
        span = t - last.t
        gain = min(1.12, max(0.82, last.gain + rng.uniform(-0.006, 0.006) * span))
        tint = tuple(min(1.04, max(0.96, c + rng.uniform(-0.002, 0.002) * span)) for c in last.tint)
        gradient = (rng.uniform(-0.08, 0.08), rng.uniform(-0.08, 0.08))
        keys.append(LightKey(t, gain, (tint[0], tint[1], tint[2]), gradient))
    return keys


def _plan_bumps(timeline: Timeline, options: ScriptOptions, rng: random.Random) -> list[Bump]:
    """Camera bumps placed in still periods long enough to hold the shake and a settled view."""
    busy = sorted((track.start, track.end) for track in timeline.tracks)
    quiet: list[tuple[float, float]] = []
    cursor = 0.3
    for start, end in busy:
        if start - cursor > 1.6:
            quiet.append((cursor + 0.3, start - 1.0))
        cursor = max(cursor, end)
    if timeline.duration - cursor > 1.6:
        quiet.append((cursor + 0.3, timeline.duration - 1.0))
    if options.bumps is not None:
        count = options.bumps
    else:
        count = sum(1 for _ in timeline.plies if rng.random() < options.bump_rate)
    if count > len(quiet):
        raise ValueError(f"{count} camera bumps asked for but only {len(quiet)} still periods are long enough")
    chosen = sorted(rng.sample(range(len(quiet)), count))
    bumps = []
    for index in chosen:
        low, high = quiet[index]
        duration = rng.uniform(0.3, 0.5)
        t = rng.uniform(low, max(low, high - duration))
        angle = rng.uniform(0.15, 0.6) * rng.choice((-1, 1))
        shift = (rng.uniform(0.002, 0.008) * rng.choice((-1, 1)), rng.uniform(0.002, 0.008) * rng.choice((-1, 1)))
        bumps.append(Bump(t, duration, shift, angle))
    return bumps


def build_timeline(moves: Sequence[str], seed: int, *, start_fen: str | None = None,
                   inject: Sequence[str] = (), options: ScriptOptions | None = None) -> Timeline:
    """The full timeline of a game video: states, hands, presses, faults, bumps and light.

    ``moves`` are ICCS strings that must be legal from ``start_fen`` (default: the standard
    start); ``inject`` holds specs such as ``"illegal@4"`` or ``"knock"`` (ply drawn by seed).
    Raises ``ValueError`` for an illegal move list or an injection that does not fit.
    """
    options = options or ScriptOptions()
    rng = random.Random(seed)
    start = Position.from_fen(start_fen) if start_fen else Position.start()
    positions = _check_moves(start, moves)
    plan = _assign_plies(parse_injections(inject), positions, moves, rng)
    base_s, increment_s = parse_time_control(options.time_control)
    clock = GameClock(base_s, increment_s, start.side_to_move, 0.0)
    initial = _initial_state(start, rng)
    act = Choreographer(rng, initial, clock, options.hand_speed, options.nudge_rate)

    def think() -> float:
        mu = math.log(options.think_median)
        return min(options.think_max, max(options.think_min, rng.lognormvariate(mu, 0.55)))

    act.t = options.lead_in
    ply = 1
    while ply <= len(moves):
        kind = plan.get(ply)
        before, move = positions[ply - 1], Move.from_iccs(moves[ply - 1])
        act.t += think()
        if kind is None:
            act.play(ply, before, move)
        elif kind == "quick_pair":
            act.quick_pair(ply, before, move, positions[ply], Move.from_iccs(moves[ply]))
            ply += 1
        else:
            act.inject(kind, ply, before, move)
        ply += 1
    duration = act.t + options.tail
    for record in act.plies:
        record.fen_after = positions[record.ply].fen()
    timeline = Timeline(
        start_fen=start.fen(),
        initial=initial,
        changes=act.changes,
        tracks=act.tracks,
        presses=act.presses,
        plies=act.plies,
        injections=act.injections,
        bumps=[],
        light=_light_plan(duration, rng, options.light_changes),
        duration=duration,
        clock_start={"base_s": base_s, "increment_s": increment_s, "running": start.side_to_move, "t": 0.0},
    )
    timeline.bumps = _plan_bumps(timeline, options, rng)
    log.debug("timeline: %d plies, %d tracks, %.1f s", len(timeline.plies), len(timeline.tracks), duration)
    return timeline


def describe(timeline: Timeline) -> str:
    """A one-line summary (for logs and the CLI)."""
    kinds = ", ".join(f"{i.kind}@{i.ply}" for i in timeline.injections) or "none"
    return (f"{len(timeline.plies)} plies, {timeline.duration:.1f} s, {len(timeline.presses)} presses, "
            f"{len(timeline.bumps)} bumps, injected: {kinds}")

