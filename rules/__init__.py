"""Xiangqi rules: positions, legal moves, game end, repetition verdicts, notation and PGN.

Pure Python, standard library only. The names exported here are the package's public API.
"""

from rules.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    RulesError,
)
from rules.game import Game, Outcome, RepetitionEpisode
from rules.move import Move
from rules.move_kinds import Chase, MoveClass, MoveKind, classify_move
from rules.notation import detect_notation, format_move, parse_move
from rules.pgn import PgnError, PgnGame, read_pgn, write_pgn
from rules.position import START_FEN, Position, Violation, perft
from rules.repetition import RepetitionVerdict, SideCategory, SideConduct
from rules.squares import BLACK, RED, parse_square, square, square_name

__all__ = [
    "BLACK",
    "RED",
    "START_FEN",
    "AmbiguousMoveError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "Move",
    "PgnError",
    "PgnGame",
    "Position",
    "RulesError",
    "Violation",
    "detect_notation",
    "format_move",
    "parse_move",
    "parse_square",
    "perft",
    "read_pgn",
    "square",
    "square_name",
    "write_pgn",
    "Chase",
    "Game",
    "MoveClass",
    "MoveKind",
    "Outcome",
    "RepetitionEpisode",
    "RepetitionVerdict",
    "SideCategory",
    "SideConduct",
    "classify_move",
]
