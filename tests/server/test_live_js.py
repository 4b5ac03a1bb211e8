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


STALLED = """
const stub = {getItem: () => null, setItem: () => {}};
let now = 1000000;
const ticks = [];
const opened = [];
class EventSource {
  constructor(url) { this.url = url; this.handlers = {}; this.closed = false; opened.push(this); }
  addEventListener(kind, handler) { this.handlers[kind] = handler; }
  close() { this.closed = true; }
}
Object.assign(globalThis, {localStorage: stub, sessionStorage: stub, window: {}, EventSource,
                           document: {addEventListener: () => {}, body: {dataset: {}}},
                           setInterval: (fn) => ticks.push(fn)});
Date.now = () => now;
const XQ = new Function(require("fs").readFileSync(process.argv[1], "utf8") + "\\nreturn XQ;")();
const said = [];
XQ.stream("7", () => {}, (ok) => said.push(ok));
const first = opened[0];
first.onopen();
first.handlers.game({lastEventId: "12", data: "{}"});
const run = (seconds) => { for (let s = 0; s < seconds; s += 5) { now += 5000; ticks.forEach((fn) => fn()); } };
run(30);
first.handlers.ping();  // the server's ping every 15 s: still live
run(35);
const stillOne = opened.length;
run(10);  // then nothing for over 40 s: a stalled server
console.log(JSON.stringify({stillOne, said, urls: opened.map((s) => s.url), closed: first.closed}));
"""


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_a_stream_the_server_stopped_answering_is_not_live_and_is_opened_again() -> None:
    # a tester stopped the server (kill -STOP) for a minute: the console still said "live"
    run = subprocess.run([str(NODE), "-e", STALLED, str(LIVE_JS)], capture_output=True, text=True, timeout=60,
                         check=True)
    seen = json.loads(run.stdout)
    assert seen["stillOne"] == 1 and seen["said"][:2] == [True, True] and seen["said"][-1] is False
    assert seen["closed"] and seen["urls"] == ["/api/events?since=7", "/api/events?since=12"]
