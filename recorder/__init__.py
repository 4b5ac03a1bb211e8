"""The runtime: frame sources, vision, observer, resolver, clock link, store, exports and the CLI."""
