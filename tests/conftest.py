"""Shared fixtures: a private table cache per test session, loaded rules files, the command line
run in this process (``cli``)."""

from __future__ import annotations

import os
import signal
import tempfile
from collections.abc import Callable

import pytest
from click.testing import CliRunner

os.environ.setdefault("DDZSPEC_CACHE_DIR", tempfile.mkdtemp(prefix="ddzspec-test-cache-"))

# A suite started in the background by a shell without job control (`nohup … &`) inherits
# SIGINT ignored, and so would every program the Ctrl-C tests start: they would never see
# their ^C. Restore the normal handler here, so the children start with the default.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

from ddzspec.rules import Rules, load_rules
from ddzspec.table import MoveTable, get_table


@pytest.fixture(scope="session")
def classic() -> Rules:
    return load_rules("classic")


@pytest.fixture(scope="session")
def classic_table(classic: Rules) -> MoveTable:
    return get_table(classic)


class CliResult(tuple[int, str, str]):
    """A run of ``ddzspec``: unpacks as (exit code, stdout, stderr); ``output`` is what a
    terminal shows (both streams as written), ``shown`` the pair (exit code, output)."""

    output: str

    @property
    def shown(self) -> tuple[int, str]:
        return self[0], self.output

    @property
    def exit_code(self) -> int:
        return self[0]

    @property
    def stdout(self) -> str:
        return self[1]

    @property
    def stderr(self) -> str:
        return self[2]


def _invoke(*args: str, input: str | None = None) -> CliResult:
    from ddzspec.cli import main
    res = CliRunner().invoke(main, list(args), input=input)
    out = CliResult((res.exit_code, res.stdout, res.stderr))
    out.output = res.output
    assert "Traceback" not in res.output, res.output  # a located message, never a traceback
    return out


@pytest.fixture
def cli() -> Callable[..., CliResult]:
    """``cli("solve", "-", input=text)``: ``ddzspec`` with these arguments, in this process
    (click's CliRunner), its stdin ``input``; it never prints a traceback."""
    return _invoke
