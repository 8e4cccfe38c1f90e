"""Merge a rules file with its ``extends`` chain into :class:`Raw` sections, as written.

Owns finding and reading rules files: :func:`resolve_path` (a built-in name or a path),
:func:`builtin_rules`, and the caps :data:`MAX_RULES_BYTES` and :data:`MAX_EXTENDS_DEPTH`.
:func:`read_raw` (a file) and :func:`raw_of_text` (a text) parse each file of the chain
(:mod:`ddzspec.rules.parse`) and merge it over its parent: sections replace the parent's;
shapes, groups and restrictions merge by name. Within one file every section is given once.
:func:`drop_shape` is the one mechanism behind ``without NAME`` and ``--without NAME``.
Restriction names are checked against :mod:`ddzspec.restrictions` here.
"""

from __future__ import annotations

import errno
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import restrictions as registry
from .._resources import data_dir
from ..errors import RulesError, shorten
from ..larkerrors import did_you_mean
from .parse import At, Drop, Group, RestrictionDecl, Section, ShapeDecl, Statement, parse


@dataclass
class Raw:
    """The merged sections of a file and its parents, as written, before validation.
    ``files``: every file read (this one and its parents), for the in-memory cache key."""

    path: str
    name: str = ""
    title: str = ""
    parents: list[str] = field(default_factory=list)
    extends_at: tuple[int | None, int | None] = (None, None)
    sections: dict[str, Section] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    shapes: dict[str, ShapeDecl] = field(default_factory=dict)
    restrictions: dict[str, RestrictionDecl] = field(default_factory=dict)
    #: shapes dropped by ``without`` (in this file, a parent or ``--without``): where
    dropped: dict[str, At] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)


def resolve_path(name_or_path: str, base: Path | None = None, as_path: bool = False) -> Path:
    """Find a rules file. A bare built-in name ("classic", "kawu", "duel", "duel-literal",
    "happy", "hebei") always means the shipped file, whatever lies in the working folder; anything
    else is a path (``.rules`` may be left off), relative to ``base`` when given (an ``extends``
    in a file, a position file's ``rules`` line) and then only to it, else to the working folder.
    ``as_path``: always a path, never a built-in (a quoted ``extends "classic"`` means the file
    ``classic.rules`` next to the file saying it). Raises RulesError naming the files tried
    (and the built-in names, for a bare name) when nothing matches."""
    if not name_or_path.strip():
        raise RulesError("empty rules name (give a built-in name or a path)", "<rules>")
    try:
        return _find_rules_file(name_or_path, base, as_path)
    except OSError as e:  # a name the system refuses to look up (ENAMETOOLONG, ELOOP, EACCES)
        why = " (a name in a path is at most 255 bytes)" if e.errno == errno.ENAMETOOLONG else ""
        raise RulesError(f"cannot be looked up: {e.strerror}{why}", shorten(name_or_path)) \
            from None


def _find_rules_file(name_or_path: str, base: Path | None, as_path: bool) -> Path:
    """:func:`resolve_path`'s search; raises OSError as looking a name up does."""
    builtin = data_dir("rules") / f"{name_or_path}.rules"
    bare = "/" not in name_or_path and not name_or_path.endswith(".rules")
    if bare and not as_path and builtin.is_file():
        return builtin
    p = Path(name_or_path)
    candidates = [p] if p.suffix == ".rules" else [p, p.parent / (p.name + ".rules")]
    if base is not None and not p.is_absolute():
        # only from ``base``: a file of the same name in the working folder is never taken
        # instead (the answer would depend on where the command is run)
        candidates = [base / c for c in candidates]
    for c in candidates:
        if c.is_file():
            return c
    for c in candidates:  # a folder, where it was looked for (next to ``base``)
        if c.is_dir():
            raise RulesError("is a folder, not a rules file", str(c))
    for c in candidates:  # exists, but neither a file nor a folder (/dev/null, a pipe)
        if c.exists():
            raise RulesError("is not a regular file (a device, a pipe or a socket), not a "
                             "rules file", str(c))
    tried = ", ".join(dict.fromkeys(str(c.resolve()) for c in candidates))
    names = "" if as_path or not bare else f"; built in: {', '.join(builtin_rules())}"
    raise RulesError(f"no rules file {name_or_path!r} (tried {tried}{names})", name_or_path)


def builtin_rules() -> list[str]:
    """Names of the shipped rules files."""
    return sorted(x.stem for x in data_dir("rules").glob("*.rules"))


#: The largest rules file (or rules text) read, in bytes: the shipped files are under 8 KiB, so
#: anything near this is no rules file (a device, a log); it is refused before being read whole.
MAX_RULES_BYTES = 1024 * 1024
#: The most files an ``extends`` chain may hold (the file itself and its parents): a longer one
#: is refused at the ``extends`` that passes it, before its parent is read.
MAX_EXTENDS_DEPTH = 64


def _too_large(shown: str) -> RulesError:
    return RulesError(f"larger than {MAX_RULES_BYTES // 1024} KiB (the most a rules file may "
                      "hold): not a rules file", shown)


def read_bytes(path: Path) -> bytes:
    """The bytes of the rules file ``path``, never more than :data:`MAX_RULES_BYTES` read.
    Raises RulesError naming the file (unreadable, or over the cap)."""
    try:
        with path.open("rb") as f:
            data = f.read(MAX_RULES_BYTES + 1)
    except OSError as e:
        raise RulesError(f"cannot read: {e.strerror}", str(path)) from None
    if len(data) > MAX_RULES_BYTES:
        raise _too_large(str(path))
    return data


def read_raw(path: Path, seen: tuple[Path, ...] = ()) -> Raw:
    """The rules file at ``path`` with its ``extends`` chain merged (``seen``: the files of the
    chain below it, for cycles and :data:`MAX_EXTENDS_DEPTH`)."""
    shown = str(path)
    data = read_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RulesError(f"not UTF-8 text (byte {e.start}: {e.object[e.start:e.start + 1]!r})",
                         shown) from None
    raw = raw_of_text(text, shown, path.parent, seen + (path.resolve(),))
    raw.files[str(path.resolve())] = data
    return raw


def raw_of_text(text: str, shown: str, base: Path | None, chain: tuple[Path, ...],
                 resolve: bool = True) -> Raw:
    """The rules ``text`` (named ``shown`` in errors) with its ``extends`` chain merged: a
    parent path is resolved from ``base`` (None: the working folder); ``chain``: the files
    read so far, this one last when it is a file. ``resolve=False``: the text must stand
    alone; an ``extends`` is refused at its place and no file is read."""
    if len(text) > MAX_RULES_BYTES or len(text.encode("utf-8")) > MAX_RULES_BYTES:
        raise _too_large(shown)
    parsed = parse(text, shown)
    raw = Raw(path=shown, name=parsed.header.name, title=parsed.header.title or "")
    ext = parsed.header.extends
    if ext is not None:
        loc = (ext.at.line, ext.at.column)
        if not resolve:
            raise RulesError(f"extends {ext.text}: refused: these rules must stand alone (as a "
                             "record carries them: resolved, with no extends), so no other "
                             "file is read", shown, *loc)
        if len(chain) >= MAX_EXTENDS_DEPTH:
            raise RulesError(f"extends {ext.text}: an extends chain of more than "
                             f"{MAX_EXTENDS_DEPTH} files (is it generated?)", shown, *loc)
        try:
            parent_path = resolve_path(ext.text.strip('"'), base,
                                       as_path=ext.text.startswith('"'))
        except RulesError as e:  # said at the extends, naming the file looked for
            message = e.message if e.path in e.message else f"{e.path}: {e.message}"
            raise RulesError(message, shown, *loc) from None
        if parent_path.resolve() in chain:
            names = " -> ".join([p.name for p in chain] + [parent_path.name])
            raise RulesError(f"a cycle of extends: {names}", shown, *loc)
        try:
            parent = read_raw(parent_path, chain)
        except RulesError as e:
            if e.line is not None:  # located in the parent's text: said there
                raise
            # the parent file as a whole (unreadable, not UTF-8, too large): at the extends
            raise RulesError(f"{e.path}: {e.message}", shown, *loc) from None
        raw.extends_at = loc
        raw.parents = [parent.name] + parent.parents
        raw.sections = dict(parent.sections)
        raw.groups = dict(parent.groups)
        raw.shapes = dict(parent.shapes)
        raw.restrictions = dict(parent.restrictions)
        raw.dropped = dict(parent.dropped)
        raw.title = raw.title or parent.title
        raw.files = dict(parent.files)
    seen_here: set[tuple[str, str]] = set()

    def once(kind: str, name: str, message: str, at: At) -> None:
        if (kind, name) in seen_here:
            raise RulesError(message, shown, at.line, at.column)
        seen_here.add((kind, name))

    for st in parsed.statements:
        if isinstance(st, Section):
            once("section", st.kind, f"{st.kind} given twice (one round of a kind per stage)"
                 if st.kind.startswith("round ") else f"section {st.kind!r} given twice", st.at)
            raw.sections[st.kind] = st
        elif isinstance(st, Group):
            once("group", st.name, f"group {st.name!r} declared twice", st.at)
            raw.groups[st.name] = st
        else:
            # one shapes, restrictions and without statement per file, like every section
            once("section", st.kind, f"section {st.kind!r} given twice (write all its items "
                 "in one block)", st.at)
            for item in st.items:
                if isinstance(item, Drop):
                    if ("shape", item.name) in seen_here:
                        raise RulesError(f"without {item.name}: this file also declares shape "
                                         f"{item.name} (drop it or declare it, not both)", shown,
                                         item.at.line, item.at.column)
                    drop_shape(raw, item)
                elif isinstance(item, ShapeDecl):
                    once("shape", item.name, f"duplicate shape name {item.name!r}", item.at)
                    gone = raw.dropped.pop(item.name, None)
                    if gone is not None and gone.path == shown:
                        raise RulesError(f"shape {item.name}: this file also drops it (without "
                                         f"{item.name} at {gone.line}:{gone.column}; drop it or "
                                         "declare it, not both)", shown, item.at.line,
                                         item.at.column)
                    raw.shapes[item.name] = item
                else:
                    if item.name not in registry.REGISTRY:
                        # a misspelt `for` or `off` after a restriction reads as a name too
                        hint = did_you_mean(item.name, [*registry.REGISTRY, "for", "off"])
                        raise RulesError(f"unknown restriction {item.name!r} (known: "
                                         f"{', '.join(registry.REGISTRY)}){hint}", shown,
                                         item.at.line, item.at.column)
                    once("restriction", item.name, f"restriction {item.name!r} given twice",
                         item.at)
                    raw.restrictions[item.name] = item
    _replace_rounds(raw, parsed.statements)
    return raw


def _replace_rounds(raw: Raw, statements: Sequence[Statement]) -> None:
    """A file's rounds of a kind replace every round of that kind of its parents (a file that
    declares ``round show`` at one stage drops the parent's ``round show`` at another; to keep
    both, it restates both). The sections are keyed ``round KIND STAGE``."""
    here = {st.kind for st in statements
            if isinstance(st, Section) and st.kind.startswith("round ")}
    kinds = {k.split()[1] for k in here}
    for key in [k for k in raw.sections if k.startswith("round ") and k not in here
                and k.split()[1] in kinds]:
        del raw.sections[key]


def drop_shape(raw: Raw, drop: Drop) -> None:
    """Drop one shape from merged sections: the one mechanism behind ``without NAME`` in a
    file and ``--without NAME`` (:func:`rules_without`). The shape goes, and so does its name
    in ``precedence`` and ``double`` (the builder skips names in ``raw.dropped``, renumbering
    the tiers left). Raises RulesError, located at the drop, for a shape not declared."""
    if drop.name not in raw.shapes:
        known = ", ".join(raw.shapes) or "none"
        raise RulesError(f"without {drop.name}: no such shape (shapes: {known})", drop.at.path,
                         drop.at.line, drop.at.column)
    del raw.shapes[drop.name]
    raw.dropped[drop.name] = drop.at
