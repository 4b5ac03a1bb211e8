"""Exports of a recorded game: PGN (with clock and alert comments), the signed PDF scoresheet, text,
and a whole round as one multi-game PGN."""

from recorder.exports.pgn import export_pgn, read_clocks, to_pgn_game
from recorder.exports.text import export_text

__all__ = ["export_pgn", "export_text", "read_clocks", "to_pgn_game"]
