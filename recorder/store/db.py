"""The game store: tournaments, rounds, boards, games and every game's event log in one SQLite file.

SQLite from the standard library, in WAL mode with ``synchronous=FULL``: each event is one
committed transaction, so a killed process or a power cut loses nothing that was reported.
Games are ``open`` while being recorded (or after a crash) and ``closed`` when the recording
reached its end; a session row per run of the recorder (process id, host) tells a game that is
being recorded now from one left open by a crash.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import re
import shlex
import socket
import sqlite3
import stat
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from recorder.events import (
    Alert,
    Event,
    GameEnded,
    RecordingStarted,
    RecordingStopped,
    damaged_record,
    event_from_stored,
    event_to_json,
    recording_time,
    stopped_on_purpose,
)
from recorder.store.migrations import LATEST, check_store, migrate, schema_version
from rules.pgn import one_line

log = logging.getLogger(__name__)

APP_DIR = "xiangqi-recorder"
DB_NAME = "recorder.sqlite3"
MAX_ID = 2**63 - 1  # SQLite's largest integer: no game, event or alert number is larger


def default_db_path() -> Path:
    """``$XDG_DATA_HOME/xiangqi-recorder/recorder.sqlite3`` (``~/.local/share/...`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / APP_DIR / DB_NAME


def _tags(stored: str | None) -> tuple[tuple[str, str], ...]:
    """A game's other PGN tags as stored (a JSON object; anything else is none)."""
    try:
        found = json.loads(stored or "{}")
    except ValueError:
        return ()
    if not isinstance(found, dict):
        return ()
    return tuple((str(name), str(value)) for name, value in found.items())


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class GameInfo:
    """What the arbiter tells about a game: tournament, round, board, players, time control, set-up."""

    event: str = ""
    site: str = ""
    round: str = ""
    date: str = ""
    board: int | None = None
    red: str = ""
    black: str = ""
    time_control: str = ""  # PGN style: seconds[+increment], e.g. "5400+30"
    camera: str = ""
    clock: str = ""
    tags: tuple[tuple[str, str], ...] = ()  # an imported game's other PGN tags (ECCO, Opening...), in order

    def __post_init__(self) -> None:
        # each detail on one line, as a sheet's box, a PGN tag and the console's list show it: a name
        # typed or imported with a line break or a tab is read with a space there. Nothing else is
        # changed: events and rounds are found by their names as stored (a reviewer: a stored "Open "
        # read back as "Open" found no games of its own event)
        for name in ("event", "site", "round", "date", "red", "black", "time_control", "camera", "clock"):
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, one_line(value))


def round_order(name: str) -> list[tuple[int, int | str]]:
    """A round's name as rounds are ordered: numbers as numbers ("2" before "10"), words as words."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in re.findall(r"\d+|\D+", name)]


def event_rounds(games: list[GameRow]) -> list[tuple[str, str]]:
    """The (event, round)s ``games`` are played in, by event, then in round order (round 3 before 10)."""
    return in_round_order({(g.info.event, g.info.round) for g in games if g.info.event or g.info.round})


def in_round_order(rounds: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """(event, round)s by event, then in round order."""
    return sorted(rounds, key=lambda pair: (pair[0], round_order(pair[1]), pair[1]))


VOID_MARK = "the game is void: "  # how ``GameRow.not_over`` begins for a void game (its sheets say so)


@dataclass
class GameRow:
    """One game as the store lists it."""

    id: int
    info: GameInfo
    source: str
    status: str  # "open", "closed"
    result: str
    start_fen: str
    model_sha256: str | None
    created: str
    updated: str
    plies: int = 0
    interrupted: bool = False  # open, and no live recorder holds it (stopped, or lost: a crash, a pulled cable)
    last_stop: str = ""  # the reason of its recorder's last stop (RecordingStopped), "" if none since it started
    sessions: int = 0
    void: str = ""  # why the arbiter voided it ("" when not): it is kept, but listed and published no more

    @property
    def not_over(self) -> str:
        """Why the game's record is not a finished one ("" when it is closed): a sheet printed from it
        must not pass for one to sign."""
        if self.void:
            return f"{VOID_MARK}{self.void}"
        if self.status == "closed":
            return ""
        if not self.interrupted:
            return "it is still being recorded"
        return ("its recorder was stopped before the game ended" if self.state == "stopped"
                else "its recorder stopped without closing it")

    @property
    def pgn_tags(self) -> dict[str, str]:
        """The store's own tags on the game's PGN: its number, and why it is void where it is (a void
        game's file, exported for a dispute, must not pass for a game of the round)."""
        return {"GameId": str(self.id), **({"Void": self.void} if self.void else {})}

    @property
    def state(self) -> str:
        """``void``, ``closed``, ``recording``, ``stopped`` (open, its recorder stopped on purpose:
        Ctrl-C, SIGTERM, a video file cut short) or ``interrupted`` (open, its recorder lost: a crash,
        a pulled cable, an error of its own). A stopped or interrupted game goes on with
        ``record --resume``; an interrupted one is also worth a look at why."""
        if self.void:
            return "void"
        if self.status == "closed":
            return "closed"
        if not self.interrupted:
            return "recording"
        return "stopped" if stopped_on_purpose(self.last_stop) else "interrupted"

    @property
    def waiting(self) -> bool:
        """Open with no recorder running (``stopped`` or ``interrupted``): to be gone on with."""
        return self.status == "open" and not self.void and self.interrupted


def _alive(pid: int, host: str, process: str | None = None) -> bool:
    """Is the recorder process ``pid`` of ``host`` still running? ``process`` is the session's
    :func:`process_identity`: a process by that number that is another one (the number given again
    after a crash or a reboot, to a recorder started at boot or to the very process asking) is not
    it. Another host's cannot be told from here: taken as running."""
    if host != socket.gethostname():
        return True  # cannot tell from here: assume it is still recording (record --take-over)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    now = process_identity(pid)
    return process is None or now is None or now == process


def process_identity(pid: int) -> str | None:
    """Which process ``pid`` is, beyond its number: this boot of the machine and the process's start
    in clock ticks since it (Linux's /proc; None elsewhere). No wall clock is read, so a clock set
    forward after boot (a machine without a battery-backed clock, then NTP) changes nothing."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
        since_boot = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None
    return f"{boot}:{since_boot}"


def _wal_left_behind(path: Path | None) -> str:
    """Why a store file may look empty: a recorder writes ahead into ``FILE-wal`` and moves its records
    into the file itself only now and then, so a copy made while it ran, or after it crashed, without
    that file holds little or nothing (a tester's copy after kill -9 read as "an empty database")."""
    if path is None:
        return ""
    wal = Path(f"{path}-wal")
    try:  # (reading the file made an empty one, where it is in write-ahead mode)
        if wal.exists() and wal.stat().st_size > 0:
            return ""
        with open(path, "rb") as file:
            if file.read(16) != b"SQLite format 3\0":
                return ""
    except OSError:
        return ""
    return (f"; if it was copied while its recorder ran or after a crash, the records may be in {path.name}-wal, "
            "which is not beside it: copy that file along with it")


def _write_ahead(db: sqlite3.Connection) -> None:
    """Put the store in WAL mode (kept in the file: readers never wait for the recorder's writes).
    SQLite answers "database is locked" at once, without waiting, when another connection is
    making the same change: recorders started together on a new store each ask."""
    for attempt in range(50):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or attempt == 49:
                raise
            time.sleep(0.1)


def _give_name(partial: Path, target: Path) -> None:
    """Give the whole file ``partial`` the name ``target`` too, failing (``FileExistsError``) where
    something has it: a hard link, or on a file system without them a rename made once the name was
    seen free (a window of a moment where none can be closed)."""
    try:
        os.link(partial, target)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK):
            raise
        if target.exists():
            raise FileExistsError(errno.EEXIST, "taken", str(target)) from None
        os.rename(partial, target)


def _ready_to_write(db: sqlite3.Connection, *, write_ahead: bool) -> None:
    """Every write committed to the disk before it returns, foreign keys checked, and (a file) WAL mode."""
    if write_ahead:
        _write_ahead(db)
    db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")


def _file_identity(path: Path | None) -> tuple[int, int] | None:
    """The device and inode of the file at ``path`` (None: no path, or no file there)."""
    if path is None:
        return None
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _file_mode(path: Path | None) -> int:
    """The permission bits of the file at ``path`` (read and write for its owner where unknown)."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode) if path is not None else 0o600
    except OSError:
        return 0o600


def _on_read_only_media(path: Path) -> bool:
    """Is the store's folder on a file system mounted read-only (a write-protected card, a CD, an
    archive mount)? SQLite cannot even read a store there the usual way: it needs its lock files."""
    try:
        return bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): opened as usual
        return False


def _open_unchanging(path: Path) -> sqlite3.Connection:
    """A store on read-only media, opened as a file nothing changes (SQLite's ``immutable``). A write-ahead
    log left beside it (a recorder stopped before it was folded in) cannot be read so: told."""
    wal = path.with_name(path.name + "-wal")
    if wal.exists() and wal.stat().st_size:
        log.warning("%s has a write-ahead log beside it that read-only media keep from being read: the latest "
                    "events may be missing (copy the store and its -wal file somewhere writable)", path)
    uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?immutable=1"
    return sqlite3.connect(uri, uri=True, isolation_level=None)


class GameStore:
    """The SQLite game store; ``GameStore(path)`` creates and migrates the file on first use.

    ``path`` ``None`` opens :func:`default_db_path`; ``":memory:"`` a private in-memory store.
    A database holding some other program's tables is refused before anything is written to it
    (``NotAGameStoreError``, a ``ValueError``); ``create=False`` refuses an empty one too
    (``FileNotFoundError``) instead of making it a store, for the commands that only read.
    """

    def __init__(self, path: str | Path | None = None, *, create: bool = True) -> None:
        memory = str(path) == ":memory:"
        self.path = None if memory else Path(path) if path is not None else default_db_path()
        if self.path is not None and self.path.is_dir():  # SQLite says only "unable to open database file"
            raise IsADirectoryError(f"{self.path} is a folder: the game store is a file in it (for example "
                                    f"{self.path / 'games.sqlite3'})")
        if self.path is not None and create:
            if self.path == default_db_path():  # the default store's folder is ours to make
                self.path.parent.mkdir(parents=True, exist_ok=True)
            elif not self.path.parent.is_dir():  # a typo or a drive not mounted: not a new store elsewhere
                raise FileNotFoundError(f"no folder {self.path.parent} for the game store {self.path.name}: "
                                        "create it first (or is the drive not mounted?)")
        elif self.path is not None and not self.path.exists():  # connecting would make an empty file
            raise FileNotFoundError(f"no game store at {self.path}")
        self.read_only = False  # opened from read-only media: read as it is, nothing can be written
        if self.path is not None and not create and _on_read_only_media(self.path):
            self.db = _open_unchanging(self.path)
            self.read_only = True
        else:
            self.db = sqlite3.connect(":memory:" if self.path is None else self.path, isolation_level=None,
                                      timeout=10.0)
        self.db.row_factory = sqlite3.Row
        self._writing = False  # inside ``locked``
        self._identity = _file_identity(self.path)  # the file opened (see ``lost``)
        self._mode = _file_mode(self.path)  # its permissions, given to a copy written back (``save_elsewhere``)
        if self.read_only:
            try:
                if not check_store(self.db, self.path):
                    raise FileNotFoundError(f"no game store at {self.path} (an empty database{_wal_left_behind(self.path)})")
                if schema_version(self.db) != LATEST:
                    raise ValueError(f"the game store {self.path} is on read-only media and needs upgrading to this "
                                     "program's version: copy it somewhere writable first")
            except BaseException:
                self.db.close()
                raise
            return
        try:
            if not check_store(self.db, self.path) and not create:  # before the journal mode is written
                raise FileNotFoundError(f"no game store at {self.path} (an empty database"
                                        f"{_wal_left_behind(self.path) or ': record or games --import make one'})")
            _ready_to_write(self.db, write_ahead=self.path is not None)
            migrate(self.db, self.path)
        except BaseException:
            self.db.close()
            raise

    def check_integrity(self) -> None:
        """Read every page (SQLite's ``quick_check``): a damaged file (a truncated copy, a disk error)
        raises ``sqlite3.DatabaseError`` now rather than on some later query."""
        problems = [str(row[0]) for row in self.db.execute("PRAGMA quick_check")]  # or raises itself
        if problems != ["ok"]:
            lines = [line for text in problems for line in text.splitlines() if not line.startswith("***")]
            first = lines[0] if lines else "no detail"
            more = f", and {len(lines) - 1} more" if len(lines) > 1 else ""
            raise sqlite3.DatabaseError(f"database disk image is malformed: quick_check: {first}{more}")

    def close(self) -> None:
        self.db.close()

    def lost(self) -> str:
        """How the file this store opened left its path ("" while it is there): removed, or another
        file put in its place. SQLite goes on writing to the file it holds open, so a store deleted
        while a recorder ran took every move with it when the recorder ended (a tester's ``rm``)."""
        if self._identity is None or self.read_only:
            return ""
        now = _file_identity(self.path)
        if now is None:
            return "removed"
        return "" if now == self._identity else "replaced by another file"

    def save_elsewhere(self) -> Path:
        """Write what this store holds (every game, from the file it still holds open) back to its path,
        or, where another file took the path or its folder is gone or cannot be written, to a new
        ``NAME.rescued-<time>-<process>`` file beside it, in the working folder or in the temporary
        folder; and go on writing there: the path written. The copy is made whole under a hidden name first, and only then given its name,
        which fails if anything took that name meanwhile: two recorders rescuing the one store never
        write over each other, and no program opens a half-written copy."""
        assert self.path is not None
        tried: list[str] = []
        for folder in (self.path.parent, Path.cwd(), Path(tempfile.gettempdir())):
            try:
                partial = self._copied_into(folder)
            except (sqlite3.Error, OSError) as error:  # a folder gone or not writable
                tried.append(f"{folder}: {getattr(error, 'strerror', None) or error}")
                continue
            break
        else:
            raise sqlite3.OperationalError(f"nowhere to write the store's contents back ({'; '.join(tried)})")
        # the whole store is in the copy: the old file is let go of. Write-ahead files left at the path with
        # no store beside them are the removed file's (SQLite keeps them when its file was removed; a
        # program still holding them keeps its own handles): a copy given the path must not take them up
        # (a reviewer: a console's stale -shm failed the copy's set-up, and the recording stopped)
        self.db.close()
        if not self.path.exists():
            for orphan in (Path(f"{self.path}-wal"), Path(f"{self.path}-shm")):
                with suppress(OSError):
                    os.unlink(orphan)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        names = [f"{self.path.stem}.rescued-{stamp}-{os.getpid()}{f'-{k}' if k else ''}{self.path.suffix}" for k in range(8)]
        targets = ([self.path] if partial.parent == self.path.parent else []) + [partial.parent / name for name in names]
        placed = False
        try:
            for target in targets:
                if any(Path(f"{target}{end}").exists() for end in ("", "-wal", "-shm")):
                    continue  # taken: written back by another recorder, another copy, or files still held
                try:
                    _give_name(partial, target)
                except OSError:  # taken meanwhile, or a name this folder will not give
                    continue
                placed = True
                break
        finally:
            for leftover in ([partial] if placed else []) + [Path(f"{partial}{end}") for end in ("-wal", "-shm", "-journal")]:
                with suppress(OSError):
                    os.unlink(leftover)  # (the copy itself stays where it could not be given a name)
        if not placed:  # (every name taken: written on where it lies, under its hidden name)
            log.warning("no name could be given to the store's copy: it is kept as %s", partial)
            target = partial
        db = sqlite3.connect(target, isolation_level=None, timeout=10.0)
        db.row_factory = sqlite3.Row
        try:
            _ready_to_write(db, write_ahead=True)
        except sqlite3.Error as error:  # written on all the same, in SQLite's plain journal mode
            log.warning("the store's copy %s is written without its write-ahead log: %s", target, error)
        self.db, self.path, self._identity = db, target, _file_identity(target)
        return target

    def _copied_into(self, folder: Path) -> Path:
        """A whole copy of this store under a hidden name in ``folder``: its path."""
        for k in range(8):
            partial = folder / f".{self.path.name if self.path else 'store'}.{os.getpid()}-{k}.partial"
            try:
                os.close(os.open(partial, os.O_CREAT | os.O_EXCL | os.O_WRONLY, self._mode))
            except FileExistsError:  # (left by a killed process of the same number, or another store's)
                continue
            try:
                copy = sqlite3.connect(partial)
                try:
                    self.db.backup(copy)
                finally:
                    copy.close()
                os.chmod(partial, self._mode)  # a store shared by a group stays so
            except BaseException:
                with suppress(OSError):
                    os.unlink(partial)
                raise
            return partial
        raise FileExistsError(f"no free name for a copy in {folder}")

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- tournaments, rounds, boards ----------------------------------------------------
    def _board_id(self, info: GameInfo, *, fill: bool = True) -> int | None:
        """The board ``info`` names (its event, round and number), made when new; None for a game with
        none. With ``fill`` (a recorder's game) its site and date become the tournament's and the
        round's where those are still empty; an arbiter's edit of one game (``fill`` False) never
        changes what the other games of the round show."""
        if info.board is None and not info.event and not info.round:
            return None
        self.db.execute("INSERT OR IGNORE INTO tournaments (name, site, created) VALUES (?, ?, ?)",
                        (info.event, info.site if fill else "", _now()))
        tournament, site = self.db.execute("SELECT id, site FROM tournaments WHERE name = ?",
                                           (info.event,)).fetchone()
        self.db.execute("INSERT OR IGNORE INTO rounds (tournament_id, name, date) VALUES (?, ?, ?)",
                        (tournament, info.round, info.date if fill else ""))
        round_id, date = self.db.execute("SELECT id, date FROM rounds WHERE tournament_id = ? AND name = ?",
                                         (tournament, info.round)).fetchone()
        # the first recorder's details are the tournament's and the round's; a later recorder that names
        # them fills them where the first left them empty (its games keep their own, see create_game)
        if fill and info.site and not site:
            self.db.execute("UPDATE tournaments SET site = ? WHERE id = ?", (info.site, tournament))
        elif fill and info.site and site != info.site:
            log.info("game site %r differs from tournament %r's site %r; the game keeps its own",
                     info.site, info.event, site)
        if fill and info.date and not date:
            self.db.execute("UPDATE rounds SET date = ? WHERE id = ?", (info.date, round_id))
        self.db.execute("INSERT OR IGNORE INTO boards (round_id, number) VALUES (?, ?)",
                        (round_id, info.board if info.board is not None else 0))
        row = self.db.execute("SELECT id FROM boards WHERE round_id = ? AND number = ?",
                              (round_id, info.board if info.board is not None else 0)).fetchone()
        return int(row[0])

    # --- games ----------------------------------------------------------------------------
    def create_game(self, source: str, info: GameInfo | None = None) -> int:
        """A new open game for ``source`` (the camera, stream or file recorded); returns its id."""
        info = info or GameInfo()
        now = _now()
        with self.locked():  # joins the caller's: a recorder checks the board is free in the same one
            board = self._board_id(info)
            cursor = self.db.execute(
                "INSERT INTO games (board_id, source, site, date, red, black, time_control, camera, clock, tags,"
                " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (board, source, info.site, info.date, info.red, info.black, info.time_control, info.camera,
                 info.clock, json.dumps(dict(info.tags), ensure_ascii=False), now, now))
        game_id = int(cursor.lastrowid or 0)
        log.debug("game %d created for %s", game_id, source)
        return game_id

    def append(self, game_id: int, event: Event, *, close_with: str | None = None) -> int:
        """Commit ``event`` to the game's log (one transaction, durable on return); returns its number.

        ``close_with`` closes the game with that result in the same transaction (the last event).
        """
        with self.locked():
            seq = self._insert(game_id, event)
            if isinstance(event, RecordingStarted):
                self.db.execute("UPDATE games SET start_fen = CASE start_fen WHEN '' THEN ? ELSE start_fen END,"
                                " model_sha256 = COALESCE(?, model_sha256) WHERE id = ?",
                                (event.start_fen, event.model_sha256, game_id))
            elif isinstance(event, GameEnded) and not event.advisory and event.result:
                self.db.execute("UPDATE games SET result = ? WHERE id = ?", (event.result, game_id))
            self.db.execute("UPDATE games SET updated = ? WHERE id = ?", (_now(), game_id))
            if close_with is not None:
                self.db.execute("UPDATE games SET status = 'closed', result = ? WHERE id = ?", (close_with, game_id))
        return seq

    @contextmanager
    def locked(self) -> Iterator[None]:
        """One write transaction (``BEGIN IMMEDIATE``): what is read inside is what the appends inside
        are checked against, as no other writer can come between (appends inside join it)."""
        if self._writing:
            yield
            return
        self.db.execute("BEGIN IMMEDIATE")
        self._writing = True
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        else:
            self.db.execute("COMMIT")
        finally:
            self._writing = False

    def _insert(self, game_id: int, event: Event) -> int:
        """Insert ``event`` (inside a write transaction); returns its number in the game."""
        # numbered inside the write lock: the console (another process) appends to the same game
        # while the recorder runs, so a number remembered from an earlier append may be taken
        seq = self.last_seq(game_id) + 1
        self.db.execute("INSERT INTO events (game_id, seq, type, t, data, wall) VALUES (?, ?, ?, ?, ?, ?)",
                        (game_id, seq, type(event).__name__, float(event.t), json.dumps(event_to_json(event),
                                                                                       ensure_ascii=False),
                         time.time()))
        return seq

    def close_lost_sessions(self) -> list[int]:
        """End the recording sessions whose recorder process died without closing its game (killed, a
        crash, a power cut): each such game gets a ``RecordingStopped`` and a ``recorder_lost`` alert, so
        a console shows at once that nothing records it. Only processes of this host can be checked.
        Returns the games concerned; the game stays open (``record --resume`` goes on with it)."""
        candidates = self.db.execute(
            "SELECT s.id, s.game_id, s.pid, s.host, s.process FROM sessions s JOIN games g ON g.id = s.game_id"
            " WHERE s.stopped IS NULL AND g.status = 'open' AND s.host = ?"
            " AND s.id = (SELECT MAX(id) FROM sessions WHERE game_id = s.game_id)", (socket.gethostname(),)).fetchall()
        lost = [row for row in candidates if not _alive(int(row["pid"]), str(row["host"]), row["process"])]
        if not lost:
            return []
        found: list[int] = []
        with self.locked():
            for row in lost:  # looked at again under the write lock: another console may have been first
                if self.db.execute("SELECT stopped FROM sessions WHERE id = ?", (row["id"],)).fetchone()["stopped"]:
                    continue
                game_id = int(row["game_id"])
                last = self.db.execute("SELECT MAX(t) AS t FROM events WHERE game_id = ?", (game_id,)).fetchone()
                t = float(last["t"] or 0.0)
                now = _now()
                self.db.execute("UPDATE sessions SET stopped = ? WHERE id = ?", (now, row["id"]))
                self._insert(game_id, RecordingStopped(t, 0, "the recorder's process ended without closing the game"))
                # the game's own source in the command (a tester was told "SOURCE", which the store knows)
                source = shlex.quote(self.game(game_id).source) if self.game(game_id).source else "SOURCE"
                text = (f"the recorder of this game (process {row['pid']}) ended without closing it, after "
                        f"{recording_time(t)} of its source (found at {now[11:19]} UTC): nothing records the game now; go on with "
                        f"`xqrec record {source} {self.resume_option(game_id)}`")
                # at the ply the game had reached: its sheets place the note after the moves recorded
                self._insert(game_id, Alert(t, "recorder_lost", (), "", text, self.game(game_id).plies))
                self.db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
                log.warning("game %d: %s", game_id, text)
                found.append(game_id)
        return found

    def events(self, game_id: int) -> list[Event]:
        """The game's event log in the order it was recorded.

        An event that cannot be read (a damaged disk, a hand-edited row) is read as a
        ``record_damaged`` alert in its place (:func:`~recorder.events.damaged_record`), so the rest of
        the game stays readable, exportable and resumable (one bad row made a tester's 30 moves
        unreachable); its place is kept, as acknowledgements name alerts by it."""
        return [event for _, event in self._read(game_id, 0)]

    def _read(self, game_id: int, after: int) -> list[tuple[int, Event]]:
        rows = self.db.execute("SELECT seq, data FROM events WHERE game_id = ? AND seq > ? ORDER BY seq",
                               (game_id, after))
        found: list[tuple[int, Event]] = []
        for row in rows:
            seq = int(row["seq"])
            try:
                event = event_from_stored(row["data"])
            except ValueError as error:
                log.warning("game %d, event %d cannot be read (%s): kept as a damaged-record alert", game_id, seq,
                            error)
                event = damaged_record(seq, str(error), [event for _, event in found])
            found.append((seq, event))
        return found

    def withdraw(self, game_id: int, replacements: dict[int, Event]) -> None:
        """Put ``replacements`` (number -> event) in place of events a run wrote to a game it was not
        recording (``record --resume`` with another game's source, refused once its board showed so):
        left as they were, they were replayed into this game (another game's clock presses charged as
        fouls, its time read as how far this game's source was recorded). Rewritten in place, not
        deleted: the log's numbering (acknowledgements name events by it) and the row ids the
        console's feed follows stay as they were. The only rewrite the log knows."""
        if not replacements:
            return
        with self.locked():
            for seq, event in sorted(replacements.items()):
                self.db.execute("UPDATE events SET type = ?, t = ?, data = ? WHERE game_id = ? AND seq = ?",
                                (type(event).__name__, float(event.t),
                                 json.dumps(event_to_json(event), ensure_ascii=False), game_id, seq))
            self.db.execute("UPDATE games SET updated = ? WHERE id = ?", (_now(), game_id))

    def time_base(self, game_id: int) -> float | None:
        """The game's event time minus the wall-clock time it was stored, at most (``None`` when no
        event has a wall time: stored before schema 4). Events are stored a moment after their time,
        some much later (a camera loss is dated from the last frame, a console action on a stopped
        recording takes the last event's time): the promptest one ties event time to the clock best."""
        row = self.db.execute("SELECT MAX(t - wall) FROM events WHERE game_id = ? AND wall IS NOT NULL",
                              (game_id,)).fetchone()
        return None if row is None or row[0] is None else float(row[0])

    def last_seq(self, game_id: int) -> int:
        """The number of the game's latest event (0 when it has none)."""
        row = self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0])

    def events_after(self, game_id: int, seq: int) -> list[tuple[int, Event]]:
        """(number, event) of the game's events numbered above ``seq``, in order (what others appended
        since; a row that cannot be read as in :meth:`events`)."""
        return self._read(game_id, seq)

    def set_result(self, game_id: int, result: str) -> None:
        self.db.execute("UPDATE games SET result = ?, updated = ? WHERE id = ?", (result, _now(), game_id))

    def set_source(self, game_id: int, source: str) -> None:
        """The game goes on from another source (a camera replaced or moved to another address)."""
        self.db.execute("UPDATE games SET source = ?, updated = ? WHERE id = ?", (source, _now(), game_id))

    def set_info(self, game_id: int, info: GameInfo) -> None:
        """The arbiter's correction of a game's details (a mistyped round, board or name): the game
        moves to the board ``info`` names, its moves and events stay as they are."""
        with self.locked():
            shown = self.game(game_id).info
            own_site, own_date = self.db.execute("SELECT site, date FROM games WHERE id = ?", (game_id,)).fetchone()
            # a site or date the game showed from its tournament or round, left as it was, stays theirs
            # (written as the game's own, a later correction of the round's would pass it by)
            site = info.site if own_site or info.site != shown.site else ""
            date = info.date if own_date or info.date != shown.date else ""
            self.db.execute("UPDATE games SET board_id = ?, site = ?, date = ?, red = ?, black = ?, time_control = ?,"
                            " camera = ?, clock = ?, tags = ?, updated = ? WHERE id = ?",
                            (self._board_id(info, fill=False), site, date, info.red, info.black, info.time_control,
                             info.camera, info.clock, json.dumps(dict(info.tags), ensure_ascii=False), _now(),
                             game_id))

    def set_void(self, game_id: int, reason: str) -> None:
        """Void the game for ``reason`` (or, with "", take it back): kept whole, but no longer listed or
        published (a test recording, a game filed on the wrong board, an abandoned run)."""
        self.db.execute("UPDATE games SET void = ?, updated = ? WHERE id = ?", (reason, _now(), game_id))

    def close_game(self, game_id: int, result: str | None = None) -> None:
        """Mark the game closed (recorded to its end); ``result`` overrides the stored one."""
        self.db.execute("UPDATE games SET status = 'closed', result = COALESCE(?, result), updated = ? WHERE id = ?",
                        (result, _now(), game_id))

    def reopen_game(self, game_id: int) -> None:
        """Open a game closed with no result again (its file ended; the next file goes on with it)."""
        self.db.execute("UPDATE games SET status = 'open', updated = ? WHERE id = ?", (_now(), game_id))

    # --- sessions: one per run of the recorder -------------------------------------------
    def begin_session(self, game_id: int, resumed_at_ply: int | None = None) -> int:
        cursor = self.db.execute(
            "INSERT INTO sessions (game_id, pid, host, started, resumed_at_ply, process) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, os.getpid(), socket.gethostname(), _now(), resumed_at_ply, process_identity(os.getpid())))
        return int(cursor.lastrowid or 0)

    def end_session(self, session_id: int) -> None:
        self.db.execute("UPDATE sessions SET stopped = ? WHERE id = ?", (_now(), session_id))

    # --- queries ---------------------------------------------------------------------------
    _SELECT = """
        SELECT g.*, b.number AS board_number, r.name AS round_name, r.date AS round_date,
               t.name AS event_name, t.site AS tournament_site,
               (SELECT COUNT(*) FROM sessions s WHERE s.game_id = g.id) AS session_count,
               (SELECT CAST(json_extract(e.data, '$.ply') AS INTEGER) FROM events e
                 WHERE e.game_id = g.id AND e.type IN ('MoveRecorded', 'MoveCorrected', 'PositionRestored')
                       AND CASE WHEN json_valid(e.data) THEN json_type(e.data, '$.ply') END = 'integer'
                 ORDER BY e.seq DESC LIMIT 1) AS plies,
               CASE WHEN g.status = 'open' THEN
                 (SELECT json_extract(e.data, '$.reason') FROM events e
                   WHERE e.game_id = g.id AND e.type IN ('RecordingStarted', 'RecordingStopped')
                         AND json_valid(e.data)
                   ORDER BY e.seq DESC LIMIT 1) END AS last_stop
        FROM games g LEFT JOIN boards b ON b.id = g.board_id LEFT JOIN rounds r ON r.id = b.round_id
             LEFT JOIN tournaments t ON t.id = r.tournament_id
    """

    def _row(self, row: sqlite3.Row) -> GameRow:
        # without a round's date a game the recorder watched (it names the model that read it; an
        # imported game does not) says when it was recorded, as the PGN written while recording does.
        # The site is only ever what the arbiter gave (--site): the source (a stream URL, which may hold
        # a password, or a local path) is never published as one; PGN writes an unknown site as "?".
        # A game's own site and date (its recorder's --site/--date, an imported game's tags) come first,
        # then its tournament's site and round's date (games stored before schema 3 have only those)
        watched = bool(row["model_sha256"])
        created = (row["created"] or "")[:10].replace("-", ".") if watched else ""
        info = GameInfo(event=row["event_name"] or "", site=row["site"] or row["tournament_site"] or "",
                        round=row["round_name"] or "", date=row["date"] or row["round_date"] or created,
                        board=row["board_number"] or None, red=row["red"],  # 0: the game had no board number
                        black=row["black"], time_control=row["time_control"], camera=row["camera"],
                        clock=row["clock"], tags=_tags(row["tags"]))
        # the ply of the latest move event: a correction logs every ply after it again, a restoration
        # names the ply it went back to (a move the arbiter added counts; one taken back does not)
        plies = int(row["plies"] or 0)
        game = GameRow(row["id"], info, row["source"], row["status"], row["result"], row["start_fen"],
                       row["model_sha256"], row["created"], row["updated"], plies, sessions=int(row["session_count"]),
                       void=row["void"], last_stop=str(row["last_stop"] or ""))
        if game.status == "open":
            game.interrupted = not self._held(game.id)
        return game

    def _held(self, game_id: int) -> bool:
        return self.recorder_of(game_id) is not None

    def resume_option(self, game_id: int) -> str:
        """The options that go on with game ``game_id`` in a new ``xqrec record`` command: ``--resume``,
        and ``--db`` when this is not the default store (a tester pasted the hint and was told there
        is no such game: the command had looked in the default store)."""
        option = f"--resume {game_id}"
        if self.path is None:
            return option
        try:  # absolute: the hint is stored in alerts, read later from another folder
            where = self.path.resolve()
            default = where == default_db_path().resolve()
        except OSError:
            where, default = self.path, False
        return option if default else f"{option} --db {shlex.quote(str(where))}"

    def recorder_of(self, game_id: int) -> tuple[int, str] | None:
        """(process, host) of the recorder running on the game, as far as this machine can tell."""
        last = self.db.execute("SELECT pid, host, process, stopped FROM sessions WHERE game_id = ? ORDER BY id DESC "
                               "LIMIT 1", (game_id,)).fetchone()
        if last is None or last["stopped"] is not None:
            return None
        pid, host = int(last["pid"]), str(last["host"])
        return (pid, host) if _alive(pid, host, last["process"]) else None

    def take_over(self, game_id: int, by: str) -> None:
        """End the session of a recorder on another host that the user says is no longer running (the
        store moved to a spare machine after the first one died), logged with the game."""
        last = self.db.execute("SELECT id, pid, host FROM sessions WHERE game_id = ? AND stopped IS NULL "
                               "ORDER BY id DESC LIMIT 1", (game_id,)).fetchone()
        if last is None:
            return
        stamp = self.db.execute("SELECT MAX(t) AS t FROM events WHERE game_id = ?", (game_id,)).fetchone()
        self.db.execute("UPDATE sessions SET stopped = ? WHERE id = ?", (_now(), last["id"]))
        self._insert(game_id, RecordingStopped(float(stamp["t"] or 0.0), 0,
                                               f"taken over on {by}: the recorder on {last['host']} (process "
                                               f"{last['pid']}) was said to run no more"))

    def game(self, game_id: int) -> GameRow:
        """One game by id; ``KeyError`` when there is none."""
        row = self.db.execute(self._SELECT + " WHERE g.id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"no game {game_id} in the store")
        return self._row(row)

    def games(self, *, status: str | None = None, event: str | None = None,
              round_name: str | None = None, void: bool | None = False) -> list[GameRow]:
        """Games, oldest first, optionally only those of one status, tournament or round; games the
        arbiter voided only with ``void`` True (only them) or None (all)."""
        where, values = [], []
        if void is not None:
            where.append("g.void " + ("!=" if void else "=") + " ''")
        if status is not None:
            where.append("g.status = ?")
            values.append(status)
        if event is not None:  # "" is a game of no tournament, stored with a tournament named "" or none
            where.append("COALESCE(t.name, '') = ?")
            values.append(event)
        if round_name is not None:
            where.append("COALESCE(r.name, '') = ?")
            values.append(round_name)
        sql = self._SELECT + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY g.id"
        return [self._row(row) for row in self.db.execute(sql, values)]

    def find_open(self, source: str, info: GameInfo | None = None,
                  key: Callable[[str], str] | None = None) -> GameRow | None:
        """The latest open game for the same source (and board, when one is named), if any; ``key``
        names a stored source as ``source`` is named (stores kept a stream's raw URL before 2026-12-02)."""
        info = info or GameInfo()
        for game in reversed(self.games(status="open")):
            if game.source != source and (key is None or key(game.source) != source):
                continue
            if info.board is not None and (game.info.board, game.info.round, game.info.event) != (
                    info.board, info.round, info.event):
                continue
            return game
        return None

    def games_on_board(self, info: GameInfo) -> list[GameRow]:
        """The games of board ``info.board`` of the same tournament and round, oldest first (none
        when ``info`` names no board)."""
        if info.board is None:
            return []
        return [game for game in self.games(event=info.event, round_name=info.round) if game.info.board == info.board]

    def iter_all_events(self) -> Iterator[tuple[int, dict[str, Any]]]:
        """(game id, raw event JSON) of every stored event, for diagnostics and exports."""
        for row in self.db.execute("SELECT game_id, data FROM events ORDER BY game_id, seq"):
            yield int(row["game_id"]), json.loads(row["data"])
