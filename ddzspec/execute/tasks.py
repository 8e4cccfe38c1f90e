"""Tasks and their rows: :class:`Task` (an importable function, its JSON-able arguments, an
id), :func:`call` (what a worker runs), :data:`ROW_KEY` (a row's id key), :class:`ExecuteError`
(every refusal of the layer), and :func:`rules_ref` / :func:`rules_of`, rules passed to a
worker as task arguments and rebuilt there once per process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib import import_module
from typing import Any

from ..errors import DdzError
from ..rules import Rules, builtin_rules, load_rules, load_rules_text, resolved_text


class ExecuteError(DdzError):
    """A run cannot go on: a bad output file, an unreachable scheduler, a task that kept
    failing. The rows already written stay in the output file (rerun to resume)."""


@dataclass(frozen=True, slots=True)
class Task:
    """One independent unit of work: ``id`` (unique in a run; the output's row key), ``func``
    (``"module:function"``, a top-level function every worker can import) and ``kwargs``
    (JSON-able keyword arguments; the function returns a JSON-able dict)."""

    id: str
    func: str
    kwargs: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, id: str, fn: Callable[..., dict[str, Any]], **kwargs: Any) -> Task:
        """A task calling ``fn(**kwargs)``; raises ValueError when ``fn`` is not a top-level
        function of an importable module (a lambda, a nested function)."""
        ref = f"{fn.__module__}:{fn.__qualname__}"
        if "<" in fn.__qualname__ or "." in fn.__qualname__ or fn.__module__ == "__main__":
            raise ValueError(f"task {id}: {ref} is not a top-level function of an importable "
                             "module")
        return cls(id, ref, kwargs)


def call(func: str, kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """Run one task's function in a worker: import ``"module:function"`` and call it with
    ``kwargs``. Raises TypeError when it does not return a dict."""
    mod, _, name = func.partition(":")
    out = getattr(import_module(mod), name)(**kwargs)
    if not isinstance(out, dict):
        raise TypeError(f"{func} returned a {type(out).__name__}, not a dict")
    return out


#: The key of a row's task id.
ROW_KEY = "task"


# ---------------------------------------------------------------------- rules on workers


def rules_ref(rules: Rules) -> dict[str, Any]:
    """``rules`` as JSON-able task arguments, rebuilt on a worker by :func:`rules_of`: a
    built-in by name (and ``without``), other rules by their resolved text, so that a worker
    on another machine needs no file of this one."""
    without = list(rules.without)
    if rules.name in builtin_rules():
        try:
            if load_rules(rules.name, without=without) == rules:
                return {"name": rules.name, "without": without}
        except DdzError:
            pass
    return {"name": rules.name, "without": without, "text": resolved_text(rules)}


def rules_of(ref: Mapping[str, Any]) -> Rules:
    """The rules of :func:`rules_ref`'s ``ref`` (loaded once per process)."""
    return _rules_of(ref["name"], tuple(ref.get("without", ())), ref.get("text"))


@functools.lru_cache(maxsize=16)
def _rules_of(name: str, without: tuple[str, ...], text: str | None) -> Rules:
    if text is None:
        return load_rules(name, without=without)
    return replace(load_rules_text(text, path=f"<rules {name}>", resolve=False), name=name,
                   without=without)

