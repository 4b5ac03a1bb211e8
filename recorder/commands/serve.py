"""``xqrec serve``: the live arbiter console and broadcast feed over the game store."""

from __future__ import annotations

import argparse
import contextlib
import errno
import logging
import os
import sys
from pathlib import Path

from recorder.commands.games import add_db_argument

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("serve", help="the arbiter console and broadcast feed (local web server)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; any other needs serve.password in the config)")
    parser.add_argument("--port", type=int, default=8080, help="port (default 8080; 0 picks a free one)")
    parser.add_argument("--config", type=Path,
                        help="config file (default $XDG_CONFIG_HOME/xiangqi-recorder/config.toml)")
    add_db_argument(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from recorder.server import ConsoleServer, check_bind, load_serve_config
    from recorder.store import default_db_path

    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0-65535, not {args.port}")
    config = load_serve_config(args.config)
    check_bind(args.host, config)
    db = args.db or default_db_path()
    if not args.db:  # the default store's folder is ours to make, as a recorder makes it (a fresh machine)
        Path(db).parent.mkdir(parents=True, exist_ok=True)
    if not Path(db).parent.is_dir():
        raise ValueError(f"no folder {Path(db).parent} for the game store {Path(db).name}: create it first "
                         "(or is the drive not mounted?)")
    fresh = not Path(db).exists()
    try:
        server = ConsoleServer((args.host, args.port), db, config)
    except OSError as error:
        if fresh:  # no console came of it: no empty store left behind (a tester's busy port left one)
            for suffix in ("", "-wal", "-shm"):
                with contextlib.suppress(OSError):
                    os.remove(f"{db}{suffix}")
        if error.errno == errno.EADDRINUSE:
            raise ValueError(f"port {args.port} on {args.host} is already in use (another xqrec serve, or another "
                             "program): give another --port") from None
        raise
    if fresh:
        print(f"note: there was no game store at {db}: it is made now, and the console stays empty until a "
              "recorder records into it (check the path if you meant an existing store)", file=sys.stderr)
    print(f"arbiter console on {server.url}/  (store {db}; broadcast {server.url}/broadcast/live.pgn)",
          flush=True)
    if args.host in ("0.0.0.0", "::", ""):
        address = _lan_address()
        if address:
            print(f"from other machines on the network: http://{address}:{server.server_address[1]}/", flush=True)
    if not config.password:
        print("no serve.password in the config: the arbiter's actions only ask for a name", flush=True)
    try:
        server.serve_forever(poll_interval=0.25)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _lan_address() -> str | None:
    """This machine's address on its network (the one its default route leaves by), if any."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent (UDP, no packet)
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address
