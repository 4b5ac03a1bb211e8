"""The text line protocol: checksum, fields, resynchronisation, lost lines, loop://."""

from __future__ import annotations

import serial

from recorder.clock.model import LEFT, RIGHT
from recorder.clock.text import TextMessage, TextParser, checksum, format_line, parse_line, query_line


def test_wire_form_and_checksum() -> None:
    line = format_line(TextMessage(7, "P", LEFT, 61234, 60000))
    assert line == b"$XQ,7,P,L,61234,60000*" + checksum("XQ,7,P,L,61234,60000").encode() + b"\n"
    assert checksum("XQ,?") == f"{ord('X') ^ ord('Q') ^ ord(',') ^ ord('?'):02X}"
    assert parse_line(line[1:-1].decode()) == TextMessage(7, "P", LEFT, 61234, 60000)


def test_bad_lines_are_rejected() -> None:
    good = format_line(TextMessage(1, "T", RIGHT, 5, 6)).decode()[1:-1]
    assert parse_line(good.replace("T,R", "T,L")) is None  # checksum no longer fits
    assert parse_line(good.lower()) is None  # "xq" is not the tag
    for body in ("XQ,1,P,-,1,2", "XQ,1,Z,L,1,2", "XQ,x,P,L,1,2", "XQ,1,P,L,-1,2", "XQ,1,P,L,1"):
        assert parse_line(f"{body}*{checksum(body)}") is None, body
    assert parse_line("XQ,1,T,-,1,2*" + checksum("XQ,1,T,-,1,2").lower()) == TextMessage(1, "T", None, 1, 2)


def test_resync_on_dollar_and_count_lost_lines() -> None:
    lines = [format_line(TextMessage(n, "T", LEFT, 1000 - n, 900)) for n in range(6)]
    stream = b"noise" + lines[0] + lines[1][:9] + lines[2] + lines[3].replace(b",T,", b",T\x81") + lines[5]
    parser = TextParser()
    out = parser.feed(stream)
    assert [m.seq for m in out] == [0, 2, 5]
    assert parser.bad_lines == 2 and parser.lost == 3


def test_crlf_and_split_reads() -> None:
    raw = format_line(TextMessage(9, "F", RIGHT, 3, 0)).replace(b"\n", b"\r\n") + query_line()
    parser = TextParser()
    out = [m for byte in raw for m in parser.feed(bytes((byte,)))]
    assert out == [TextMessage(9, "F", RIGHT, 3, 0)]
    assert parser.bad_lines == 1  # the host's query is not a clock line


def test_lines_through_pyserial_loop() -> None:
    port = serial.serial_for_url("loop://", timeout=0.2)
    sent = [TextMessage(n, "P", LEFT if n % 2 else RIGHT, 1000 * n, 2000 * n) for n in range(1, 8)]
    for message in sent:
        port.write(format_line(message))
    out = TextParser().feed(port.read(sum(len(format_line(m)) for m in sent)))
    assert out == sent
    port.close()
