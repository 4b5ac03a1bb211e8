"""``xqrec edit GAME``: the arbiter corrects a stored game's details (a mistyped round, board or name),
marks its result (a resignation, a draw agreed: ``--result 1-0 --reason "black resigned"``), or voids
it (a test recording, a game filed on the wrong board, an abandoned run).

The moves and events are never touched: a voided game is kept whole and can be taken back
(``--unvoid``), but is no longer listed, shown in the console or published in the round's PGN and
broadcast. Moves are corrected in the console, not here.
"""

from __future__ import annotations

import argparse
import getpass
import logging
from dataclasses import replace
from datetime import UTC, datetime

from recorder.commands.games import add_db_argument, open_existing_store
from recorder.events import DetailsEdited
from recorder.exports.times import clock_contradicts
from recorder.scoresheet import rebuild
from recorder.store.db import GameInfo, GameRow, GameStore
from recorder.store.recording import board_number, game_number, pgn_date, pgn_tc
from recorder.store.resume import near_names, twin_name

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "edit", help="correct a stored game's event, round, board or players, or void it",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", type=game_number, help="the game's number (xqrec games lists them)")
    add_db_argument(parser)
    parser.add_argument("--event", help="tournament name")
    parser.add_argument("--site", help="where it is played")
    parser.add_argument("--round", help="round")
    parser.add_argument("--date", type=pgn_date, help="date (YYYY.MM.DD or YYYY-MM-DD)")
    parser.add_argument("--board", type=board_number, help="board number (1, 2, ...)")
    parser.add_argument("--red", help="red player")
    parser.add_argument("--black", help="black player")
    parser.add_argument("--tc", type=pgn_tc, help='time control, PGN form seconds[+increment], e.g. "5400+30"')
    parser.add_argument("--result", choices=("1-0", "0-1", "1/2-1/2", "*"),
                        help="mark the result as the arbiter (a resignation, a draw agreed, a loss on time; "
                             "* opens the game again), as the console's result button does")
    parser.add_argument("--reason", metavar="TEXT", help="how the game ended, with --result (e.g. \"black resigned\"): "
                        "on the scoresheet and in the game's record, not published")
    parser.add_argument("--article", metavar="ART", help="the rule the result follows, with --result (e.g. 4.1.12): "
                        "the broadcast and the spectators' page tell the result in its words (认输 resigned)")
    parser.add_argument("--anyway", action="store_true",
                        help="with --result: mark it although the fouls recorded speak for the other side "
                             "(the console asks to confirm the same)")
    parser.add_argument("--by", metavar="NAME",
                        help="who makes the change, as the game's log records it (default: the login name)")
    voiding = parser.add_mutually_exclusive_group()
    voiding.add_argument("--void", metavar="REASON",
                         help="void the game (kept, but no longer listed or published), saying why")
    voiding.add_argument("--unvoid", action="store_true", help="take a voiding back")
    parser.set_defaults(handler=run)


_FIELDS = (("event", "event"), ("site", "site"), ("round", "round"), ("date", "date"), ("board", "board"),
           ("red", "red"), ("black", "black"), ("tc", "time_control"))
_LABELS = {"time_control": "time control"}


def changed(before: GameInfo, after: GameInfo) -> list[str]:
    """One phrase per detail that differs ("round 03 -> 3"; "(none)" where one was not set)."""
    phrases = []
    for _, field in _FIELDS:
        was, now = getattr(before, field), getattr(after, field)
        if was != now:
            shown = ["(none)" if value in (None, "") else str(value) for value in (was, now)]
            phrases.append(f"{_LABELS.get(field, field)} {shown[0]} -> {shown[1]}")
    return phrases


def describe(game: GameRow) -> str:
    """One line naming the game as a list shows it: board, players, plies, state."""
    info = game.info
    where = ", ".join(part for part in (info.event, f"round {info.round}" if info.round else "",
                                        f"board {info.board}" if info.board is not None else "") if part)
    players = f"{info.red or '?'} - {info.black or '?'}"
    void = f": {game.void}" if game.void else ""
    return f"game {game.id} ({where or 'no event, round or board'}; {players}; {game.plies} plies; {game.state}{void})"


def _mark_result(store: GameStore, game_id: int, result: str, reason: str, article: str, by: str,
                 anyway: bool = False) -> str:
    """Mark the game's result as the console's result button does (the same checks: a record ending
    in mate or stalemate has its result by the rules unless a reason says otherwise); what changed."""
    from recorder.server.actions import decided_result, mark_result
    from recorder.server.state import read_game_events

    with store.locked():  # read and written in one transaction, as the console's actions are
        events = read_game_events(store.db, game_id)
        game = rebuild([stored.event for stored in events])
        mark_result(store, game_id, events, {"result": result, "text": reason, "article": article, "anyway": anyway},
                    game.moves, game.start_fen, by)
    said = f" ({reason})" if reason else ""
    if result == "*":
        return f"result {game.result} taken back: the game has no result (*){said}"  # its recording stays as it was
    was = f", was {game.result}" if game.result not in ("*", result) else ""
    decided = decided_result(game.moves, game.start_fen)
    # marked against the rules' result with a reason (a draw agreed before the moves played on): said
    # beside it, so the arbiter sees it was taken as meant (a new user marked 1-0 on a mate of red unwarned)
    against = (f"; the record ends in {decided[1]}, {decided[0]} by the rules: marked otherwise for the "
               "reason given" if decided is not None and decided[0] != result else "")
    return f"result marked {result}{said} by {by}{was}{against}"


def _login() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (a container without a passwd entry)
        return "arbiter"


def run(args: argparse.Namespace) -> int:
    changes = {field: getattr(args, option) for option, field in _FIELDS if getattr(args, option) is not None}
    if args.result is None and (args.reason is not None or args.article is not None or args.anyway):
        raise ValueError("--reason, --article and --anyway go with --result")
    if not changes and args.void is None and not args.unvoid and args.result is None:
        raise ValueError("nothing to change: give --event, --round, --board, --red, --black, --site, --date, "
                         "--tc, --result, --void REASON or --unvoid")
    if args.void is not None and not args.void.strip():
        raise ValueError("--void needs a reason (a test recording, wrong board, ...): it is kept with the game")
    with open_existing_store(args.db) as store:
        try:
            game = store.game(args.game)
        except KeyError:
            raise ValueError(f"there is no game {args.game} in {store.path} (xqrec games lists them)") from None
        before = describe(game)
        phrases: list[str] = []
        # everything is checked before anything is written: a refused part leaves the game as it was
        if args.void is not None and game.state == "recording":  # it would vanish from the console mid-game
            raise ValueError(f"game {game.id} is being recorded now: stop its recorder first (Ctrl-C), then void it")
        if args.unvoid and not game.void:
            raise ValueError(f"game {game.id} is not void")
        if args.result is not None and (args.void is not None or (game.void and not args.unvoid)):
            raise ValueError(f"game {game.id} is void: take that back (--unvoid) to mark its result")
        info: GameInfo = replace(game.info, **changes)
        if changes:
            others_games = [other for other in store.games() if other.id != game.id]
            renamed = (info.event, info.round) != (game.info.event, game.info.round)
            twin = twin_name(others_games, info) if renamed else ""
            if twin:  # a deliberate rename, one game at a time (a spelling put right): warned, not refused
                log.warning("%s; the other games keep their spelling until they are edited too", twin)
            for warning in near_names(store.games(), info):
                log.warning("%s", warning)
            if info.board is not None:
                others = [other for other in store.games_on_board(info) if other.id != game.id]
                busy = [other for other in others if other.state == "recording"]
                if busy:  # one board, one game at a time: the broadcast would show two
                    raise ValueError(f"board {info.board} of that round is being recorded now (game {busy[-1].id}):"
                                     " stop that recorder first, or give another --board")
                moved = (info.event, info.round, info.board) != (game.info.event, game.info.round, game.info.board)
                if others and moved:  # a replayed game is legitimate; a second game by mistake is not
                    log.warning("board %d of that round has game %s already: the round's PGN and the broadcast "
                                "show both (void the wrong one: xqrec edit GAME --void REASON)", info.board,
                                ", ".join(str(other.id) for other in others))
            if info.time_control != game.info.time_control:  # one the clock's readings cannot come from is told
                contradiction = clock_contradicts(rebuild(store.events(game.id)), info.time_control)
                if contradiction:
                    log.warning("%s (--tc is PGN seconds: 900+10 for 15 minutes and 10 seconds a move)",
                                contradiction)
        result_phrase = ""
        if args.result is not None:  # first: its own checks (marked already, a mate's result) may refuse it
            result_phrase = _mark_result(store, game.id, args.result, args.reason or "", args.article or "",
                                         args.by or _login(), args.anyway)
        if changes:
            store.set_info(game.id, info)
            phrases += changed(game.info, info)
        if args.void is not None:
            reason = " ".join(args.void.split())
            store.set_void(game.id, reason)
            phrases.append(f"voided: {reason}" + (f" (was void: {game.void})" if game.void else ""))
        elif args.unvoid:
            store.set_void(game.id, "")
            phrases.append(f"void taken back (was: {game.void})")
        if phrases:  # the log keeps who changed what; the live pages learn of it from the event
            latest = max((event.t for event in store.events(game.id)), default=0.0)
            store.append(game.id, DetailsEdited(latest, tuple(phrases), args.by or _login(),
                                                datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")))
        after = describe(store.game(game.id))
    print(f"was: {before}")
    print(f"now: {after}")
    if result_phrase:
        phrases.append(result_phrase)
    if phrases:  # the details the lines above do not show (the time control, the site, the date)
        print(f"changed: {'; '.join(phrases)}")
    if game.state == "recording" and changes:
        print("note: the game is being recorded: files its recorder writes at the end (--pgn, --scoresheet) "
              "carry the details it was started with; the store and its exports have the new ones")
    return 0
