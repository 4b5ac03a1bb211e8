"""The link against a scripted fake port: the set-up it sends, polls on silence, errors and reopening."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import serial

from recorder.clock import dgt
from recorder.clock.link import SerialClockLink
from recorder.clock.model import CONNECTED, DISCONNECTED, LEFT, RIGHT, ClockNotice, ClockReading
from recorder.clock.protocols import make_protocol
from recorder.clocklog_input import ClockPress


class FakePort:
    """Answers each expected write with scripted bytes; ``fail`` raises a serial error once answered out."""

    def __init__(self, exchange: list[tuple[bytes, bytes]], fail: bool) -> None:
        self.exchange = list(exchange)
        self.fail = fail
        self.written = bytearray()
        self.pending = bytearray()
        self.closed = False
        self.in_waiting = 0

    def write(self, data: bytes) -> int:
        self.written += data
        if self.exchange and data == self.exchange[0][0]:  # one answer per expected write
            self.pending += self.exchange.pop(0)[1]
        return len(data)

    def read(self, size: int) -> bytes:
        if self.pending:
            out, self.pending = bytes(self.pending[:7]), self.pending[7:]  # arrive in pieces
            return out
        if self.fail and not self.exchange:
            raise serial.SerialException("device disconnected")
        time.sleep(0.01)
        return b""

    def close(self) -> None:
        self.closed = True


def _time(left_s: int, right_s: int, turn: str) -> bytes:
    return dgt.encode_time(ClockReading(left_s * 1000, right_s * 1000, True, turn, RIGHT if turn == LEFT else LEFT))


def test_setup_press_error_and_reopen() -> None:
    setup = bytes((dgt.SEND_UPDATE_NICE, dgt.SEND_CLOCK))
    ports = iter([
        FakePort([(setup, _time(600, 600, LEFT) + _time(599, 600, LEFT) + _time(603, 600, RIGHT))], fail=True),
        FakePort([(setup, _time(603, 600, RIGHT)), (bytes((dgt.SEND_CLOCK,)), _time(603, 599, RIGHT))], fail=False),
    ])
    opened: list[FakePort] = []

    def opener(name: str, **options: Any) -> FakePort:
        assert name == "fake" and options["baudrate"] == 9600
        port = next(ports)
        opened.append(port)
        return port

    link = SerialClockLink("fake", make_protocol("dgt"), silence_s=0.2, answer_s=5.0, backoff_s=(0.01, 0.05),
                           opener=opener).start()
    deadline = time.monotonic() + 3
    while (len(opened) < 2 or opened[1].exchange) and time.monotonic() < deadline:
        time.sleep(0.01)
    link.stop()
    assert bytes(opened[0].written) == setup and opened[0].closed
    assert bytes(opened[1].written[:2]) == setup and bytes((dgt.SEND_CLOCK,)) in opened[1].written[2:]  # the poll
    items: Iterator[Any] = iter(list(link.items.queue))
    kinds = [i.kind if isinstance(i, ClockNotice) else i.side for i in items]
    assert kinds == [CONNECTED, "clock_mapping", "red", DISCONNECTED, CONNECTED]
    press = next(i for i in link.items.queue if isinstance(i, ClockPress))
    assert (press.red_ms, press.black_ms) == (603_000, 600_000)


def test_a_gap_is_told_in_recording_seconds_when_a_file_is_replayed_faster() -> None:
    # tester 16: with --clock-rate 2 the note said "after a 7.1 s gap" beside a 53.0-67.2 s stretch
    now = [100.0]
    link = SerialClockLink("fake", make_protocol("text"), clock=lambda: now[0], rate=2.0)
    link._came_back(now[0])
    link._last_heard = 100.0
    now[0] = 101.0
    link._lost("silent")  # last heard 1 s of host time ago: 2 s of recording
    now[0] = 107.1
    link._came_back(now[0])
    texts = [item.text for item in list(link.items.queue) if isinstance(item, ClockNotice)]
    assert "last heard 2.0 s ago" in texts[1] and texts[2] == "clock back on fake after a 14.2 s gap"


def _never_heard(protocol: str, port: FakePort) -> ClockNotice:
    """The one notice of a link reading ``port`` with ``protocol`` that never makes a message of it."""
    link = SerialClockLink("fake", make_protocol(protocol), silence_s=0.1, answer_s=0.1, backoff_s=(5.0, 5.0),
                           opener=lambda name, **options: port).start()
    deadline = time.monotonic() + 3
    while link.items.empty() and time.monotonic() < deadline:
        time.sleep(0.01)
    link.stop()
    (notice,) = list(link.items.queue)
    assert isinstance(notice, ClockNotice) and notice.kind == DISCONNECTED
    return notice


def test_a_clock_talking_another_protocol_is_told_as_such_not_as_no_clock() -> None:
    """Tester: a text clock read as dgt was 'no clock on ... (no answer)' while its lines arrived all
    game: the arbiter looks at the cable. Bytes that make no message point at --clock-protocol."""
    setup = bytes((dgt.SEND_UPDATE_NICE, dgt.SEND_CLOCK))
    chatter = b"$XQ,T,0,L,899000,900000,7*1F\r\n" * 4  # a text clock's lines on a line read as DGT

    notice = _never_heard("dgt", FakePort([(setup, chatter)], fail=False))
    assert "none made a dgt message" in notice.text and "--clock-protocol" in notice.text


def test_a_silent_line_read_as_text_names_the_dgt_protocol() -> None:
    """Tester: a DGT clock read with --clock-protocol text answers nothing (it waits to be asked in its
    own protocol), and 'no answer' alone sent the staff to check the cable."""
    notice = _never_heard("text", FakePort([], fail=False))
    assert "no answer: check the cable" in notice.text and "--clock-protocol dgt" in notice.text


class _NoisyPort(FakePort):
    """A clock that answered, then whose every byte comes damaged."""

    def read(self, size: int) -> bytes:
        if self.pending:
            return super().read(size)
        time.sleep(0.01)
        return b"\xff\x13"


def test_a_line_whose_bytes_come_damaged_is_told_as_noise_not_as_silence() -> None:
    """Tester: a clock on a very noisy line was alerted 'lost (silent for 9.1 s)' while its bytes kept
    coming, and was back at once: the staff would look for a pulled cable."""
    setup = bytes((dgt.SEND_UPDATE_NICE, dgt.SEND_CLOCK))
    port = _NoisyPort([(setup, _time(600, 600, LEFT) + _time(600, 599, LEFT))], fail=False)  # two: a clock
    link = SerialClockLink("fake", make_protocol("dgt"), silence_s=0.1, answer_s=0.1, backoff_s=(5.0, 5.0),
                           opener=lambda name, **options: port).start()
    deadline = time.monotonic() + 3
    while not any(isinstance(i, ClockNotice) and i.kind == DISCONNECTED for i in list(link.items.queue)) \
            and time.monotonic() < deadline:
        time.sleep(0.01)
    link.stop()
    (lost,) = [i for i in list(link.items.queue) if isinstance(i, ClockNotice) and i.kind == DISCONNECTED]
    assert "no readable message for" in lost.text and "bytes came damaged" in lost.text


class _NoisePort(FakePort):
    """A line of noise only, in which one valid-looking clock message turns up by chance."""

    def __init__(self) -> None:
        super().__init__([], fail=False)
        self.chance = _time(600, 600, LEFT)

    def read(self, size: int) -> bytes:
        time.sleep(0.01)
        chance, self.chance = self.chance, b""
        return b"\xff\x13" + chance


def test_one_message_in_noise_is_not_taken_for_a_clock() -> None:
    # a tester's line of random bytes gave 'clock connected' after 131 s (a chance message), then 23
    # press_unheard notes; a clock answers again within seconds, noise does not
    link = SerialClockLink("fake", make_protocol("dgt"), silence_s=0.1, answer_s=0.1, backoff_s=(5.0, 5.0),
                           opener=lambda name, **options: _NoisePort()).start()
    time.sleep(0.8)
    link.stop()
    kinds = [i.kind for i in list(link.items.queue) if isinstance(i, ClockNotice)]
    assert CONNECTED not in kinds and not link.connections
