"""The ``ddzspec`` command's entry point: :func:`main` imports the CLI (:mod:`ddzspec.cli.group`,
whose imports take a few tenths of a second) under the same Ctrl-C rule as its commands, so an
interrupt during start-up prints ``ddzspec: interrupted`` and exits 130, never a traceback."""

from __future__ import annotations

import sys
from importlib import import_module

#: The exit code of an interrupted command (128 + SIGINT), as :mod:`ddzspec.cli` uses it.
EXIT_INTERRUPTED = 130


def main() -> None:
    """Run ``ddzspec`` (see :func:`ddzspec.cli.group.main`); exit 130 with one line on a Ctrl-C
    while the CLI is being imported."""
    try:
        cli = import_module("ddzspec.cli.group")
    except KeyboardInterrupt:
        sys.stderr.write("\nddzspec: interrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    cli.main()
