"""Render a game as a video from a fixed camera, with its truth JSON and clock log.

:func:`render_game` builds the :class:`~synth.video_timeline.Timeline` (see
:mod:`synth.game_script`), then films it: the board between moves is the scene's still image
of that board state (rendered once per state), hands are drawn over it frame by frame with
the piece they carry, the room light drifts, the camera may be bumped, and every frame gets
fresh sensor noise. Frames go to an MP4 (``mp4v``) through OpenCV; the truth records what a
recorder should find in it, frame by frame.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import shutil
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from synth.clocklog import ClockEvent, write_clock_log
from synth.game_script import ScriptOptions, build_timeline
from synth.hands import HandLook, HandPose, draw_hand
from synth.video_scene import BoardScene, RenderedScene, video_style
from synth.video_timeline import BoardState, Timeline
from synth.video_truth import StillTracker, build_truth

log = logging.getLogger(__name__)

FOURCC = "mp4v"
_NOISE_FRAMES = 4


@dataclass
class VideoResult:
    """What :func:`render_game` produced: the truth (as written) and a digest of the frames."""

    truth: dict[str, Any]
    clock: list[ClockEvent]
    frames: int
    digest: str


class _Sprites:
    """Pictures of pieces as they were lifted (cut from the still images) to draw in the hand."""

    def __init__(self, scene: BoardScene) -> None:
        self.scene = scene
        self.by_piece: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def learn(self, before: np.ndarray, after: np.ndarray, old: BoardState, new: BoardState) -> None:
        gone = dict(old).keys() - dict(new).keys()
        radius = 0.62 * self._spacing()
        for sq in gone:
            piece = dict(old)[sq]
            cx, cy = self.scene.project(np.array([[sq % 9 + piece.dx, sq // 9 + piece.dy, 0.0]]))[0]
            x0, y0 = int(max(0, cx - radius)), int(max(0, cy - radius))
            x1, y1 = int(min(before.shape[1], cx + radius)), int(min(before.shape[0], cy + radius))
            if x1 - x0 < 4 or y1 - y0 < 4:
                continue
            patch = before[y0:y1, x0:x1]
            diff = cv2.absdiff(patch, after[y0:y1, x0:x1]).max(axis=2).astype(np.float32)
            alpha = cv2.GaussianBlur(np.clip(diff / 24.0, 0, 1), (0, 0), 1.0)
            self.by_piece[piece.piece] = (patch.copy(), alpha)

    def _spacing(self) -> float:
        a, b = self.scene.project(np.array([[4.0, 4.5, 0.0], [5.0, 4.5, 0.0]]))
        return float(np.linalg.norm(b - a))

    def draw(self, image: np.ndarray, piece: str, centre: np.ndarray, grow: float) -> None:
        found = self.by_piece.get(piece)
        if found is None:
            return
        patch, alpha = found
        if grow != 1.0:
            size = (max(2, round(patch.shape[1] * grow)), max(2, round(patch.shape[0] * grow)))
            patch, alpha = cv2.resize(patch, size), cv2.resize(alpha, size)
        h, w = alpha.shape
        x0, y0 = int(round(centre[0] - w / 2)), int(round(centre[1] - h / 2))
        ix0, iy0 = max(0, x0), max(0, y0)
        ix1, iy1 = min(image.shape[1], x0 + w), min(image.shape[0], y0 + h)
        if ix1 <= ix0 or iy1 <= iy0:
            return
        sub_a = alpha[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0, None]
        sub_p = patch[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0].astype(np.float32)
        roi = image[iy0:iy1, ix0:ix1].astype(np.float32)
        image[iy0:iy1, ix0:ix1] = (roi + (sub_p - roi) * sub_a).astype(np.uint8)


class _HandPainter:
    """Draws the hands active at a moment (with the pieces they hold) over a still board.

    A hand that moves far within one frame's exposure (half the frame interval) is drawn at
    several instants across it and the images averaged: motion blur, as a camera shows it.
    """

    def __init__(self, timeline: Timeline, scene: BoardScene, sprites: _Sprites, seed: int, fps: float) -> None:
        self.timeline, self.scene, self.sprites, self.seed = timeline, scene, sprites, seed
        self.exposure = 0.5 / fps
        self.light, self.gain = scene.light(), scene.gain()
        self.looks = {}
        for index, track in enumerate(timeline.tracks):
            size = 1.05 + 0.15 * ((track.skin * 7 + track.sleeve * 3) % 10) / 10.0
            self.looks[index] = HandLook.pick(track.skin, track.sleeve, size)

    def _samples(self, t: float, tracks: list[int]) -> int:
        """How many instants to draw: one per ~4 pixels the fastest hand moves in the exposure."""
        fastest = 0.0
        for k in tracks:
            a = self.timeline.tracks[k].at(max(self.timeline.tracks[k].start, t - self.exposure / 2))
            b = self.timeline.tracks[k].at(min(self.timeline.tracks[k].end, t + self.exposure / 2))
            if a is None or b is None:
                continue
            pa, pb = self.scene.project(np.array([[a.x, a.y, 0.12 + 1.6 * a.z], [b.x, b.y, 0.12 + 1.6 * b.z]]))
            fastest = max(fastest, float(np.linalg.norm(pb - pa)))
        return int(min(4, max(1, math.ceil(fastest / 4.0))))

    def _draw(self, image: np.ndarray, t: float, tracks: list[int]) -> list[int]:
        visible = []
        for k in tracks:
            track = self.timeline.tracks[k]
            pose = track.at(min(track.end, max(track.start, t)))
            if pose is None:
                continue
            lift = 0.12 + 1.6 * pose.z
            for n, piece in enumerate(pose.holding):
                centre = self.scene.project(np.array([[pose.x - 0.15 * n, pose.y - 0.1 * n, lift + 0.3]]))[0]
                self.sprites.draw(image, piece, centre, 1.0 + 0.04 * lift)
            # fingers close round a piece near the board or while holding one, open when up and empty
            grip = 1.0 if pose.holding else min(1.0, max(0.0, 1.0 - (pose.z - 0.3) / 0.35))
            mask = draw_hand(image, HandPose(pose.x, pose.y, pose.z, track.shoulder, grip), self.looks[k],
                             self.scene.project, self.light, seed=self.seed * 1000 + k, gain=self.gain)
            if mask.any():
                visible.append(k)
        return visible

    def paint(self, base: np.ndarray, t: float, tracks: list[int]) -> tuple[np.ndarray, list[int]]:
        """(image, tracks whose hand shows) for the hands ``tracks`` at time ``t`` over ``base``."""
        if not tracks:
            return base.copy(), []
        count = self._samples(t, tracks)
        if count == 1:
            image = base.copy()
            return image, self._draw(image, t, tracks)
        total = np.zeros(base.shape, np.float32)
        seen: set[int] = set()
        for i in range(count):
            image = base.copy()
            seen.update(self._draw(image, t + (i / (count - 1) - 0.5) * self.exposure, tracks))
            total += image
        return cv2.convertScaleAbs(total, alpha=1.0 / count), sorted(seen)


class _Noise:
    """Per-frame sensor noise: a few pre-drawn fields, one picked per frame by the seeded generator."""

    def __init__(self, rng: np.random.Generator, shape: tuple[int, int, int], sigma: float) -> None:
        self.rng = rng
        self.fields = []
        for _ in range(_NOISE_FRAMES):
            noise = rng.standard_normal(shape, dtype=np.float32) * np.float32(sigma)
            self.fields.append((np.clip(noise, 0, 255).astype(np.uint8), np.clip(-noise, 0, 255).astype(np.uint8)))

    def apply(self, image: np.ndarray) -> np.ndarray:
        up, down = self.fields[int(self.rng.integers(len(self.fields)))]
        return cv2.subtract(cv2.add(image, up), down)


def _step(value: float, step: float = 0.0025) -> float:
    """``value`` rounded to a multiple of ``step``."""
    return round(value / step) * step


def _light_field(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    xs = (np.arange(width, dtype=np.float32) / max(1, width - 1) - 0.5)[None, :]
    ys = (np.arange(height, dtype=np.float32) / max(1, height - 1) - 0.5)[:, None]
    return xs, ys


def _camera_matrix(offset: tuple[float, float, float], width: int, height: int) -> np.ndarray | None:
    dx, dy, angle = offset
    if abs(dx) < 1e-6 and abs(dy) < 1e-6 and abs(angle) < 1e-6:
        return None
    m = cv2.getRotationMatrix2D(((width - 1) / 2, (height - 1) / 2), angle, 1.0)
    m[0, 2] += dx * width
    m[1, 2] += dy * height
    return m


def film(timeline: Timeline, scene: BoardScene, seed: int, fps: float,
         sink: Callable[[np.ndarray], None],
         progress: Callable[[int, int], None] | None = None) -> tuple[StillTracker, str]:
    """Render every frame of ``timeline`` into ``sink``; returns the frame tracker and a digest.
    ``progress`` is told (frames done, frames in all) after each frame."""
    width, height = scene.width, scene.height
    frames = int(math.ceil(timeline.duration * fps))
    rng = np.random.default_rng([seed, 9001])
    noise = _Noise(rng, (height, width, 3), 1.0)
    xs, ys = _light_field(width, height)
    stills: dict[BoardState, np.ndarray] = {}
    sprites = _Sprites(scene)
    painter = _HandPainter(timeline, scene, sprites, seed, fps)
    tracker = StillTracker(timeline, fps)
    digest = hashlib.sha256()
    previous_state: BoardState | None = None
    lit_key: tuple[Any, ...] | None = None
    lit: np.ndarray | None = None
    for i in range(frames):
        t = i / fps
        state = timeline.state_at(t)
        if state not in stills:
            stills[state] = scene.render_state(state)
            if previous_state is not None:
                sprites.learn(stills[previous_state], stills[state], previous_state, state)
            if len(stills) > 6:
                for old in [s for s in stills if s not in (state, previous_state)][:1]:
                    del stills[old]
        elif previous_state is not None and state != previous_state:
            sprites.learn(stills[previous_state], stills[state], previous_state, state)
        previous_state = state
        active = [(k, tr) for k, tr in enumerate(timeline.tracks) if tr.start <= t <= tr.end]
        visible: list[int] = []
        ambient = timeline.light_at(t)
        camera = timeline.camera_at(t)
        # the light is applied in steps of 1/400 (invisible), so a still board reuses its lit frame
        level, tint3, grad = (_step(ambient.gain), tuple(_step(c) for c in ambient.tint),
                             (_step(ambient.gradient[0]), _step(ambient.gradient[1])))
        key = (state, level, tint3, grad, tuple(round(c, 5) for c in camera))
        if not active and key == lit_key and lit is not None:
            frame = lit
        else:
            image, visible = painter.paint(stills[state], t, [k for k, _ in active])
            shade = (level * (1.0 + grad[0] * xs + grad[1] * ys)).astype(np.float32)
            lit_image = image.astype(np.float32)
            for c in range(3):
                lit_image[..., c] *= shade * np.float32(tint3[c])
            frame = cv2.convertScaleAbs(lit_image)
            matrix = _camera_matrix(camera, width, height)
            if matrix is not None:
                frame = cv2.warpAffine(frame, matrix, (width, height), flags=cv2.INTER_LINEAR,
                                       borderMode=cv2.BORDER_REPLICATE)
            if not active:
                lit_key, lit = key, frame
        out = noise.apply(frame)
        digest.update(np.ascontiguousarray(out).data)
        tracker.add(i, state, visible, camera)
        sink(out)
        if progress is not None:
            progress(i + 1, frames)
    return tracker, digest.hexdigest()


class _OpenCvWriter:
    """MP4 (MPEG-4 part 2, ``mp4v``) through OpenCV: always available, about 1 Mbit/s at 720p."""

    def __init__(self, path: Path, fps: float, width: int, height: int) -> None:
        self.writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*FOURCC), fps, (width, height))
        if not self.writer.isOpened():
            raise RuntimeError(f"OpenCV cannot write {FOURCC} video to {path}")

    def write(self, frame: np.ndarray) -> None:
        self.writer.write(frame)

    def close(self) -> None:
        self.writer.release()


class _FfmpegWriter:
    """H.264 MP4 through the ``ffmpeg`` program: a still board costs almost nothing, so long games
    stay small. Frames go in as raw BGR on a pipe."""

    def __init__(self, path: Path, fps: float, width: int, height: int, crf: int = 26) -> None:
        program = shutil.which("ffmpeg")
        if program is None:
            raise RuntimeError("the ffmpeg program is not installed")
        command = [program, "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "bgr24",
                   "-s", f"{width}x{height}", "-r", f"{fps:g}", "-i", "-", "-an", "-c:v", "libx264",
                   "-preset", "veryfast", "-crf", str(crf), "-pix_fmt", "yuv420p", "-g", str(max(1, round(fps * 10))),
                   "-movflags", "+faststart", str(path)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stderr=subprocess.PIPE)

    def write(self, frame: np.ndarray) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(np.ascontiguousarray(frame).data)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        errors = self.process.stderr.read().decode(errors="replace") if self.process.stderr else ""
        if self.process.wait() != 0:
            raise RuntimeError(f"ffmpeg failed: {errors.strip()}")


ENCODERS = ("auto", "ffmpeg", "opencv")


def _open_writer(path: Path, fps: float, width: int, height: int, encoder: str) -> _OpenCvWriter | _FfmpegWriter:
    """A frame writer: ``ffmpeg`` (H.264) when asked or, for ``auto``, when installed; else OpenCV ``mp4v``."""
    if encoder not in ENCODERS:
        raise ValueError(f"encoder must be one of {', '.join(ENCODERS)}")
    path.parent.mkdir(parents=True, exist_ok=True)
    use_ffmpeg = encoder == "ffmpeg" or (encoder == "auto" and shutil.which("ffmpeg") is not None
                                         and width % 2 == 0 and height % 2 == 0)
    return _FfmpegWriter(path, fps, width, height) if use_ffmpeg else _OpenCvWriter(path, fps, width, height)


def render_timeline(timeline: Timeline, scene: BoardScene, out: str | Path, *, seed: int, fps: float = 10.0,
                    truth_path: str | Path | None = None, clock_path: str | Path | None = None,
                    meta: dict[str, Any] | None = None, encoder: str = "auto",
                    progress: Callable[[int, int], None] | None = None) -> VideoResult:
    """Film ``timeline`` in ``scene`` to ``out`` (MP4) and write the truth and clock log beside it."""
    out = Path(out)
    writer = _open_writer(out, fps, scene.width, scene.height, encoder)
    try:
        tracker, digest = film(timeline, scene, seed, fps, writer.write, progress)
    finally:
        writer.close()
    clock = [ClockEvent(p.t, p.side, p.red_ms, p.black_ms) for p in timeline.presses]
    truth = build_truth(timeline, tracker, scene, fps=fps, seed=seed, meta=meta or {})
    truth["video"] = out.name
    truth["frames_sha256"] = digest
    if clock_path is not None:
        write_clock_log(clock_path, clock)
        truth["clock"]["log"] = Path(clock_path).name
    if truth_path is not None:
        Path(truth_path).parent.mkdir(parents=True, exist_ok=True)
        Path(truth_path).write_text(json.dumps(truth, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    log.info("wrote %s: %d frames at %.1f fps", out, tracker.frames, fps)
    return VideoResult(truth, clock, tracker.frames, digest)


def render_game(moves: Sequence[str], seed: int, *, out: str | Path, truth_path: str | Path | None = None,
                clock_path: str | Path | None = None, start_fen: str | None = None, inject: Sequence[str] = (),
                fps: float = 10.0, width: int = 1280, height: int = 720, split: str = "train",
                options: ScriptOptions | None = None, scene: BoardScene | None = None,
                encoder: str = "auto", progress: Callable[[int, int], None] | None = None) -> VideoResult:
    """Render ``moves`` (ICCS, legal from ``start_fen``) as a video with truth and clock log.

    Everything is drawn from ``seed``: the look (a :class:`~synth.style.ViewStyle` of ``split``),
    the thinking times, the hands, the faults' placement. ``inject`` takes specs such as
    ``"illegal@5"`` or ``"knock"``; ``scene`` replaces the rendered scene (tests use a plain one);
    ``encoder`` picks the MP4 writer (``auto``: H.264 through ffmpeg when installed, else OpenCV);
    ``progress`` is told (frames done, frames in all) as it goes.
    """
    if fps <= 0:
        raise ValueError("fps must be positive")
    options = options or ScriptOptions()
    timeline = build_timeline(moves, seed, start_fen=start_fen, inject=inject, options=options)
    if scene is None:
        scene = RenderedScene(video_style(seed, width, height, split), seed)
    meta = {"inject": list(inject), "split": split,
            "options": {k: getattr(options, k) for k in options.__dataclass_fields__}}
    return render_timeline(timeline, scene, out, seed=seed, fps=fps, truth_path=truth_path,
                           clock_path=clock_path, meta=meta, encoder=encoder, progress=progress)


def read_frames(path: str | Path) -> list[np.ndarray]:
    """All frames of a video file (for checks and tests)."""
    capture = cv2.VideoCapture(str(path))
    frames = []
    try:
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            frames.append(frame)
    finally:
        capture.release()
    return frames
