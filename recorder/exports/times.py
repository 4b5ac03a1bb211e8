"""Clock times of a recorded game, the one place they are computed: how long each move took
(``[%emt]`` in the PGN) and each side's time used (the text record and the PDF scoresheet).

A move took the time between the press that started the mover's clock (the opponent's last
effective press before it: the one that completed the previous ply, or a press without a move or
an arbiter's press that gave the mover the clock back) and the press that completed the move. That
is the time the clock charged to the move: extra presses (a press without a move, the presses of
an arbiter restoring a position) move the start, and a press that changed nothing on the clock
(``effective`` false) completed no move on it. A move's time is left out (``None``) where a press
was lost (the press that started the clock completed an earlier ply than the previous one, or the
move's own press is missing or changed nothing), where the game went on from another source between
the two presses (the times of a file taken up after another say nothing of the time between), and
for the first ply when the time control is
unknown (its clock started at the start, not with a press; with the base time known it took the
base time less the time left, plus the increment).

Only when the log holds no press at all (a game read from a PGN file: clock times without press
times) are the move times worked out from the differences of the mover's own clock times.

Time used is what an arbiter reads off the clock: the base time, plus an increment for each
press of that side that flipped the clock (those the line lost too, :func:`increments`), less the
time left after the last press; without presses (a game read from a PGN file), the base plus an
increment for each of its moves, less its last clock time. A clock whose times were changed or that was restarted during the game (its
``clock_times_changed`` or ``clock_restarted`` alert) no longer counts from the base time, so the
time used is not told then, nor when the clock shows more time left than the time control can
give (:func:`clock_contradicts`: a time control typed wrong).
"""

from __future__ import annotations

import logging
import re

from recorder.events import ClockPressed
from recorder.scoresheet import RecordedGame, hms
from rules.squares import opponent

log = logging.getLogger(__name__)

SIDES = ("red", "black")
CLOCK_SET_AGAIN = ("clock_times_changed", "clock_restarted")  # alerts after which the clock's times are not the game's


def clock_text(ms: int) -> str:
    """A duration in milliseconds as ``H:MM:SS`` (rounded to the second, never negative)."""
    return hms(max(0, round(ms / 1000)))


def parse_pgn_time_control(text: str) -> tuple[int, int] | None:
    """A PGN ``TimeControl`` in seconds, ``"5400+30"`` -> (base ms, increment ms); ``None`` for an empty
    or unknown form. (The command line's ``--tc`` is minutes: ``recorder.clock.model.parse_time_control``.)"""
    match = re.fullmatch(r"\s*(\d+)(?:\+(\d+))?\s*", text or "")
    if match is None:
        return None
    return int(match.group(1)) * 1000, int(match.group(2) or 0) * 1000


def sandglass_ms(text: str) -> int | None:
    """The time a move of a sandglass control (PGN ``"*30"``) may take, in ms; ``None`` for other forms."""
    match = re.fullmatch(r"\s*\*(\d+)\s*", text or "")
    return int(match.group(1)) * 1000 if match is not None else None


def time_control_words(text: str) -> str:
    """A PGN ``TimeControl`` as a player reads it ("5400+30" -> "90 min + 30 s a move"; "" for an
    unknown form, "?" or "-")."""
    def span(seconds: int) -> str:
        minutes, rest = divmod(seconds, 60)
        return " ".join(part for part in (f"{minutes} min" if minutes else "", f"{rest} s" if rest else "")
                        if part) or "0 s"

    def period(form: str) -> str | None:
        if (found := re.fullmatch(r"(\d+)/(\d+)", form)) is not None:
            return f"{found.group(1)} moves in {span(int(found.group(2)))}"
        if (found := re.fullmatch(r"(\d+)(?:\+(\d+))?", form)) is not None:
            added = int(found.group(2) or 0)
            return span(int(found.group(1))) + (f" + {span(added)} a move" if added else "")
        if (found := re.fullmatch(r"\*(\d+)", form)) is not None:
            return f"{span(int(found.group(1)))} a move"
        return None

    periods = [period(form) for form in (text or "").strip().split(":")]
    if not periods or any(found is None for found in periods):
        return ""
    return ", then ".join(found for found in periods if found)


def time_control_disagrees(time_control: str, press: ClockPressed, side: str) -> str | None:
    """Why ``time_control`` cannot be the clock's, seen by the game's first press (by ``side``), or None.

    After the first move the mover has the base time less that move plus the increment: more than
    base plus increment is impossible, and less than half the base on move one is a wrong setting far
    more often than a first move that long (a 15-minute clock with --tc 5400+30 read as 75 minutes spent).
    """
    control = parse_pgn_time_control(time_control)
    left = _left(press, side)
    if control is None:
        glass = sandglass_ms(time_control)
        if glass is None or left <= glass + 2000:
            return None
        return (f"the clock showed {side} {_hms(left)} after the first move, but the time control {time_control} "
                f"gives {_hms(glass)} a move: check it")
    base, increment = control
    if left <= base + increment + 2000 and left >= base // 2:
        return None
    return (f"the clock showed {side} {_hms(left)} after the first move, but the time control {time_control} "
            f"starts each side with {_hms(base)}: check it (the first move's time is not worked out from it)")


def _hms(ms: int) -> str:
    seconds = ms // 1000  # as [%clk] shows it
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def move_times(game: RecordedGame, time_control: str = "") -> list[int | None]:
    """Milliseconds each ply took (``None`` where it cannot be told; see the module docstring)."""
    control = parse_pgn_time_control(time_control)
    if not game.presses:
        return _clock_differences(game, control)
    effective = sorted((p for p in game.presses if p.effective), key=lambda p: p.t)
    order = {id(press): index for index, press in enumerate(effective)}
    linked = {id(entry.press): entry.ply for entry in game.plies if entry.press is not None}
    times: list[int | None] = []
    for entry in game.plies:
        press = entry.press
        index = order.get(id(press)) if press is not None else None
        if press is None or index is None:
            times.append(None)  # no press, or one that changed nothing on the clock
        elif index == 0:  # the first press of the game: the mover's clock ran from its start
            first = (entry.ply == 1 and control is not None
                     and time_control_disagrees(time_control, press, entry.side) is None)
            times.append(control[0] - _left(press, entry.side) + control[1] if first and control else None)
        else:
            start = effective[index - 1]
            started_by = linked.get(id(start))
            if start.side == entry.side or (started_by is not None and started_by != entry.ply - 1):
                times.append(None)  # a press was lost between: the clock ran over more than this move
            elif any(start.t <= gone < press.t for gone, _ in game.source_changes):
                # timed on two sources, the time between them not the game's: the clock's own readings
                # tell it (the mover's time left at the press before, less at this one, plus the increment)
                spent = _left(start, entry.side) - _left(press, entry.side) + control[1] if control else None
                times.append(max(0, spent) if spent is not None else None)
            else:
                times.append(max(0, round((press.t - start.t) * 1000)))
    return times


OVER_CONTROL_MS = 3000  # a clock may show this much more than the control gives (whole-second reports)
SETTING_TOLERANCE_MS = 1_500  # a clock's setting read from its times: whole seconds, and a report late
SETTING_PRESSES = 4  # presses, after the first, that must agree on the increment


def clock_time_control(game: RecordedGame) -> str:
    """The time control the clock was set to, read from its presses (PGN seconds, ``"900+10"``), or
    "" when they cannot tell it.

    The first move's press shows the second mover's time untouched: the base, whole minutes. Each
    later press of the other side shows its time less what ran since the press before, plus the
    increment: every one of the first few must give the same increment, and none after them another
    (a next period's time). A game not recorded from its first press, a clock set again during it, or
    presses lost among the first few are not read.
    """
    effective = sorted((p for p in game.presses if p.effective), key=lambda p: p.t)
    if (len(effective) < SETTING_PRESSES + 1 or not game.plies or game.plies[0].press is not effective[0]
            or any(alert.kind in CLOCK_SET_AGAIN for alert in game.alerts)):
        return ""
    mover = game.plies[0].side
    base = _left(effective[0], opponent(mover))
    minutes = round(base / 60_000)
    if minutes < 1 or abs(base - minutes * 60_000) > SETTING_TOLERANCE_MS:
        return ""
    base = minutes * 60_000
    gains = []
    for before, after in zip(effective, effective[1:SETTING_PRESSES + 1], strict=False):
        if after.side != opponent(before.side) or any(before.t <= gone < after.t for gone, _ in game.source_changes):
            return ""  # a press lost between, or timed on two sources
        if abs(_left(after, before.side) - _left(before, before.side)) > SETTING_TOLERANCE_MS:
            return ""  # the stopped side's time moved: not a clock running as set
        gains.append(_left(after, after.side) - _left(before, after.side) + round((after.t - before.t) * 1000))
    increment = round(sorted(gains)[len(gains) // 2] / 1000) * 1000
    if increment < 0 or any(abs(gain - increment) > SETTING_TOLERANCE_MS for gain in gains):
        return ""
    if _left(effective[0], mover) > base + increment + SETTING_TOLERANCE_MS:
        return ""  # the first mover had more than the base could give: not set as read
    # the whole game must agree: a clock with periods (40/7200:1800) starts as 7200+0 would, and adds
    # its next period at the 40th move
    for before, after in zip(effective[SETTING_PRESSES:], effective[SETTING_PRESSES + 1:], strict=False):
        if after.side != opponent(before.side) or any(before.t <= gone < after.t for gone, _ in game.source_changes):
            continue  # a press lost between: its increment is in this change
        gain = _left(after, after.side) - _left(before, after.side) + round((after.t - before.t) * 1000)
        if abs(gain - increment) > SETTING_TOLERANCE_MS:
            return ""
    read = f"{base // 1000}+{increment // 1000}"
    return "" if clock_contradicts(game, read) else read


def time_control_line(game: RecordedGame, given: str) -> str:
    """The game's time control as the sheets give it: the PGN form, then in words, and where it
    was read from the clock, so ("900+10 (15 min + 10 s a move, read from the clock)"); "" when unknown."""
    control, read = time_control_of(game, given)
    said = [part for part in (time_control_words(control), "read from the clock" if read else "") if part]
    words = ", ".join(said)
    if given and clock_contradicts(game, given):  # typed wrong, most likely: the sheet says so
        clock = clock_time_control(game)
        doubt = f"but the clock ran {clock}" if clock else "but the clock's times do not fit it"
        words = f"{words}; {doubt}" if words else doubt
    return f"{control} ({words})" if control and words else control


def time_control_of(game: RecordedGame, given: str) -> tuple[str, bool]:
    """The game's time control: ``given`` (the event's, or --tc) when set, else the one its clock was
    set to (``clock_time_control``); and whether it was read from the clock."""
    if given:
        return given, False
    read = clock_time_control(game)
    return read, bool(read)


def _balance(game: RecordedGame, control: tuple[int, int] | None) -> dict[str, tuple[int, int, int]] | None:
    """Per side, at the last press: (the time the control has given it, the time its clock shows left,
    the increments given); None without presses, a time control, or a clock that counts from the base."""
    if control is None or not game.presses or any(alert.kind in CLOCK_SET_AGAIN for alert in game.alerts):
        return None
    base, increment = control
    last = max(game.presses, key=lambda p: p.t)
    first = "black" if game.start_fen.split()[1:2] == ["b"] else "red"
    given = increments(sorted(game.presses, key=lambda p: p.t), first, increment)
    return {side: (base + increment * given[side], _left(last, side), given[side]) for side in SIDES}


def clock_contradicts(game: RecordedGame, time_control: str) -> str | None:
    """Why the clock's readings cannot come from ``time_control``, or None: the first move's press, in
    a game recorded from its first move, says so (``time_control_disagrees``: a 15-minute clock under
    a 90-minute control reads as 75 minutes used on move one), or a side has more time left after its
    last press than the base and the increments its presses earned can give (an increment or a base
    typed wrong: the time used would come out negative)."""
    first = min((press for press in game.presses if press.effective), key=lambda press: press.t, default=None)
    if first is not None and first.ply == 1:
        disagrees = time_control_disagrees(time_control, first, first.side)
        if disagrees:
            return disagrees
    glass = sandglass_ms(time_control)
    reset = any(alert.kind in CLOCK_SET_AGAIN for alert in game.alerts)  # time added by hand is no contradiction
    over = [(press, side) for press in game.presses for side in SIDES
            if glass is not None and not reset and _left(press, side) > glass + OVER_CONTROL_MS]
    if over:  # a sandglass clock never shows more than one move's time
        press, side = over[0]
        return (f"the clock showed {side} {_hms(_left(press, side))} left, more than the time control "
                f"{time_control} gives a move ({_hms(glass or 0)}): check the time control")
    balance = _balance(game, parse_pgn_time_control(time_control))
    for side, (most, left, given) in (balance or {}).items():
        if left > most + OVER_CONTROL_MS:
            return (f"the clock showed {side} {_hms(left)} left after {given} increment(s), more than the time "
                    f"control {time_control} can give ({_hms(most)}): check the time control (the time used is "
                    "not told from it)")
    return None


def time_used(game: RecordedGame, time_control: str = "") -> dict[str, int | None]:
    """Milliseconds each side has used (``None`` when it cannot be told; see the module docstring)."""
    control = parse_pgn_time_control(time_control)
    used: dict[str, int | None] = {side: None for side in SIDES}
    if game.presses:
        balance = _balance(game, control)
        if balance is None or clock_contradicts(game, time_control):  # a wrong time control: not 0:00:00 from it
            return used
        return {side: max(0, most - left) for side, (most, left, _) in balance.items()}
    if control is None:
        return used
    base, increment = control
    for side in SIDES:
        # the clock's own account: the base, an increment a move, less what its last time shows (the
        # sum of the move times broke at a move with no clock time: a tester's imported game lost 28 s)
        moves = [entry for entry in game.plies if entry.side == side]
        timed = [index for index, entry in enumerate(moves) if entry.clock_ms is not None]
        if timed:
            used[side] = max(0, base + increment * (timed[-1] + 1) - (moves[timed[-1]].clock_ms or 0))
    return used


def time_used_upto(game: RecordedGame) -> int | None:
    """The ply the time used stops at when the clock went unheard before the game's end (its last
    press completed an earlier ply than the last two: a clock lost, a log that ends early), else
    None. The sheets say so: a tester's sheet gave the time used to move 9 as the whole game's."""
    # a ply's press is on its entry (a press heard before its move was recorded, as a live camera's
    # delay makes common, names no ply itself: a reviewer's sheet said no press was heard after move 5)
    pressed = [entry.ply for entry in game.plies if entry.press is not None or entry.clock_ms is not None]
    pressed += [press.ply for press in game.presses if press.ply is not None]
    if not pressed or not game.plies or max(pressed) >= len(game.plies) - 1:
        return None
    return max(pressed)


# a stopped clock whose time moved this much since the last press ran: a press was lost. A DGT clock
# reports whole seconds, and a press inferred from a later report carries times up to a report late
LOST_PRESS_MS = 1_500
MIN_INCREMENT_MS = 3_000  # an increment this large tells the flips from the times (reports are whole seconds)
MAX_LOST_FLIPS = 40  # more flips than this between two presses heard: the times are not one clock running


def increments(presses: list[ClockPressed], first: str = "red", increment_ms: int = 0) -> dict[str, int]:
    """How many increments each side's clock was given up to the last of ``presses`` (in time order;
    ``first`` runs from the start): the presses that flipped the clock, and those the line lost.

    A press the recorder did not hear still flipped the clock and gave its increment: the side it
    stopped then ran, so the next press heard finds a clock that should have stood still with its
    time moved. How many flips came between is told by the times, given the increment: one clock
    ran all along, so both clocks together lost the time between the two presses heard, less an
    increment a flip (a tester's line silent over three moves had counted the fewest that fit the
    times, one pair, and left each side's time used 10 s short; counting the moves made meanwhile
    instead overcounted when a player had not pressed, a reviewer found). Without an increment the
    fewest are counted: heard by the side whose clock ran, one press of the other was lost; heard
    by the other side, a pair (one each). A player who moved without pressing leaves the stopped
    clock still: the next press changes nothing and counts for nobody. Before the first press
    heard nothing is inferred: a clock heard only from mid-game has run long before it.
    """
    given = {side: 0 for side in SIDES}
    last: dict[str, int] | None = None
    running = first
    before = 0.0
    for press in presses:
        stopped = opponent(running)
        if last is not None and abs(_left(press, stopped) - last[stopped]) > LOST_PRESS_MS:
            lost = 2 if press.side == running else 1  # the fewest: running's first, alternating
            if increment_ms >= MIN_INCREMENT_MS:
                gained = press.red_ms - last["red"] + press.black_ms - last["black"] + round((press.t - before) * 1000)
                flips = round(gained / increment_ms)  # this press's own among them, if it flipped the clock
                # after ``flips - 1`` lost flips the side running is running's when they are even: this
                # press flipped the clock if it was that side's, else all were lost
                if 1 <= flips <= MAX_LOST_FLIPS:
                    after_lost = running if (flips - 1) % 2 == 0 else stopped
                    lost = flips - 1 if press.side == after_lost else flips
            given[running] += (lost + 1) // 2
            given[stopped] += lost // 2
            if lost % 2:
                running = stopped
        if press.side == running:  # it flipped the clock
            given[running] += 1
            running = opponent(running)
        last = {"red": press.red_ms, "black": press.black_ms}
        before = press.t
    return given


def _left(press: ClockPressed, side: str) -> int:
    return press.red_ms if side == "red" else press.black_ms


def _clock_differences(game: RecordedGame, control: tuple[int, int] | None) -> list[int | None]:
    """Without press times: the mover's previous time left, less this one, plus the increment
    (``None`` without a time control, for a ply without a clock time and for the one after it)."""
    if control is None:
        return [None] * len(game.plies)
    last: dict[str, int | None] = {side: control[0] for side in SIDES}
    times: list[int | None] = []
    for entry in game.plies:
        before = last[entry.side]
        if entry.clock_ms is None or before is None:
            times.append(None)
        else:
            times.append(max(0, before - entry.clock_ms + control[1]))
        last[entry.side] = entry.clock_ms
    return times
