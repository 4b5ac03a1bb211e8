"""The live arbiter console and broadcast feed (``xqrec serve``): a local web server over the game store.

Standard library only (``http.server``): the page is static HTML, CSS and JavaScript shipped with
the package, the board is drawn as SVG in the browser, live updates go out as Server-Sent Events.
"""

from recorder.server.app import ConsoleServer
from recorder.server.config import ServeConfig, check_bind, is_loopback, load_serve_config

__all__ = ["ConsoleServer", "ServeConfig", "check_bind", "is_loopback", "load_serve_config"]
