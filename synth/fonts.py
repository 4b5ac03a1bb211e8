"""CJK fonts for piece characters and river text, and a cache of rasterised glyphs.

Fonts come from Debian packages (installed by ``scripts/install-system-deps.sh``); nothing is
fetched at run time. A missing font raises :class:`FontMissingError` naming the package.
Glyphs are rasterised once per (font, character, size) with Pillow and kept as float masks, so
rendering many views stays fast.
"""

from __future__ import annotations

import functools
import logging
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

log = logging.getLogger(__name__)

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".local/share/fonts")


class FontMissingError(RuntimeError):
    """A font file the renderer needs is not installed; the message names the Debian package."""


@dataclass(frozen=True)
class FontSpec:
    """One typeface: where it lives, which Debian package ships it, and how it looks.

    ``kind`` is the family of looks (kai, ming, hei, clerical, fangsong, yuan, brush, hand); ``clerical`` faces are
    an emulation: a ming/kai face flattened (wider and shorter) and thickened, because no clerical
    (lishu) face is packaged in Debian's free font set. ``charsets`` are the piece scripts the face
    covers (Big5 faces lack the simplified forms, GB faces the traditional ones); a character the
    face still lacks (Big5 faces have no 俥) is drawn from ``fallback``, a face of the same look, the
    way a set maker cuts the odd character by hand.
    """

    key: str
    filename: str
    package: str
    kind: str
    index_traditional: int = 0
    index_simplified: int = 0
    flatten: float = 1.0
    thicken: int = 0
    charsets: tuple[str, ...] = ("traditional", "simplified")
    fallback: str | None = None


_BIG5 = ("traditional",)
_GB = ("simplified",)

FONTS: dict[str, FontSpec] = {
    spec.key: spec
    for spec in (
        FontSpec("ukai", "truetype/arphic/ukai.ttc", "fonts-arphic-ukai", "kai", 2, 0),
        FontSpec("uming", "truetype/arphic/uming.ttc", "fonts-arphic-uming", "ming", 2, 0),
        FontSpec("wqy-zenhei", "truetype/wqy/wqy-zenhei.ttc", "fonts-wqy-zenhei", "hei", 0, 0),
        FontSpec("noto-sans", "opentype/noto/NotoSansCJK-Regular.ttc", "fonts-noto-cjk", "hei", 3, 2),
        FontSpec("noto-sans-bold", "opentype/noto/NotoSansCJK-Bold.ttc", "fonts-noto-cjk", "hei", 3, 2),
        FontSpec("noto-serif", "opentype/noto/NotoSerifCJK-Regular.ttc", "fonts-noto-cjk", "ming", 3, 2),
        FontSpec("noto-serif-bold", "opentype/noto/NotoSerifCJK-Bold.ttc", "fonts-noto-cjk", "ming", 3, 2),
        FontSpec("clerical-ming", "truetype/arphic/uming.ttc", "fonts-arphic-uming", "clerical", 2, 0, 0.78, 1),
        FontSpec("clerical-kai", "truetype/arphic/ukai.ttc", "fonts-arphic-ukai", "clerical", 2, 0, 0.8, 1),
        FontSpec("bkai", "truetype/arphic-bkai00mp/bkai00mp.ttf", "fonts-arphic-bkai00mp", "kai",
                 charsets=_BIG5, fallback="ukai"),
        FontSpec("gkai", "truetype/arphic-gkai00mp/gkai00mp.ttf", "fonts-arphic-gkai00mp", "kai",
                 charsets=_GB, fallback="ukai"),
        FontSpec("bsmi", "truetype/arphic-bsmi00lp/bsmi00lp.ttf", "fonts-arphic-bsmi00lp", "ming",
                 charsets=_BIG5, fallback="noto-serif"),
        FontSpec("gbsn", "truetype/arphic-gbsn00lp/gbsn00lp.ttf", "fonts-arphic-gbsn00lp", "ming",
                 charsets=_GB, fallback="noto-serif"),
        FontSpec("wqy-microhei", "truetype/wqy/wqy-microhei.ttc", "fonts-wqy-microhei", "hei"),
        FontSpec("cwkai", "truetype/cwtex/cwkai.ttf", "fonts-cwtex-kai", "kai", charsets=_BIG5, fallback="ukai"),
        FontSpec("cwming", "truetype/cwtex/cwming.ttf", "fonts-cwtex-ming", "ming", charsets=_BIG5,
                 fallback="uming"),
        FontSpec("cwheib", "truetype/cwtex/cwheib.ttf", "fonts-cwtex-heib", "hei", charsets=_BIG5,
                 fallback="wqy-zenhei"),
        FontSpec("cwyen", "truetype/cwtex/cwyen.ttf", "fonts-cwtex-yen", "yuan", charsets=_BIG5,
                 fallback="wqy-zenhei"),
        FontSpec("cwfs", "truetype/cwtex/cwfs.ttf", "fonts-cwtex-fs", "fangsong", charsets=_BIG5,
                 fallback="noto-serif-bold"),
        FontSpec("wenkai", "truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf", "fonts-lxgw-wenkai", "kai"),
        FontSpec("hanamin", "truetype/hanazono/HanaMinA.ttf", "fonts-hanazono", "ming"),
        # Japanese faces (kyujitai forms, so the traditional sets only; no 傌): brush-written
        # kai and running script, like the brush-cut characters of many wooden sets, a
        # handwritten face and a gothic
        FontSpec("kouzan", "truetype/kouzan-mouhitsu/kouzan-mouhitsu.ttf", "fonts-kouzan-mouhitsu", "brush",
                 charsets=_BIG5, fallback="bkai"),
        FontSpec("kouzan-gyosho", "truetype/kouzan-mouhitsu/kouzan-mouhitsu-gyosho.ttf", "fonts-kouzan-mouhitsu",
                 "brush", charsets=_BIG5, fallback="bkai"),
        FontSpec("kiloji", "truetype/kiloji/kiloji.ttf", "fonts-kiloji", "hand", charsets=_BIG5, fallback="wenkai"),
        FontSpec("ipaexg", "opentype/ipaexfont-gothic/ipaexg.ttf", "fonts-ipaexfont-gothic", "hei", charsets=_BIG5,
                 fallback="wqy-zenhei"),
    )
}


def font_path(spec: FontSpec) -> Path:
    """The installed file of ``spec``; raises :class:`FontMissingError` naming the package."""
    for base in FONT_DIRS:
        candidate = base / spec.filename
        if candidate.exists():
            return candidate
        found = list(base.glob(f"**/{Path(spec.filename).name}")) if base.exists() else []
        if found:
            return found[0]
    raise FontMissingError(
        f"font {Path(spec.filename).name!r} ({spec.kind}) is not installed: "
        f"install the Debian package {spec.package} (make system-deps)"
    )


def check_fonts(keys: list[str] | None = None) -> None:
    """Raise :class:`FontMissingError` if any font in ``keys`` (default: all) is missing."""
    for key in keys or list(FONTS):
        font_path(FONTS[key])


@functools.lru_cache(maxsize=64)
def _truetype(key: str, size: int, simplified: bool) -> ImageFont.FreeTypeFont:
    spec = FONTS[key]
    index = spec.index_simplified if simplified else spec.index_traditional
    return ImageFont.truetype(str(font_path(spec)), size, index=index)


BASE_PX = 128


@functools.lru_cache(maxsize=64)
def _codepoints(key: str, simplified: bool) -> frozenset[int]:
    """The characters the face (the collection member used for ``simplified``) maps to a glyph."""
    from fontTools.ttLib import TTFont  # fontTools comes with fpdf2

    spec = FONTS[key]
    index = spec.index_simplified if simplified else spec.index_traditional
    with TTFont(str(font_path(spec)), fontNumber=index, lazy=True) as face:
        return frozenset(face.getBestCmap())


def face_for(key: str, char: str, simplified: bool = False) -> str:
    """The font that draws ``char``: ``key`` itself, or its ``fallback`` chain where it lacks the glyph."""
    seen = key
    while ord(char) not in _codepoints(key, simplified):
        fallback = FONTS[key].fallback
        if fallback is None:
            raise FontMissingError(f"font {seen} (and its fallbacks) have no glyph for {char!r}")
        key = fallback
    return key


# A glyph pack: every glyph the renderer draws, rasterised here (``python -m synth.glyph_pack``), for a
# machine without the Debian fonts (a GPU box lent for a training run). When set, it replaces the fonts.
GLYPH_PACK_ENV = "XQ_GLYPH_PACK"


def pack_name(key: str, char: str, simplified: bool) -> str:
    """The name of a glyph in a glyph pack."""
    return f"{key}-{ord(char):x}-{'s' if simplified else 't'}"


@functools.lru_cache(maxsize=2)
def _glyph_pack(path: str) -> dict[str, np.ndarray]:
    with np.load(path) as pack:
        return {name: pack[name] for name in pack.files}


@functools.lru_cache(maxsize=512)
def _glyph_base(key: str, char: str, simplified: bool) -> np.ndarray:
    """``char`` rasterised once at ``BASE_PX`` em size, cropped to its ink, flattened/thickened
    for the clerical emulation (uint8); taken from the glyph pack named by ``XQ_GLYPH_PACK`` if set."""
    pack = os.environ.get(GLYPH_PACK_ENV)
    if pack:
        glyphs = _glyph_pack(pack)
        name = pack_name(key, char, simplified)
        if name not in glyphs:
            raise FontMissingError(f"the glyph pack {pack} has no {char!r} drawn in {key}")
        return glyphs[name]
    return rasterise(key, char, simplified)


def rasterise(key: str, char: str, simplified: bool) -> np.ndarray:
    """``char`` drawn by its installed face at ``BASE_PX`` (see ``_glyph_base``)."""
    key = face_for(key, char, simplified)
    spec = FONTS[key]
    font = _truetype(key, BASE_PX, simplified)
    canvas = Image.new("L", (BASE_PX * 2, BASE_PX * 2), 0)
    ImageDraw.Draw(canvas).text((BASE_PX // 2, BASE_PX // 2), char, font=font, fill=255)
    ink = np.asarray(canvas, dtype=np.uint8)
    ys, xs = np.nonzero(ink > 16)
    if len(xs) == 0:
        raise FontMissingError(f"font {key} has no glyph for {char!r}")
    crop: np.ndarray = ink[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    if spec.thicken:
        k = 2 * spec.thicken + 1
        crop = cv2.dilate(crop, np.ones((k, k), np.uint8))
    if spec.flatten != 1.0:
        h, w = crop.shape
        crop = cv2.resize(crop, (round(w / spec.flatten**0.35), round(h * spec.flatten)), interpolation=cv2.INTER_AREA)
    return crop


@functools.lru_cache(maxsize=4096)
def glyph_mask(key: str, char: str, size: int, simplified: bool = False) -> np.ndarray:
    """A float32 coverage mask (0..1) of ``char`` with the em size ``size`` pixels, its ink box
    centred in a square at least ``size`` wide.

    The glyph is centred on its ink, not on the font's metrics, the way characters sit in the
    middle of a piece. Read-only (shared by the cache).
    """
    base = _glyph_base(key, char, simplified)
    h, w = base.shape
    scale = size / BASE_PX
    new_w, new_h = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(base, (new_w, new_h), interpolation=cv2.INTER_AREA)
    side = max(size, new_w, new_h)
    out = np.zeros((side, side), np.float32)
    y0, x0 = (side - new_h) // 2, (side - new_w) // 2
    out[y0 : y0 + new_h, x0 : x0 + new_w] = small.astype(np.float32) / 255.0
    out.setflags(write=False)
    return out
