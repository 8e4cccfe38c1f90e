"""Load rules: the entry points over the three steps of the loader, :mod:`~ddzspec.rules.parse`
(Lark and a transformer into located sections), :mod:`~ddzspec.rules.merge` (the ``extends``
chain) and :mod:`~ddzspec.rules.build` (validate, build :class:`~ddzspec.rules.model.Rules`).
Every problem raises :class:`~ddzspec.errors.RulesError` with ``file:line:column``.

Entry points: :func:`load_rules` (a built-in name or a path, kept in memory keyed by the
content of every file of the chain), :func:`load_rules_text` and :func:`rules_without`
(``--without``, the mechanism of ``without`` in a file). The design: docs/rules-language.md.

>>> load_rules("kawu").parents
('classic',)
>>> load_rules_text("rules x extends classic\\nrestrictions { kicker_not_in 2 group jokers }\\n"
...                 ).restriction("kicker_not_in").ranks
(12, 13, 14)
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from ..errors import RulesError
from .build import Builder
from .merge import drop_shape, raw_of_text, read_bytes, read_raw, resolve_path
from .model import Rules, resolved_text
from .parse import At, Drop

_DROP_AT = At("--without", None, None)


@lru_cache(maxsize=64)
def rules_without(rules: Rules, names: tuple[str, ...]) -> Rules:
    """``rules`` with the shapes ``names`` dropped, through the loader's one mechanism
    (:func:`drop_shape`, as ``without NAME`` in a file): the resolved rules are read back, the
    shapes dropped, and precedence and ``double`` lose their names too, so the result's
    :func:`~ddzspec.rules.model.resolved_text` loads back to it. ``path`` and ``parents`` stay;
    ``without`` records the names (``rules.label``). Raises RulesError naming ``--without``
    for an unknown shape or rules left unplayable (no shape at all)."""
    known = [s.name for s in rules.shapes]
    for n in names:
        if n not in known:
            raise RulesError(f"--without {n}: no such shape (shapes: {', '.join(known)})",
                             rules.name)
    if not names:
        return rules
    raw = raw_of_text(resolved_text(rules), f"{rules.name}.rules", None, (), resolve=False)
    try:
        for n in dict.fromkeys(names):
            drop_shape(raw, Drop(n, _DROP_AT))
        built = Builder(raw).build()
    except RulesError as e:
        raise RulesError(f"--without {', '.join(names)}: {e.message}", rules.name) from None
    return replace(built, path=rules.path, parents=rules.parents,
                   without=tuple(sorted(set(rules.without) | set(names))))


#: Loaded rules by resolved path: (the bytes of every file of the extends chain, the rules).
_CACHE: dict[str, tuple[dict[str, bytes], Rules]] = {}
_CACHE_LOCK = threading.Lock()


def _unchanged(files: dict[str, bytes]) -> bool:
    """Whether every file of a cached chain still holds the bytes it was loaded from."""
    for name, data in files.items():
        try:
            if read_bytes(Path(name)) != data:
                return False
        except RulesError:
            return False
    return True


#: The rules used where none are named: every command's ``--rules`` default, a position with
#: no ``rules`` line (the CLI and the web table alike), a record of the shared puzzle form.
DEFAULT_RULES = "classic"


def load_rules(name_or_path: str = DEFAULT_RULES, without: Sequence[str] = (),
               base: str | Path | None = None) -> Rules:
    """Load a rules file by built-in name ("classic", "kawu", "duel", "duel-literal", "happy",
    "hebei") or path, optionally dropping shapes (``without=("trio_pair",)``). ``base``: the
    folder a relative path is resolved from (the folder of the file naming it, as for
    ``extends``: see :func:`resolve_path`); None: the working folder.

    Returns frozen :class:`Rules`. Loaded rules are kept in memory and served again only
    while every file of their ``extends`` chain holds the same bytes (an edited parent is seen
    by its child). Raises RulesError with file:line:column.
    """
    p = resolve_path(name_or_path, None if base is None else Path(base))
    key = str(p.resolve())
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is not None and _unchanged(hit[0]):
        rules = hit[1]
    else:
        raw = read_raw(p)
        rules = Builder(raw).build()
        with _CACHE_LOCK:
            _CACHE[key] = (raw.files, rules)
    return rules.without_shapes(tuple(without))


def load_rules_text(text: str, path: str = "<rules>", *, resolve: bool = True) -> Rules:
    """Load rules from a string; errors are located in ``path`` (it is never read). The text
    is parsed as it is, no file written. ``extends`` resolves a built-in name, or a path
    relative to the working folder; ``resolve=False`` (text from a record, a request or
    another machine): the text must stand alone, and an ``extends`` is refused (RulesError
    at it) before any file is touched. Raises RulesError, also for a text over
    :data:`MAX_RULES_BYTES`."""
    return Builder(raw_of_text(text, path, None, (), resolve=resolve)).build()
