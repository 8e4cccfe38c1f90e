"""The compiled solver core gives the pure solver's answers (a compiled core keeps one
source of truth, the Python modules; CI tests both, with identical answers).

The suite runs on an editable install (pure modules), so the module fixture builds the mypyc
extension modules itself with ``hatch_build.build_compiled`` (what ``pip install .`` puts into
the wheel), once, into a temporary folder. The same worker (this file run as a script) then
solves the same positions twice, each in a fresh interpreter: once pure, once with the compiled
``ddzspec.solver.search``/``movegen`` (and mypyc's shared library) imported first through a
meta-path finder; the two answer lists must be equal, nodes included. The positions: every
puzzle of tests/data/puzzles/two_seat.jsonl (``want="all"``, and ``"score"`` on a few), the
pinned 15 v 15 deals of tests/solver/test_deals_pinned.py (three also with small tables: the compact
table replacing entries), the 3-seat puzzles shipped with ddzspec,
a puzzle played through :class:`ddzspec.puzzles.PuzzleGame` (the ``Searcher``/
``budget``/``Aborted`` use) and a few laizi positions (the wild moves' hook). No skip:
without a C compiler the test fails and says so (``.ci/run``
installs one).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ddzspec.cards import parse_cards

ROOT = Path(__file__).resolve().parents[2]
#: the tests that build the compiled core (tests/preflight.py brings these before they run)
NEEDS_COMPILER = pytest.mark.needs("cc", "python-headers")
PUZZLES = ROOT / "tests" / "data" / "puzzles" / "two_seat.jsonl"
#: two-seat puzzles also solved for the exact score
SCORED = ("DDZ2-01", "DDZ2-02", "DDZ2-05", "DDZ2-15")
#: the shipped puzzle played through PuzzleGame to the end (the hint against perfect defence)
PLAYED = ("DDZ2-15", "DDZ3-02")


def multisets(moves: list[str]) -> list[object]:
    """Moves as comparable multisets (the puzzles write 8883 where the solver writes 888+3)."""
    return sorted(("PASS",) if m == "PASS" else parse_cards(m).cards.counts for m in moves)


def _load(path: Path) -> Any:
    """The module of the file ``path`` (the suite imports in importlib mode: neither the
    repository nor tests/ is on sys.path)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _worker(compiled: list[Path] | None) -> subprocess.Popen[str]:
    """This file run as a script in a fresh interpreter: the answers as one JSON line."""
    args = [sys.executable, str(Path(__file__).resolve()), *(str(p) for p in compiled or [])]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _answers(proc: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-3000:]
    result: dict[str, Any] = json.loads(out.splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def both(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any],
                                                            list[Path]]:
    """(pure answers, compiled answers, the built extension files); the pure worker runs while
    mypyc compiles."""
    hook = _load(ROOT / "hatch_build.py")
    pure = _worker(None)
    try:
        built = hook.build_compiled(ROOT, tmp_path_factory.mktemp("mypyc"))
    except hook.CompileError as e:
        pure.kill()
        pure.communicate()
        pytest.fail(f"the compiled solver core could not be built: {e} (the test needs mypy, "
                    "setuptools and a C compiler: the test session installs gcc when cc is "
                    "missing)")
    return _answers(pure), _answers(_worker(built)), built


@NEEDS_COMPILER
def test_the_compiled_modules_are_the_ones_imported(
        both: tuple[dict[str, Any], dict[str, Any], list[Path]]) -> None:
    pure, compiled, built = both
    assert [p.name.split(".")[0] for p in built] == ["search", "movegen", "_core__mypyc"]
    assert compiled["files"] == {
        "ddzspec.solver.search": str(built[0]), "ddzspec.solver.movegen": str(built[1]),
        "ddzspec.solver._core__mypyc": str(built[2])}
    assert compiled["function types"] == ["builtin_function_or_method"] * 2
    assert pure["function types"] == ["function"] * 2
    assert compiled["COMPILED"] is True and pure["COMPILED"] is False
    assert pure["files"]["ddzspec.solver.search"] == str(ROOT / "solver" / "search.py")
    assert pure["files"]["ddzspec.solver._core__mypyc"] is None
    assert compiled["help"] == "Solver core: compiled (mypyc)"
    assert pure["help"] == "Solver core: pure Python"


@NEEDS_COMPILER
@pytest.mark.parametrize("part", ["two_seat", "scored", "deals", "three_seat", "played",
                                  "split", "wild"])
def test_compiled_and_pure_answers_are_identical(
        both: tuple[dict[str, Any], dict[str, Any], list[Path]], part: str) -> None:
    pure, compiled, _ = both
    assert pure[part], part  # something was solved
    assert compiled[part] == pure[part]


@NEEDS_COMPILER
def test_both_cores_answer_ctrl_c_and_share_the_interpreter_during_a_search(
        both: tuple[dict[str, Any], dict[str, Any], list[Path]]) -> None:
    """Compiled, the search runs no interpreter loop, where Python handles Ctrl-C and hands
    the GIL to other threads; it calls an interpreted checkpoint every 256 nodes
    (solver/interrupt.py). Before, a compiled search ignored Ctrl-C until its time limit (20 s
    here) and held the GIL for its whole search (2 s here; a web request waited 13.8 s)."""
    for core in both[:2]:
        got = core["responsive"]
        assert 0.3 <= got["interrupted after"] < 3.0, got
        assert got["longest gap"] < 1.0, got


@NEEDS_COMPILER
def test_the_answers_are_the_published_ones(
        both: tuple[dict[str, Any], dict[str, Any], list[Path]]) -> None:
    # the compiled answers are also the pinned ones, not merely the pure solver's
    _, compiled, _ = both
    records = [json.loads(line) for line in PUZZLES.read_text("utf-8").splitlines()]
    assert len(compiled["two_seat"]) == len(records) == 21
    for rec in records:
        got = compiled["two_seat"][rec["id"]]
        assert {"landlord": "first", "peasants": "second"}[got["winner"]] == rec["winner"]
        assert multisets(got["winning_moves"]) == multisets(rec["winning_moves"])
    deals = _load(ROOT / "tests" / "solver" / "test_deals_pinned.py")
    n = len(deals.DEALS)
    assert [(d["winner"], tuple(d["winning_moves"])) for d in compiled["deals"][:n]] \
        == [(winner, moves) for _, _, winner, moves in deals.DEALS]
    assert [d["winner"] for d in compiled["deals"][2 * n:]] \
        == [winner for _, _, winner in deals.VERDICTS]
    # the hint wins each game; DDZ2-15 by hand: TT (or QQ), the peasant passes, QQ (TT)
    assert [compiled["played"][i]["winner"] for i in PLAYED] == ["landlord", "landlord"]
    assert compiled["played"]["DDZ2-15"]["history"] in (
        [["landlord", a], ["peasant", "PASS"], ["landlord", b]] for a, b in (("TT", "QQ"),
                                                                             ("QQ", "TT")))


class _App:
    """hatchling's application, as the hook sees it: the messages it displays."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, str]] = []

    def display_info(self, message: str) -> None:
        self.messages.append(("info", message))

    def display_warning(self, message: str) -> None:
        self.messages.append(("warning", message))


def _run_hook(version: str, built: list[Path] | Exception | None = None
              ) -> tuple[dict[str, Any], list[tuple[str, str]], Path | None, bool]:
    """The hook's build data and messages for a ``version`` wheel, its scratch folder and
    whether that folder was there until the wheel was written; ``built``: the files
    ``build_compiled`` returns (or the error it raises) instead of compiling."""
    hook = _load(ROOT / "hatch_build.py")  # a fresh module: replacing its function is local

    def build(root: Path, work: Path) -> list[Path]:
        if isinstance(built, Exception):
            raise built
        assert built is not None
        return built

    if built is not None:
        hook.build_compiled = build
    app = _App()
    plugin = hook.SolverCoreBuildHook(str(ROOT), {}, None, None, "", "wheel", app=app)
    data: dict[str, Any] = {"force_include": {}, "pure_python": True, "infer_tag": False}
    plugin.initialize(version, data)
    work = plugin._work
    kept = work is not None and work.is_dir()
    plugin.finalize(version, data, "")
    assert work is None or not work.exists()  # removed once the wheel is written
    return data, app.messages, work, kept


PURE_DATA = {"force_include": {}, "pure_python": True, "infer_tag": False}


def test_the_hook_keeps_editable_and_forced_pure_wheels_pure(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DDZSPEC_PURE_PYTHON", raising=False)
    assert _run_hook("editable") == (PURE_DATA, [], None, False)
    monkeypatch.setenv("DDZSPEC_PURE_PYTHON", "1")
    assert _run_hook("standard") == (PURE_DATA, [("info", "ddzspec: DDZSPEC_PURE_PYTHON is "
                                                  "set: installing the pure-Python solver")],
                                     None, False)
    # "false", "no", "off", "0" or empty do not force it (tester 5): the compile is tried
    for value in ("false", "No", "off", "0", ""):
        monkeypatch.setenv("DDZSPEC_PURE_PYTHON", value)
        monkeypatch.setenv("CC", "/nonexistent/cc")  # tried, then the fallback's warning
        _, messages, _, _ = _run_hook("standard")
        assert [kind for kind, _ in messages] == ["warning"]


def test_a_long_compile_error_is_cut_at_a_word() -> None:
    hook = _load(ROOT / "hatch_build.py")
    line = hook._last_error_line("gcc " + "-Iinclude/path " * 40 + "\n")
    assert len(line) <= 300 and line.endswith(" ...") and " -Iinclude/path ..." in line


def test_the_hook_falls_back_to_the_pure_wheel_without_a_compiler_or_on_any_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DDZSPEC_PURE_PYTHON", raising=False)
    monkeypatch.setenv("CC", "/nonexistent/cc")
    data, messages, work, _ = _run_hook("standard")
    assert data == PURE_DATA and work is None
    assert messages == [("warning", "ddzspec: WARNING: the compiled solver core was not built "
                         "(no C compiler on PATH (CC, else cc)): installing the pure-Python "
                         "solver")]
    # any other failure too
    data, messages, work, _ = _run_hook("standard", PermissionError("read-only /tmp"))
    assert data == PURE_DATA and work is None
    assert messages == [("warning", "ddzspec: WARNING: the compiled solver core was not built "
                         "(PermissionError: read-only /tmp): installing the pure-Python "
                         "solver")]


@NEEDS_COMPILER
def test_the_hook_puts_the_built_modules_into_the_wheel(
        both: tuple[dict[str, Any], dict[str, Any], list[Path]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the compile itself is the fixture's (the same function): here what the hook does with it
    built = both[2]
    monkeypatch.delenv("DDZSPEC_PURE_PYTHON", raising=False)
    data, messages, work, kept = _run_hook("standard", built)
    assert work is not None and kept
    assert data == {"force_include": {str(p): f"ddzspec/solver/{p.name}" for p in built},
                    "pure_python": False, "infer_tag": True}
    assert messages == [("info", "ddzspec: compiled the solver core with mypyc ("
                         + ", ".join(p.name for p in built) + ")")]


# ------------------------------------------------------------------------ the worker

def _install(files: list[str]) -> None:
    """Import the extension modules ``files`` (``<module>.<abi>.so``, in ddzspec/solver/)
    before anything else can import the pure ones: a meta-path finder placed first."""
    import importlib.abc
    import importlib.machinery

    by_name = {"ddzspec.solver." + Path(f).name.split(".")[0]: f for f in files}

    class Compiled(importlib.abc.MetaPathFinder):
        def find_spec(self, name: str, path: Any, target: Any = None
                      ) -> importlib.machinery.ModuleSpec | None:
            if name not in by_name:
                return None
            return importlib.util.spec_from_file_location(name, by_name[name])

    sys.meta_path.insert(0, Compiled())


def _result(res: Any) -> dict[str, Any]:
    out: dict[str, Any] = res.to_json()
    del out["seconds"]
    out["table_entries"] = res.table_entries
    return out


def main(files: list[str]) -> None:
    """Solve every position of the module docstring and print the answers as one JSON line."""
    if files:
        _install(files)
    import click.testing
    import ddzspec.solver.cli

    import ddzspec.solver
    from ddzspec.puzzles import PuzzleGame, puzzle_by_id
    from ddzspec.solver import make_position, position_from_puzzle, solve, solve_split
    sys.path.insert(0, str(ROOT / "tests" / "solver"))
    from test_deals_pinned import CLASSIC, DEALS, VERDICTS

    answers: dict[str, Any] = {"COMPILED": ddzspec.solver.COMPILED, "files": {
        name: getattr(sys.modules.get(name), "__file__", None)
        for name in ("ddzspec.solver.search", "ddzspec.solver.movegen",
                     "ddzspec.solver._core__mypyc")}}
    answers["function types"] = [type(f).__name__ for f in (
        sys.modules["ddzspec.solver.search"].solve, sys.modules["ddzspec.solver.movegen"].move_set)]
    helped = click.testing.CliRunner().invoke(ddzspec.solver.cli.solve, ["--help"]).output
    answers["help"] = next(ln.strip() for ln in helped.splitlines() if "Solver core" in ln)
    records = [json.loads(line) for line in PUZZLES.read_text("utf-8").splitlines()]
    answers["two_seat"] = {r["id"]: _result(solve(position_from_puzzle(r), want="all"))
                           for r in records}
    answers["scored"] = {r["id"]: _result(solve(position_from_puzzle(r), want="score"))
                         for r in records if r["id"] in SCORED}
    # root splitting in this process (workers=1): the split module drives the compiled core
    answers["split"] = {r["id"]: _result(solve_split(position_from_puzzle(r), want="all",
                                                     workers=1)) for r in records}
    deals = [(make_position(CLASSIC, {"landlord": ll, "peasant": p}, "landlord"), want)
             for want in ("all", "one") for ll, p, _, _ in DEALS]
    deals += [(make_position(CLASSIC, {"landlord": ll, "peasant": p}, "landlord"), "winner")
              for ll, p, _ in VERDICTS]
    answers["deals"] = [_result(solve(pos, want=want, seconds=60)) for pos, want in deals]
    # small tables: the compact table from a few hundred entries, replacing all the time
    from ddzspec.solver import Limit
    answers["small tables"] = [_result(solve(pos, want=want, limit=Limit(entries=n)))
                               for pos, want in deals[:3] for n in (600, 5000)]
    three = [f"DDZ3-0{i}" for i in range(1, 6)]
    answers["three_seat"] = {
        i: [_result(solve(puzzle_by_id(i).position(), want=w)) for w in ("all", "score")]
        for i in three}
    played = {}
    for ident in PLAYED:
        pos = puzzle_by_id(ident).position()
        mover = pos.seats[pos.to_move]
        human = mover if pos.n_seats == 2 or mover == "landlord" else "peasants"
        game = PuzzleGame.start(pos, human)
        verdicts: list[list[str]] = []
        while not game.over:
            if game.human_to_move:
                game, verdict = game.play((game.hint() or game.legal_moves())[0])
                verdicts.append(list(verdict.lines))
            else:
                game = game.reply()
        played[ident] = {"human": human, "winner": game.winner, "verdicts": verdicts,
                         "history": [list(h) for h in game.history]}
    answers["played"] = played
    # wild cards: the search through the (interpreted) wild move generation's hook
    from ddzspec.rules import load_rules
    laizi = load_rules("laizi")
    wild = [(make_position(laizi, {"landlord": "34569", "peasant": "AA"}, "landlord",
                           wild="9"), "all"),
            (make_position(laizi, {"landlord": "3337", "peasant": "AA"}, "landlord",
                           wild="7"), "score"),
            (make_position(laizi, {"landlord": "57", "peasant1": "3", "peasant2": "2"},
                           "landlord", on_table="44", played_by="peasant2", wild="7"), "all"),
            (make_position(laizi, {"landlord": "3457QQT9J8", "peasant": "99KK7A2256"},
                           "landlord", wild="7"), "score")]
    answers["wild"] = [_result(solve(pos, want=want)) for pos, want in wild]
    answers["responsive"] = _responsiveness(make_position(
        CLASSIC, {"landlord": "33445689TJJJKA22B", "peasant": "3566677899TQQKA22"}, "landlord"))
    print(json.dumps(answers))


def _responsiveness(hard: Any) -> dict[str, float]:
    """How the core shares the interpreter during a long search (``hard``: a position whose
    every winning move takes more than 20 s): seconds from a simulated Ctrl-C
    (``_thread.interrupt_main`` from a timer thread, 0.3 s in) to the KeyboardInterrupt, and
    the longest gap between the main thread's 10 ms sleeps while another thread solves."""
    import _thread
    import threading
    import time

    from ddzspec.solver import solve

    timer = threading.Timer(0.3, _thread.interrupt_main)
    t0 = time.perf_counter()
    timer.start()
    try:
        solve(hard, want="all", seconds=20)
        interrupted = -1.0  # the search ended first: not interrupted
    except KeyboardInterrupt:
        interrupted = time.perf_counter() - t0
    timer.join()
    worker = threading.Thread(target=lambda: solve(hard, want="all", seconds=2))
    worker.start()
    gap, last = 0.0, time.perf_counter()
    while worker.is_alive():
        time.sleep(0.01)
        now = time.perf_counter()
        gap, last = max(gap, now - last), now
    worker.join()
    return {"interrupted after": interrupted, "longest gap": gap}


if __name__ == "__main__":
    main(sys.argv[1:])
