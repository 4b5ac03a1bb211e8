"""A whole round as one multi-game PGN, for broadcasters: every stored game of the round, board order."""

from __future__ import annotations

from recorder.exports.pgn import export_pgn
from recorder.store.db import GameStore


def round_pgn(store: GameStore, event: str, round_name: str, notation: str = "iccs") -> str:
    """Every game of ``round_name`` in tournament ``event``, by board number, as one PGN text.

    Games still being recorded are included with result ``*`` (a broadcast shows them live).
    """
    games = store.games(event=event, round_name=round_name)
    if not games:
        raise ValueError(f"no games stored for round {round_name!r} of {event!r}")
    games.sort(key=lambda g: (g.info.board if g.info.board is not None else 0, g.id))
    texts = [export_pgn(store.events(g.id), g.info, notation, {"GameId": str(g.id)}) for g in games]
    return "\n".join(texts)
