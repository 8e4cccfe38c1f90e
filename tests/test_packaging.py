"""The grammar and rules files are found from a wheel installed outside the repo and from the
editable install (issue 2, Layout)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import ddzspec
from ddzspec._resources import data_dir

ROOT = Path(__file__).resolve().parent.parent


def test_editable_install_finds_grammar_and_rules() -> None:
    assert (data_dir("grammar") / "rules.lark").is_file()
    names = {p.stem for p in data_dir("rules").glob("*.rules")}
    assert {"classic", "kawu", "duel", "duel-literal"} <= names


@pytest.fixture(scope="module")
def wheel_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True)
    wheel = next(out.glob("ddzspec-*.whl"))
    site = out / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(site), str(wheel)], check=True, capture_output=True)
    return site


def test_wheel_installed_outside_the_repo_loads_everything(wheel_site: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(wheel_site)}
    code = ("import ddzspec, ddzspec._resources as r; from ddzspec.rules import load_rules, "
            "builtin_rules; print(ddzspec.__file__); print(r.data_dir('grammar')); "
            "[load_rules(n) for n in builtin_rules()]; print(sorted(builtin_rules()))")
    out = subprocess.run([sys.executable, "-c", code], cwd="/", env=env, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[0].startswith(str(wheel_site)), out
    assert out[1] == str(wheel_site / "ddzspec" / "_data" / "grammar")
    assert "classic" in out[2] and "duel" in out[2]
    res = subprocess.run([sys.executable, "-m", "ddzspec", "read", "--notation", "de",
                          "kleiner Joker großer Joker"], cwd="/", env=env, capture_output=True,
                         text=True, check=True)
    assert "rocket" in res.stdout
    assert ddzspec.__file__ != out[0]
