"""One module per ``xqrec`` sub-command; each exposes ``register(subparsers)``."""
