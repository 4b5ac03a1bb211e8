"""The game clock link: protocol parsers, the serial link with reconnect, a keyboard clock, an emulator.

A clock reports times per *physical* side (``left``/``right`` as seen facing the clock's display);
:class:`~recorder.clock.presses.PressTracker` maps them to red/black and turns reports into
:class:`~recorder.clocklog_input.ClockPress` values (the same type the clock log gives) and
:class:`~recorder.clock.model.ClockNotice` link-state notices. See ``docs/clock-protocol.md``.
"""
