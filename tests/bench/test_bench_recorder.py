"""The recorder benchmark's video plan: the standing set stays put, another seed base is fresh."""

from __future__ import annotations

from bench.bench_recorder import GAME_LINES, SEED_BASE, plan


def test_the_standing_set_keeps_its_videos_and_a_fresh_seed_base_gives_other_ones() -> None:
    clean, injected = plan(50, 50, 30)
    assert clean[0].name == "clean-000-p30" and clean[0].line == 1000 and clean[0].seed == SEED_BASE
    assert injected[49].name == "inject-049" and injected[49].seed == SEED_BASE + 5049
    fresh_clean, fresh_injected = plan(50, 50, 30, seed_base=900000)
    standing = {spec.name for spec in clean + injected}
    assert not standing & {spec.name for spec in fresh_clean + fresh_injected}
    assert not {spec.seed for spec in clean + injected} & {spec.seed for spec in fresh_clean + fresh_injected}
    assert all(0 <= spec.line < GAME_LINES for spec in fresh_clean + fresh_injected)
    assert [spec.line for spec in fresh_clean] != [spec.line for spec in clean]
