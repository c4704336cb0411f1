"""The USB-serial die reader: protocol and parser (pure), serial link (thread), Qt adapter
and widgets, and the mapping from a face number to an engine action.

Only ``qt_adapter`` and ``widgets`` import Qt; ``protocol`` and ``mapping`` import neither
Qt nor serial, so the engine's tests and the benchmark can use them anywhere.
The wire format is described in ``docs/die-protocol.md``.
"""
