"""PGN written by other programs (Big5 files of the shared data, GBK text) through the store and back."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from recorder.exports.pgn import export_pgn, read_clocks
from recorder.scoresheet import rebuild
from recorder.store import GameStore
from recorder.store.importer import import_pgn
from rules import read_pgn
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


def test_unreadable_moves_are_reported() -> None:
    store = GameStore(":memory:")
    ids, problems, _ = import_pgn(store, "[Red \"A\"]\n\n1. 炮二平五 马8进7 2. 车一进九 *\n", "bad.pgn")
    assert len(ids) == 1 and store.game(ids[0]).plies == 2
    assert len(problems) == 1 and "ply 3" in problems[0] and "车一进九" in problems[0]


def test_a_game_already_stored_is_skipped_and_named() -> None:
    store = GameStore(":memory:")
    text = '[Event "Club"]\n[Round "2"]\n[Board "0"]\n[Red "A"]\n[Black "B"]\n\n1. 炮二平五 马8进7 *\n'
    first = import_pgn(store, text, "a.pgn")
    assert len(first.ids) == 1 and first.duplicates == []
    again = import_pgn(store, text, "copy/a.pgn")  # the same game from another path
    assert again.ids == [] and again.duplicates == [f"game 1 is already stored as game {first.ids[0]} "
                                                    "(same tags and moves)"]
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
                                                               "(same tags and moves)"]
