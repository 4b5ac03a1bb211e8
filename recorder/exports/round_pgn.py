"""A whole round (or a whole event) as one file, for broadcasters and the organiser's archive: every
stored game of the round in board order, or of the event round by round, as one multi-game PGN, one
PDF of scoresheets or the text records one after another."""

from __future__ import annotations

from recorder.exports.pgn import export_pgn
from recorder.exports.text import export_text
from recorder.store.db import GameRow, GameStore, event_rounds, round_order

ROUND_TEXT_SEPARATOR = "\n" + "=" * 72 + "\n\n"  # between the games of a round's text records


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


def games_of(store: GameStore, event: str, round_name: str | None) -> list[GameRow]:
    """The games of one round (by board), or with ``round_name`` None of the whole event (round by
    round): ``ValueError`` naming what the store holds when there is none."""
    return round_games(store, event, round_name) if round_name is not None else event_games(store, event)


def round_text(store: GameStore, event: str, round_name: str | None) -> str:
    """Every text record (:func:`export_text`) of a round, or of the event, one after another."""
    return ROUND_TEXT_SEPARATOR.join(export_text(store.events(g.id), g.info) for g in games_of(store, event, round_name))


def round_sheets_pdf(store: GameStore, event: str, round_name: str | None, *, short: bool = False,
                     paper: str = "A4") -> bytes:
    """Every scoresheet of a round, or of the event, in one PDF, each game from a new page; a game cut
    short is marked so on its sheet, as alone."""
    from recorder.exports.pdf import scoresheets_pdf  # fpdf loads on the first PDF

    rows = games_of(store, event, round_name)
    return scoresheets_pdf([(store.events(g.id), g.info) for g in rows], short=short, paper=paper,
                           not_over=[g.not_over for g in rows])
