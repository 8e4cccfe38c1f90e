"""The exit codes of every ``ddzspec`` command, in one place. It imports nothing but
:mod:`enum`, so the entry point can use it before the (slower) command line is loaded."""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What a ``ddzspec`` command's exit status means (``ddzspec --help`` lists them).

    >>> int(ExitCode.INTERRUPTED), int(ExitCode.CLOSED_PIPE)
    (130, 141)
    """

    #: The command did what was asked (solved, nothing differs, no ambiguous move).
    DONE = 0
    #: A finding: ambiguous moves, a difference, an invalid record action, a batch answer
    #: differing from the expected one, a puzzle whose answer is wrong.
    FINDING = 1
    #: Bad input: a usage error, a file that cannot be read, a notation or rules error.
    BAD_INPUT = 2
    #: Unknown: a solver limit stopped the search.
    UNKNOWN = 3
    #: The output could not be written (a full disk): sysexits' EX_IOERR.
    OUTPUT_FAILED = 74
    #: Interrupted by Ctrl-C: 128 + SIGINT, as shells report it.
    INTERRUPTED = 130
    #: Standard output was a closed pipe (``| head``): 128 + SIGPIPE; no message.
    CLOSED_PIPE = 141
