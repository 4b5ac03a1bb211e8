"""A whole round as one multi-game PGN, for broadcasters: every stored game of the round, board order."""

from __future__ import annotations

from recorder.exports.pgn import export_pgn
from recorder.store.db import GameRow, GameStore


def round_games(store: GameStore, event: str, round_name: str) -> list[GameRow]:
    """Every stored game of ``round_name`` in tournament ``event``, by board number (``ValueError``
    when there is none)."""
    games = store.games(event=event, round_name=round_name)
    if not games:
        held = sorted({(g.info.event, g.info.round) for g in store.games() if g.info.event or g.info.round})
        rounds = "; ".join(f"{name!r} of {tournament!r}" for tournament, name in held[:12])
        more = f" and {len(held) - 12} more" if len(held) > 12 else ""
        raise ValueError(f"no games stored for round {round_name!r} of {event!r}" +
                         (f" (the store holds round {rounds}{more})" if held else " (the store holds no round)"))
    games.sort(key=lambda g: (g.info.board if g.info.board is not None else 0, g.id))
    return games


def round_pgn(store: GameStore, event: str, round_name: str, notation: str = "iccs") -> str:
    """Every game of ``round_name`` in tournament ``event``, by board number, as one PGN text.

    Games still being recorded are included with result ``*`` (a broadcast shows them live). It is
    for the public: moves, clock times and how each game ended, without the arbiter's alerts and advice.
    """
    games = round_games(store, event, round_name)
    texts = [export_pgn(store.events(g.id), g.info, notation, {"GameId": str(g.id)}, public=True) for g in games]
    return "\n".join(texts)
