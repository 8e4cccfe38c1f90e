"""The dependency rule of docs/architecture.md, checked against the imports of every module of
``ddzspec/`` and ``solver/`` (read with :mod:`ast`, nothing imported): no module imports a
higher layer, only the modules allowed to import the solver do, and below the CLI nothing
imports click or rich. The exceptions the document lists are listed here, and must still be
true (an exception that no longer occurs is removed from both)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The layers, lowest first; a module belongs to the layer of its longest listed prefix.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("errors, io", ("ddzspec", "ddzspec.errors", "ddzspec._io", "ddzspec._resources",
                    "ddzspec.larkerrors", "ddzspec.stats")),
    ("cards", ("ddzspec.cards",)),
    ("rules", ("ddzspec.rules",)),
    ("restrictions", ("ddzspec.restrictions",)),
    ("readings", ("ddzspec.readings", "ddzspec.explain", "ddzspec.wild")),
    ("table", ("ddzspec.table",)),
    ("check", ("ddzspec.check", "ddzspec.diff", "ddzspec.learn", "ddzspec.wildcheck")),
    ("moves", ("ddzspec.moves", "ddzspec.wildmoves")),
    ("runs", ("ddzspec.execute",)),
    ("solver", ("ddzspec.solver",)),
    ("game", ("ddzspec.game",)),
    ("players", ("ddzspec.players", "ddzspec.balance")),
    ("puzzles", ("ddzspec.puzzles",)),
    ("web", ("ddzspec.web",)),
    ("cli", ("ddzspec.cli", "ddzspec._entry", "ddzspec.__main__",
             "ddzspec.solver.cli")),
]

#: Outside the solver itself, only these may import it (the CLI may too).
SOLVER_USERS = ("ddzspec.players.endgame", "ddzspec.puzzles", "ddzspec.web")

#: Imports that break the rule today, each with why (docs/architecture.md lists them too).
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("ddzspec.rules.merge", "ddzspec.restrictions"):
        "the loader checks restriction names against the registry; restrictions.py reads the "
        "rules model only in type annotations",
    ("ddzspec.rules.build", "ddzspec.restrictions"):
        "the loader checks each restriction's parameter against its registry entry, and that "
        "a restriction written for a shape could bar one of its moves (idle_for)",
}

UI_PACKAGES = ("click", "rich")


def _modules() -> dict[str, Path]:
    """Every module by its import name (``solver/x.py`` is ``ddzspec.solver.x``)."""
    found: dict[str, Path] = {}
    for path in sorted((ROOT / "ddzspec").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    for path in sorted((ROOT / "solver").glob("*.py")):
        found[f"ddzspec.solver.{path.stem}"] = path
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node but the bodies of ``if TYPE_CHECKING:`` (imports for annotations only)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from (n for child in node.orelse for n in (child, *_nodes(child)))
            continue
        yield node
        yield from _nodes(node)


def imports_of(name: str) -> set[str]:
    """The modules ``name`` imports at run time: at the top, inside functions, and through
    ``import_module`` / ``__import__`` with a literal name."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in _nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            for alias in node.names:  # from package import submodule
                sub = f"{module}.{alias.name}"
                out.add(sub if sub in MODULES else module)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute) \
                and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
                    "import_module", "__import__") \
                and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            out.add(node.args[0].value)
    return out


def layer_of(name: str) -> int:
    """The index in :data:`LAYERS` of the longest prefix that names ``name``."""
    best, best_len = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            hit = name == p or name.startswith(p + ".")
            if hit and len(p) > best_len:
                best, best_len = i, len(p)
    assert best >= 0, f"{name} is in no layer: add it to LAYERS and docs/architecture.md"
    return best


def _internal(imported: str) -> str | None:
    """The module of ours that an import names (a name inside a module counts as its module)."""
    while imported and imported not in MODULES:
        imported = imported.rpartition(".")[0]
    return imported or None


def test_every_module_has_a_layer() -> None:
    assert len(MODULES) > 50
    for name in MODULES:
        layer_of(name)


def test_the_layer_of_a_few_modules() -> None:
    names = [LAYERS[layer_of(m)][0] for m in (
        "ddzspec", "ddzspec.rules.build", "ddzspec.check", "ddzspec.solver.search",
        "ddzspec.solver.cli", "ddzspec.cli.common", "ddzspec.web.app", "ddzspec.game.record")]
    assert names == ["errors, io", "rules", "check", "solver", "cli", "cli", "web", "game"]


def _violations() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for name in MODULES:
        mine = layer_of(name)
        is_cli = LAYERS[mine][0] == "cli"
        for imported in imports_of(name):
            if imported.split(".")[0] in UI_PACKAGES and not is_cli:
                found.add((name, imported.split(".")[0]))
            ours = _internal(imported)
            if ours is None:
                continue
            theirs = layer_of(ours)
            solver_user = is_cli or LAYERS[mine][0] == "solver" or any(
                name == u or name.startswith(u + ".") for u in SOLVER_USERS)
            if theirs > mine or (LAYERS[theirs][0] == "solver" and not solver_user):
                found.add((name, ours))
    return found


def test_no_module_imports_a_higher_layer_but_the_listed_exceptions() -> None:
    assert _violations() == set(EXCEPTIONS)


@pytest.mark.parametrize("module", ["ddzspec.game.state", "ddzspec.moves", "ddzspec.table"])
def test_below_the_cli_nothing_imports_click_or_rich(module: str) -> None:
    assert not {i.split(".")[0] for i in imports_of(module)} & set(UI_PACKAGES)


def test_the_checker_sees_imports_of_every_kind() -> None:
    """The parser itself: relative, ``from package import submodule``, inside functions, a
    literal ``import_module``; not the ``if TYPE_CHECKING:`` ones."""
    assert "ddzspec.restrictions" in imports_of("ddzspec.rules.build")  # relative
    assert "ddzspec.rules.load" in imports_of("ddzspec.rules.model")  # inside a method
    assert "ddzspec.cli.group" in imports_of("ddzspec._entry")  # import_module(...)
    assert "ddzspec.rules.model" not in imports_of("ddzspec.restrictions")  # TYPE_CHECKING only
    assert "ddzspec.game" not in imports_of("ddzspec")  # the root's names load lazily


def test_the_solver_is_imported_by_its_users_only() -> None:
    """The claim once written in the solver's docstring, "the rest of the library never imports
    the solver", is false: the endgame player (level 3), puzzle play, puzzle generation, the
    web table's puzzles and the CLI do."""
    def imports_solver(name: str) -> bool:
        return any((ours := _internal(i)) is not None and LAYERS[layer_of(ours)][0] == "solver"
                   for i in imports_of(name))

    users = {n for n in MODULES if LAYERS[layer_of(n)][0] != "solver" and imports_solver(n)}
    assert {u for u in users if LAYERS[layer_of(u)][0] != "cli"} == {
        "ddzspec.players.endgame", "ddzspec.puzzles.catalogue", "ddzspec.puzzles.game",
        "ddzspec.puzzles.generation", "ddzspec.web.routes_puzzles"}
    assert "ddzspec.solver.cli" in users


def test_the_module_map_names_every_module() -> None:
    """docs/architecture.md has a line for every module of ddzspec/ and solver/, and names no
    module that is gone."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    paths = {p.relative_to(ROOT).as_posix() for p in MODULES.values()}
    missing = {p for p in paths if f"- `{p}` — " not in doc}
    assert not missing
    named = set(re.findall(r"^- `((?:ddzspec|solver)/[\w/]+\.py)` — ", doc, re.M))
    assert named == paths


#: Standard-library modules light enough that importing them inside a function saves nothing.
LIGHT_STDLIB = {"os", "sys", "time", "json", "re", "math", "secrets", "socket", "signal",
                "logging", "fcntl", "resource", "hashlib", "threading", "multiprocessing",
                "random", "dataclasses", "functools", "itertools", "pathlib"}


def _absolute(package: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def function_level_imports(name: str) -> list[tuple[int, str, bool]]:
    """(line, module, also imported at the top) of each import inside a function of ``name``."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names} | {
        _absolute(package, n) for n in tree.body if isinstance(n, ast.ImportFrom)}
    found = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            for n in ast.walk(fn):
                if isinstance(n, ast.Import):
                    found += [(n.lineno, a.name, a.name in top) for a in n.names]
                elif isinstance(n, ast.ImportFrom):
                    module = _absolute(package, n)
                    found.append((n.lineno, module, module in top))
    return found


def test_function_level_imports_follow_the_rule() -> None:
    """docs/architecture.md, "Imports inside functions": never a module the file already
    imports at the top, never a light standard-library module."""
    bad = [f"{MODULES[m].relative_to(ROOT)}:{line}: {module}"
           + (" (imported at the top too)" if at_top else " (light: import it at the top)")
           for m in MODULES for line, module, at_top in function_level_imports(m)
           if at_top or module in LIGHT_STDLIB]
    assert bad == []


def test_the_function_level_import_check_sees_a_repeat(tmp_path: Path) -> None:
    """The checker itself, on a module written here."""
    path = tmp_path / "m.py"
    path.write_text("import os\nfrom .cards import Cards\n\ndef f():\n    import os\n"
                    "    from .cards import parse_cards\n    import lark\n", encoding="utf-8")
    MODULES["ddzspec.m"] = path
    try:
        assert function_level_imports("ddzspec.m") == [
            (5, "os", True), (6, "ddzspec.cards", True), (7, "lark", False)]
    finally:
        del MODULES["ddzspec.m"]
