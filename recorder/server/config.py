"""The console server's settings: where it listens and the arbiter's password, from the config file.

The config file is TOML (``$XDG_CONFIG_HOME/xiangqi-recorder/config.toml`` unless named); the
server reads its ``[serve]`` table::

    [serve]
    password = "a long phrase"   # the console is the arbiter's; required off loopback
    realm = "xqrec arbiter"      # optional: the name browsers show when asking for it
    proxy = false                # optional: true behind a TLS proxy on this machine

With a password set the console, its data and the arbiter's actions need it; the spectators' page
and the broadcast feed never do. Listening on anything but loopback without a password is refused:
anyone on the hall's network could otherwise change a game's record. Behind a proxy every request
comes from the proxy's address, so ten wrong passwords from one spectator would lock every arbiter
out: with ``proxy = true`` the client is the address the proxy appends to ``X-Forwarded-For``
(taken only from a proxy on loopback).
"""

from __future__ import annotations

import ipaddress
import logging
import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

APP_DIR = "xiangqi-recorder"
MIN_PASSWORD = 8


def default_config_path() -> Path:
    """``$XDG_CONFIG_HOME/xiangqi-recorder/config.toml`` (``~/.config/...`` when unset)."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / APP_DIR / "config.toml"


@dataclass(frozen=True)
class ServeConfig:
    """The ``[serve]`` table: ``password`` (empty: none set), the auth ``realm`` and whether a
    ``proxy`` on this machine names the clients."""

    password: str = ""
    realm: str = "xqrec arbiter"
    source: str = ""  # the file it was read from, for messages
    proxy: bool = False


def _text(table: dict[str, Any], key: str, default: str) -> str:
    value = table.get(key, default)
    if not isinstance(value, str):
        raise ValueError(f"config serve.{key}: expected text, got {type(value).__name__}")
    return value


def load_serve_config(path: str | Path | None = None) -> ServeConfig:
    """Read ``[serve]`` from ``path`` (default :func:`default_config_path`); a missing default file
    gives the defaults, a missing named file is an error. Errors name the key path."""
    target = Path(path) if path is not None else default_config_path()
    if not target.exists():
        if path is not None:
            raise ValueError(f"config file {target} not found")
        return ServeConfig()
    try:
        data = tomllib.loads(target.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise ValueError(f"config file {target}: {error}") from None
    table = data.get("serve", {})
    if not isinstance(table, dict):
        raise ValueError(f"config {target}: serve must be a table")
    unknown = sorted(set(table) - {"password", "realm", "proxy"})
    if unknown:
        raise ValueError(f"config {target}: unknown key serve.{unknown[0]} (known: password, realm, proxy)")
    proxy = table.get("proxy", False)
    if not isinstance(proxy, bool):
        raise ValueError(f"config {target}: serve.proxy must be true or false")
    password = _text(table, "password", "")
    if password and len(password.strip()) < MIN_PASSWORD:  # eight spaces are no password
        raise ValueError(f"config {target}: serve.password must have at least {MIN_PASSWORD} characters "
                         "besides spaces")
    realm = _text(table, "realm", "xqrec arbiter")
    if not realm or len(realm) > 80 or '"' in realm:
        raise ValueError(f"config {target}: serve.realm must be 1-80 characters without quotes")
    return ServeConfig(password, realm, str(target), proxy)


def is_loopback(host: str) -> bool:
    """Whether ``host`` only listens on this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, config: ServeConfig) -> None:
    """Refuse (``ValueError``) to listen off loopback when no password is set."""
    if not is_loopback(host) and not config.password:
        where = config.source or str(default_config_path())
        raise ValueError(
            f"refusing to listen on {host} without a password: anyone on the network could act as the "
            f"arbiter. Set one in {where}:\n  [serve]\n  password = \"...\"\n"
            f"or listen on 127.0.0.1 (the default)")
