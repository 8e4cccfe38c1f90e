"""The grammar and rules files and the solver are found from a wheel installed outside the repo
and from the editable install; the wheel installs only ``ddzspec*`` names
(``solver`` alone is another project's name)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import ddzspec
from ddzspec._resources import data_dir

ROOT = Path(__file__).resolve().parent.parent


def test_editable_install_finds_grammar_and_rules() -> None:
    assert (data_dir("grammar") / "rules.lark").is_file()
    names = {p.stem for p in data_dir("rules").glob("*.rules")}
    assert {"classic", "kawu", "duel", "duel-literal", "happy", "hebei"} <= names


def test_the_solver_is_ddzspec_solver_from_the_top_level_folder() -> None:
    import ddzspec.solver.cli
    import ddzspec.solver.search
    # in the source tree (editable install) its modules are the repository's solver/ folder
    assert Path(ddzspec.solver.search.__file__) == ROOT / "solver" / "search.py"
    assert ddzspec.solver.solve is ddzspec.solver.search.solve
    assert not (ROOT / "solver" / "__init__.py").exists()  # no top-level package "solver"


@pytest.fixture(scope="module")
def wheel_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # the pure wheel (the compiled solver core, built by hatch_build.py, is tested in
    # tests/solver/test_compiled.py: the compile takes ~20 s)
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out),
                    str(ROOT)], check=True, capture_output=True,
                   env={**os.environ, "DDZSPEC_PURE_PYTHON": "1"})
    return next(out.glob("ddzspec-*.whl"))


@pytest.fixture(scope="module")
def wheel_site(wheel_file: Path) -> Path:
    site = wheel_file.parent / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                    str(site), str(wheel_file)], check=True, capture_output=True)
    return site


def test_the_wheel_installs_only_ddzspec_names(wheel_file: Path) -> None:
    with zipfile.ZipFile(wheel_file) as z:
        names = z.namelist()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"ddzspec", f"ddzspec-{ddzspec.__version__}.dist-info"}, tops
    solver = sorted(n for n in names if n.startswith("ddzspec/solver/"))
    assert solver == [f"ddzspec/solver/{m}.py"
                      for m in ("__init__", "cli", "interrupt", "movegen", "position", "search",
                                "split", "wildgen")]
    for data in ("ddzspec/_data/grammar/position.lark", "ddzspec/_data/rules/classic.rules",
                 "ddzspec/_data/rules/happy.rules", "ddzspec/_data/rules/hebei.rules",
                 "ddzspec/py.typed", "ddzspec/web/static/index.html",
                 "ddzspec/web/static/app.js", "ddzspec/web/static/style.css"):
        assert data in names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    with zipfile.ZipFile(wheel_file) as z:
        entry_points = z.read(f"ddzspec-{ddzspec.__version__}.dist-info/entry_points.txt")
    assert b"ddzspec = ddzspec._entry:main" in entry_points and b"solver" not in entry_points


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


def test_the_puzzles_load_from_the_wheel_outside_the_repo(wheel_site: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(wheel_site)}
    code = ("from ddzspec.puzzles import builtin_puzzles as b; import ddzspec.puzzles.catalogue as "
            "m; print(m.__file__); print(len(b()), b()[0].id)")
    out = subprocess.run([sys.executable, "-c", code], cwd="/", env=env, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out == [str(wheel_site / "ddzspec" / "puzzles" / "catalogue.py"), "26 DDZ2-14"]
    assert (wheel_site / "ddzspec" / "data" / "puzzles.jsonl").is_file()


def test_solve_works_from_the_wheel_outside_the_repo(wheel_site: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(wheel_site)}
    code = "import ddzspec.solver.search as s; print(s.__file__)"
    out = subprocess.run([sys.executable, "-c", code], cwd="/", env=env, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out == [str(wheel_site / "ddzspec" / "solver" / "search.py")]
    assert sorted(p.name for p in wheel_site.iterdir() if not p.name.endswith(".dist-info")) \
        == ["bin", "ddzspec"]
    args = ["solve", "--landlord", "QQTT", "--peasant", "A3", "--to-move", "landlord", "--all"]
    for command in ([sys.executable, "-m", "ddzspec"], [str(wheel_site / "bin" / "ddzspec")]):
        res = subprocess.run([*command, *args], cwd="/", env=env, capture_output=True,
                             text=True, check=True)
        assert res.stdout.splitlines()[:2] == ["winner: landlord (landlord, to move, wins)",
                                               "winning moves: TT, QQ"], res.stdout
    res = subprocess.run([sys.executable, "-m", "ddzspec", "solve", "--help"], cwd="/",
                         env=env, capture_output=True, text=True, check=True)
    grammar = wheel_site / "ddzspec" / "_data" / "grammar" / "position.lark"
    assert f"Full grammar: {grammar}" in res.stdout and grammar.is_file()


def test_the_main_names_come_from_the_package_root_and_import_ddzspec_stays_cheap() -> None:
    from ddzspec import Cards, GameState, legal_moves, load_rules, read
    from ddzspec.game import GameState as G
    from ddzspec.moves import legal_moves as lm
    assert GameState is G and legal_moves is lm
    rules = load_rules("classic")
    assert read("KKK+3", rules).reading.shape == "trio_single"
    assert isinstance(read("BR", rules).cards, Cards)
    assert sorted(ddzspec.__all__) == ddzspec.__all__ and "__version__" in ddzspec.__all__
    for name in ddzspec.__all__:
        assert getattr(ddzspec, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = ddzspec.nope  # type: ignore[attr-defined]
    # the version is the distribution's (pyproject reads it from ddzspec/__init__.py)
    from importlib.metadata import version
    assert version("ddzspec") == ddzspec.__version__
    code = ("import sys, ddzspec; print(sorted(m for m in sys.modules if m.startswith("
            "('ddzspec', 'lark', 'click', 'constraint'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "['ddzspec', 'ddzspec.errors']"


def test_nothing_imports_the_solver_by_its_folder_name() -> None:
    # "solver" is not an installed name (another project's): import ddzspec.solver instead;
    # relative imports inside solver/ are fine
    pattern = re.compile(r"^\s*(from solver\b|import solver\b)", re.MULTILINE)
    offenders = [str(p.relative_to(ROOT)) for folder in ("ddzspec", "solver", "tests", "bench")
                 for p in (ROOT / folder).rglob("*.py") if pattern.search(p.read_text("utf-8"))]
    assert offenders == []
