"""Random bytes at both parsers and protocols: nothing raises, nothing hangs, chunking does not matter."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from recorder.clock import dgt
from recorder.clock.model import LEFT, ClockReading
from recorder.clock.protocols import DgtProtocol, TextProtocol
from recorder.clock.text import TextMessage, TextParser, format_line

GOOD = dgt.encode_time(ClockReading(61_000, 59_000, True, LEFT, LEFT)) + format_line(TextMessage(1, "P", LEFT, 1, 2))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.integers(1, 17))
def test_random_bytes_never_raise_and_chunks_agree(data: bytes, chunk: int) -> None:
    for make in (dgt.DgtParser, TextParser):
        whole: list[object] = list(make().feed(data))
        parser = make()
        parts: list[object] = [m for i in range(0, len(data), chunk) for m in parser.feed(data[i:i + chunk])]
        assert parts == whole
    for protocol in (DgtProtocol(), TextProtocol()):
        protocol.feed(data + GOOD + data, 0.0)
        for message in dgt.DgtParser().feed(data):
            dgt.decode_time(message)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_a_good_message_after_garbage_is_read(garbage: bytes) -> None:
    parser = dgt.DgtParser()
    parser.feed(garbage)
    assert parser.feed(dgt.encode_time(ClockReading(61_000, 59_000, True, LEFT, LEFT)))[-1].ident == dgt.TIME_MESSAGE
    text = TextParser()
    text.feed(garbage)
    assert text.feed(b"\n" + format_line(TextMessage(1, "P", LEFT, 1, 2)))[-1].seq == 1
