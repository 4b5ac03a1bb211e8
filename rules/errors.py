"""The rules layer's error hierarchy: every error is a ``ValueError`` that names its input."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error raised by :mod:`rules`."""


class InvalidFenError(RulesError):
    """A FEN string that does not describe a legal Xiangqi position."""

    def __init__(self, fen: str, reason: str) -> None:
        super().__init__(f"invalid FEN {fen!r}: {reason}")
        self.fen = fen
        self.reason = reason


class InvalidMoveError(RulesError):
    """Move text that cannot be read at all (not a move in any position)."""

    def __init__(self, text: str, reason: str, fen: str | None = None) -> None:
        where = f" in {fen}" if fen else ""
        super().__init__(f"invalid move {text!r}{where}: {reason}")
        self.text = text
        self.reason = reason
        self.fen = fen


class IllegalMoveError(RulesError):
    """A well-formed move that the rules forbid in the given position."""

    def __init__(self, text: str, reason: str, fen: str) -> None:
        super().__init__(f"illegal move {text!r} in {fen}: {reason}")
        self.text = text
        self.reason = reason
        self.fen = fen


class AmbiguousMoveError(RulesError):
    """Move text that matches more than one legal move."""

    def __init__(self, text: str, candidates: list[str], fen: str) -> None:
        super().__init__(f"ambiguous move {text!r} in {fen}: could be {', '.join(candidates)}")
        self.text = text
        self.candidates = candidates
        self.fen = fen
