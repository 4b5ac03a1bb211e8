"""The console's clock text (``XQ.clock`` in ``static/live.js``, run in node) shows the time left as
the exports do: whole seconds, truncated as a clock counting down shows them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import recorder.server
from recorder.scoresheet import clock_left_text

NODE = shutil.which("node") or shutil.which("nodejs")
LIVE_JS = Path(recorder.server.__file__).parent / "static" / "live.js"
RUN = """
const stub = {getItem: () => null, setItem: () => {}};
Object.assign(globalThis, {localStorage: stub, sessionStorage: stub, window: {},
                           document: {addEventListener: () => {}}});
const XQ = new Function(require("fs").readFileSync(process.argv[1], "utf8") + "\\nreturn XQ;")();
console.log(JSON.stringify(JSON.parse(process.argv[2]).map((ms) => XQ.clock(ms))));
"""


def _seconds(text: str) -> int:
    seconds = 0
    for part in text.split(":"):
        seconds = seconds * 60 + int(part)
    return seconds


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_console_clock_truncates_like_the_exports() -> None:
    values = [904_973, 904_000, 904_999, 59_999, 3_600_500, 3_599_999, 999, 0, -1500]
    run = subprocess.run([str(NODE), "-e", RUN, str(LIVE_JS), json.dumps(values)], capture_output=True, text=True,
                         timeout=60, check=True)
    shown = json.loads(run.stdout)
    assert shown[0] == "15:04" and shown[4] == "1:00:00"  # 904 973 ms: 0:15:04 in the PDF too
    assert [_seconds(text) for text in shown] == [_seconds(clock_left_text(ms)) for ms in values]


KIND_NAMES = RUN.replace("map((ms) => XQ.clock(ms))", "map((item) => XQ.kindName(item))")


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_pages_name_alerts_by_the_title_the_server_sends() -> None:
    """The words live in ``recorder.events.KIND_TITLES`` (the sheets print them too); the page keeps
    no copy, and spells out a code it gets no title for."""
    items = [{"kind": "illegal_move", "title": "Illegal move"}, {"reason": "perpetual_check", "title": "Perpetual check"},
             {"kind": "kind_from_a_later_version"}, {}]
    run = subprocess.run([str(NODE), "-e", KIND_NAMES, str(LIVE_JS), json.dumps(items)], capture_output=True,
                         text=True, timeout=60, check=True)
    assert json.loads(run.stdout) == ["Illegal move", "Perpetual check", "Kind from a later version", "Alert"]
    assert "Clock pressed without a move" not in LIVE_JS.read_text(encoding="utf-8")
