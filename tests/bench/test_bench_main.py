"""``python -m bench``: which modules a word picks, and options passed to the one module picked."""

from __future__ import annotations

import pytest

from bench.__main__ import bench_modules, main


def test_a_word_naming_a_module_picks_it_alone_and_others_pick_by_substring() -> None:
    # a docs reviewer: "python -m bench game" ran bench_flat_games too
    assert bench_modules(["game"]) == ["bench_game"]
    assert bench_modules(["flat"]) == ["bench_flat_games"]
    assert bench_modules(["rules", "notation"]) == ["bench_notation", "bench_rules"]


def test_options_after_the_words_go_to_the_one_module(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    # "python -m bench calibration --views 200" exited 2: the module parsed the word "calibration"
    import bench.bench_calibration as calibration

    seen: list[list[str]] = []
    monkeypatch.setattr(calibration, "main", lambda argv=None: seen.append(list(argv or [])))
    assert main(["calibration", "--views", "200"]) == 0 and seen == [["--views", "200"]]
    assert main(["rules", "notation", "--quick"]) == 2  # options for two modules: refused
    assert "go to one benchmark module" in capsys.readouterr().out


def test_help_for_a_module_that_takes_no_options_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    # a new user: "python -m bench rules --help" exited 1 ("takes no options") where the README says it lists them
    assert main(["rules", "--help"]) == 0
    assert "bench.bench_rules takes no options" in capsys.readouterr().out
