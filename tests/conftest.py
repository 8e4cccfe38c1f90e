"""Shared fixtures: a private table cache per test session, loaded rules files."""

from __future__ import annotations

import os
import signal
import tempfile

import pytest

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
