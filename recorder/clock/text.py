"""The plain text clock protocol (``docs/clock-protocol.md``): one ASCII line per event with a checksum.

A line reads ``$XQ,<seq>,<kind>,<side>,<left_ms>,<right_ms>*<hh>`` and ends with ``\\n`` (a ``\\r``
before it is allowed). ``kind`` is ``P`` (a press of button ``side``), ``T`` (a time report; ``side``
is the running side or ``-`` when stopped), ``F`` (the flag of ``side`` fell) or ``H`` (hello after a
reset; side ``-``). ``hh`` is the XOR of the characters between ``$`` and ``*`` in two hex digits.
The host may send ``$XQ,?*hh`` to ask for a ``T`` line. :class:`TextParser` is a pure incremental
parser: bad lines are counted and skipped, a ``$`` always starts a new line.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from recorder.clock.model import LEFT, RIGHT, ClockReading

log = logging.getLogger(__name__)

MAX_LINE = 80
MAX_MS = 36_000_000  # ten hours
KINDS = ("P", "T", "F", "H")
_SIDES = {"L": LEFT, "R": RIGHT, "-": None}
_LETTERS = {LEFT: "L", RIGHT: "R", None: "-"}


@dataclass(frozen=True)
class TextMessage:
    """One checked line: sequence number, kind, physical side (``None`` for ``-``) and both times."""

    seq: int
    kind: str
    side: str | None
    left_ms: int
    right_ms: int

    def reading(self) -> ClockReading:
        """The line as a time report (a ``T`` line's side is the running side)."""
        running = self.kind == "T" and self.side is not None
        return ClockReading(self.left_ms, self.right_ms, running, self.side if self.kind == "T" else None)


def checksum(body: str) -> str:
    """Two hex digits: the XOR of the characters of ``body``."""
    value = 0
    for char in body.encode("ascii"):
        value ^= char
    return f"{value:02X}"


def format_line(message: TextMessage) -> bytes:
    """The wire form of ``message``, newline included."""
    body = (f"XQ,{message.seq % 65536},{message.kind},{_LETTERS[message.side]},"
            f"{max(0, message.left_ms)},{max(0, message.right_ms)}")
    return f"${body}*{checksum(body)}\n".encode("ascii")


def query_line() -> bytes:
    """The host's request for a time report."""
    return f"$XQ,?*{checksum('XQ,?')}\n".encode("ascii")


def parse_line(line: str) -> TextMessage | None:
    """A line without its ``$`` and newline checked and parsed, or ``None`` (logged at debug level)."""
    body, star, given = line.rstrip("\r").rpartition("*")
    if not star or given.upper() != checksum(body):
        log.debug("clock line %r: bad checksum", line)
        return None
    fields = body.split(",")
    if len(fields) != 6 or fields[0] != "XQ" or fields[2] not in KINDS or fields[3] not in _SIDES:
        log.debug("clock line %r: bad fields", line)
        return None
    try:
        seq, left, right = int(fields[1]), int(fields[4]), int(fields[5])
    except ValueError:
        return None
    if not (0 <= seq < 65536 and 0 <= left <= MAX_MS and 0 <= right <= MAX_MS):
        return None
    side = _SIDES[fields[3]]
    if side is None and fields[2] in ("P", "F"):
        return None  # a press or a flag names its side
    return TextMessage(seq, fields[2], side, left, right)


class TextParser:
    """Bytes in, checked lines out; counts ``bad_lines`` and ``lost`` (gaps in the sequence numbers)."""

    def __init__(self) -> None:
        self._line = bytearray()
        self._in_line = False
        self.messages = 0
        self.bad_lines = 0
        self.lost = 0
        self._last_seq: int | None = None

    def feed(self, data: bytes) -> list[TextMessage]:
        """Parse more bytes; returns the lines completed by them."""
        out: list[TextMessage] = []
        for byte in data:
            if byte == 0x24:  # '$'
                if self._in_line and self._line:
                    self.bad_lines += 1
                self._line = bytearray()
                self._in_line = True
            elif not self._in_line:
                continue
            elif byte == 0x0A:  # '\n'
                self._in_line = False
                message = self._finish(self._line)
                if message is not None:
                    out.append(message)
            elif 0x20 <= byte < 0x7F or byte == 0x0D:
                self._line.append(byte)
                if len(self._line) > MAX_LINE:
                    self.bad_lines += 1
                    self._in_line = False
            else:  # a control or 8-bit byte: the line is damaged
                self.bad_lines += 1
                self._in_line = False
        return out

    def _finish(self, raw: bytearray) -> TextMessage | None:
        message = parse_line(raw.decode("ascii"))
        if message is None:
            self.bad_lines += 1
            return None
        if self._last_seq is not None and message.kind != "H":
            gap = (message.seq - self._last_seq - 1) % 65536
            if gap and gap < 1000:
                self.lost += gap
        self._last_seq = message.seq
        self.messages += 1
        return message
