"""Clock link figures: parser throughput, press latency over a pty, presses kept and invented on a noisy line.

``python -m bench clock``. Latency is the link's host stamp minus the emulator's press moment (both on
the monotonic clock), over a real pty pair. On a noisy line a DGT message has no checksum, so a damaged
byte can still read as a press: the "invented" column counts them.
"""

from __future__ import annotations

import os
import random
import statistics
import threading
import time

from recorder.clock import dgt
from recorder.clock.link import SerialClockLink
from recorder.clock.model import LEFT, RIGHT, ClockReading
from recorder.clock.protocols import make_protocol
from recorder.clock.sim import ClockSim, ScriptEvent, open_pty, serve
from recorder.clock.text import TextMessage, TextParser, format_line
from recorder.clocklog_input import ClockPress


def _throughput() -> None:
    rng = random.Random(1)
    dgt_stream = b"".join(dgt.encode_time(ClockReading(rng.randrange(36_000) * 1000, rng.randrange(36_000) * 1000,
                                                       True, LEFT, RIGHT)) for _ in range(100_000))
    text_stream = b"".join(format_line(TextMessage(n % 65536, "T", LEFT, n * 7, n * 5)) for n in range(40_000))
    for name, stream, parser in (("dgt", dgt_stream, dgt.DgtParser()), ("text", text_stream, TextParser())):
        started = time.perf_counter()
        count = sum(len(parser.feed(stream[i:i + 4096])) for i in range(0, len(stream), 4096))
        spent = time.perf_counter() - started
        print(f"parser {name:4}: {len(stream) / spent / 1e6:6.2f} MB/s, {count / spent:9.0f} messages/s "
              f"({len(stream)} bytes; 9600 baud is 960 B/s)")


def _run(protocol: str, presses: int, gap_s: float, noise: float, seed: int) -> tuple[list[ClockPress], ClockSim]:
    sim = ClockSim(protocol, 600_000, 0, noise=noise, drop=noise, seed=seed)
    script = [ScriptEvent(0.3 + gap_s * k, LEFT if k % 2 == 0 else RIGHT) for k in range(presses)]
    master, slave, path = open_pty()
    thread = threading.Thread(target=serve, args=(sim, master, script),
                              kwargs={"wait_host": True, "duration": 0.3 + gap_s * presses + 1.2}, daemon=True)
    thread.start()
    link = SerialClockLink(path, make_protocol(protocol), silence_s=1.0, answer_s=0.5).start()
    thread.join()
    link.stop()
    os.close(master)
    os.close(slave)
    got = []
    while not link.items.empty():
        item = link.items.get_nowait()
        if isinstance(item, ClockPress):
            got.append(item)
    return got, sim


def _latency() -> None:
    for protocol in ("dgt", "text"):
        got, sim = _run(protocol, 20, 0.15, 0.0, 0)
        delays = [1000 * (p.t - s[0]) for p, s in zip(got, sim.pressed, strict=False)]
        print(f"latency {protocol:4}: {len(got)}/{len(sim.pressed)} presses, mean {statistics.mean(delays):5.1f} ms, "
              f"max {max(delays):5.1f} ms (pty, emulator loop 20 ms)")


def _noise() -> None:
    print("noisy line (rate of bytes changed = rate dropped), 30 presses 0.12 s apart, 3 seeds:")
    print(f"{'protocol':>8} {'rate':>6} {'kept':>6} {'invented':>9}")
    for protocol in ("dgt", "text"):
        for rate in (0.001, 0.005, 0.02):
            kept = invented = total = 0
            for seed in range(3):
                got, sim = _run(protocol, 30, 0.12, rate, seed)
                total += len(sim.pressed)
                matched = {min(range(len(sim.pressed)), key=lambda i: abs(sim.pressed[i][0] - p.t)) for p in got}
                kept += len(matched)
                invented += len(got) - len(matched)
            print(f"{protocol:>8} {rate:6.3f} {kept:>3}/{total:<3} {invented:>8}")


def main() -> None:
    _throughput()
    _latency()
    _noise()


if __name__ == "__main__":
    main()
