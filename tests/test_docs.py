"""The docs say what the code does: every console example of the README and of the docs pages
(``docs/*.md``) that prints the same thing on every machine runs as written and prints what
the page shows, and the docs name only paths inside the repository."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from ddzspec.cli.group import main

ROOT = Path(__file__).resolve().parent.parent

#: The pages whose examples are checked: the README and every docs page.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _page_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_the_docs_use_only_paths_inside_the_repository() -> None:
    for text in (*(p.read_text(encoding="utf-8") for p in PAGES),
                 *(p.read_text(encoding="utf-8") for p in (ROOT / "rules").glob("*.rules"))):
        assert "../shared" not in text and "shared/" not in text
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        # a top-level folder's path, not the end of another (ddzspec/rules/load.py)
        for path in re.findall(
                r"(?<![\w/.])((?:examples|docs|tests/data|rules|grammar)/[\w./-]+\w)", text):
            # a rules file may be named without its suffix (ddzspec check rules/kawu)
            assert (ROOT / path).exists() or (ROOT / f"{path}.rules").exists(), \
                (_page_name(page), path)


def _console_examples() -> list[tuple[str, str, list[str]]]:
    """The console examples of every page that print the same thing on every machine: (page,
    command, its output lines). Left out: pipes, comments instead of output, elided output
    (…), the server, interactive play and long runs (balance)."""
    out: list[tuple[str, str, list[str]]] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"```console\n(.*?)```", text, re.S):
            for chunk in re.split(r"^\$ ", block, flags=re.M)[1:]:
                cmd, *lines = chunk.rstrip("\n").split("\n")
                if not cmd.startswith("ddzspec ") or any(c in cmd for c in "|#") or \
                        any("…" in x for x in lines) or \
                        cmd.split()[1] in ("serve", "balance", "play", "puzzles"):
                    continue
                out.append((_page_name(page), cmd, lines))
    return out


EXAMPLES = _console_examples()


def test_the_docs_have_console_examples_to_check() -> None:
    assert len(EXAMPLES) >= 15
    assert {page for page, _, _ in EXAMPLES} >= {"README.md"}


@pytest.mark.parametrize(("page", "cmd", "lines"), EXAMPLES,
                         ids=[f"{p}: {c}"[:60] for p, c, _ in EXAMPLES])
def test_the_console_examples_print_what_the_docs_show(
        page: str, cmd: str, lines: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Tester F18: a README example was out of date (explain had gained a line, replay's
    refusal had new words, the solver's node counts had changed). Each example runs as
    written, from the repository's root; the solver's time on its last line is the one thing
    that varies."""
    monkeypatch.chdir(ROOT)
    res = CliRunner().invoke(main, shlex.split(cmd)[1:])
    got = res.output.rstrip("\n").split("\n")
    if cmd.startswith("ddzspec solve"):
        got[-1], lines = re.sub(r"[\d.]+ s$", "S s", got[-1]), \
            [*lines[:-1], re.sub(r"[\d.]+ s$", "S s", lines[-1])]
    assert [x.rstrip() for x in got] == [x.rstrip() for x in lines], (page, cmd)


def test_every_docs_page_is_in_the_site_and_every_readme_link_reaches_one() -> None:
    """mkdocs.yml's nav lists every page of docs/ (the README is the home page, index.md);
    the README's links into docs/ name pages that exist (``mkdocs build --strict`` checks the
    rest of the links, in .ci/run)."""
    nav = re.findall(r"^  - [^:]+: (\S+\.md)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"),
                     re.M)
    assert nav[0] == "index.md"
    assert sorted(nav[1:]) == sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    links = re.findall(r"\]\(docs/([^)#]+)", (ROOT / "README.md").read_text(encoding="utf-8"))
    assert links and all((ROOT / "docs" / link).is_file() for link in links)


def test_the_readme_is_the_home_page_with_its_links_made_relative() -> None:
    import importlib.util

    import mkdocs  # noqa: F401  (the test extra installs it: a missing mkdocs fails here)

    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "docs_hooks.py")
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    assert hooks.readme_as_home_page("see [the solver](docs/solver.md) in `docs/`") == \
        "see [the solver](solver.md) in `docs/`"


PYCON = re.compile(r"^```pycon\n(.*?)^```", re.M | re.S)


@pytest.mark.parametrize("page", [_page_name(p) for p in PAGES
                                  if PYCON.search(p.read_text(encoding="utf-8"))])
def test_the_python_examples_print_what_the_docs_show(page: str) -> None:
    """Every ```pycon block of a docs page runs as a doctest and prints what the page shows."""
    text = (ROOT / page).read_text(encoding="utf-8")
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for n, block in enumerate(PYCON.findall(text), 1):
        test = parser.get_doctest(block, {}, f"{page} block {n}", page, 0)
        assert test.examples, f"{page} block {n}: no >>> example"
        runner.run(test)
    assert runner.failures == 0, f"{page}: {runner.failures} example(s) print something else"
