"""The ``ddzspec`` command's entry point: :func:`main` imports the CLI (:mod:`ddzspec.cli.group`,
whose imports take a few tenths of a second) under the same Ctrl-C rule as its commands, so an
interrupt during start-up prints ``ddzspec: interrupted`` and exits 130, never a traceback."""

from __future__ import annotations

import sys
from importlib import import_module

from .cli.exits import ExitCode


def main() -> None:
    """Run ``ddzspec`` (see :func:`ddzspec.cli.group.main`); exit 130 with one line on a Ctrl-C
    while the CLI is being imported."""
    try:
        cli = import_module("ddzspec.cli.group")
    except KeyboardInterrupt:
        sys.stderr.write("\nddzspec: interrupted\n")
        sys.exit(ExitCode.INTERRUPTED)
    cli.main()
