"""The comments of an imported PGN game as the events whose notes they are.

The store's PGN export (``recorder.exports.pgn``) writes each move's comment as ``[%clk]``, ``[%emt]``
and then the game's notes, one sentence each, joined by ``"; "``: an alert (``alert KIND SQUARES
(art. A): TEXT``), a position the arbiter restored (``arbiter: position after ply N restored (art.
5.8); taken back: MOVES``), a corrected move (``BY: ply N corrected to ICCS (CHINESE), was ICCS``) or
an added one (``BY: ply N added by the arbiter: ICCS (CHINESE)``), the arbiter's note on an alert
(``arbiter NAME on the KIND alert: NOTE``, or ``arbiter NAME ruled the KIND alert no foul[: NOTE]``
and ``... a foul after all``), advice and the game's end (``advice|end (REASON, art. A): TEXT``). Read back, each sentence becomes
the event it was written from, so the imported game's export writes it again word for word. Any other
comment text (an annotator's words, a comment written by another program) is kept as a
:class:`~recorder.events.Comment` with the text as it was, which the export writes back as it came.

The clock annotations are read by :mod:`recorder.store.importer`; :func:`comment_text` is what is left.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from recorder.events import ALERT_KINDS, EQUIPMENT_KINDS, FOUL, NO_FOUL, kind_title

OLD_COMMENT_KIND = "comment"  # the export once wrote another program's comment as ``alert comment: TEXT``
_CLOCK_MARK = re.compile(r"\[%(?:clk|emt)\s+\d+:\d\d:\d\d(?:\.\d+)?\]")
# where one sentence of a comment ends and the next begins: "; " before a sentence of the export's kinds
# (an alert's own text may hold "; ", and so does a restoration's "; taken back:")
_NEXT = re.compile(r"; (?=(?:alert|equipment) \S|(?:end|advice) \(|arbiter: position after ply \d|[^;:]+: ply \d+ (?:corrected to|added by) "
                   r"|[^;:]*(?i:arbiter)[^;:]* (?:on the [a-z_]+ alert: |ruled the [a-z_]+ alert (?:no foul|a foul after all)))")
_ALERT = re.compile(r"(?P<word>alert|equipment) (?P<kind>\S+)(?P<squares>(?: [a-i][0-9])*)"
                    r"(?: \(art\. (?P<article>[^)]*)\))?: (?P<text>.*)", re.DOTALL)
_ARTICLE_AT_END = re.compile(r"\(art\. (?P<article>[^)]*)\)$")
_ENDED = re.compile(r"(?P<word>end|advice) \((?P<reason>[^,)]*)(?:, art\. (?P<article>[^)]*))?\): (?P<text>.*)",
                    re.DOTALL)
_RESTORED = re.compile(r"arbiter: position after ply (?P<ply>\d+) restored \(art\. 5\.8\); taken back: "
                       r"(?P<moves>[a-i][0-9][a-i][0-9](?: [a-i][0-9][a-i][0-9])*)(?: \(by (?P<by>[^()]+)\))?")
_ADDED = re.compile(r"(?P<by>[^;:]+): ply (?P<ply>\d+) added by the (?:recorder|arbiter): "
                    r"(?P<iccs>[a-i][0-9][a-i][0-9]) \((?P<chinese>[^)]*)\)")
_ACKNOWLEDGED = re.compile(r"(?P<who>[^;:]*(?i:arbiter)[^;:]*) on the (?P<kind>[a-z_]+) alert: (?P<note>.+)", re.DOTALL)
_RULED = re.compile(r"(?P<who>[^;:]*(?i:arbiter)[^;:]*) ruled the (?P<kind>[a-z_]+) alert (?P<ruling>no foul|a foul after all)"
                    r"(?:: (?P<note>.+))?", re.DOTALL)
_RULING_WORDS = {NO_FOUL: "no foul", FOUL: "a foul after all"}
_CORRECTED = re.compile(r"(?P<by>[^;:]+): ply (?P<ply>\d+) corrected to (?P<iccs>[a-i][0-9][a-i][0-9]) "
                        r"\((?P<chinese>[^)]*)\), was (?P<was>[a-i][0-9][a-i][0-9])")


@dataclass(frozen=True)
class AlertNote:
    kind: str
    squares: tuple[str, ...]
    article: str
    text: str
    word: str = "alert"  # "equipment" for the camera's and the clock's troubles


def acknowledger(by: str) -> str:
    """Who dealt with an alert, as a note on it names them: ``arbiter NAME`` (``NAME`` alone when it
    says arbiter already). A ``:`` or ``;`` in the name (typed at the console) becomes ``,``: they end
    the note's parts, and the note would be read back as words of the alert's, its ruling lost."""
    by = by.replace(":", ",").replace(";", ",")
    return by if "arbiter" in by.lower() else f"arbiter {by}".strip()


def article_tag(article: str, text: str) -> str:
    """`` (art. A)`` after an alert's kind and squares, unless its text already ends by citing it."""
    return f" (art. {article})" if article and not text.endswith(f"(art. {article})") else ""


@dataclass(frozen=True)
class EndedNote:
    advisory: bool
    reason: str
    article: str
    text: str


@dataclass(frozen=True)
class RestoredNote:
    ply: int
    taken_back: tuple[str, ...]
    by: str = ""  # the arbiter who took them back in the console ("" when the board was seen restored)


@dataclass(frozen=True)
class CorrectedNote:
    by: str
    ply: int
    iccs: str
    chinese: str
    was: str


@dataclass(frozen=True)
class AcknowledgedNote:
    """The arbiter's note on the alert of ``kind`` before it (``AlertAcknowledged`` with a note, or
    a ruling on the alert: ``AlertAcknowledged.ruling``)."""

    by: str
    kind: str
    note: str
    ruling: str = ""


def acknowledged_text(note: AcknowledgedNote, sheet: bool = False) -> str:
    """The sentence a PGN writes for an arbiter's note on an alert, or ruling on it; on a ``sheet``
    the alert is named in words (``the illegal move alert``), not by its code."""
    kind = kind_title(note.kind).lower() if sheet else note.kind
    if note.ruling:
        return (f"{acknowledger(note.by)} ruled the {kind} alert {_RULING_WORDS[note.ruling]}"
                + (f": {note.note}" if note.note else ""))
    return f"{acknowledger(note.by)} on the {kind} alert: {note.note}"


@dataclass(frozen=True)
class CommentNote:
    text: str


Note = AlertNote | EndedNote | RestoredNote | CorrectedNote | AcknowledgedNote | CommentNote


def comment_text(comment: str) -> str:
    """The comment without its ``[%clk]`` and ``[%emt]`` annotations, spaces as one (no stray space)."""
    return " ".join(_CLOCK_MARK.sub(" ", comment).split())


def _format(note: Note) -> str:
    """The sentence the export writes for ``note`` (to check a reading against)."""
    if isinstance(note, CommentNote):
        return note.text
    if isinstance(note, AlertNote):
        where = " " + " ".join(note.squares) if note.squares else ""
        return f"{note.word} {note.kind}{where}{article_tag(note.article, note.text)}: {note.text}"
    if isinstance(note, EndedNote):
        article = f", art. {note.article}" if note.article else ""
        return f"{'advice' if note.advisory else 'end'} ({note.reason}{article}): {note.text}"
    if isinstance(note, RestoredNote):
        by = f" (by {note.by})" if note.by else ""
        return f"arbiter: position after ply {note.ply} restored (art. 5.8); taken back: {' '.join(note.taken_back)}{by}"
    if isinstance(note, AcknowledgedNote):
        return acknowledged_text(note)
    if not note.was:  # a ply added after the last one (a move the camera missed)
        who = "recorder" if note.by == "recorder" else "arbiter"
        return f"{note.by}: ply {note.ply} added by the {who}: {note.iccs} ({note.chinese})"
    return f"{note.by}: ply {note.ply} corrected to {note.iccs} ({note.chinese}), was {note.was}"


def _read(sentence: str) -> Note:
    note: Note | None = None
    if match := _RESTORED.fullmatch(sentence):
        note = RestoredNote(int(match["ply"]), tuple(match["moves"].split()), match["by"] or "")
    elif match := _ENDED.fullmatch(sentence):
        note = EndedNote(match["word"] == "advice", match["reason"], match["article"] or "", match["text"])
    elif match := _CORRECTED.fullmatch(sentence):
        note = CorrectedNote(match["by"], int(match["ply"]), match["iccs"], match["chinese"], match["was"])
    elif match := _ADDED.fullmatch(sentence):
        note = CorrectedNote(match["by"], int(match["ply"]), match["iccs"], match["chinese"], "")
    elif match := _RULED.fullmatch(sentence) or _ACKNOWLEDGED.fullmatch(sentence):
        who = match["who"]
        ruling = next((code for code, words in _RULING_WORDS.items() if words == match["ruling"]), "") \
            if match.re is _RULED else ""
        note = AcknowledgedNote(who[len("arbiter "):] if who.startswith("arbiter ") else "" if who == "arbiter" else who,
                                match["kind"], match["note"] or "", ruling)
    elif match := _ALERT.fullmatch(sentence):
        cited = _ARTICLE_AT_END.search(match["text"])  # the article, when the text cites it and the tag is left out
        note = AlertNote(match["kind"], tuple(match["squares"].split()),
                         match["article"] or (cited["article"] if cited else ""), match["text"], match["word"])
    if note is None or _format(note) != sentence or (isinstance(note, CorrectedNote) and note.iccs == note.was):
        return CommentNote(sentence)
    if isinstance(note, AlertNote):
        if note.kind == OLD_COMMENT_KIND and not note.squares and not note.article:
            return CommentNote(note.text)  # an older export's "alert comment: WORDS"
        if note.kind not in ALERT_KINDS or (note.word == "equipment") != (note.kind in EQUIPMENT_KINDS):
            return CommentNote(sentence)  # "alert here: the horse is trapped" is an annotator's, not an alert
    return note


def read_notes(comment: str) -> list[Note]:
    """The notes of one comment (its clock annotations left out), in the order written."""
    text = comment_text(comment)
    return [_read(sentence) for sentence in _NEXT.split(text)] if text else []


def plain(note: Note) -> CommentNote:
    """A note that cannot be the event it names where it stands (a restoration or correction of
    another ply) kept as the comment it is."""
    return CommentNote(_format(note))
