"""Shared fixtures: a private table cache per test session, loaded rules files, the command line
run in this process (``cli``); and, before any test runs, what the selected tests need from the
machine beyond pip's packages (tests/preflight.py: Chromium, a C compiler, the Python headers)."""

from __future__ import annotations

import importlib.util
import os
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

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

# tests/support: the helpers a worker process imports by name (a task's function), here and
# in the processes the tests start (PYTHONPATH)
SUPPORT = str(Path(__file__).with_name("support"))
sys.path.insert(0, SUPPORT)
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [SUPPORT, os.environ.get("PYTHONPATH")]))


def _load_preflight() -> Any:
    """tests/preflight.py as the module ``ddzspec_tests_preflight`` (the suite imports in
    importlib mode: tests/ is not on sys.path); tests/test_preflight.py takes it from there."""
    spec = importlib.util.spec_from_file_location("ddzspec_tests_preflight",
                                                  Path(__file__).with_name("preflight.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # where its dataclass looks itself up
    spec.loader.exec_module(module)
    return module


preflight = _load_preflight()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "needs(*what): the tests need these from the machine "
                            "(chromium, cc, python-headers): tests/preflight.py")


def pytest_collection_finish(session: pytest.Session) -> None:
    """Bring what the selected tests need (or stop in one line) before the first test runs."""
    if session.config.option.collectonly or not session.items:
        return
    needed = [n for item in session.items for m in item.iter_markers("needs") for n in m.args]
    if not needed:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    say = reporter.write_line if reporter is not None else print
    stop = preflight.preflight(needed, say=say)
    if stop is not None:
        pytest.exit(stop, returncode=pytest.ExitCode.USAGE_ERROR)


@pytest.fixture(scope="session")
def classic() -> Rules:
    return load_rules("classic")


@pytest.fixture(scope="session")
def classic_table(classic: Rules) -> MoveTable:
    return get_table(classic)


class CliResult(tuple[int, str, str]):
    """A run of ``ddzspec``: unpacks as (exit code, stdout, stderr); ``output`` is what a
    terminal shows (both streams as written), ``shown`` the pair (exit code, output);
    ``exception`` what ended the run (None, the SystemExit of an exit code, or an error)."""

    output: str
    exception: BaseException | None

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
    from ddzspec.cli.group import main
    res = CliRunner().invoke(main, list(args), input=input)
    out = CliResult((res.exit_code, res.stdout, res.stderr))
    out.output = res.output
    out.exception = res.exception
    assert "Traceback" not in res.output, res.output  # a located message, never a traceback
    return out


@pytest.fixture
def cli() -> Callable[..., CliResult]:
    """``cli("solve", "-", input=text)``: ``ddzspec`` with these arguments, in this process
    (click's CliRunner), its stdin ``input``; it never prints a traceback."""
    return _invoke
