"""Helpers of the wild-card tests: :func:`declared_laizi`, the laizi file under the
``declared`` reading policy, and :func:`restricted_laizi`, laizi with wild restrictions
(tests/conftest.py puts this folder on ``sys.path``)."""

from __future__ import annotations

from pathlib import Path

from ddzspec.rules import Rules, load_rules


def declared_laizi(tmp_path: Path) -> Rules:
    """laizi with ``reading declared`` (its priority dropped): a file in ``tmp_path`` extending
    it and restating its wild section."""
    laizi = load_rules("laizi")
    text = Path(laizi.path).read_text(encoding="utf-8")
    wild = text[text.index("wild {"):]
    wild = wild[:wild.index("    reading")] + "    reading declared\n}\n"
    f = tmp_path / "d.rules"
    f.write_text(f'rules d extends "{laizi.path}"\n{wild}', encoding="utf-8")
    return load_rules(str(f))


def restricted_laizi(tmp_path: Path, restrict: str) -> Rules:
    """laizi with ``restrict`` added (``no_wild_kicker``, ``bomb_min_natural 2``): a file in
    ``tmp_path`` extending it and restating its wild section."""
    laizi = load_rules("laizi")
    text = Path(laizi.path).read_text(encoding="utf-8")
    wild = text[text.index("wild {"):].replace("reading strongest",
                                               f"restrict {restrict}\n    reading strongest")
    f = tmp_path / "t.rules"
    f.write_text(f'rules t extends "{laizi.path}"\n{wild}', encoding="utf-8")
    return load_rules(str(f))
