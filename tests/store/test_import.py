"""PGN written by other programs (Big5 files of the shared data, GBK text) through the store and back."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from recorder.exports.pgn import export_pgn, read_clocks
from recorder.scoresheet import rebuild
from recorder.store import GameStore
from recorder.store.importer import import_pgn
from rules import Move, Position, read_pgn
from tests.exports.game_events import game_events

PGN_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "pgn-chinese"
pytestmark = pytest.mark.skipif(not PGN_DIR.exists(), reason="../shared/data/pgn-chinese missing")


def _through_store(files: list[Path]) -> None:
    store = GameStore(":memory:")
    for path in files:
        (original,) = read_pgn(path.read_bytes())
        assert original.encoding in ("cp950", "big5hkscs") and not original.errors
        imported = import_pgn(store, path.read_bytes(), path.name)
        (game_id,) = imported.ids
        assert imported.problems == [] and imported.duplicates == []
        events = store.events(game_id)
        assert rebuild(events).moves == [m.iccs for m in original.moves]
        row = store.game(game_id)
        assert row.info.red == original.headers["Red"] and row.state == "closed"
        for notation in ("chinese", "iccs"):
            (back,) = read_pgn(export_pgn(events, row.info, notation).encode("gbk", errors="strict")
                               if notation == "chinese" else export_pgn(events, row.info, notation))
            assert back.moves == original.moves and back.result == original.result


def test_sample_of_big5_files() -> None:
    files = sorted(PGN_DIR.glob("*.pgn"))
    _through_store(random.Random(3).sample(files, 8))


@pytest.mark.slow
def test_all_big5_files() -> None:
    _through_store(sorted(PGN_DIR.glob("*.pgn")))


def test_exported_clocks_come_back_through_import() -> None:
    store = GameStore(":memory:")
    moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]
    text = export_pgn(game_events(moves, seed=5, result="0-1"))
    (game_id,) = import_pgn(store, text, "again").ids
    again = export_pgn(store.events(game_id))
    assert [m.clk_ms for m in read_clocks(read_pgn(again)[0])] == [m.clk_ms for m in read_clocks(read_pgn(text)[0])]
    assert store.game(game_id).result == "0-1"


def test_a_game_with_a_move_that_cannot_be_read_is_not_imported_and_says_why() -> None:
    # stored up to the bad move, with its result, it would pass for the whole game
    store = GameStore(":memory:")
    text = ("[Red \"A\"]\n[Result \"1-0\"]\n\n1. 炮二平五 马8进7 2. 车一进九 1-0\n\n"
            "[Red \"C\"]\n\n1. 炮二平五 马8进7 *\n")
    ids, problems, _ = import_pgn(store, text, "bad.pgn")
    assert len(ids) == 1 and store.game(ids[0]).info.red == "C"
    assert len(problems) == 1 and "ply 3" in problems[0] and "车一进九" in problems[0]
    assert "game 1 not imported" in problems[0]


def test_a_game_already_stored_is_skipped_and_named() -> None:
    store = GameStore(":memory:")
    text = '[Event "Club"]\n[Round "2"]\n[Board "0"]\n[Red "A"]\n[Black "B"]\n\n1. 炮二平五 马8进7 *\n'
    first = import_pgn(store, text, "a.pgn")
    assert len(first.ids) == 1 and first.duplicates == []
    again = import_pgn(store, text, "copy/a.pgn")  # the same game from another path
    assert again.ids == [] and again.duplicates == [f"game 1 is already stored as game {first.ids[0]} "
                                                    "(same tags, moves and comments)"]
    other_moves = import_pgn(store, text.replace("马8进7", "马2进3"), "b.pgn")
    other_player = import_pgn(store, text.replace('"B"', '"C"'), "c.pgn")
    other_result = import_pgn(store, text.replace("*\n", "1-0\n"), "d.pgn")
    assert [len(r.ids) for r in (other_moves, other_player, other_result)] == [1, 1, 1]
    assert len(store.games()) == 4


def test_a_game_twice_in_one_file_is_stored_once() -> None:
    store = GameStore(":memory:")
    game = '[Red "A"]\n[Black "B"]\n\n1. h2e2 h9g7 2. h0g2 *\n'
    imported = import_pgn(store, game + "\n" + game)
    assert len(imported.ids) == 1 and imported.duplicates == [f"game 2 is already stored as game {imported.ids[0]} "
                                                               "(same tags, moves and comments)"]


def _round_trip_text(text: str) -> str:
    store = GameStore(":memory:")
    (game_id,) = import_pgn(store, text, "r.pgn").ids
    return export_pgn(store.events(game_id), store.game(game_id).info)


_UNIT = re.compile(r"^(\[|\{|\d+\.(\.\.)? |\*$|1-0$|0-1$|1/2-1/2$)")


def _unwrapped(text: str) -> str:
    """PGN text with each tag, move pair and its comment on one line (the writer wraps at 79)."""
    lines: list[str] = []
    for line in text.splitlines():
        if lines and line and not _UNIT.match(line):
            lines[-1] += " " + line
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


def test_an_exported_game_imported_and_exported_again_is_the_same_text() -> None:
    from recorder.store.db import GameInfo

    moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "g6g5", "c3c4", "b7b3"]
    info = GameInfo(event="Spring Open", round="3", board=4, red="A", black="B", time_control="5400+30")
    for seed in range(6):
        text = export_pgn(game_events(moves, seed=seed, result="0-1", faults=True), info)
        assert "alert illegal_move" in text and "taken back" in text and "end (agreed" in text
        text, again = _unwrapped(text), _unwrapped(_round_trip_text(text))
        # an imported game has clock times only, and its move times are their differences (fitted to the
        # [%emt] given): where the recorder wrote none (a press lost, ply 8 after the restoration) one is
        # written, and ply 9, whose [%emt] counts from the press after the restoration while the fixture's
        # clock times do not, keeps its clock's. Everything else comes back the same
        for before, after in zip(text.splitlines(), again.splitlines(), strict=True):
            if "[%emt" not in before:
                assert re.sub(r" \[%emt [^\]]*\]", "", after) == before
            elif not before.startswith("5. C3-C4"):
                assert after == before
        assert _unwrapped(_round_trip_text(again)) == again


def game_comment_of(text: str) -> str:
    return read_pgn(text)[0].comment


def test_comments_of_other_programs_come_back_as_they_were_without_stray_spaces() -> None:
    text = ('[Event "Club"]\n[TimeControl "600+5"]\n\n{好局}\n1. h2e2 {[%clk 0:09:58]  好棋; 中炮 } h9g7 '
            '{[%clk 0:09:59] }\n2. h0g2 {alert note: x} *\n')
    again = _round_trip_text(text)
    assert game_comment_of(again) == "好局"
    (game,) = read_pgn(again)
    assert game.move_comments[0] == "[%clk 0:09:58] [%emt 0:00:07] 好棋; 中炮"
    assert game.move_comments[1] == "[%clk 0:09:59] [%emt 0:00:06]"
    assert game.move_comments[2] == "alert note: x"
    assert " }" not in again and "{ " not in again
    assert _round_trip_text(again) == again


def test_comments_are_no_alerts_and_are_labelled_on_the_sheet() -> None:
    from recorder.events import Alert, Comment
    from recorder.exports.text import export_text

    store = GameStore(":memory:")
    text = "[Red \"A\"]\n\n{开局}\n1. h2e2 {A classic opening} h9g7 {alert comment: written by an old export} *\n"
    (game_id,) = import_pgn(store, text, "a.pgn").ids
    events = store.events(game_id)
    assert not [e for e in events if isinstance(e, Alert)]
    assert [(e.ply, e.text) for e in events if isinstance(e, Comment)] == [
        (0, "开局"), (1, "A classic opening"), (2, "written by an old export")]
    sheet = export_text(events, store.game(game_id).info)
    assert "  after move 1 (red): comment: A classic opening\n" in sheet and "alert" not in sheet


def test_a_comment_stored_as_an_alert_by_an_older_version_is_read_as_a_comment() -> None:
    from recorder.events import Comment, event_from_json

    old = {"type": "Alert", "t": 1.5, "kind": "comment", "squares": [], "article": "", "text": "好棋", "ply": 1}
    assert event_from_json(old) == Comment(1.5, 1, "好棋")


def test_corrected_and_added_moves_come_back_as_corrections() -> None:
    from recorder.store.import_notes import CorrectedNote, read_notes

    notes = read_notes("[%clk 0:09:58] arbiter: ply 2 corrected to h9g7 (马8进7), was b9c7; "
                       "recorder: ply 3 added by the recorder: h0g2 (马二进三)")
    assert notes == [CorrectedNote("arbiter", 2, "h9g7", "马8进7", "b9c7"),
                     CorrectedNote("recorder", 3, "h0g2", "马二进三", "")]


def test_a_game_with_a_variation_is_imported_and_the_variation_named() -> None:
    # annotated published games carry variations in parentheses: left out, the game itself is whole
    store = GameStore(":memory:")
    ids, problems, _ = import_pgn(store, "[Red \"A\"]\n\n1. h2e2 (1. b2e2 h9g7) h9g7 2. h0g2 1-0\n", "notes.pgn")
    assert len(ids) == 1 and store.game(ids[0]).plies == 3 and store.game(ids[0]).result == "1-0"
    assert len(problems) == 1 and "variation left out" in problems[0] and "not imported" not in problems[0]


def test_tags_the_store_has_no_column_for_are_kept_and_exported() -> None:
    text = ('[Event "Club"]\n[Red "A"]\n[Black "B"]\n[RedTeam "北京"]\n[ECCO "C83"]\n[Opening "中炮对屏风马"]\n'
            '[Board "3a"]\n[Result "1-0"]\n\n1. h2e2 h9g7 1-0\n')
    again = _round_trip_text(text)
    headers = read_pgn(again)[0].headers
    assert [(name, headers[name]) for name in ("RedTeam", "ECCO", "Opening", "Board")] == [
        ("RedTeam", "北京"), ("ECCO", "C83"), ("Opening", "中炮对屏风马"), ("Board", "3a")]
    assert _round_trip_text(again) == again


def test_alerts_cite_their_article_once_and_equipment_alerts_come_back_as_alerts() -> None:
    from recorder.events import Alert, MoveRecorded, RecordingStarted
    from recorder.store.importer import events_from_pgn

    events = [RecordingStarted(0.0, "cam", Position.start().fen()),
              MoveRecorded(1.0, 1, "h2e2", "炮二平五", "red", Position.start().play(Move.from_iccs("h2e2")).fen(), 1.0),
              Alert(2.0, "illegal_move", ("i9", "g7"), "2.2", "the black chariot moves along a file or a rank (art. 2.2)", 1),
              Alert(3.0, "camera_lost", (), "", "no picture for 4.0 s", 1)]
    text = _unwrapped(export_pgn(events))
    assert "alert illegal_move i9 g7: the black chariot moves along a file or a rank (art. 2.2)" in text
    assert "equipment camera_lost: no picture for 4.0 s" in text
    (game,) = read_pgn(text)
    alerts = [e for e in events_from_pgn(game) if isinstance(e, Alert)]
    assert [(a.kind, a.article) for a in alerts] == [("illegal_move", "2.2"), ("camera_lost", "")]
    assert _unwrapped(_round_trip_text(text)) == text


def test_annotators_words_that_look_like_the_recorders_notes_stay_comments() -> None:
    """A tester's annotated game: 'alert here: ...' went to the fouls box as an alert, 'equipment
    note: ...' came back as 'alert note: ...', and 'end (resignation): ...' after move 3 ended the
    game there. Only the recorder's own alert kinds, and a game's end after its last move, are read."""
    from recorder.events import Alert, Comment, GameEnded

    store = GameStore(":memory:")
    text = ("[Red \"A\"]\n[TimeControl \"600+5\"]\n\n1. h2e2 {[%clk 0:10:03.5]} h9g7 {alert here: the horse is trapped}"
            " 2. h0g2 {end (resignation): black looked lost} i9h9 {equipment note: the clock was slow} *\n")
    (game_id,) = import_pgn(store, text, "a.pgn").ids
    events = store.events(game_id)
    assert not [e for e in events if isinstance(e, Alert | GameEnded)]
    assert [e.text for e in events if isinstance(e, Comment)] == [
        "alert here: the horse is trapped", "end (resignation): black looked lost", "equipment note: the clock was slow"]
    assert rebuild(events).plies[0].clock_ms == 603_500  # a clock time with a fraction of a second is read
    assert _round_trip_text(text).count("[%clk 0:10:03]") == 1


def test_another_annotated_copy_of_a_stored_game_is_imported() -> None:
    store = GameStore(":memory:")
    moves = "1. h2e2 h9g7 2. h0g2 1-0\n"
    first = import_pgn(store, '[Red "A"]\n[Annotator "X"]\n\n' + moves, "a.pgn")
    again = import_pgn(store, '[Red "A"]\n[Annotator "X"]\n\n' + moves, "a.pgn")
    other = import_pgn(store, '[Red "A"]\n[Annotator "Y"]\n\n' + moves, "b.pgn")
    commented = import_pgn(store, '[Red "A"]\n[Annotator "X"]\n\n1. h2e2 {best} h9g7 2. h0g2 1-0\n', "c.pgn")
    assert len(first.ids) == 1 and not again.ids and len(again.duplicates) == 1
    assert len(other.ids) == 1 and len(commented.ids) == 1


def test_a_record_from_elsewhere_gets_the_rules_verdicts_a_recorded_game_has() -> None:
    # a tester's imported game with a plain threefold repetition showed no advice in `show` or its
    # sheets: only `replay` judged it. Told once while it holds, and as the file says it when it does
    from recorder.events import GameEnded

    text = ('[Game "Chinese Chess"]\n[FEN "5k3/9/c4a3/9/9/9/9/9/R8/5K3 b - - 0 1"]\n[Format "ICCS"]\n\n'
            "1. ... a7b7 2. a1b1 b7a7 3. b1a1 a7b7 4. a1b1 b7a7 5. b1a1 a7b7 6. a1b1 b7a7 7. b1a1 *\n")
    store = GameStore(None)
    (game_id,) = import_pgn(store, text, "club.pgn").ids
    ended = [e for e in store.events(game_id) if isinstance(e, GameEnded)]
    assert [(e.ply, e.reason, e.advisory) for e in ended] == [(8, "must_change", True),
                                                             (12, "forbidden_not_changed", True)]
    assert ended[0].judged and ended[0].judged[0].startswith("ply 5 炮1平2")
    exported = export_pgn(store.events(game_id), store.game(game_id).info)
    assert exported.count("advice (must_change") == 1
    assert _round_trip_text(exported) == exported  # the file's notes taken as written, not judged again


def test_moves_an_arbiter_took_back_come_back_naming_the_arbiter() -> None:
    from recorder.events import Event, MoveRecorded, PositionRestored, RecordingStarted
    from recorder.store.db import GameInfo

    position = Position.start()
    events: list[Event] = [RecordingStarted(0.0, "cam", Position.start().fen(), "")]
    for ply, iccs in enumerate(["h2e2", "h9g7", "h0g2", "i9h9"], start=1):
        move = Move.from_iccs(iccs)
        events.append(MoveRecorded(2.0 * ply, ply, iccs, "", "red" if ply % 2 else "black",
                                   position.play(move).fen(), 1.0, 2.0 * ply))
        position = position.play(move)
    after_two = Position.start().play("h2e2").play("h9g7")
    events.append(PositionRestored(9.0, 2, after_two.fen(), ("h0g2", "i9h9"), by="Zhang Wei", at="2026-12-04T03:57:00Z"))
    text = _unwrapped(export_pgn(events, GameInfo(event="Open")))
    assert "taken back: h0g2 i9h9 (by Zhang Wei)" in text
    store = GameStore(":memory:")
    (game_id,) = import_pgn(store, text, "r.pgn").ids
    (restored,) = [e for e in store.events(game_id) if isinstance(e, PositionRestored)]
    assert (restored.ply, restored.taken_back, restored.by) == (2, ("h0g2", "i9h9"), "Zhang Wei")
    assert _unwrapped(_round_trip_text(text)) == text


def test_take_backs_the_export_moved_back_come_back_as_take_backs() -> None:
    """The export puts a take-back's note, and notes about the moves it took back, at the ply a later
    take-back went further back to; read back, they are the same take-backs, not comments."""
    from recorder.events import Alert, AlertAcknowledged, PositionRestored
    from recorder.store.db import GameInfo
    from tests.exports.game_events import two_take_backs

    moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "b0c2", "c6c5", "c3c4", "h7i7", "b2b6"]
    events = two_take_backs(moves)
    text = export_pgn(events, GameInfo(event="Open"))
    store = GameStore(":memory:")
    (game_id,) = import_pgn(store, text, "r.pgn").ids
    back = [e for e in store.events(game_id) if isinstance(e, PositionRestored)]
    want = [e for e in events if isinstance(e, PositionRestored)]
    assert [(e.ply, e.fen, e.taken_back, e.by) for e in back] == [(e.ply, e.fen, e.taken_back, e.by) for e in want]
    stored = store.events(game_id)
    (acknowledged,) = [e for e in stored if isinstance(e, AlertAcknowledged)]  # the arbiter's note, not alert text
    alert = stored[acknowledged.seq - 1]
    assert isinstance(alert, Alert) and alert.kind == "illegal_move" and alert.text == "the horse's leg is blocked"
    assert (acknowledged.by, acknowledged.note) == ("Li", "board put right")
    assert _round_trip_text(text) == text


@pytest.mark.parametrize("tag, stored", [("2009-11-29 13:0", "2009.11.29"), ("2009/1/9", "2009.01.09"),
                                         ("2009年11月29日", "2009.11.29"), ("2009.??.??", "2009.??.??"),
                                         ("2009", "2009.??.??"), ("autumn", "autumn")])
def test_an_imported_date_is_stored_as_pgn_writes_dates(tag: str, stored: str) -> None:
    # a player tester: a shared game's Date "2009-11-29 13:0" went out again as it came, cut off on the PDF
    store = GameStore(":memory:")
    (game_id,) = import_pgn(store, f'[Date "{tag}"]\n\n1. h2e2 h9g7 *\n', "d.pgn").ids
    assert store.game(game_id).info.date == stored


def test_a_game_imported_onto_a_board_of_its_round_already_taken_is_told() -> None:
    # a player tester: record refuses a second game on a board of a round; the import said nothing
    store = GameStore(":memory:")
    tags = '[Event "Open"]\n[Round "2"]\n[Board "1"]\n[Red "{red}"]\n\n1. h2e2 h9g7 *\n'
    first = import_pgn(store, tags.format(red="A"), "a.pgn")
    assert first.ids and not first.problems
    second = import_pgn(store, tags.format(red="B"), "b.pgn")
    (problem,) = second.problems
    assert second.ids and "board 1 of round 2" in problem and f"game(s) {first.ids[0]} " in problem


def test_the_stores_game_id_tag_keeps_its_place_through_an_import() -> None:
    # a player tester: with a result marked, [GameId] came before [Termination] in the export and after
    # it once the file was imported and exported again
    from recorder.store.db import GameInfo

    moves = ["h2e2", "h9g7", "h0g2", "i9h9"]
    info = GameInfo(event="Spring Open", round="3", board=4, red="A", black="B", time_control="5400+30")
    from recorder.events import ResultMarked

    marked = ResultMarked(60.0, len(moves), "0-1", "arbiter", "4.1.12", "red resigned", False, by="arbiter")
    text = export_pgn([*game_events(moves, seed=1), marked], info, extra={"GameId": "7"})
    store = GameStore(":memory:")
    (game_id,) = import_pgn(store, text, "r.pgn").ids
    again = export_pgn(store.events(game_id), store.game(game_id).info, extra={"GameId": "7"})
    tags = [line for line in text.splitlines() if line.startswith("[")]
    assert tags[-1] == '[GameId "7"]' and "[Termination" in text
    assert [line for line in again.splitlines() if line.startswith("[")] == tags


def test_a_result_tag_the_moves_contradict_is_stored_as_the_moves_end_and_told() -> None:
    # a player tester: the tag said 0-1 and the only move mates black; the list said 0-1, every export 1-0
    store = GameStore(":memory:")
    text = '[Result "0-1"]\n[SetUp "1"]\n[FEN "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1"]\n\n1. e1d1 0-1\n'
    (game,), problems, _ = import_pgn(store, text, "wrong.pgn")
    assert store.game(game).result == "1-0" == rebuild(store.events(game)).result
    (told,) = problems
    assert "Result tag says 0-1, but its moves end in checkmate: stored as 1-0" in told


@pytest.mark.parametrize(("tag", "stored"), [
    ("2009-11-29 13:0", "2009.11.29"), ("2009年11月29日", "2009.11.29"), ("1999。1。20", "1999.01.20"),
    ("20090831", "2009.08.31"), ("20091117-15：00", "2009.11.17"), ("２００９．１１．２９", "2009.11.29"),
    ("22-8-2009", "2009.08.22"), ("8/22/2009", "2009.08.22"), ("2009", "2009.??.??"),
    ("3-3-2009", "2009.03.03"), ("2009-11-291", "2009-11-291"),
    ("3-4-2009", "3-4-2009"), ("20091399", "20091399"), ("Spring", "Spring")])  # either order, no date: as came
def test_imported_dates_are_stored_as_pgn_writes_them(tag: str, stored: str) -> None:
    # a player tester: 47 of 300 exported files kept dates such as 20090831 and 1999。1。20
    from recorder.store.importer import pgn_day

    assert pgn_day(tag) == stored


def test_an_imported_games_result_taken_back_does_not_make_it_a_stopped_recording() -> None:
    # a reviewer: '*' reopens a closed game so that its recorder may go on, but an imported game was
    # never recorded here and would have read "its recorder stopped without closing it"
    from recorder.server.actions import mark_result
    from recorder.server.state import read_game_events

    store = GameStore(":memory:")
    text = '[Event "Club"]\n[Red "A"]\n[Black "B"]\n\n1. 炮二平五 马8进7 1-0\n'
    (game,) = import_pgn(store, text, "a.pgn").ids
    with store.locked():
        mark_result(store, game, read_game_events(store.db, game), {"result": "*", "text": "entered wrongly"},
                    ["h2e2", "h9g7"], "", "x")
    row = store.game(game)
    assert (row.state, row.result, row.not_over) == ("closed", "*", "")


def test_an_imported_termination_goes_with_the_result_it_came_with(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """A tester: a game imported as a time forfeit, reopened and then marked a resignation, went out
    still tagged "time forfeit", and as "time forfeit" while open."""
    from recorder.cli import main

    db, pgn = tmp_path / "tf.sqlite3", tmp_path / "tf.pgn"
    pgn.write_text('[Event "TF"]\n[Round "1"]\n[Result "1-0"]\n[Termination "time forfeit"]\n\n'
                   '1. h2e2 h9g7 2. h0g2 1-0\n', encoding="utf-8")
    assert main(["games", "--db", str(db), "--import", str(pgn)]) == 0
    capsys.readouterr()

    def exported() -> dict[str, str]:
        capsys.readouterr()  # what the edits printed
        assert main(["export", "1", "--db", str(db)]) == 0
        (game,) = read_pgn(capsys.readouterr().out)
        return {**game.headers, "Result": game.result}

    assert exported()["Termination"] == "time forfeit"  # as it came
    assert main(["edit", "1", "--db", str(db), "--result", "*"]) == 0
    assert "Termination" not in exported()
    assert main(["edit", "1", "--db", str(db), "--result", "0-1", "--reason", "red resigned"]) == 0
    headers = exported()
    assert headers["Result"] == "0-1" and headers.get("Termination", "normal") != "time forfeit"


@pytest.mark.parametrize("stored, tag", [("2001.11.12", "2001.11.12"), ("2009.??.??", "2009.??.??"),
                                         ("11/12/2001", "2001.??.??"), ("autumn", "????.??.??"), ("", "????.??.??")])
def test_a_date_kept_as_it_came_is_written_as_pgn_dates_are(stored: str, tag: str) -> None:
    # a tester: an imported "11/12/2001" (day or month first?) went out as PGN's Date as it came
    from recorder.exports.pgn import headers_for
    from recorder.store.db import GameInfo

    assert headers_for(GameInfo(date=stored), "*")["Date"] == tag
