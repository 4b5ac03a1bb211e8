"""Frame sources: a video file, a camera index, an RTSP/HTTP stream URL (OpenCV ``VideoCapture``), a folder of images.

Iterating a source yields :class:`Frame` (image, time, index) and, for live sources, :class:`Lost`
when the stream has stalled or dropped and not come back for ``lost_after_s`` (10 s), and
:class:`Gap` once it was reopened. Files give video time (frame index / fps);
live sources give seconds since the source was opened, and a followed folder (a camera still writing
into it) the time each picture was written. A live source reads in a background
thread into a one-frame slot (a slow consumer gets the newest frame, never a backlog); a read
that fails or returns nothing for ``stall_s`` seconds closes the capture and reopens it with
back-off (``backoff_s`` doubling up to ``max_backoff_s``), and the gap is reported so the
recorder can log it and carry on with the same game.

A stream URL may carry a password (``rtsp://user:password@camera/...``) or a token in its query:
:func:`public_name` is the form of a source that may be shown (log lines, messages, the event log,
the store), without them.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import queue
import re
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from recorder.events import recording_time

log = logging.getLogger(__name__)

# FFmpeg's own messages about a damaged file ("Invalid NAL unit size", "partial file") reach the
# terminal raw, between the recorder's lines; the source says what matters in words (a video that
# ends early, a stream that stalls). Set OPENCV_FFMPEG_LOGLEVEL yourself to see them.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")
VIDEO_SUFFIXES = (".mp4", ".mkv", ".avi", ".mov", ".webm", ".m4v", ".ts", ".mpg", ".mpeg", ".wmv", ".flv")
_UNSUPPORTED = {".heic": "HEIC", ".heif": "HEIF"}


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
JPEG_START = b"\xff\xd8"




def cut_short(data: np.ndarray) -> str:
    """"PNG" or "JPEG" when the picture's bytes stop before the format's end marker, else "": the
    decoder would fill the rest grey (a board with pieces gone) after a line of its own on the terminal."""
    head, tail = data[:8].tobytes(), data[-64:].tobytes()
    if head == PNG_SIGNATURE and b"IEND" not in tail[-16:]:
        return "PNG"
    if head[:2] == JPEG_START and b"\xff\xd9" not in tail:
        return "JPEG"
    return ""


def decode_picture(data: np.ndarray) -> tuple[np.ndarray | None, str]:
    """A picture's bytes decoded (None when they cannot be), and what the decoder said about damage it
    read past: libjpeg prints "Corrupt JPEG data: ..." on the terminal naming no file, so its words are
    taken here instead, for the caller to say which file they are about."""
    if data[:2].tobytes() != JPEG_START:
        return cv2.imdecode(data, cv2.IMREAD_COLOR), ""
    with tempfile.TemporaryFile() as sink:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(sink.fileno(), 2)
            image = cv2.imdecode(data, cv2.IMREAD_COLOR)
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        sink.seek(0)
        said = " ".join(sink.read().decode("utf-8", "replace").split())
    return image, said


def read_image(path: str | Path) -> np.ndarray:
    """A picture file as a BGR image; ``ValueError`` saying what is wrong with the file when it
    cannot be read (missing, a folder, empty, a format OpenCV does not decode, a JPEG cut short, not
    a picture). A picture is read whole or not at all: a cut JPEG is not read half grey. One the
    decoder read past damage in is read, with a warning naming the file."""
    image, damage = read_picture(path)
    if damage:  # read past the damage: the reading may be wrong where it was
        log.warning("%s is damaged (the decoder said: %s): parts of the picture may be wrong", path, damage)
    return image


def read_picture(path: str | Path) -> tuple[np.ndarray, str]:
    """:func:`read_image`'s picture and what the decoder said of damage it read past ("" for none),
    for a caller that says more about it."""
    path = Path(path)
    if not path.exists():
        raise ValueError(f"no such file: {path}")
    if path.is_dir():
        raise ValueError(f"{path} is a folder, not a picture")
    data = np.fromfile(str(path), dtype=np.uint8)
    if data.size == 0:
        raise ValueError(f"{path} is empty (0 bytes)")
    cut = cut_short(data)
    if cut:  # told here, before the decoder prints its own line about it, or reads it half grey
        raise ValueError(f"{path}: the {cut} file is cut short (a copy or download that did not finish)")
    image, said = decode_picture(data)
    if image is None:
        kind = _UNSUPPORTED.get(path.suffix.lower())
        if path.suffix.lower() in VIDEO_SUFFIXES:
            raise ValueError(f"{path} is a video, not a picture: xqrec record records a game from it, and xqrec "
                             "calibrate finds its board")
        if kind:
            raise ValueError(f"{path}: {kind} pictures cannot be read here; save or export the photo as JPEG")
        raise ValueError(f"cannot decode {path} as a picture (not one, or damaged); JPEG, PNG, BMP, TIFF and "
                         "WebP are read")
    return image, said


@dataclass(frozen=True)
class Frame:
    """One image from a source at time ``t`` (seconds) and its running ``index``."""

    image: np.ndarray
    t: float
    index: int


@dataclass(frozen=True)
class Lost:
    """The source's last frame came at ``t`` (then ``reason``) and it has not come back for
    ``LiveSource.lost_after_s`` seconds; a :class:`Gap` follows when it does."""

    t: float
    reason: str
    action: str = "reopening it"  # what the source does meanwhile


@dataclass(frozen=True)
class Gap:
    """The source gave nothing from ``t`` to ``t_resumed`` (``reason``) and was reopened ``attempts`` times."""

    t: float
    t_resumed: float
    reason: str
    attempts: int


SourceItem = Frame | Gap | Lost

# Query parameters (and ``name=value`` parts of a path) whose values are secrets: compared without
# case, ``-`` or ``_``; a name ending in one of _SECRET_ENDINGS counts too (``stream_key``, ``X-Amz-Signature``).
_SECRET_NAMES = frozenset({"token", "key", "password", "pass", "passwd", "pwd", "auth", "secret", "signature",
                           "sig", "accesstoken", "apikey", "authtoken", "authorization", "credential",
                           "credentials", "clientsecret", "session", "sessionid", "jwt"})
_SECRET_ENDINGS = ("token", "secret", "password", "passwd", "signature", "key", "credential", "pwd")
_PATH_SECRET = re.compile(r"(?i)(?<![a-z0-9])([a-z][a-z0-9-]*)=(.*?)(?=[&;/?#]|_[a-z][a-z0-9-]*=|$)")
MASK = "***"


def _secret(name: str) -> bool:
    flat = name.lower().replace("-", "").replace("_", "")
    return flat in _SECRET_NAMES or flat.endswith(_SECRET_ENDINGS)


def _masked_query(query: str) -> str:
    if not query:
        return query
    parts = []
    for part in query.split("&"):
        name, equals, value = part.partition("=")
        parts.append(f"{name}={MASK}" if equals and value and _secret(urllib.parse.unquote_plus(name)) else part)
    return "&".join(parts)


def without_credentials(spec: str) -> str:
    """A stream URL without its ``user:password@`` (anything else, a camera index or a path, as given)."""
    if "://" not in spec:
        return spec
    scheme, rest = spec.split("://", 1)
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority = rest[:end]
    if "@" in authority:
        rest = authority.rpartition("@")[2] + rest[end:]
    return f"{scheme}://{rest}"


def public_name(spec: str | int) -> str:
    """How a source may be shown to anyone (log lines, messages, the event log): a stream URL without
    its ``user:password@`` and with the values of secret-looking query parameters (``token``, ``key``,
    ``password``, ``signature``, ``apikey``, ...) and ``password=...`` parts of its path masked as ``***``.
    A camera index or a file path is returned as given."""
    text = without_credentials(str(spec))
    if "://" not in text:
        return text
    scheme, rest = text.split("://", 1)
    rest, hash_, fragment = rest.partition("#")
    rest, question, query = rest.partition("?")
    rest = _PATH_SECRET.sub(lambda m: f"{m.group(1)}={MASK}" if m.group(2) and _secret(m.group(1)) else m.group(0),
                            rest)
    return f"{scheme}://{rest}{question}{_masked_query(query)}{hash_}{_masked_query(fragment)}"


def check_fps(fps: float | None) -> float | None:
    """``fps`` itself when it is a usable frame rate (or ``None``); ``ValueError`` for 0, a negative or
    a non-finite one."""
    if fps is not None and not (math.isfinite(fps) and fps > 0):
        raise ValueError(f"frame rate {fps} is not a positive number of frames per second")
    return fps


class Capture(Protocol):
    """The part of ``cv2.VideoCapture`` the sources use (tests pass fakes)."""

    def isOpened(self) -> bool: ...  # noqa: N802 (OpenCV's name)

    def read(self) -> tuple[bool, Any]: ...

    def get(self, prop: int) -> float: ...

    def release(self) -> None: ...


Opener = Callable[[str | int], Capture]


STREAM_TIMEOUT_MS = 5000  # a stream that accepts the connection but sends nothing: open and read give up


def open_capture(target: str | int) -> Capture:
    """OpenCV's capture of ``target``. A stream URL is opened with FFmpeg's open and read timeouts
    (``STREAM_TIMEOUT_MS``), so a frozen stream's read returns a failure rather than blocking for
    good; a build without FFmpeg opens it with its own backend. A stream FFmpeg could not open is
    not tried again without the timeouts: another backend waits on a silent server for half a minute
    a try (a tester's listener that never answered held the recorder 147 s, deaf to Ctrl-C)."""
    if isinstance(target, str) and "://" in target:
        capture = cv2.VideoCapture(target, cv2.CAP_FFMPEG, [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, STREAM_TIMEOUT_MS,
                                                             cv2.CAP_PROP_READ_TIMEOUT_MSEC, STREAM_TIMEOUT_MS])
        if capture.isOpened() or cv2.videoio_registry.hasBackend(cv2.CAP_FFMPEG):
            return capture
        capture.release()
    return cv2.VideoCapture(target)


def why_unreadable(path: Path) -> str:
    """": REASON" for a video file the decoder could not open, told from its first bytes where they
    show it (empty, text, an MP4 whose index was never written), "" otherwise."""
    try:
        size = path.stat().st_size
        with path.open("rb") as file:
            head = file.read(4096)
    except OSError as error:
        return f": {error.strerror or error}"
    if size == 0:
        return ": the file is empty (0 bytes)"
    if head[4:8] == b"ftyp":  # an MP4/MOV: its index (the moov box) must be somewhere in it
        with path.open("rb") as file:
            position, boxes, first_inside, index_cut = 0, list[bytes](), b"", False
            while position + 8 <= size and len(boxes) < 64:
                file.seek(position)
                header = file.read(16)
                length, kind = int.from_bytes(header[:4], "big"), header[4:8]
                if length == 1 and len(header) >= 16:
                    length = int.from_bytes(header[8:16], "big")
                boxes.append(kind)
                if kind == b"moov":  # the kind of the first box inside it: an index starts with known ones
                    file.seek(position + 8)
                    first_inside = file.read(8)[4:8]
                    index_cut = position + length > size
                if length < 8:
                    break
                position += length
        if b"moov" not in boxes:
            return (": an MP4 without its index (no moov box): the recording was stopped before the file was "
                    "finished (a camera or phone that lost power, a copy cut short); a repair tool such as "
                    "untrunc, given a good file from the same camera, may rebuild it")
        if index_cut:
            return (": an MP4 cut short inside its index (the moov box runs past the end of the file): a copy or "
                    "download cut short; copy the file again from where it was recorded")
        if first_inside not in (b"mvhd", b"trak", b"udta", b"iods", b"meta", b"mvex", b"prfl", b"cmov"):
            return (": an MP4 whose index (moov box) is damaged, so its frames cannot be found; a repair tool "
                    "such as untrunc, given a good file from the same camera, may rebuild it")
        return ""
    if head and all(32 <= byte < 127 or byte in (9, 10, 13) for byte in head[:512]):
        return ": it holds text, not video"
    return ""


def why_no_answer(target: str | int, timeout_s: float = 2.0) -> str:
    """What a camera or stream that would not open says of itself: no such camera device, a host not
    found, nothing listening, a web server's error or a web page where a stream was expected ("" when
    nothing more can be told). A technician fixes each differently."""
    if isinstance(target, int):
        devices = sorted(Path("/dev").glob("video[0-9]*")) if Path("/dev").is_dir() else []
        if os.name == "posix" and not Path(f"/dev/video{target}").exists():
            have = ", ".join(str(device) for device in devices) or "none"
            return f"there is no /dev/video{target} on this machine (cameras found: {have})"
        return ""
    import http.client
    import socket

    parts = urllib.parse.urlsplit(target)
    default = {"http": 80, "https": 443, "rtsp": 554, "rtsps": 322, "rtmp": 1935}.get(parts.scheme.lower())
    try:
        port = parts.port or default
    except ValueError:
        return "the URL's port is not a number"
    host = parts.hostname
    if not host or port is None:
        return ""
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except socket.gaierror:
        return f"the host {host} is not known (check the camera's address)"
    except ConnectionRefusedError:
        return f"{host} refuses connections on port {port} (nothing listens there: the camera's stream is off or on another port)"
    except TimeoutError:
        return f"no answer from {host}:{port} within {timeout_s:.0f} s (the camera is off, booting or on another network)"
    except OSError as error:
        return f"{host}:{port}: {error.strerror or error}"
    if parts.scheme.lower() not in ("http", "https"):
        return f"{host}:{port} accepts connections but gave no stream (check the stream's path and credentials)"
    connection_class = http.client.HTTPSConnection if parts.scheme.lower() == "https" else http.client.HTTPConnection
    connection = connection_class(host, port, timeout=timeout_s)
    try:
        path = parts.path or "/"
        connection.request("GET", path + (f"?{parts.query}" if parts.query else ""))
        answer = connection.getresponse()
        kind = answer.getheader("Content-Type", "") or ""
        if answer.status >= 400:
            shown = urllib.parse.urlsplit(public_name(target)).path or "/"  # a password in the path stays masked
            return f"the server answered {answer.status} {answer.reason} for {shown} (check the stream's path and credentials)"
        if kind.startswith(("text/", "application/json")):
            return f"the server answered with {kind.split(';')[0]}, not a video stream (check the stream's path)"
        return f"the server answered ({kind or 'no content type'}) but the decoder could not read it as video"
    except (OSError, http.client.HTTPException) as error:
        return f"the server did not answer the request ({error})"
    finally:
        connection.close()


class FrameSource:
    """Base of the sources: iterate for frames; ``frame_count`` is known for files and folders."""

    name: str = ""
    fps: float = 10.0
    frame_count: int | None = None
    live: bool = False
    ended_early: str = ""  # why the source ended before its stated length (a truncated file), once it has
    frame_size: tuple[int, int] | None = None  # (width, height) when known before the first frame (files)

    def __iter__(self) -> Iterator[SourceItem]:
        raise NotImplementedError

    def stop(self) -> None:
        """Ask a live source to end its iteration (from another thread or a signal handler)."""


KeyframeFinder = Callable[[str, float], "float | None"]

_KEYFRAME_SEARCH_PACKETS = 3000  # packets read looking for the next keyframe (5 min at 10 fps, 2 min at 25)


def next_keyframe(path: str, at_s: float) -> float | None:
    """The file's own time (seconds) of its first keyframe at or after ``at_s``, or None when the file
    has none there or its packets cannot be read without decoding (another backend, a container
    FFmpeg cannot read raw). Read from the packets, not decoded: a few hundred a millisecond."""
    capture = cv2.VideoCapture(path, cv2.CAP_FFMPEG)
    try:
        if not capture.isOpened() or not capture.set(cv2.CAP_PROP_FORMAT, -1):
            return None
        capture.set(cv2.CAP_PROP_POS_MSEC, max(0.0, 1000.0 * at_s))  # lands on the keyframe before it
        for _ in range(_KEYFRAME_SEARCH_PACKETS):
            if not capture.grab():
                continue  # a damaged packet: the ones after it are read on
            own = float(capture.get(cv2.CAP_PROP_POS_MSEC) or 0.0) / 1000.0
            if capture.get(cv2.CAP_PROP_LRF_HAS_KEY_FRAME) and own >= at_s - 1e-3:
                return own
        return None
    except cv2.error:
        return None
    finally:
        capture.release()


class VideoFileSource(FrameSource):
    """Frames of a video file at their own times in the file, or by their index at ``fps`` when given."""

    def __init__(self, path: str | Path, fps: float | None = None, opener: Opener = open_capture,
                 keyframes: KeyframeFinder | None = next_keyframe) -> None:
        self.name = str(path)
        self._opener = opener
        self._keyframes = keyframes
        self._smeared = 0  # frames after damage skipped, not told in a gap yet
        check_fps(fps)
        capture = opener(self.name)
        if not capture.isOpened():
            raise ValueError(f"cannot open video file {path}{why_unreadable(Path(path))}")
        self._capture = capture
        file_fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self._file_fps = file_fps if math.isfinite(file_fps) and file_fps > 0 else 10.0  # its own frame spacing
        self.fps = float(fps if fps is not None else self._file_fps)
        self._by_index = fps is not None  # --fps: the file's times are not what the user wants
        count = int(capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.frame_count = count if count > 0 else None
        width, height = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH) or 0), int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT) or 0)
        self.frame_size = (width, height) if width > 0 and height > 0 else None
        self.damaged_frames = 0  # frames lost in damaged stretches the reading went past
        self.ended_early = ""

    @property
    def duration(self) -> float | None:
        """The file's length in seconds as its header states it (frames at ``fps``), or None."""
        return self.frame_count / self.fps if self.frame_count else None

    def __iter__(self) -> Iterator[SourceItem]:
        """Frames at their own times in the file, counted from the first (a phone lowers its frame
        rate in dim light, and an encoder may leave out still frames: index / fps would put every later
        move, and the clock presses judged against it, seconds late); a frame whose time is missing or
        not after the previous one's (a stale time after damage) comes one frame spacing after it.
        With ``--fps`` frames are timed by their index instead. A damaged stretch of the file (frames
        that cannot be decoded) is read past, as a :class:`Gap`, and the frames after it keep their
        time in the file.

        Under ``--fps`` how many frames the damage took is read from the file's own timestamps, in the
        file's own frame spacing, over the second after each failed read (a decoder gives the first
        frame after damage a stale time, and drops frames that needed the lost ones). Damage before
        the first frame, or in a file that states no frame count, is not read past."""
        if not self._by_index:
            yield from self._timed_by_file()
            self._check_packets()
            return
        index = 0  # frames decoded
        failed_before = 0  # reads that gave no frame before the previous frame
        after_failure: int | None = None  # frames decoded since the last failed read (None: none failed)
        own_prev: float | None = None  # the file's own time of the previous frame
        shift = 0.0  # seconds of frames lost in damaged stretches before the current frame
        t_last: float | None = None
        gap_failed = 0  # failed reads already told in a gap
        with contextlib.closing(self._decoded()) as decoded:
            for image, own, failed in decoded:
                if failed > failed_before:
                    after_failure, failed_before = 0, failed
                if after_failure is not None and after_failure < max(3, round(self._file_fps)) and own_prev is not None:
                    skipped = round((own - own_prev) * self._file_fps) - 1  # frames of the file not given
                    if skipped > 0:
                        shift += skipped / self.fps
                    after_failure += 1
                own_prev = own
                t = index / self.fps + shift
                if t_last is not None and t - t_last > 1.5 / self.fps:
                    yield self._damage(t_last, t, 1.0 / self.fps, failed - gap_failed)
                    gap_failed = failed
                yield Frame(image, t, index)
                t_last = t
                index += 1
        if self.frame_count is not None and index + self.damaged_frames < self.frame_count - 1:
            self._ended_early(index, index / self.fps + shift, self.frame_count / self.fps)
        self._check_packets()

    def _check_packets(self) -> None:
        """An MPEG transport stream (a camera's or recorder's .ts) states no length to compare with;
        one cut while copied ends in the middle of a packet (a tester's cut .ts was taken for a whole
        game: closed, status 0)."""
        if self.ended_early:
            return
        cut = cut_transport_stream(Path(self.name))
        if cut:
            self.ended_early = cut
            log.info("%s: %s", self.name, cut)  # record raises it as an alert

    def _decoded(self) -> Generator[tuple[np.ndarray, float, int], None, None]:
        """Each frame the file decodes, with its own time in the file (seconds) and how many reads had
        failed before it. Past damage the decoder goes on with the next whole frame; at the file's real
        end it never does: reading stops once the reads tried exceed the frames the file states (or at
        the first failure, when it states none or none was decoded yet).

        The frames decoded after damage up to the next keyframe are built on pictures that were lost:
        the decoder fills the damaged part with what stood there before (old pieces where a move was
        made, smears of a hand), and a board read from them records wrong moves. They are skipped,
        counted as failed reads, when the file's keyframes can be read (``keyframes``)."""
        decoded = failed = 0
        last_own: float | None = None
        judge = 0  # frames still to look at for the hole left by failed reads (a decoder gives a few it held first)
        skip_until: float | None = None
        spacing = 1.0 / self._file_fps
        try:
            while True:
                ok, image = self._capture.read()
                if not ok or image is None:
                    failed += 1
                    if self.frame_count is None or decoded == 0 or decoded + failed > self.frame_count + _EXTRA_READS:
                        return
                    judge = max(3, round(self._file_fps))
                    continue
                own = float(self._capture.get(cv2.CAP_PROP_POS_MSEC) or 0.0) / 1000.0
                if judge and self._keyframes is not None:
                    if last_own is not None and own <= last_own:  # a stale time: not a whole picture either
                        failed, self._smeared = failed + 1, self._smeared + 1
                        continue
                    judge -= 1
                    if last_own is None or own - last_own > 1.5 * spacing:  # the first frame after the hole
                        judge = 0
                        key = self._keyframes(self.name, own)
                        skip_until = key if key is not None and key > own + 1e-3 else None
                if skip_until is not None:
                    if own < skip_until - 1e-3:
                        failed, self._smeared = failed + 1, self._smeared + 1
                        continue
                    log.info("%s: %d frame(s) decoded from damaged data skipped, up to the keyframe at %.1f s",
                             self.name, self._smeared, own)
                    skip_until = None
                yield image, own, failed
                decoded += 1
                last_own = own
        finally:
            self._capture.release()

    def _damage(self, t_last: float, t: float, spacing: float, failed: int) -> Gap:
        """The gap of frames lost to damage between ``t_last`` and ``t`` (``failed`` reads gave nothing)."""
        lost = round((t - t_last) / spacing) - 1
        self.damaged_frames += lost
        smeared, self._smeared = min(self._smeared, lost), 0
        reason = f"{lost} frame(s) of the file could not be read"
        if smeared:
            reason += f" ({smeared} of them decoded from the damaged data: skipped up to the next keyframe)"
        return Gap(t_last, t, reason, failed)

    def _ended_early(self, frames: int, reached: float, length: float) -> None:
        self.ended_early = (f"the video ended after {frames} of its {self.frame_count} frames "
                            f"({recording_time(reached)} of {recording_time(length)}): the file is truncated or damaged, and the "
                            "record stops where it ends")
        log.info("%s: %s", self.name, self.ended_early)  # record raises it as an alert


    def _timed_by_file(self) -> Iterator[SourceItem]:
        """The frames at their own times in the file (see ``__iter__``); a time jump after failed reads
        is a :class:`Gap`, one without (a variable frame rate) is not."""
        spacing = 1.0 / self._file_fps
        index = gap_failed = 0
        first: float | None = None
        t_last: float | None = None
        with contextlib.closing(self._decoded()) as decoded:
            for image, own, failed in decoded:
                first = own if first is None else first
                t = own - first
                if t_last is not None and not t > t_last:  # no time of its own, or a stale one
                    t = t_last + spacing
                if t_last is not None and failed > gap_failed and t - t_last > 1.5 * spacing:
                    yield self._damage(t_last, t, spacing, failed - gap_failed)
                    gap_failed = failed
                yield Frame(image, t, index)
                t_last = t
                index += 1
        shown = t_last + spacing if t_last is not None else 0.0  # how far the frames read reached
        # frames a decoder dropped after damage without a failed read are not counted: the time tells
        if (self.frame_count is not None and index + self.damaged_frames < self.frame_count - 1
                and shown < self.frame_count * spacing - 0.5):
            self._ended_early(index, shown, self.frame_count * spacing)


def cut_transport_stream(path: Path) -> str:
    """Why an MPEG transport stream file is cut short ("" when it is not one, or ends on a packet's end):
    its packets are 188 bytes (192 in a Blu-ray/AVCHD .m2ts or .mts, a 4-byte time before each), each
    starting with the sync byte 0x47."""
    if path.suffix.lower() not in (".ts", ".mts", ".m2ts"):
        return ""
    try:
        size = path.stat().st_size
        with open(path, "rb") as file:
            head = file.read(5)
    except OSError:
        return ""
    for packet, sync_at in ((188, 0), (192, 4)):
        if len(head) > sync_at and head[sync_at] == 0x47:
            if size % packet:
                return (f"the video file ends in the middle of a transport-stream packet ({size % packet} of its "
                        f"{packet} bytes): the file is truncated, and the record stops where it ends")
            return ""
    return ""


_EXTRA_READS = 25  # reads tried past a file's stated frame count before its end is taken as reached

DEFAULT_FOLDER_FPS = 10.0  # an image folder's frame rate when none is given


_NUMBER = re.compile(r"(\d+)")


def picture_order(name: str) -> tuple[tuple[int, int, str], ...]:
    """The key that sorts picture names as a camera numbers them: digits by their value, so
    ``cam_9`` comes before ``cam_10`` (ffmpeg's ``%d`` and many cameras do not pad the number; in
    plain text order a 25 s folder was read cam_1, cam_10, cam_100, ... and recorded scrambled)."""
    return tuple((0, int(part), part) if part.isdecimal() else (1, 0, part.lower())
                 for part in _NUMBER.split(name) if part) + ((2, 0, name),)


class ImageFolderSource(FrameSource):
    """The images of a folder in name order (numbers by value: :func:`picture_order`), one frame each
    at ``fps`` (``DEFAULT_FOLDER_FPS`` when not given, said once in a log line); unreadable files are
    skipped."""

    def __init__(self, folder: str | Path, fps: float | None = None) -> None:
        self.name = str(folder)
        self.fps = float(check_fps(fps) or DEFAULT_FOLDER_FPS)
        self.files = sorted((p for p in Path(folder).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES),
                            key=lambda path: picture_order(path.name))
        if not self.files:  # a folder holding a video (a new user's `record out/demo`): name it
            videos = sorted(str(p) for p in Path(folder).iterdir() if p.suffix.lower() in VIDEO_SUFFIXES)
            named = ", ".join(videos[:3]) + (f" and {len(videos) - 3} more" if len(videos) > 3 else "")
            held = (f" ({named} {'is a video' if len(videos) == 1 else 'are videos'}: give the file itself)" if videos
                    else f" ({', '.join(IMAGE_SUFFIXES)} files are read as frames; a folder a camera is still to write "
                         "into is followed with --follow)")
            raise ValueError(f"no images in {folder}{held}")
        if not any(cv2.haveImageReader(str(path)) for path in self.files):  # reads the header only
            raise ValueError(f"no readable images in {folder}: none of its {len(self.files)} image file(s) "
                             "can be decoded")
        self.frame_count = len(self.files)
        self.skipped = 0
        if fps is None:  # the record's times come from it: say what was assumed
            log.warning("%s: image folder read at %g frames per second (an assumption; --fps sets it)",
                        self.name, self.fps)

    def __iter__(self) -> Iterator[SourceItem]:
        for index, path in enumerate(self.files):
            try:
                data = np.fromfile(str(path), dtype=np.uint8)
            except OSError as error:  # removed since listed, or not readable: one frame, not the game
                data, gone = np.zeros(0, dtype=np.uint8), (error.strerror or str(error)).lower()
            else:
                gone = ""
            cut = "" if gone else cut_short(data) if data.size else "empty"
            image, said = (None, "") if cut or gone else decode_picture(data)
            if image is None or said:  # a damaged frame could show pieces gone: the next one is read instead
                self.skipped += 1
                why = (gone if gone else "an empty file" if cut == "empty" else f"the {cut} file is cut short" if cut
                       else f"damaged: the decoder said {said}" if said
                       else "not a picture OpenCV decodes, or damaged")
                log.warning("skipped unreadable image %s (%s)", path, why)
                continue
            yield Frame(image, index / self.fps, index)
        listed = set(self.files)
        added = [p for p in Path(self.name).iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and p not in listed]
        if added:  # a camera still writing into it: the game goes on beyond what was read
            self.ended_early = (f"{len(added)} image(s) were added to the folder while it was being read (it is read "
                                f"as it stood when the recording began, {len(self.files)} images): the game is left "
                                "open for the rest")
            log.info("%s: %s", self.name, self.ended_early)  # record raises it as an alert


class FollowedFolderSource(FrameSource):
    """A folder a camera is still writing pictures into (``record --follow``).

    Each picture is read once the camera has finished writing it (a JPEG or PNG that is whole, any
    other file once it has kept its size for a look or was written ``settle_s`` ago), in the order
    the camera wrote them (modification time, then name), and timed by when it was written: seconds
    after ``origin``, the epoch time of the folder's first picture. A recording taken up again gives
    the source the game's ``origin`` (kept in its ``RecordingStarted`` event), so its times line up
    and the pictures already recorded are skipped. A camera that keeps rewriting one file
    (``latest.jpg``) gives a picture each time it is rewritten. It runs until stopped, like a camera:
    when no new picture comes for ``stall_s`` the camera is taken as gone, reported :class:`Lost` once
    it has been gone ``lost_after_s``, and a :class:`Gap` follows when pictures come again.
    """

    live = True
    RECENT = 8  # pictures already read that are looked at again for a rewrite (a camera's fixed names)

    def __init__(self, folder: str | Path, *, poll_s: float = 0.1, stall_s: float = 3.0, lost_after_s: float = 10.0,
                 settle_s: float = 1.0, clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], None] | None = None) -> None:
        self.name = str(folder)
        self.folder = Path(folder)
        if self.folder.exists() and not self.folder.is_dir():
            raise ValueError(f"{folder} is a file: --follow reads a folder a camera writes pictures into")
        if not self.folder.exists() and not self.folder.parent.is_dir():
            raise ValueError(f"{folder}: no such folder, and no folder {self.folder.parent} to make it in")
        self.poll_s, self.stall_s, self.lost_after_s, self.settle_s = poll_s, stall_s, lost_after_s, settle_s
        self._clock = clock
        self._stopped = threading.Event()
        self._sleep = sleep if sleep is not None else self._stopped.wait
        self.skipped = 0
        self.origin: float | None = None  # the folder's time 0 (epoch seconds): set by the first picture
        self._read: dict[str, tuple[int, float]] = {}  # name -> (size, mtime) of the version read or skipped
        self._recent: list[str] = []  # the names read last, newest last
        self._looked: dict[str, tuple[tuple[int, float], float]] = {}  # a version not whole yet, when first seen
        self._first()

    def stop(self) -> None:
        self._stopped.set()

    def now(self) -> float:
        """The folder's time now (seconds after ``origin``): where a live clock's times must start."""
        return self._clock() - self.origin if self.origin is not None else 0.0

    def _names(self) -> list[str]:
        try:
            return [e.name for e in os.scandir(self.folder) if Path(e.name).suffix.lower() in IMAGE_SUFFIXES]
        except FileNotFoundError:
            return []

    def _first(self) -> bool:
        """Set ``origin`` from the earliest picture in the folder, if there is one yet."""
        if self.origin is None:
            times = [t for t in (self._written(name) for name in self._names()) if t is not None]
            if times:
                self.origin = min(times)
        return self.origin is not None

    def _written(self, name: str) -> float | None:
        try:
            return (self.folder / name).stat().st_mtime
        except OSError:  # gone again (a camera that writes a temporary name and renames it)
            return None

    def wait_for_first(self, wait_s: float = 0.0, told: Callable[[str], None] | None = None) -> None:
        """Wait for the camera's first picture (the folder itself may not exist yet), ``wait_s`` seconds
        at most (0: until stopped); raises ``ValueError`` when none came in time."""
        if self._first():
            return
        if told is not None:
            missing = "" if self.folder.is_dir() else " (it does not exist yet)"
            told(f"waiting for the camera's first picture in {self.name}{missing}; Ctrl-C stops")
        since = self._clock()
        while not self._first():
            if self._stopped.is_set():
                return
            if wait_s > 0 and self._clock() - since >= wait_s:
                raise ValueError(f"no picture was written into {self.name} in {wait_s:g} s (--wait-for-source)")
            self._sleep(self.poll_s)

    def _candidates(self) -> list[tuple[float, str, tuple[int, float]]]:
        """(written, name, version) of pictures not read in this version yet, in the order written: new
        names, and the last pictures read when they were rewritten."""
        recent = set(self._recent)
        found = []
        for name in self._names():
            if name in self._read and name not in recent:
                continue
            try:
                stat = (self.folder / name).stat()
            except OSError:
                continue
            version = (stat.st_size, stat.st_mtime)
            if self._read.get(name) != version:  # an empty file too: a camera about to write, or one that failed
                found.append((stat.st_mtime, name, version))
        return sorted(found, key=lambda item: (item[0], picture_order(item[1])))

    def _take(self, name: str, version: tuple[int, float]) -> None:
        self._read[name] = version
        self._looked.pop(name, None)
        self._recent = [n for n in self._recent if n != name][-(self.RECENT - 1):] + [name]

    def __iter__(self) -> Iterator[SourceItem]:
        index = 0
        last = 0.0  # the last frame's time
        came = self._clock()  # when the last picture (or the start) was seen
        gone: Lost | None = None
        told = False
        while not self._stopped.is_set():
            taken = 0
            for written, name, version in self._candidates():
                path = self.folder / name
                try:
                    data = np.fromfile(str(path), dtype=np.uint8)
                except OSError:  # gone, renamed or not a file after all
                    self._looked.pop(name, None)
                    continue
                cut = cut_short(data) if data.size else "empty"
                judged = data[:2].tobytes() == JPEG_START or data[:8].tobytes() == PNG_SIGNATURE  # cut_short can tell
                # how long this machine has seen the file so (not its time stamp: a share's clock may differ)
                seen_version, seen_at = self._looked.get(name, (None, self._clock()))
                settled = self._clock() - seen_at >= self.settle_s
                if not settled and (cut or (not judged and seen_version != version)):
                    self._looked[name] = (version, seen_at)  # still being written: looked at again
                    continue
                self._take(name, version)
                taken += 1
                image, said = (None, "") if cut else decode_picture(data)
                if image is None or said:
                    self.skipped += 1
                    log.warning("skipped unreadable image %s (%s)", path,
                                f"still empty {self.settle_s:g} s after it was seen" if cut == "empty"
                                else f"the {cut} file is still cut short {self.settle_s:g} s after it was seen" if cut
                                else f"damaged: the decoder said {said}" if said
                                else "not a picture OpenCV decodes, or damaged")
                    continue
                if self.origin is None:
                    self.origin = written
                t = max(written - self.origin, last + 1e-3 if index else 0.0)  # a late file goes after the rest
                if gone is not None:
                    yield Gap(gone.t, t, gone.reason, 0)
                    gone, told = None, False
                elif index and t - last > self.stall_s:  # a hole in pictures written while nobody read them
                    yield Gap(last, t, "no picture written in between", 0)
                last, came = t, self._clock()
                yield Frame(image, t, index)
                index += 1
            if self._stopped.is_set():
                break
            waited = self._clock() - came
            if index and gone is None and waited >= self.stall_s:
                gone = Lost(last, "no new picture written into the folder since then", "waiting for the camera")
                log.warning("%s: no new picture for %.0f s", self.name, waited)
            if gone is not None and not told and waited >= self.lost_after_s:
                told = True
                yield gone
            if not taken:
                self._sleep(self.poll_s)


class LiveSource(FrameSource):
    """A camera or stream, read in a background thread, reopened with back-off when it stalls or drops."""

    live = True

    def __init__(self, target: str | int, *, opener: Opener = open_capture, stall_s: float = 3.0,
                 backoff_s: float = 0.5, max_backoff_s: float = 2.0, max_attempts: int | None = None,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] | None = None,
                 lost_after_s: float = 10.0) -> None:
        self.name = public_name(target)  # a stream's password never reaches a message
        self.lost_after_s = lost_after_s  # a picture gone this long (and not back) is reported Lost
        self.target = target
        self._opener = opener
        self.stall_s, self.backoff_s, self.max_backoff_s = stall_s, backoff_s, max_backoff_s
        self.max_attempts = max_attempts
        self._stopped = threading.Event()
        # the back-off waits end at once when the recording is stopped (Ctrl-C while a camera is away)
        self._clock, self._sleep = clock, sleep if sleep is not None else self._stopped.wait
        self.failed_reads = 0
        self.reopens = 0
        self._first: Capture | None = None  # opened by ``check``, used by the first iteration

    def stop(self) -> None:
        self._stopped.set()

    def check(self, attempts: int = 4, wait_s: float = 0.0, told: Callable[[str], None] | None = None) -> None:
        """Open the source now (with back-off: ``attempts`` tries, or with ``wait_s`` as many as
        ``wait_s`` seconds allow); ``OSError`` with the reason if it never opens. ``told`` hears, once, that the
        source is being waited for.

        A camera index that does not exist or a stream that never answers is a setup mistake to
        report at once; a source that opened and then drops is reopened for as long as it takes.
        A stream still starting (recorders started before the cameras) is waited for with ``wait_s``.
        """
        delay = self.backoff_s
        started = self._clock()
        attempt = 0
        while True:
            capture = self._open()
            attempt += 1
            if capture is not None:
                self._first = capture
                return
            waited = self._clock() - started
            if (waited >= wait_s if wait_s > 0 else attempt >= max(1, attempts)) or self._stopped.is_set():
                break
            if attempt == 1 and wait_s > 0 and told is not None:
                told(f"waiting for {self.name} to answer (up to {wait_s:g} s)")
            self._sleep(delay if wait_s <= 0 else min(delay, max(0.1, wait_s - waited)))
            delay = min(self.max_backoff_s, delay * 2)
        why = why_no_answer(self.target) if self._opener is open_capture else ""
        tried = f"after {attempt} tries" + (f" in {self._clock() - started:.0f} s" if wait_s > 0 else "")
        raise OSError(f"cannot open video source {self.name} (no camera or stream answered {tried}"
                      f"{'; ' + why if why else ''})")

    def _open(self) -> Capture | None:
        capture = self._opener(self.target)
        if capture.isOpened():
            fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
            if fps > 0:
                self.fps = fps
            return capture
        capture.release()
        return None

    def _reader(self, capture: Capture, slot: queue.Queue[tuple[bool, Any]], alive: threading.Event) -> None:
        """Read frames into ``slot`` (the newest only) until ``alive`` is cleared or a read fails, then
        release the capture. Only this thread releases it: a capture released while its read is still
        waiting on a frozen stream crashed the decoder when the stream came back (a segfault in FFmpeg)."""
        try:
            while alive.is_set() and not self._stopped.is_set():
                ok, image = capture.read()
                item = (bool(ok) and image is not None, image)
                if not item[0]:
                    while alive.is_set():  # a failure must reach the consumer: wait for room
                        try:
                            slot.put(item, timeout=0.1)
                            break
                        except queue.Full:
                            continue
                    break
                with contextlib.suppress(queue.Empty):
                    slot.get_nowait()  # keep only the newest frame
                slot.put(item)
        finally:
            capture.release()

    def __iter__(self) -> Iterator[SourceItem]:
        readers: list[tuple[threading.Thread, threading.Event]] = []
        try:
            yield from self._frames(readers)
        finally:
            # a reader still inside a native read when the interpreter shuts down is killed there, which
            # aborts the process: every reader is told to end and waited for (its read times out)
            for _, alive in readers:
                alive.clear()
            for thread, _ in readers:
                thread.join(timeout=STREAM_TIMEOUT_MS / 1000 + 1.0)

    def _frames(self, readers: list[tuple[threading.Thread, threading.Event]]) -> Iterator[SourceItem]:
        """Frames, and around a stretch without a picture: ``Lost`` once it has lasted ``lost_after_s``
        (whether or not the stream reopens meanwhile: a frozen camera accepts a connection and sends
        nothing), and one ``Gap`` when a frame comes again."""
        t0 = self._clock()
        index = 0
        last = 0.0  # the last frame's time
        gone: Lost | None = None  # the picture gone since ``gone.t``, not back yet
        told = False  # ``gone`` was yielded
        reopens_before = 0
        backoff = self.backoff_s  # between connections that open but give no frame
        capture: Capture | None
        if self._first is not None:
            capture, self._first = self._first, None
        else:
            capture, told = yield from self._reopen(t0, first=True)
        while capture is not None and not self._stopped.is_set():
            slot: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
            alive = threading.Event()
            alive.set()
            thread = threading.Thread(target=self._reader, args=(capture, slot, alive), daemon=True)
            thread.start()
            readers.append((thread, alive))
            reason = ""
            delivered = 0  # frames from this capture
            stalled = 0.0  # seconds waited for this capture's next frame
            while not self._stopped.is_set():
                wait = self.stall_s - stalled
                if gone is not None and not told:  # the alert is due while this connection sends nothing too
                    wait = min(wait, max(0.05, t0 + gone.t + self.lost_after_s - self._clock()))
                try:
                    ok, image = slot.get(timeout=wait)
                except queue.Empty:
                    stalled += wait
                    if gone is not None and not told and self._clock() - t0 - gone.t >= self.lost_after_s:
                        told = True
                        yield gone
                    if stalled >= self.stall_s - 1e-6:
                        reason = f"no frame for {self.stall_s:.1f} s"
                        break
                    continue
                if not ok:
                    self.failed_reads += 1
                    reason = "read failed"
                    break
                stalled, delivered = 0.0, delivered + 1
                now = self._clock() - t0
                if gone is not None:  # the picture is back: one gap for the whole stretch
                    yield Gap(gone.t, now, gone.reason, self.reopens - reopens_before)
                    gone, told = None, False
                last = now
                yield Frame(image, last, index)
                index += 1
            alive.clear()  # the reader releases the capture once its read returns (a frozen stream's may not yet)
            readers[:] = [(th, flag) for th, flag in readers if th.is_alive()]
            if self._stopped.is_set():
                break
            if gone is None:
                log.warning("%s: %s at %.1f s; reopening", self.name, reason, self._clock() - t0)
                gone, told, reopens_before = Lost(last, reason), False, self.reopens
            else:  # still no picture: said once, at the start of the stretch
                log.debug("%s: %s at %.1f s; reopening again", self.name, reason, self._clock() - t0)
            if delivered:
                backoff = self.backoff_s
            else:  # it opened and gave nothing: wait before the next try, as for one that does not open
                wait = backoff if told else min(backoff, max(0.05, t0 + gone.t + self.lost_after_s - self._clock()))
                self._sleep(wait)
                backoff = min(self.max_backoff_s, backoff * 2)
            capture, told = yield from self._reopen(t0, lost=gone, told=told)

    def _reopen(self, t0: float, first: bool = False, lost: Lost | None = None,
                told: bool = False) -> Generator[Lost, None, tuple[Capture | None, bool]]:
        """Open the capture with back-off; returns it (None when the tries give up) and whether ``lost``
        has been told. With ``lost`` (the last frame's time) not ``told`` yet, yields it once the
        picture has been gone ``lost_after_s`` seconds, or when the tries give up: a drop that is over
        sooner (a Wi-Fi camera's few seconds) is only logged, by the ``Gap`` that follows."""
        delay = self.backoff_s
        attempts = 0
        while not self._stopped.is_set():
            capture = self._open()
            attempts += 1
            if not first:
                self.reopens += 1
            if capture is not None:
                return capture, told
            give_up = self.max_attempts is not None and attempts >= max(1, self.max_attempts)
            gone = self._clock() - t0 - lost.t if lost is not None else 0.0
            if lost is not None and not told and (give_up or gone >= self.lost_after_s):
                told = True
                yield lost
            if give_up:
                log.error("%s: could not be opened after %d attempts", self.name, attempts)
                break
            wait = delay
            if lost is not None and not told:  # try once more when the alert is due, whatever the back-off
                wait = min(delay, max(0.05, self.lost_after_s - gone))
            self._sleep(wait)
            delay = min(self.max_backoff_s, delay * 2)
        return None, told


def open_source(spec: str, *, fps: float | None = None, opener: Opener = open_capture, follow: bool = False,
                **live: Any) -> FrameSource:
    """The source ``spec`` names: a camera index (digits), a stream URL (``scheme://``), a folder or a video file;
    with ``follow``, a folder a camera is still writing into."""
    if follow:
        if spec.isdigit() or "://" in spec:
            raise ValueError(f"--follow reads a folder a camera writes pictures into, not a camera or stream ({spec!r})")
        if fps is not None:
            raise ValueError("--fps does not apply with --follow: each picture is timed by when it was written")
        return FollowedFolderSource(spec)
    if spec.isdigit():
        return LiveSource(int(spec), opener=opener, **live)
    if "://" in spec:
        return LiveSource(spec, opener=opener, **live)
    path = Path(spec)
    if path.is_dir():
        return ImageFolderSource(path, fps)
    if path.is_file():
        if path.suffix.lower() in IMAGE_SUFFIXES:
            read_picture(path)  # one that cannot be decoded is told so, not taken for a board never found
        return VideoFileSource(path, fps, opener)
    if not path.exists():
        raise ValueError(f"source {spec!r}: no such file or folder (a camera is a number such as 0, a stream "
                         "a URL such as rtsp://...)")
    raise ValueError(f"source {spec!r} is not a camera index, a stream URL, a folder or a video file")
