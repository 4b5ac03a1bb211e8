"""A whole round (or a whole event) as one multi-game PGN, for broadcasters and the organiser's archive:
every stored game of the round in board order, or of the event round by round."""

from __future__ import annotations

from recorder.exports.pgn import export_pgn
from recorder.store.db import GameRow, GameStore, event_rounds, round_order


def round_games(store: GameStore, event: str, round_name: str) -> list[GameRow]:
    """Every stored game of ``round_name`` in tournament ``event``, by board number (``ValueError``
    when there is none)."""
    games = store.games(event=event, round_name=round_name)
    if not games:
        held = event_rounds(store.games())
        rounds = "; ".join(f"{name!r} of {tournament!r}" for tournament, name in held[:12])
        more = f" and {len(held) - 12} more" if len(held) > 12 else ""
        raise ValueError(f"no games stored for round {round_name!r} of {event!r}" +
                         (f" (the store holds round {rounds}{more})" if held else " (the store holds no round)"))
    games.sort(key=_by_board)
    return games


def round_pgn(store: GameStore, event: str, round_name: str, notation: str = "iccs", live: bool = False) -> str:
    """Every game of ``round_name`` in tournament ``event``, by board number, as one PGN text.

    Games still being recorded are included with result ``*`` (a broadcast shows them live). It is
    for the public: moves, clock times and how each game ended, without the arbiter's alerts and advice;
    ``live`` (the broadcast) also leaves out the moves recorded after a result the arbiter marked.
    """
    games = round_games(store, event, round_name)
    texts = [export_pgn(store.events(g.id), g.info, notation, {"GameId": str(g.id)}, public=True, live=live)
             for g in games]
    return "\n".join(texts)


def _by_board(game: GameRow) -> tuple[bool, int, int]:
    """A round's games by board number, a game without one after them (as the console and the
    spectators' page list them), then in the order recorded."""
    return game.info.board is None, game.info.board or 0, game.id


def event_games(store: GameStore, event: str) -> list[GameRow]:
    """Every stored game of tournament ``event``, round by round (in round order) and by board in
    each (``ValueError`` naming the tournaments held when there is none)."""
    games = store.games(event=event)
    if not games:
        held = sorted({g.info.event for g in store.games() if g.info.event})
        named = "; ".join(repr(name) for name in held[:12]) + (f" and {len(held) - 12} more" if len(held) > 12 else "")
        raise ValueError(f"no games stored for the event {event!r}" +
                         (f" (the store holds {named})" if held else " (the store holds no named event)"))
    games.sort(key=lambda g: (round_order(g.info.round), *_by_board(g)))
    return games


def event_pgn(store: GameStore, event: str, notation: str = "iccs") -> str:
    """Every game of tournament ``event`` as one PGN text, round by round: as :func:`round_pgn`, for the
    public (moves, clocks, how each game ended)."""
    texts = [export_pgn(store.events(g.id), g.info, notation, {"GameId": str(g.id)}, public=True)
             for g in event_games(store, event)]
    return "\n".join(texts)
