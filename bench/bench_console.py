"""The live console's latency and cost on a full hall: 40 boards of 100 plies in one store.

Figures: the time for ``/api/games`` (what a page loads first), on the first load after the
server starts and then on later ones, which replay only the games whose events changed; and for
events appended to the store by a separate writer, the delay until each arrives on an open
Server-Sent Events stream (the server polls the store every 100 ms, so about 50 ms on average is
the floor).
"""

from __future__ import annotations

import json
import socket
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from recorder.events import ClockPressed, MoveRecorded, RecordingStarted
from recorder.server import ConsoleServer, ServeConfig
from recorder.store import GameInfo, GameStore
from rules import Position, format_move

BOARDS, PLIES, EVENTS = 40, 100, 60


def _fill(db: Path) -> list[int]:
    """``BOARDS`` games of ``PLIES`` plies (a seeded walk through legal moves), with clock presses."""
    import random

    rng = random.Random(7)
    ids = []
    with GameStore(db) as store:
        for board in range(1, BOARDS + 1):
            game = store.create_game(f"camera-{board}", GameInfo(event="Bench", round="1", board=board))
            store.append(game, RecordingStarted(0.0, f"camera-{board}", Position.start().fen()))
            position, t = Position.start(), 0.0
            for ply in range(1, PLIES + 1):
                moves = position.legal_moves()
                if not moves:
                    break
                move = rng.choice(moves)
                after = position.play(move)
                t += 20
                store.append(game, MoveRecorded(t, ply, move.iccs, format_move(position, move, "chinese"),
                                                position.side_to_move, after.fen(), 0.99))
                store.append(game, ClockPressed(t + 0.2, position.side_to_move, 5_000_000, 5_000_000, ply))
                position = after
            ids.append(game)
    return ids


def _listen(url: str, count: int, arrived: dict[tuple[int, int], float], ready: threading.Event) -> None:
    host, port = url.split("//")[1].split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        ready.set()
        buffer = b""
        while len(arrived) < count:
            buffer += sock.recv(1 << 20)
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                for line in block.decode().splitlines():
                    if line.startswith("data: "):
                        data = json.loads(line[6:])
                        arrived[(data["game"], data["seq"])] = time.perf_counter()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "bench.sqlite3"
        started = time.perf_counter()
        games = _fill(db)
        print(f"store: {len(games)} games x {PLIES} plies written in {time.perf_counter() - started:.1f} s")
        server = ConsoleServer(("127.0.0.1", 0), db, ServeConfig())
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            loads = []
            for _ in range(5):
                t0 = time.perf_counter()
                with urllib.request.urlopen(server.url + "/api/games", timeout=30) as reply:
                    size = len(reply.read())
                loads.append(time.perf_counter() - t0)
            # the first load replays every game; later ones replay only the games that changed
            print(f"/api/games ({BOARDS} boards): first {loads[0] * 1000:.0f} ms, then median "
                  f"{statistics.median(loads[1:]) * 1000:.0f} ms, {size / 1e6:.1f} MB")
            arrived: dict[tuple[int, int], float] = {}
            ready = threading.Event()
            listener = threading.Thread(target=_listen, args=(server.url, EVENTS, arrived, ready), daemon=True)
            listener.start()
            ready.wait(5)
            time.sleep(0.3)
            sent: dict[tuple[int, int], float] = {}
            with GameStore(db) as store:
                for number in range(EVENTS):
                    game = games[number % len(games)]
                    seq = store.append(game, ClockPressed(10_000.0 + number, "red", 4_000_000, 4_000_000, None))
                    sent[(game, seq)] = time.perf_counter()
                    time.sleep(0.05)
            listener.join(10)
            delays = sorted((arrived[s] - t) * 1000 for s, t in sent.items() if s in arrived)
            print(f"store append -> SSE message ({len(delays)}/{EVENTS} events, 20 per s over {BOARDS} boards): "
                  f"median {statistics.median(delays):.0f} ms, p95 {delays[int(0.95 * (len(delays) - 1))]:.0f} ms, "
                  f"max {delays[-1]:.0f} ms")
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    main()
