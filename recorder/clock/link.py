"""The serial clock link: a thread that reads a clock over pyserial, notices when it goes, and reconnects.

The thread opens the port (any pyserial URL: a device, a pty, ``loop://``), sends the protocol's
set-up, and reads with a short timeout. Each valid message marks the line alive. After
``silence_s`` without one it polls the clock; with no answer ``answer_s`` later (or on a serial
error) the clock counts as disconnected: a notice goes out, the port is closed, and opening is
retried with exponential back-off. The first valid message on a new connection sends a
``clock_connected`` notice naming the gap. A clock that should be talking (a text clock's
heartbeat, a running DGT clock's reports) and is heard again after ``quiet_s`` without a word was
not lost but may have had presses dropped: a ``clock_quiet`` notice says so. Both notices carry the
time the clock was last heard (``since``), and ``last_heard`` is readable from other threads: every
item of a message is queued before ``last_heard`` moves past it. Presses and notices go into a
thread-safe queue, stamped with the host's monotonic clock.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import queue
import re
import stat
import threading
import time
from collections.abc import Callable
from typing import Any

import serial

from recorder.clock.model import CONNECTED, DISCONNECTED, QUIET, ClockNotice
from recorder.clock.presses import Item, clock_text
from recorder.clock.protocols import ClockProtocol

log = logging.getLogger(__name__)

MISMATCH_BYTES = 32  # bytes arriving without one message: something talks on the line, not our protocol

Opener = Callable[..., Any]


def port_problem(port: str) -> str | None:
    """Why ``port`` can never be a clock's line, or ``None`` when it may be one (now or once plugged in).

    A pyserial URL with a scheme pyserial does not know, and a path to something that exists and is
    not a character device (a folder, a regular file), will not become a serial port however long
    the link retries; a device or pty that is missing may yet be plugged in, and is retried."""
    if "://" in port:  # pyserial takes whatever comes before it as the name of a URL handler
        name = port.split("://", 1)[0]
        if not _url_handler_known(name):
            return (f"{name}:// is not a kind of port pyserial opens (a device path, a pty or a pyserial URL "
                    "such as socket://HOST:PORT or rfc2217://HOST:PORT)")
        return None
    try:
        mode = os.stat(port).st_mode  # follows links: a link to a pty is the pty
    except OSError:
        return None  # not there (yet): a clock plugged in later, or a Windows COM name
    if stat.S_ISCHR(mode):
        return None if _is_terminal(port) else (
            f"{port} is a character device that is no terminal (as /dev/null is), not a serial port "
            "(a clock's line is a device such as /dev/ttyUSB0, or a pty)")
    what = "a folder" if stat.S_ISDIR(mode) else "a regular file" if stat.S_ISREG(mode) else "not a device"
    return f"{port} is {what}, not a serial port (a clock's line is a device such as /dev/ttyUSB0, or a pty)"


def _is_terminal(path: str) -> bool:
    """Is the character device at ``path`` a terminal (a serial port, a pty)? One that cannot be opened
    now (busy, no permission) may be: it is retried, not refused."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return True
    try:
        return os.isatty(fd)
    finally:
        os.close(fd)


def _url_handler_known(name: str) -> bool:
    """Whether pyserial has a handler for ``name://`` URLs."""
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        return False  # not a module name: no handler can be called so
    for package in serial.protocol_handler_packages:
        try:
            if importlib.util.find_spec(f"{package}.protocol_{name}") is not None:
                return True
        except (ImportError, ValueError):
            continue
    return False


class SerialClockLink:
    """Reads ``port`` in a background thread; ``items`` is the queue of presses and notices."""

    def __init__(self, port: str, protocol: ClockProtocol, *, baudrate: int = 9600, silence_s: float = 3.0,
                 answer_s: float = 1.5, quiet_s: float = 2.5, backoff_s: tuple[float, float] = (0.25, 1.0),
                 opener: Opener = serial.serial_for_url, clock: Callable[[], float] = time.monotonic,
                 max_items: int = 10_000, rate: float = 1.0) -> None:
        self.port_name = port
        self.rate = rate  # recording seconds per host second (--clock-rate): how the notices' spans are told
        self.protocol = protocol
        self.baudrate = baudrate
        self.silence_s = silence_s
        self.answer_s = answer_s
        self.quiet_s = quiet_s
        self.backoff_s = backoff_s
        self.opener = opener
        self.clock = clock
        self.items: queue.Queue[Item] = queue.Queue(max_items)
        self.connections = 0
        self.disconnections = 0
        self.open_failures = 0
        self.connected = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_heard: float | None = None
        self._started: float | None = None
        self._gap_from: float | None = None
        self._times_lost: tuple[int, int] | None = None  # (red, black) ms when the clock was last lost
        self._missing_said = False
        self._bytes_unread = 0
        self._open_error = ""  # why the port last failed to open
        # the first valid message while not connected, and its items, waiting for a second one within
        # silence_s + answer_s (a stopped clock answers the poll that silence brings)
        self._first_heard: tuple[float, list[Item]] | None = None

    # --- control -----------------------------------------------------------------------
    @property
    def last_heard(self) -> float | None:
        """Host time of the last valid message (``None`` before the first); the items it brought
        are already in ``items``."""
        return self._last_heard

    def start(self) -> SerialClockLink:
        self._started = self.clock()
        self._thread = threading.Thread(target=self._run, name=f"clock-link {self.port_name}", daemon=True)
        self._thread.start()
        return self

    def stop(self, timeout: float = 2.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def __enter__(self) -> SerialClockLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _put(self, item: Item) -> None:
        try:
            self.items.put_nowait(item)
        except queue.Full:
            log.warning("clock link queue full; %s dropped", type(item).__name__)

    def _span(self, host_seconds: float) -> str:
        """A stretch of host time as the recording counts it (the times the log and sheets give)."""
        return f"{host_seconds * self.rate:.1f} s"

    # --- the thread ----------------------------------------------------------------------
    def _run(self) -> None:
        delay = self.backoff_s[0]
        while not self._stop.is_set():
            port = self._open()
            if port is None:
                self._never_heard(f"it cannot be opened: {self._open_error}")
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff_s[1])
                continue
            try:
                heard = self._session(port)
            finally:
                try:
                    port.close()
                except Exception:  # noqa: BLE001 -- closing a failed port must not kill the thread
                    log.debug("closing %s failed", self.port_name, exc_info=True)
            if heard:
                delay = self.backoff_s[0]
            elif not self._stop.is_set():
                # bytes that never made a message: a clock talking another protocol (or speed), not no clock
                self._never_heard(f"{self._bytes_unread} bytes came but none made a {self.protocol.name} message: is "
                                  "the clock set to another protocol (--clock-protocol) or line speed?"
                                  if self._bytes_unread >= MISMATCH_BYTES else
                                  f"no answer: check the cable and that the clock is on; a clock of another "
                                  f"protocol may wait to be asked in its own (a DGT clock is silent to "
                                  f"{self.protocol.name}: --clock-protocol dgt)" if self.protocol.name != "dgt"
                                  else "no answer: check the cable, that the clock is on, and --clock-protocol")
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff_s[1])

    def _open(self) -> Any | None:
        try:
            # a device is opened exclusively: a second recorder on the same clock would steal its bytes
            extra = {} if "://" in self.port_name else {"exclusive": True}
            return self.opener(self.port_name, baudrate=self.baudrate, timeout=0.05, write_timeout=1.0, **extra)
        except (serial.SerialException, OSError, ValueError) as error:
            self.open_failures += 1
            self._open_error = str(error)
            # the arbiter hears it as an alert (no clock, or the clock lost): the log says it for -v only
            if self.open_failures == 1 or self.open_failures % 20 == 0:
                log.info("clock port %s cannot be opened (%s); retrying", self.port_name, error)
            if self._gap_from is None and not self.connected:
                self._gap_from = self.clock()
            return None

    def _never_heard(self, why: str) -> None:
        """Say once that no clock has been heard since the start (recording goes on from vision)."""
        if self.connections == 0 and not self._missing_said:
            self._missing_said = True
            self._put(ClockNotice(self.clock(), DISCONNECTED, f"no clock on {self.port_name} ({why}); "
                                  "recording from the board alone until it answers"))

    def release_held(self) -> None:
        """Queue what the protocol holds for a report or press still to come, as the recording ends: a
        press whose time jumped, and a rise of a player's time no later press of theirs judged."""
        tracker = getattr(self.protocol, "tracker", None)
        if tracker is not None:
            for press in tracker.release_held():
                self._put(press)
            for notice in tracker.rise_untold():
                self._put(notice)

    def _times(self) -> tuple[int, int] | None:
        """(red, black) ms of the clock's last report on this connection, when the protocol keeps one."""
        tracker = getattr(self.protocol, "tracker", None)
        last = getattr(tracker, "last", None)
        if tracker is None or last is None:
            return None
        return (last.left_ms, last.right_ms) if tracker.map.red == "left" else (last.right_ms, last.left_ms)

    def _lost(self, why: str) -> None:
        now = self.clock()
        if self.connected:
            self._times_lost = self._times()  # told again when it comes back: a reset meanwhile shows
            self.connected = False
            self.disconnections += 1
            self._gap_from = self._last_heard if self._last_heard is not None else now
            log.info("clock on %s lost: %s", self.port_name, why)  # told as a clock_disconnected alert
            self._put(ClockNotice(now, DISCONNECTED, f"clock on {self.port_name} lost ({why}); "
                                  f"last heard {self._span(now - self._gap_from)} ago"))

    def _session(self, port: Any) -> bool:
        """Talk to an open port until it fails or falls silent; returns whether the clock answered."""
        self.protocol.reset()
        self._first_heard = None
        opened = self.clock()
        heard_any = False
        self._bytes_unread = 0  # bytes that arrived and made no message since the port was opened
        last = opened
        polled: float | None = None
        try:
            port.write(self.protocol.setup())
            while not self._stop.is_set():
                data = port.read(max(1, getattr(port, "in_waiting", 0) or 1))
                now = self.clock()
                if data:
                    before = self.protocol.heard
                    talking = self.protocol.talking()
                    items = self.protocol.feed(data, now)
                    heard = self.protocol.heard > before
                    self._bytes_unread = 0 if heard else self._bytes_unread + len(data)
                    if heard and not self.connected and self.protocol.heard - before < 2:
                        # one message alone is no clock: the line has no checksum, and noise makes a
                        # valid-looking message now and then (a tester's random bytes were taken for
                        # a clock after 131 s). Its items wait for a second message soon after: a running
                        # clock reports each second, a stopped one answers the poll silence brings.
                        if self._first_heard is None or now - self._first_heard[0] > self.silence_s + self.answer_s:
                            self._first_heard = (now, list(items))
                            polled = None
                            continue
                        items = self._first_heard[1] + items
                    if heard:
                        self._first_heard = None
                        if not self.connected:
                            self._came_back(now)
                        elif talking and self._last_heard is not None and now - self._last_heard > self.quiet_s:
                            self._quiet(self._last_heard, now)
                        heard_any = True
                    for item in items:
                        self._put(item)
                    if heard:
                        last, polled = now, None
                        if self.protocol.present:  # after its items: a reader that sees this time finds them queued
                            self._last_heard = now
                if now - last >= self.silence_s:
                    if polled is None:
                        port.write(self.protocol.poll())
                        polled = now
                    elif now - polled >= self.answer_s:
                        self._lost(f"silent for {self._span(now - last)}" if not self._bytes_unread else
                                   f"no readable message for {self._span(now - last)}: {self._bytes_unread} bytes "
                                   "came damaged (a noisy line: check the cable, its plugs and what runs beside it)")
                        return heard_any
        except (serial.SerialException, OSError) as error:
            # the arbiter reads what to check first; pyserial's words (a tester's "device reports
            # readiness to read but returned no data (device disconnected or multiple access on port?)")
            # follow for whoever mends it
            self._lost(f"the cable came out, the clock was switched off, or another program opened the port; "
                       f"serial error: {error}")
        return heard_any

    def _came_back(self, now: float) -> None:
        self.connected = True
        self.connections += 1
        since = self._gap_from
        if since is None and self.connections == 1 and self._started is not None \
                and now - self._started > self.quiet_s:
            since = self._started  # the clock answered only well after recording began
        if self._gap_from is None:
            text = f"clock connected on {self.port_name} ({self.protocol.name})"
        else:
            text = f"clock back on {self.port_name} after a {self._span(now - self._gap_from)} gap"
            before, after = self._times_lost, self._times()
            if before is not None and after is not None:  # a reset or a hand-set time within the gap's allowance
                text += (f"; its times were red {clock_text(before[0])}, black {clock_text(before[1])} when it was "
                         f"lost and are red {clock_text(after[0])}, black {clock_text(after[1])} now")
        self._gap_from = None
        self._times_lost = None
        log.info(text)
        self._put(ClockNotice(now, CONNECTED, text, since=since))

    def _quiet(self, since: float, now: float) -> None:
        text = (f"clock on {self.port_name} was silent for {self._span(now - since)} without being lost; "
                "a press made meanwhile may not have been heard")
        log.info(text)  # told as a clock_quiet note
        self._put(ClockNotice(now, QUIET, text, since=since))
