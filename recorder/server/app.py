"""The console server: JSON API, Server-Sent Events, the page's static files, exports and the broadcast PGN.

Routes (GET unless said):

- ``/`` the arbiter console; ``/games/{id}`` a game's page; ``/static/...`` their files
- ``/api/games`` every game's state (``last_event_id`` to start the event stream from)
- ``/api/games/{id}`` one game's state; ``/api/games/{id}/frames/{seq}`` an alert's still frame
- ``/api/events`` the Server-Sent Events stream (``Last-Event-ID`` or ``?since=`` continues)
- POST ``/api/games/{id}/ack`` | ``/correct`` | ``/takeback`` | ``/result``: the arbiter's actions (password when set)
- ``/games/{id}/export.pgn`` | ``.pdf`` | ``.txt``: the exports
- ``/rounds/export.pgn`` | ``.pdf`` | ``.txt`` ``?event=E&round=R``: a round's (or an event's) games in one file
- ``/broadcast/live.pgn`` the live rounds' games (``?event=`` one event's); ``/broadcast/round/{event}/{round}.pgn`` one round
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import html
import json
import logging
import mimetypes
import re
import socket
import sqlite3
import sys
import threading
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote, urlsplit

from recorder.events import AlertFrame
from recorder.server import actions
from recorder.server.config import ServeConfig, is_loopback
from recorder.server.feed import EventFeed, Message, messages_for, sse_text
from recorder.server.state import events_after, game_state, last_event_id, public_state, read_game_events
from recorder.store.db import MAX_ID, GameRow, GameStore, event_rounds

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
KEEPALIVE_S = 15.0
MAX_BODY = 64 * 1024
PAGES = {"/": "console.html", "/index.html": "console.html", "/watch": "watch.html", "/watch/": "watch.html",
         "/favicon.ico": "favicon.svg", "/favicon.svg": "favicon.svg"}  # browsers ask for the icon whatever a page links
# what anyone may read: the spectators' page and its data, the broadcast feed, the pages' own files.
# With a password set, everything else (the console, alerts, stills, a game's full exports) is the arbiter's.
PUBLIC_PAGES = {"/watch", "/watch/", "/favicon.ico", "/favicon.svg"}
PUBLIC_PREFIXES = ("/static/", "/broadcast/", "/api/public/", "/api/whoami")
NOTATIONS = ("iccs", "wxf", "chinese")
PAPERS = ("A4", "A5")  # the PDF scoresheet's (recorder.exports.pdf.PAPERS), not imported: fpdf loads on the first PDF
FLAGS = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}
DEFAULT_REALM = "xqrec arbiter"
MAX_WRONG, GUESS_WINDOW_S = 10, 60.0  # wrong passwords from one address within the window: it waits
# the broadcast feed is public: a viewer on another site may read it and its ETag, and poll with If-None-Match
CORS = {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag"}
_ENTITY_TAG = re.compile(r'[\s,]*(?:W/)?"([^"]*)"\s*(?:,|$)')  # RFC 9110 section 8.8.3: [W/]"opaque"



POST_ACTIONS = ("ack", "correct", "takeback", "result")


def _posts_here(path: str) -> bool:
    """Is ``path`` one of the arbiter's actions on a game (``/api/games/N/ACTION``), the only things posted to?"""
    segments = path.strip("/").split("/")
    return len(segments) == 4 and segments[:2] == ["api", "games"] and segments[3] in POST_ACTIONS

class ConsoleServer(ThreadingHTTPServer):
    """The HTTP server with the store's path, the settings and the live event feed."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # a hundred viewers reloading at once: the default 5 made the rest retry after 1-3 s

    def __init__(self, address: tuple[str, int], db_path: Path | str, config: ServeConfig,
                 poll_s: float = 0.1) -> None:
        self.db_path = Path(db_path)
        self.config = config
        self._local = threading.local()
        # create and migrate the store before any thread reads it, and refuse at once a file that is not
        # a store or is damaged (a truncated copy) rather than answer every request with a server error
        with GameStore(self.db_path) as store:
            store.check_integrity()
        self._wrong: dict[str, list[float]] = {}  # wrong passwords' times by client address
        self._guard = threading.Lock()
        self._file = _identity(self.db_path)  # the store file served: another put in its place is noticed
        self._generation = 0  # bumped when it is: every thread's connection is opened again
        # game id -> (what the state was built from, the state): a hall's console loads every game,
        # each page and every event stream message asks again, and replaying a game costs milliseconds
        self._states: dict[int, tuple[tuple[int, GameRow, int], dict[str, Any]]] = {}
        self._states_guard = threading.Lock()
        # what a published answer was made from (the file, its newest event, what was asked) -> the
        # ETag of its content: an event that changes nothing published (an alert, an acknowledgement)
        # leaves the tag as it was, and a relay polling gets 304 without the answer being made again
        self._tags: dict[tuple[object, ...], str] = {}
        self.feed = EventFeed(lambda: last_event_id(self.store().db), lambda after: events_after(self.store().db, after),
                              lambda gid: self.state_of(self.store(), gid), poll_s, check=self._check)
        if ":" in address[0]:  # an IPv6 address (::1, ::)
            self.address_family = socket.AF_INET6
        super().__init__(address, ConsoleHandler)
        self.feed.start()

    def wrong_password(self, client: str) -> None:
        """Note a wrong arbiter's password from ``client`` (logged: someone may be guessing)."""
        now = time.monotonic()
        with self._guard:
            tries = [t for t in self._wrong.get(client, []) if now - t < GUESS_WINDOW_S] + [now]
            self._wrong[client] = tries
        log.warning("wrong arbiter's password from %s (%d in the last minute)", client, len(tries))

    def guessing(self, client: str) -> bool:
        """Has ``client`` sent too many wrong passwords lately? Its actions wait a minute then."""
        now = time.monotonic()
        with self._guard:
            return len([t for t in self._wrong.get(client, []) if now - t < GUESS_WINDOW_S]) >= MAX_WRONG

    def store(self) -> GameStore:
        """This thread's connection to the store (SQLite connections stay in their thread)."""
        store = getattr(self._local, "store", None)
        if store is not None and getattr(self._local, "generation", 0) != self._generation:
            store.close()  # the file it reads was replaced
            store = None
        if store is None:
            # a store removed while serving is not made again empty here (the pages would show no
            # games as if that were the truth): the requests fail saying so until a file is back
            store = GameStore(self.db_path, create=False)
            self._local.store, self._local.generation = store, self._generation
        return store

    def published_tag(self, store: GameStore, *asked: object) -> tuple[tuple[object, ...], str | None]:
        """The key of a published answer to ``asked`` on ``store`` as it stands, and the ETag its
        content had when last made (``None``: not made since the store last changed)."""
        key = (self._generation_of(store), last_event_id(store.db), *asked)
        with self._states_guard:
            return key, self._tags.get(key)

    def _generation_of(self, store: GameStore) -> int | None:
        """The generation of the file ``store`` was opened on (a request begun before the file was
        replaced ends after it); ``None`` for a connection not this thread's own."""
        return getattr(self._local, "generation", None) if store is getattr(self._local, "store", None) else None

    def keep_tag(self, key: tuple[object, ...], tag: str) -> None:
        """Remember the ETag of the content made for ``key`` (the newest few hundred answers)."""
        with self._states_guard:
            self._tags[key] = tag
            while len(self._tags) > PUBLISHED_TAGS:
                del self._tags[next(iter(self._tags))]

    def _new_file(self) -> None:
        """The store file served changed: each thread's connection is opened again, and no game's
        kept state stands."""
        self._generation += 1
        with self._states_guard:
            self._states.clear()
            self._tags.clear()

    def _check(self) -> None:
        """The watcher's periodic look (every 2 s): the store file still the one served, recorders alive."""
        now = _identity(self.db_path)
        if now != self._file:
            if now is None:
                if self._file is not None:
                    log.error("the game store %s was removed while serving: nothing can be shown or recorded "
                              "until it is back (restore it, or a recorder makes a new one there)", self.db_path)
                    self._new_file()  # connections open on the deleted file are dropped: each request says so
                self._file = None
                return
            log.warning("the game store %s was replaced by another file while serving: reading the new one; "
                        "open pages reload", self.db_path)
            self._file = now
            self._new_file()
            self.feed.reset(last_event_id(self.store().db))
        if self._file is not None:
            self.store().close_lost_sessions()

    def state_of(self, store: GameStore, game_id: int) -> dict[str, Any] | None:
        """The game's state as the console shows it (``None`` for no such game), replayed only when
        its row or its events changed since last asked: events are only ever appended, so the
        newest one's number and the row say whether it did. Callers must not change what it returns."""
        try:
            row = store.game(game_id)
        except KeyError:
            return None
        generation = self._generation_of(store)
        if generation is None:  # not this thread's connection: nothing known to key it by
            return game_state(row, read_game_events(store.db, game_id))
        key = (generation, row, store.last_seq(game_id))
        with self._states_guard:
            kept = self._states.get(game_id)
        if kept is not None and kept[0] == key:
            return kept[1]
        state = game_state(row, read_game_events(store.db, game_id))
        with self._states_guard:
            self._states[game_id] = (key, state)
        return state

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up or timed out is no server error (a browser closing a tab, a reload)."""
        if isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            log.debug("client %s went away", client_address)
            return
        super().handle_error(request, client_address)

    def server_close(self) -> None:
        self.feed.stop()
        super().server_close()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        name = host.decode() if isinstance(host, bytes) else str(host)
        return f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}"


PUBLISHED_TAGS = 256  # published answers whose ETags are remembered (a few per round and notation)


def _identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the file at ``path``; ``None`` when there is none."""
    try:
        found = path.stat()
    except FileNotFoundError:
        return None
    return found.st_dev, found.st_ino


def _number(text: str) -> int | None:
    """``text`` as an id (ASCII digits, within SQLite's integers), else ``None``: ``"²"`` passes
    ``str.isdigit`` but not ``int``, and a 30-digit id overflows SQLite."""
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or int(text) > MAX_ID:
        return None
    return int(text)


def entity_tag(*parts: object) -> str:
    """A strong ``ETag`` (quoted, ASCII whatever the parts hold: event and round names can be any
    text, and a header is Latin-1) naming what identifies the content."""
    digest = hashlib.sha256("\x1f".join(str(p) for p in parts).encode("utf-8")).hexdigest()[:20]
    return f'"{digest}"'


def none_match(header: str | None, tag: str) -> bool:
    """Whether ``If-None-Match: header`` matches the current ``tag`` (RFC 9110 section 13.1.2): ``*``, or
    a comma-separated list of entity tags compared weakly (``W/"x"`` matches ``"x"``, as a proxy that
    compressed the answer sends it back). A malformed header matches nothing."""
    if header is None:
        return False
    text = header.strip()
    if text == "*":
        return True
    opaque = tag.removeprefix("W/")
    position, found = 0, False
    while position < len(text):
        match = _ENTITY_TAG.match(text, position)
        if match is None or match.end() == position:
            return False
        found = found or f'"{match.group(1)}"' == opaque
        position = match.end()
    return found


def download_name(game: GameRow) -> str:
    """A game's file name, without its extension, as a downloads folder lists it: event, round, board,
    players and the game's number (a broadcaster tester's folder held game-5.pgn, game-6.pgn, ...)."""
    info = game.info
    players = " - ".join(name for name in (info.red, info.black) if name)
    return _file_name([info.event, f"R{info.round}" if info.round else "",
                       f"B{info.board}" if info.board is not None else "", players, f"game {game.id}"])


def round_download_name(event: str, round_name: str | None) -> str:
    """A round's (or with ``round_name`` None, a whole event's) file name, without its extension."""
    return _file_name([event or "no event", "all rounds" if round_name is None else
                       f"R{round_name}" if round_name else "no round"])


def _file_name(parts: list[str]) -> str:
    """``parts`` joined with spaces, each on one line without the characters a file system refuses, cut
    to 200 bytes (a name holds 255) from its longest parts: the last part (the game's number) stays."""
    safe = ["".join("_" if char in '/\\:*?"<>|' or not char.isprintable() else char for char in " ".join(part.split()))
            for part in parts if part.strip()]
    while len(" ".join(safe).encode("utf-8")) > 200 and len(safe) > 1:
        longest = max(range(len(safe) - 1), key=lambda i: len(safe[i].encode("utf-8")))
        safe[longest] = safe[longest][:max(1, len(safe[longest]) * 2 // 3)]
    return " ".join(safe)


def content_disposition(filename: str) -> str:
    """``attachment`` with the file's name: an ASCII ``filename`` for every client and, when the name
    is not ASCII, ``filename*`` in UTF-8 (RFC 6266, RFC 8187)."""
    fallback = "".join(c if c.isascii() and c.isprintable() and c not in '"\\' else "_" for c in filename)
    header = f'attachment; filename="{fallback}"'
    if fallback != filename:
        header += f"; filename*=UTF-8''{quote(filename, safe='')}"
    return header


def _latin1(value: str) -> str:
    """A header value that ``http.server`` can write: Latin-1 without line breaks (a last defence:
    the values are built ASCII; one that is not is logged and its other characters escaped)."""
    try:
        value.encode("latin-1")
    except UnicodeEncodeError:
        log.error("header value %r is not Latin-1: escaped", value)
        value = value.encode("ascii", "backslashreplace").decode("ascii")
    return value.replace("\r", " ").replace("\n", " ")


class HttpError(Exception):
    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.challenge = False  # a 401 that asks any client for the password, not only a browser's page


class ConsoleHandler(BaseHTTPRequestHandler):
    """One request; routes by path."""

    server: ConsoleServer
    protocol_version = "HTTP/1.1"
    timeout = 30  # seconds a client may take to send its request (or take what is sent): half-sent ones end

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 (the base class's name)
        log.debug("%s %s", self.address_string(), format % args)

    # --- plumbing ---------------------------------------------------------------------------
    def _send(self, status: HTTPStatus, body: bytes, content_type: str,
              headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("X-Content-Type-Options", "nosniff")
        for key, value in (headers or {}).items():
            self.send_header(key, _latin1(value))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        self._send(status, body, "application/json; charset=utf-8", {"Cache-Control": "no-store"})

    def _error(self, error: HttpError, extra: dict[str, str] | None = None, *, confirm: bool = False) -> None:
        headers: dict[str, str] = dict(extra or {})
        # no WWW-Authenticate challenge for fetch() calls: the page asks with its own form
        if error.status == HTTPStatus.UNAUTHORIZED and (error.challenge or "text/html" in self.headers.get("Accept", "")):
            realm = self.server.config.realm
            realm = realm if realm.isascii() and realm.isprintable() else DEFAULT_REALM  # a header is Latin-1
            headers["WWW-Authenticate"] = f'Basic realm="{realm}", charset="UTF-8"'
        path = urlsplit(self.path).path
        if "text/html" in self.headers.get("Accept", "") and not path.startswith(("/api/", "/broadcast/")):
            # a page asked for by a browser (a game's link kept after the store changed): a page back
            text = html.escape(str(error))
            # the console itself needs the password: one turned away is offered the public boards
            back = ("href=/watch>← Spectators' boards" if error.status == HTTPStatus.UNAUTHORIZED
                    else "href=/>← Console")
            page = (f"<!doctype html><meta charset=utf-8><title>{error.status.value} · xqrec</title>"
                    f"<link rel=stylesheet href=/static/style.css><body><header class=bar><a class='button back' "
                    f"{back}</a><h1>{error.status.value} {html.escape(error.status.phrase)}</h1></header>"
                    f"<p style='padding:16px'>{text}</p>")
            self._send(error.status, page.encode("utf-8"), "text/html; charset=utf-8", headers)
            return
        # "confirm": the action may be asked again with "anyway" (the console asks the arbiter first)
        answer: dict[str, Any] = {"error": str(error), **({"confirm": True} if confirm else {})}
        body = json.dumps(answer, ensure_ascii=False).encode("utf-8")
        self._send(error.status, body, "application/json; charset=utf-8", headers)

    @staticmethod
    def _choice(query: dict[str, list[str]], name: str, allowed: tuple[str, ...], default: str) -> str:
        """Query parameter ``name``, one of ``allowed`` (400 otherwise, as the client asked wrongly)."""
        value = query.get(name, [default])[0]
        if value not in allowed:
            raise HttpError(HTTPStatus.BAD_REQUEST, f"{name} must be {', '.join(allowed[:-1])} or {allowed[-1]}, "
                                                    f"not {value!r}")
        return value

    def _game_id(self, text: str) -> int:
        game_id = _number(text)
        if game_id is None:
            raise HttpError(HTTPStatus.NOT_FOUND, f"no game {text!r}")
        try:
            self.server.store().game(game_id)
        except KeyError:
            raise HttpError(HTTPStatus.NOT_FOUND, f"no game {game_id} in the store") from None
        return game_id

    def do_HEAD(self) -> None:
        self.do_GET()

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        try:
            self._get(parts.path, query)
        except HttpError as error:
            self._error(error)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as error:  # a locked or damaged store: say so, keep serving the others
            self._failed(error)

    def do_OPTIONS(self) -> None:
        """The CORS preflight of a cross-site viewer polling the broadcast feed with If-None-Match."""
        if not urlsplit(self.path).path.startswith("/broadcast/"):
            return self._not_allowed()
        self.send_response(HTTPStatus.NO_CONTENT)
        for name, value in CORS.items():
            self.send_header(name, value)
        self.send_header("Access-Control-Allow-Methods", "GET, HEAD")
        self.send_header("Access-Control-Allow-Headers", "If-None-Match")
        self.send_header("Access-Control-Max-Age", "86400")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _not_allowed(self) -> None:
        allowed = "POST" if _posts_here(urlsplit(self.path).path) else "GET, HEAD"
        self._error(HttpError(HTTPStatus.METHOD_NOT_ALLOWED, f"{self.command} is not answered here (only {allowed})"),
                    {"Allow": allowed})

    do_PUT = do_DELETE = do_PATCH = _not_allowed

    def do_POST(self) -> None:
        parts = urlsplit(self.path)
        try:
            self._post(parts.path)
        except HttpError as error:
            self._error(error)
        except actions.ActionError as error:
            status = HTTPStatus.BAD_REQUEST if isinstance(error, actions.MalformedAction) else HTTPStatus.CONFLICT
            self._error(HttpError(status, str(error)), confirm=isinstance(error, actions.NeedsConfirming))
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as error:
            self._failed(error)

    def _failed(self, error: Exception) -> None:
        self.close_connection = True
        if isinstance(error, FileNotFoundError):  # the store was removed while serving
            log.warning("%s %s: %s", self.command, self.path, error)
            with contextlib.suppress(OSError):
                self._error(HttpError(HTTPStatus.SERVICE_UNAVAILABLE, f"{error}: it was removed while serving"))
            return
        if isinstance(error, sqlite3.OperationalError) and "locked" in str(error):
            # another program holds the store's write lock longer than the 10 s waited: nothing was
            # changed, and the same request a moment later will do
            log.warning("%s %s: the store is busy (%s)", self.command, self.path, error)
            with contextlib.suppress(OSError):
                self._error(HttpError(HTTPStatus.SERVICE_UNAVAILABLE,
                                      "the store is busy (another program is writing to it): nothing was changed; "
                                      "try again in a moment"))
            return
        if isinstance(error, sqlite3.DatabaseError) and "malformed" in str(error):
            log.error("%s %s: the store is damaged (%s)", self.command, self.path, error)
            with contextlib.suppress(OSError):
                self._error(HttpError(HTTPStatus.SERVICE_UNAVAILABLE, (
                    f"the store {self.server.db_path} is damaged ({error}). Was it replaced, moved or copied while a "
                    "recorder was writing it? Its write-ahead log (the -wal file beside it) belongs to the file "
                    "being written and is read into whatever file takes its name. Stop the recorders and the "
                    "server, and check it with xqrec games --db FILE (docs/store.md)")))
            return
        log.exception("%s %s failed", self.command, self.path)
        with contextlib.suppress(OSError):  # the client left
            self._error(HttpError(HTTPStatus.INTERNAL_SERVER_ERROR, f"server error: {error}"))

    # --- GET ---------------------------------------------------------------------------------
    def _get(self, path: str, query: dict[str, list[str]]) -> None:
        if self.server.config.password and path not in PUBLIC_PAGES and not path.startswith(PUBLIC_PREFIXES):
            self._check_password(challenge=True)  # the alerts and notes are not for the public
        segments = [unquote(s) for s in path.strip("/").split("/")] if path.strip("/") else []
        # the pages themselves need no store: a hall screen loads /watch and says "not live" while the
        # store file is away (a tester's got a 503 for the page itself)
        if path in PAGES:
            return self._static(PAGES[path])
        if segments[:1] == ["static"] and len(segments) > 1:
            return self._static("/".join(segments[1:]))
        store = self.server.store()
        match segments:
            case ["games", gid] if _number(gid) is not None:
                self._game_id(gid)
                return self._static("game.html")
            case ["games", gid, name] if name.startswith("export."):
                return self._export(self._game_id(gid), name.removeprefix("export."), query)
            case ["rounds", name] if name.startswith("export."):
                return self._round_export(name.removeprefix("export."), query)
            case ["api", "games"]:
                newest = last_event_id(store.db)
                states = [self.server.state_of(store, row.id) for row in store.games()]
                return self._json({"games": states, "last_event_id": newest, "now": round(time.time(), 3)})
            case ["api", "games", gid]:
                state = self.server.state_of(store, self._game_id(gid))
                return self._json(state if state is None else {**state, "now": round(time.time(), 3)})
            case ["api", "games", gid, "frames", seq]:
                return self._frame(self._game_id(gid), seq)
            case ["api", "events"]:
                return self._events(query)
            case ["api", "whoami"]:  # and the name the browser signed in with, when it did
                user = self._basic()[1] if self.server.config.password and self._password_matches() else ""
                return self._json({"password": bool(self.server.config.password), "name": user or None})
            case ["api", "public", "games"]:
                return self._public_games(query)
            case ["api", "games", _, "ack" | "correct" | "takeback" | "result"]:
                raise HttpError(HTTPStatus.METHOD_NOT_ALLOWED, f"{path} takes a POST of the arbiter's action")
            case ["broadcast", "live.pgn"]:
                return self._broadcast(None, None, query)
            case ["broadcast", "round", event, name] if name.endswith(".pgn"):
                return self._broadcast(event, name.removesuffix(".pgn"), query)
        raise HttpError(HTTPStatus.NOT_FOUND, f"nothing at {path}")

    def _static(self, name: str) -> None:
        target = (STATIC / name).resolve()
        if STATIC.resolve() not in target.parents or not target.is_file():
            raise HttpError(HTTPStatus.NOT_FOUND, f"no file {name}")
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "image/svg+xml"):
            kind += "; charset=utf-8"
        self._send(HTTPStatus.OK, target.read_bytes(), kind, {"Cache-Control": "no-cache"})

    def _frame(self, game_id: int, seq: str) -> None:
        for stored in read_game_events(self.server.store().db, game_id):
            if str(stored.seq) == seq and isinstance(stored.event, AlertFrame):
                # only pictures in the store's folder: a log entry must not open any file on the machine
                folder = self.server.db_path.parent.resolve()
                path = (folder / stored.event.path).resolve()
                if folder not in path.parents or path.suffix.lower() not in (".jpg", ".jpeg", ".png") \
                        or not path.is_file():
                    break
                kind = "image/png" if path.suffix.lower() == ".png" else "image/jpeg"
                return self._send(HTTPStatus.OK, path.read_bytes(), kind, {"Cache-Control": "max-age=86400"})
        raise HttpError(HTTPStatus.NOT_FOUND, f"no still frame {seq} for game {game_id}")

    def _export(self, game_id: int, kind: str, query: dict[str, list[str]]) -> None:
        from recorder.exports.pgn import export_pgn
        from recorder.exports.text import export_text

        store = self.server.store()
        row = store.game(game_id)
        events = store.events(game_id)
        name = download_name(row)
        if kind == "pgn":
            notation = self._choice(query, "notation", NOTATIONS, "iccs")
            body = export_pgn(events, row.info, notation, row.pgn_tags).encode("utf-8")
            content = "application/x-chess-pgn; charset=utf-8"
        elif kind == "pdf":
            from recorder.exports.pdf import scoresheet_pdf

            paper = self._choice(query, "paper", PAPERS, "A4")
            short = FLAGS[self._choice(query, "short", tuple(FLAGS), "0")]
            try:
                body = scoresheet_pdf(events, row.info, short=short, paper=paper, not_over=row.not_over)
            except (OSError, RuntimeError) as error:  # no CJK font on this machine
                raise HttpError(HTTPStatus.INTERNAL_SERVER_ERROR, f"cannot make the PDF: {error}") from None
            content = "application/pdf"
        elif kind == "txt":
            body = export_text(events, row.info, void=row.void).encode("utf-8")
            content = "text/plain; charset=utf-8"
        else:
            raise HttpError(HTTPStatus.NOT_FOUND, f"no export {kind!r} (pgn, pdf, txt)")
        self._send(HTTPStatus.OK, body, content, {
            "Content-Disposition": content_disposition(f"{name}.{kind}"), "Cache-Control": "no-store"})

    def _round_export(self, kind: str, query: dict[str, list[str]]) -> None:
        """A round's games in one file for the organiser (``?event=E&round=R``; without ``round`` the
        whole event): the round's PGN, its scoresheets in one PDF, or its text records."""
        from recorder.exports.round_pgn import event_pgn, games_of, round_pgn, round_sheets_pdf, round_text

        # here an empty value means something (the games of no event or round): elsewhere it is left out
        named = parse_qs(urlsplit(self.path).query, keep_blank_values=True)
        if "event" not in named:
            raise HttpError(HTTPStatus.BAD_REQUEST, "name the round: ?event=EVENT&round=ROUND (an empty value for a "
                                                    "game of no event or round; without round, the whole event)")
        event, round_name = named["event"][0], named["round"][0] if "round" in named else None
        store = self.server.store()
        try:
            games_of(store, event, round_name)
        except ValueError as error:  # no such round: what the store holds
            raise HttpError(HTTPStatus.NOT_FOUND, str(error)) from None
        if kind == "pgn":
            notation = self._choice(query, "notation", NOTATIONS, "iccs")
            body = (round_pgn(store, event, round_name, notation) if round_name is not None
                    else event_pgn(store, event, notation)).encode("utf-8")
            content = "application/x-chess-pgn; charset=utf-8"
        elif kind == "pdf":
            paper = self._choice(query, "paper", PAPERS, "A4")
            short = FLAGS[self._choice(query, "short", tuple(FLAGS), "0")]
            try:
                body = round_sheets_pdf(store, event, round_name, short=short, paper=paper)
            except (OSError, RuntimeError) as error:  # no CJK font on this machine
                raise HttpError(HTTPStatus.INTERNAL_SERVER_ERROR, f"cannot make the PDF: {error}") from None
            content = "application/pdf"
        elif kind == "txt":
            body = round_text(store, event, round_name).encode("utf-8")
            content = "text/plain; charset=utf-8"
        else:
            raise HttpError(HTTPStatus.NOT_FOUND, f"no export {kind!r} (pgn, pdf, txt)")
        self._send(HTTPStatus.OK, body, content, {
            "Content-Disposition": content_disposition(f"{round_download_name(event, round_name)}.{kind}"),
            "Cache-Control": "no-store"})

    def _broadcast(self, event: str | None, round_name: str | None, query: dict[str, list[str]]) -> None:
        """The round's multi-game PGN; ``ETag`` names its content (and the notation and round asked
        for), so a relay polling with ``If-None-Match`` gets ``304`` until something published changes."""
        from recorder.exports.round_pgn import round_pgn

        store = self.server.store()
        notation = self._choice(query, "notation", NOTATIONS, "iccs")
        games: list[GameRow] = []
        live: list[tuple[str, str]] = []
        if event is None or round_name is None:  # the live rounds follow the recorders running: in the tag too
            only = query.get("event", [None])[0]  # one event's live round (a relay per tournament)
            games = [g for g in store.games() if only is None or g.info.event == only]
            if only is not None and not games:
                raise HttpError(HTTPStatus.NOT_FOUND, f"no game of the event {only!r} in the store")
            live = _live_rounds(games)
        named: list[tuple[str | None, str | None]] = [*live] or [(event, round_name)]
        asked = (notation, *(part for pair in named for part in pair))
        key, known = self.server.published_tag(store, "pgn", *asked)
        wanted = self.headers.get("If-None-Match")
        # "*" matches only a round that exists: judged below, once the text is made
        if wanted is not None and wanted.strip() != "*" and known is not None and none_match(wanted, known):
            return self._not_modified(known)
        if event is None or round_name is None:
            if not live and not games:
                text = ""
            elif live:
                text = "\n".join(self._round_text(store, name, number, notation, round_pgn) for name, number in live)
            else:  # games recorded without a round: those being played, else all
                from recorder.exports.pgn import export_pgn

                shown = [g for g in games if g.status == "open"] or games
                text = "\n".join(export_pgn(store.events(g.id), g.info, notation, {"GameId": str(g.id)},
                                             public=True, live=True) for g in shown)
        else:
            text = self._round_text(store, event, round_name, notation, round_pgn)
        tag = entity_tag(*asked, text)
        self.server.keep_tag(key, tag)
        if wanted is not None and none_match(wanted, tag):  # "*" too, the round being there
            return self._not_modified(tag)
        self._send(HTTPStatus.OK, text.encode("utf-8"), "application/x-chess-pgn; charset=utf-8",
                   {"ETag": tag, "Cache-Control": "no-cache", **CORS})

    def _public_games(self, query: dict[str, list[str]]) -> None:
        """The spectators' view of a round: its games as :func:`public_state` has them, with the rounds
        the store holds (to choose from). Without ``event`` and ``round``, the live rounds, as the
        broadcast's ``live.pgn``. ``ETag``: a page polling with ``If-None-Match`` gets ``304`` until
        something published changes."""
        store = self.server.store()
        games = store.games()
        event, round_name = query.get("event", [None])[0], query.get("round", [None])[0]
        wanted = query.get("game", [None])[0]
        rounds = event_rounds(games)  # round 3 before round 10 in the spectators' menu (an organiser tester)
        if wanted is not None:  # one board, whatever its round (a link shared while it was played)
            found = [g for g in games if str(g.id) == wanted.strip()]
            if not found:
                raise HttpError(HTTPStatus.NOT_FOUND, f"no game {wanted!r} is published (unknown, or void)")
            shown = [(found[0].info.event, found[0].info.round)]
        elif event is not None or round_name is not None:
            shown = [(event or "", round_name or "")]
            if shown[0] not in rounds:
                raise HttpError(HTTPStatus.NOT_FOUND, f"no round {round_name or ''!r} of {event or 'no event'!r} in the "
                                                      "store")
        else:
            shown = _live_rounds(games)
        key, known = self.server.published_tag(store, "public", wanted or "", *(part for pair in shown for part in pair))
        if known is not None and none_match(self.headers.get("If-None-Match"), known):
            return self._not_modified(known)
        if wanted is not None:
            picked = found
        else:
            picked = [g for g in games if (g.info.event, g.info.round) in shown] if shown else \
                [g for g in games if g.status == "open"] or games  # no rounds: the games being played, else all
        states = [public_state(state) for g in picked if (state := self.server.state_of(store, g.id)) is not None]
        states.sort(key=lambda state: (state["board"] is None, state["board"] or 0, state["id"]))
        data: dict[str, Any] = {"rounds": [{"event": e, "round": r} for e, r in rounds],
                                "shown": [{"event": e, "round": r} for e, r in shown], "games": states}
        tag = entity_tag("public", json.dumps(data, ensure_ascii=False))
        self.server.keep_tag(key, tag)
        if none_match(self.headers.get("If-None-Match"), tag):
            return self._not_modified(tag)
        data["now"] = round(time.time(), 3)  # the page's clocks run from the server's time
        self._send(HTTPStatus.OK, json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8",
                   {"ETag": tag, "Cache-Control": "no-cache", **CORS})

    def _not_modified(self, tag: str) -> None:
        self.send_response(HTTPStatus.NOT_MODIFIED)
        self.send_header("ETag", tag)
        self.send_header("Cache-Control", "no-cache")
        for name, value in CORS.items():
            self.send_header(name, value)
        self.send_header("Content-Length", "0")
        self.end_headers()

    @staticmethod
    def _round_text(store: GameStore, event: str, round_name: str, notation: str, round_pgn: Any) -> str:
        try:
            return str(round_pgn(store, event, round_name, notation, live=True))
        except ValueError as error:
            raise HttpError(HTTPStatus.NOT_FOUND, str(error)) from None

    # --- Server-Sent Events -----------------------------------------------------------------
    def _events(self, query: dict[str, list[str]]) -> None:
        since = query.get("since", [""])[0]
        if since and _number(since) is None:  # the browser's own Last-Event-ID is the number it was sent
            raise HttpError(HTTPStatus.BAD_REQUEST, f"since must be an event id (a whole number), not {since!r}")
        start = _number((self.headers.get("Last-Event-ID") or "").strip())
        if start is None and since:
            start = _number(since)
        last = self.server.feed.last_id
        if start is not None and start > last:
            # an id beyond the newest is from a store since replaced (or made up): from the newest on
            # (the store's own newest: the watcher may not have seen the page's latest events yet)
            start = min(start, last_event_id(self.server.store().db))
        after = start if start is not None else last
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Accel-Buffering", "no")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if self.command == "HEAD":
            return
        self.wfile.write(b"retry: 1000\n\n")
        self.wfile.flush()
        try:
            self._stream(after)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception:  # the answer has begun: end it; the browser reconnects with Last-Event-ID
            log.exception("event stream failed")

    def _stream(self, after: int) -> None:
        feed = self.server.feed
        idle = 0.0
        epoch = feed.epoch
        while not feed.stopped:
            if feed.epoch != epoch:  # the store was replaced: the page starts again from the new one
                self.wfile.write(sse_text(feed.last_id, "reset", {"reason": "the game store was replaced"}).encode())
                self.wfile.flush()
                return
            messages = feed.wait_after(after, 1.0)
            if messages is None:  # further behind than the messages kept: read the store
                batch = events_after(self.server.store().db, after, 2000)
                messages = messages_for(batch, self._state)
                if not batch:
                    after = feed.last_id
            if messages:
                self._write(messages)
                after = messages[-1].id
                idle = 0.0
            else:
                idle += 1.0
                if idle >= KEEPALIVE_S:
                    # an event, not a comment, so the page can tell a server that stopped answering
                    # (a stalled server or network keeps the connection open, and it said "live")
                    self.wfile.write(b"event: ping\ndata: {}\n\n")
                    self.wfile.flush()
                    idle = 0.0

    def _state(self, game_id: int) -> dict[str, Any] | None:
        return self.server.state_of(self.server.store(), game_id)

    def _write(self, messages: list[Message]) -> None:
        self.wfile.write("".join(m.text for m in messages).encode("utf-8"))
        self.wfile.flush()

    # --- the arbiter's password ------------------------------------------------------------------
    def _client(self) -> str:
        """The client's address: behind a proxy on this machine (``proxy = true``), the one the proxy
        appended to ``X-Forwarded-For`` (a client's own entries come before it and are not trusted)."""
        address = str(self.client_address[0])
        forwarded = self.headers.get("X-Forwarded-For", "")
        if self.server.config.proxy and forwarded and is_loopback(address):
            return forwarded.split(",")[-1].strip() or address
        return address

    def _basic(self) -> tuple[str, str, str]:
        """(header, user, password) of the request's Basic authorization ("" where absent)."""
        header = self.headers.get("Authorization", "")
        user, password = "", ""
        if header.startswith("Basic "):
            try:
                user, _, password = base64.b64decode(header[6:]).decode("utf-8").partition(":")
            except (ValueError, UnicodeDecodeError):
                raise HttpError(HTTPStatus.BAD_REQUEST, "malformed Authorization header") from None
        return header, user, password

    def _password_matches(self) -> bool:
        expected = self.server.config.password
        return hmac.compare_digest(self._basic()[2].encode("utf-8"), expected.encode("utf-8"))

    def _check_password(self, challenge: bool = False) -> None:
        """401 unless the request carries the arbiter's password (a client that keeps guessing: 429).
        ``challenge``: a browser reading the arbiter's pages is asked for it (HTTP Basic)."""
        header, _, password = self._basic()
        client = self._client()
        if self.server.guessing(client):
            raise HttpError(HTTPStatus.TOO_MANY_REQUESTS, f"too many wrong passwords from {client}: wait a minute")
        if self._password_matches():
            return
        if header and password:  # a password was tried (not only asked for)
            self.server.wrong_password(client)
        error = HttpError(HTTPStatus.UNAUTHORIZED, "wrong password: nothing was done" if header and password
                          else "the arbiter's password is needed for this")
        error.challenge = challenge
        raise error

    # --- POST: the arbiter's actions ----------------------------------------------------------
    def _arbiter(self, body: dict[str, Any]) -> str:
        """Who acts: the Basic-auth user when a password is set (checked), else the name given."""
        if self.server.config.password:
            self._check_password()
        user = self._basic()[1]
        name = (user or str(body.get("by") or "")).strip()
        if not name:
            raise HttpError(HTTPStatus.UNAUTHORIZED, "say who you are (the arbiter's name)")
        if len(name) > 80:
            raise HttpError(HTTPStatus.BAD_REQUEST, "the name is too long")
        return name

    def _body(self) -> dict[str, Any]:
        length = _number((self.headers.get("Content-Length") or "0").strip())
        if length is None:  # a negative length would read until the client hangs up
            raise HttpError(HTTPStatus.BAD_REQUEST, "Content-Length must be a whole number of bytes")
        if length > MAX_BODY:
            raise HttpError(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "request too large")
        raw = self.rfile.read(length) if length else b"{}"
        try:
            data = json.loads(raw.decode("utf-8") or "{}")
        except (ValueError, UnicodeDecodeError):
            raise HttpError(HTTPStatus.BAD_REQUEST, "the body must be JSON") from None
        if not isinstance(data, dict):
            raise HttpError(HTTPStatus.BAD_REQUEST, "the body must be a JSON object")
        return data

    def _post(self, path: str) -> None:
        segments = path.strip("/").split("/")
        if not _posts_here(path):
            if segments[:2] == ["api", "games"]:
                raise HttpError(HTTPStatus.NOT_FOUND, f"nothing to post at {path}")
            return self._not_allowed()  # a page or feed to read (a tester's POST to the broadcast got a 404)
        if self.headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            raise HttpError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "send JSON (Content-Type: application/json)")
        body = self._body()
        by = self._arbiter(body)
        store = self.server.store()
        game_id = self._game_id(segments[2])
        action = segments[3]
        row = store.game(game_id)
        if row.void:  # voided with xqrec edit: nothing more is written to it from the console
            raise HttpError(HTTPStatus.CONFLICT, f"game {game_id} is void ({row.void}): take that back first "
                            f"(xqrec edit {game_id} --unvoid)")
        with store.locked():  # checked and written in one transaction: of two arbiters at once, one wins
            events = read_game_events(store.db, game_id)
            state = self.server.state_of(store, game_id) or {}
            if action == "ack":
                done = actions.acknowledge(store, game_id, events, body, by)
            elif action == "correct":
                done = actions.correct(store, game_id, events, body, [m["iccs"] for m in state.get("moves", [])],
                                       state.get("start_fen", ""), by)
            elif action == "takeback":
                done = actions.take_back(store, game_id, events, body, [m["iccs"] for m in state.get("moves", [])],
                                         state.get("start_fen", ""), by)
            else:
                done = actions.mark_result(store, game_id, events, body, [m["iccs"] for m in state.get("moves", [])],
                                           state.get("start_fen", ""), by)
        self._json({"ok": True, "appended": len(done), "state": self.server.state_of(store, game_id)})


def _live_rounds(games: list[GameRow]) -> list[tuple[str, str]]:
    """The (event, round)s the live feed shows: every round with a game a recorder is recording now
    (oldest round first: two events played at once are both shown, so a board of one never takes
    the feed from the other), else that of the newest game in a round; none when no game names a
    round. A game recorded without a round (a camera being tried out) never takes the feed away from
    the tournament's round, nor does an old round's interrupted game, nor a game imported from a PGN
    file (an archived game, which no recorder watched, brought in between rounds), unless the store
    holds only such games. A game that names its event but no round is such a camera too when other
    games of its event name rounds (a tester's board recorded with --event and no --round took the
    feed and the spectators' page from the tournament's round 3); an event none of whose games name
    a round (a club match) is live as any other."""
    with_rounds = {game.info.event for game in games if game.info.round}  # events whose games name rounds
    in_rounds = [game for game in games if game.info.round or (game.info.event and game.info.event not in with_rounds)]
    if not in_rounds:
        return []
    # an imported game had no recorder session and has its moves from the start
    watched = [game for game in in_rounds if game.sessions or not game.plies]
    in_rounds = watched or in_rounds
    playing = [game for game in in_rounds if game.state == "recording"]
    if not playing:
        newest = max(in_rounds, key=lambda game: game.id).info
        return [(newest.event, newest.round)]
    first: dict[tuple[str, str], int] = {}
    for game in sorted(playing, key=lambda game: game.id):
        first.setdefault((game.info.event, game.info.round), game.id)
    return list(first)
