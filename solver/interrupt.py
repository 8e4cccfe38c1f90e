"""A point where the interpreter gets its turn, for the compiled search.

Compiled by mypyc, the search never runs the interpreter's loop, which is where CPython
handles a pending signal (Ctrl-C raises :class:`KeyboardInterrupt` there) and hands the GIL
to another thread that asked for it (every 5 ms by default). So the search calls
:func:`checkpoint`, a function of this module, which stays interpreted (it is not among
``hatch_build.COMPILED_MODULES``), at each of its limit checks (every 256 nodes): entering it
runs the interpreter's check. Measured before: a compiled 3-seat search ignored Ctrl-C until
its time limit, and a thread solving held the GIL for its whole search (a web request waited
13.8 s); the pure-Python core already stopped at once.
"""

from __future__ import annotations


def checkpoint() -> None:
    """Nothing: calling it lets the interpreter handle pending signals (raising
    KeyboardInterrupt for Ctrl-C) and switch threads. Keep it interpreted."""
