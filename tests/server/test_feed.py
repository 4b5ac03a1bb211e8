"""The store watcher: new events become numbered messages; a listener too far behind is told to read the store."""

from __future__ import annotations

import json
import threading

from recorder.events import ClockPressed
from recorder.server import feed as feed_module
from recorder.server.feed import EventFeed, sse_text
from recorder.server.state import StoredEvent


def make_feed(store: list[StoredEvent]) -> EventFeed:
    return EventFeed(lambda: store[-1].id if store else 0, lambda after: [s for s in store if s.id > after],
                     lambda gid: {"id": gid}, poll_s=0.01)


def press(number: int, game: int = 1) -> StoredEvent:
    return StoredEvent(number, game, number, ClockPressed(float(number), "red", 1000, 2000, number))


def test_sse_text_is_one_message() -> None:
    text = sse_text(7, "game", {"a": "炮二平五"})
    assert text == 'id: 7\nevent: game\ndata: {"a":"炮二平五"}\n\n'


def test_new_events_reach_a_waiting_listener_in_order() -> None:
    store = [press(1), press(2)]
    feed = make_feed(store)
    feed.last_id = 2
    got: list[list[int]] = []
    listener = threading.Thread(target=lambda: got.append([m.id for m in feed.wait_after(2, 2.0) or []]))
    listener.start()
    store += [press(3), press(4, game=2)]
    assert feed.poll() == 2
    listener.join(2)
    assert got == [[3, 4]]
    data = [json.loads(m.text.split("data: ")[1]) for m in feed.wait_after(2, 0) or []]
    assert [d["state"] for d in data] == [{"id": 1}, {"id": 2}]  # each game's state with its last event


def test_state_goes_with_the_last_event_of_each_game_in_a_batch() -> None:
    store = [press(1), press(2), press(3, game=2)]
    feed = make_feed(store)
    assert feed.poll() == 3
    data = [json.loads(m.text.split("data: ")[1]) for m in feed.wait_after(0, 0) or []]
    assert [d["state"] is not None for d in data] == [False, True, True]


def test_a_listener_behind_the_kept_messages_reads_the_store() -> None:
    store = [press(n) for n in range(1, 11)]
    feed = make_feed([])
    feed._messages = feed_module.deque(maxlen=3)  # keep 3 messages instead of KEEP
    feed._read_after = lambda after: [s for s in store if s.id > after]
    feed._latest_id = lambda: store[-1].id
    feed.poll()
    assert [m.id for m in feed.wait_after(7, 0) or []] == [8, 9, 10]
    assert feed.wait_after(2, 0) is None
    assert feed.wait_after(10, 0.05) == []
