"""Shared fixtures: a private table cache per test session, loaded rules files."""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("DDZSPEC_CACHE_DIR", tempfile.mkdtemp(prefix="ddzspec-test-cache-"))

from ddzspec.rules import Rules, load_rules
from ddzspec.table import MoveTable, get_table


@pytest.fixture(scope="session")
def classic() -> Rules:
    return load_rules("classic")


@pytest.fixture(scope="session")
def classic_table(classic: Rules) -> MoveTable:
    return get_table(classic)
