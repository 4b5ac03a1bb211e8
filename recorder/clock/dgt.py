"""The DGT serial clock messages (a DGT XL or DGT 3000 relayed by a DGT interface, 9600 baud 8N1).

Written from the published protocol facts:

* a message is an id byte with the top bit set, two 7-bit length bytes (the total length,
  header included, high part first) and data bytes with the top bit clear; there is no checksum.
  Any byte with the top bit set starts a new message, so a partial message before it is dropped;
* the host sends ``0x4B`` (report only when something changes) and ``0x41`` (report the time once);
* the time message ``0x8D`` has total length 10: bytes 3-5 hold the right player's hours (low
  nibble; bit 4 = flag fallen, the clock blocked at zero), minutes and seconds in BCD, bytes 6-8
  the same for the left player, byte 9 the status (bit 0 running, bit 1 lever with the right side
  up, bit 2 battery low, bit 3 right's turn, bit 4 left's turn, bit 5 no clock connected).
  A low nibble ``0x0A`` in byte 3 or 6 marks an acknowledgement of a clock command, not times;
  an all-zero message carries nothing.

:class:`DgtParser` is a pure incremental byte-stream parser; :func:`decode_time` turns a time
message into a :class:`~recorder.clock.model.ClockReading`; :func:`encode_time` is its inverse
(for the emulator and the tests).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from recorder.clock.model import LEFT, RIGHT, ClockReading

log = logging.getLogger(__name__)

SEND_UPDATE_NICE = 0x4B  # report clock changes only
SEND_CLOCK = 0x41  # report the time once
TIME_MESSAGE = 0x8D
TIME_LENGTH = 10
MAX_LENGTH = 1024  # longer than any DGT message; a larger length is line noise

FLAG_FALLEN_BIT = 0x10
ACK_NIBBLE = 0x0A
STATUS_RUNNING = 0x01
STATUS_LEVER_RIGHT_UP = 0x02
STATUS_BATTERY_LOW = 0x04
STATUS_RIGHT_TURN = 0x08
STATUS_LEFT_TURN = 0x10
STATUS_NO_CLOCK = 0x20

# results of decode_time besides a reading
TIME = "time"
ACK = "ack"
EMPTY = "empty"
NO_CLOCK = "no_clock"
BAD = "bad"
OTHER = "other"


@dataclass(frozen=True)
class DgtMessage:
    """One framed message: the id byte (top bit set) and the data after the 3-byte header."""

    ident: int
    data: bytes


class DgtParser:
    """Bytes in, whole messages out; malformed input is counted and skipped, never raised."""

    def __init__(self) -> None:
        self._buf = bytearray()
        self._need = 0
        self.messages = 0
        self.dropped_messages = 0  # partial messages cut off by a new id byte or a bad length
        self.stray_bytes = 0  # data bytes outside any message

    def feed(self, data: bytes) -> list[DgtMessage]:
        """Parse more bytes; returns the messages completed by them."""
        out: list[DgtMessage] = []
        for byte in data:
            if byte & 0x80:
                if self._buf:
                    self.dropped_messages += 1
                self._buf = bytearray((byte,))
                self._need = 0
                continue
            if not self._buf:
                self.stray_bytes += 1
                continue
            self._buf.append(byte)
            if len(self._buf) == 3:
                self._need = (self._buf[1] << 7) | self._buf[2]
                if not 3 <= self._need <= MAX_LENGTH:
                    log.debug("DGT length %d out of range; resynchronising", self._need)
                    self.dropped_messages += 1
                    self._buf = bytearray()
                    continue
            if len(self._buf) >= 3 and len(self._buf) == self._need:
                out.append(DgtMessage(self._buf[0], bytes(self._buf[3:])))
                self.messages += 1
                self._buf = bytearray()
        return out


def frame(ident: int, data: bytes) -> bytes:
    """A message with its header: ``ident`` (top bit set), the 7-bit length pair, ``data``."""
    total = len(data) + 3
    return bytes((ident | 0x80, (total >> 7) & 0x7F, total & 0x7F)) + data


def _bcd(value: int) -> int | None:
    high, low = value >> 4, value & 0x0F
    return None if high > 9 or low > 9 else high * 10 + low


def _side_ms(hours: int, minutes: int, seconds: int) -> int | None:
    if hours & 0x0F > 9:
        return None
    mm, ss = _bcd(minutes), _bcd(seconds)
    if mm is None or ss is None or mm > 59 or ss > 59:
        return None
    return (((hours & 0x0F) * 60 + mm) * 60 + ss) * 1000


def decode_time(message: DgtMessage) -> tuple[str, ClockReading | None]:
    """Classify a message (``time``, ``ack``, ``empty``, ``no_clock``, ``bad``, ``other``) with its reading."""
    if message.ident != TIME_MESSAGE:
        return OTHER, None
    data = message.data
    if len(data) != TIME_LENGTH - 3:
        return BAD, None
    if not any(data):
        return EMPTY, None
    if data[0] & 0x0F == ACK_NIBBLE or data[3] & 0x0F == ACK_NIBBLE:
        return ACK, None
    status = data[6]
    if status & STATUS_NO_CLOCK:
        return NO_CLOCK, None
    right = _side_ms(data[0], data[1], data[2])
    left = _side_ms(data[3], data[4], data[5])
    if right is None or left is None:
        return BAD, None
    turn = None
    if status & STATUS_RIGHT_TURN and not status & STATUS_LEFT_TURN:
        turn = RIGHT
    elif status & STATUS_LEFT_TURN and not status & STATUS_RIGHT_TURN:
        turn = LEFT
    lever_down = LEFT if status & STATUS_LEVER_RIGHT_UP else RIGHT
    reading = ClockReading(left, right, bool(status & STATUS_RUNNING), turn, lever_down,
                           bool(data[3] & FLAG_FALLEN_BIT), bool(data[0] & FLAG_FALLEN_BIT),
                           bool(status & STATUS_BATTERY_LOW))
    return TIME, reading


def _hms(ms: int, flag: bool) -> bytes:
    seconds = max(0, ms) // 1000
    hours, minutes, secs = min(seconds // 3600, 9), seconds // 60 % 60, seconds % 60
    return bytes((hours | (FLAG_FALLEN_BIT if flag else 0), (minutes // 10) << 4 | minutes % 10,
                  (secs // 10) << 4 | secs % 10))


def encode_time(reading: ClockReading, *, no_clock: bool = False) -> bytes:
    """The framed ``0x8D`` message for ``reading`` (times truncated to whole seconds, as the clock shows)."""
    status = STATUS_RUNNING if reading.running else 0
    if reading.lever_down == LEFT:
        status |= STATUS_LEVER_RIGHT_UP
    if reading.battery_low:
        status |= STATUS_BATTERY_LOW
    if reading.turn == RIGHT:
        status |= STATUS_RIGHT_TURN
    elif reading.turn == LEFT:
        status |= STATUS_LEFT_TURN
    if no_clock:
        status |= STATUS_NO_CLOCK
    data = _hms(reading.right_ms, reading.right_flag) + _hms(reading.left_ms, reading.left_flag) + bytes((status,))
    return frame(TIME_MESSAGE, data)


def encode_ack(command: int) -> bytes:
    """An acknowledgement message (low nibble 0x0A in byte 3) for a clock command."""
    return frame(TIME_MESSAGE, bytes((ACK_NIBBLE, command & 0x7F, 0, 0, 0, 0, 0)))
