"""Live updates: a watcher thread polls the store for new events and hands them to every listener.

The store is the single source of truth and the recorders are other processes, so the server
learns of new events by polling ``MAX(rowid)`` of the event table every ~100 ms (one indexed
lookup). Each new event becomes one Server-Sent Events message whose ``id`` is the event's row
number, carrying the event and its game's new state; a browser that reconnects with
``Last-Event-ID`` is sent what it missed from the recent messages kept in memory or, when it is
further behind, from the store itself. Every two seconds the watcher also looks for recorders
of open games whose process died without closing the game; the store then logs a ``recorder_lost``
alert for each, which reaches the pages as any other event.
"""

from __future__ import annotations

import json
import logging
import math
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from recorder.events import event_to_json
from recorder.server.state import StoredEvent

log = logging.getLogger(__name__)

POLL_S = 0.1
CHECK_S = 2.0  # how often the recorders of open games are checked for having died
KEEP = 500  # messages kept for listeners that fall behind or reconnect (each holds its game's state: ~30 kB)


@dataclass(frozen=True)
class Message:
    """One Server-Sent Events message: its ``id`` (the event's row number) and text."""

    id: int
    text: str


def sse_text(event_id: int, name: str, payload: dict[str, Any]) -> str:
    """An SSE message: ``id``, ``event`` name and one ``data`` line of JSON."""
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return f"id: {event_id}\nevent: {name}\ndata: {data}\n\n"


def messages_for(events: Iterable[StoredEvent], state_of: Callable[[int], dict[str, Any] | None]) -> list[Message]:
    """Messages for ``events``: each carries the event and its game's state after the batch."""
    events = list(events)
    states: dict[int, dict[str, Any] | None] = {}
    for stored in events:
        if stored.game_id not in states:
            states[stored.game_id] = state_of(stored.game_id)
    out = []
    for index, stored in enumerate(events):
        last_of_game = all(e.game_id != stored.game_id for e in events[index + 1:])
        payload = {"id": stored.id, "game": stored.game_id, "seq": stored.seq,
                   "event": event_to_json(stored.event),
                   "state": states[stored.game_id] if last_of_game else None}
        out.append(Message(stored.id, sse_text(stored.id, "game", payload)))
    return out


class EventFeed:
    """The watcher thread and the recent messages; listeners wait on :meth:`wait_after`.

    ``latest_id`` and ``read_after`` are the store look-ups (called from the watcher thread only);
    ``state_of`` builds a game's state.
    """

    def __init__(self, latest_id: Callable[[], int], read_after: Callable[[int], list[StoredEvent]],
                 state_of: Callable[[int], dict[str, Any] | None], poll_s: float = POLL_S,
                 check: Callable[[], object] | None = None, check_s: float = CHECK_S) -> None:
        self._latest_id = latest_id
        self._check = check  # called every ``check_s`` from the watcher thread (recorders that died)
        self.check_s = check_s
        self._read_after = read_after
        self._state_of = state_of
        self.poll_s = poll_s
        self._messages: deque[Message] = deque(maxlen=KEEP)
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self.last_id = 0
        self.epoch = 0  # bumped by ``reset``: the store was replaced, ids start over
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Begin watching from the store's newest event."""
        self.last_id = self._latest_id()
        self._thread = threading.Thread(target=self._run, name="xqrec-store-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=2)

    def reset(self, newest: int) -> None:
        """Start over from ``newest`` (another store file now): the messages kept are dropped and the
        listeners told (``epoch``), as their ids name events of the file that is gone."""
        with self._cond:
            self._messages.clear()
            self.last_id = newest
            self.epoch += 1
            self._cond.notify_all()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def poll(self) -> int:
        """One look at the store; returns how many new events were found."""
        newest = self._latest_id()
        if newest <= self.last_id:
            return 0
        found = 0
        while True:
            batch = self._read_after(self.last_id)
            if not batch:
                break
            messages = messages_for(batch, self._state_of)
            with self._cond:
                self._messages.extend(messages)
                self.last_id = max(self.last_id, batch[-1].id)
                self._cond.notify_all()
            found += len(batch)
            if self.last_id >= newest:
                break
        self.last_id = max(self.last_id, newest)
        return found

    def _run(self) -> None:
        checked = -math.inf
        failing = ""  # the trouble told, until a poll goes through (a store file away: one line, not one a poll)
        while not self._stop.wait(self.poll_s):
            try:
                if self._check is not None and time.monotonic() - checked >= self.check_s:
                    checked = time.monotonic()
                    self._check()  # what it writes to the store is read by the poll that follows
                self.poll()
            except Exception as error:  # a busy or briefly locked store, or one removed: try again at the next poll
                said = f"{type(error).__name__}: {error}"
                if said != failing:
                    if isinstance(error, OSError | sqlite3.Error):
                        log.warning("watching the store failed (%s); trying again until it answers", said)
                    else:  # not the store's trouble: the traceback, once
                        log.exception("watching the store failed; trying again")
                failing = said
                continue
            if failing:
                log.warning("watching the store again")
                failing = ""

    def wait_after(self, after_id: int, timeout: float) -> list[Message] | None:
        """Messages with an id above ``after_id``, waiting up to ``timeout`` seconds for one.

        ``None`` when ``after_id`` is older than the messages kept (read the store instead).
        """
        with self._cond:
            if self._messages and after_id < self._messages[0].id - 1 and after_id < self.last_id:
                return None
            if not self._messages and after_id < self.last_id:
                return None
            if not self._stop.is_set() and not (self._messages and self._messages[-1].id > after_id):
                self._cond.wait(timeout)
            return [m for m in self._messages if m.id > after_id]
