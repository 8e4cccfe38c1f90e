"""The resumable output of a run: a JSONL file, a header line ``{"ddzspec_run": HEADER}`` then one
row per task id, each written whole and flushed. :func:`read_output` reads the rows already
there (cutting a torn last line; refusing someone else's file or another run's); the writer
(:class:`Writer`) appends rows under an exclusive ``flock`` held for the whole run, so that a
second run on the same file is refused at once.
"""

from __future__ import annotations

import fcntl
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .tasks import ROW_KEY, ExecuteError

#: The header line's key in an output file.
HEADER_KEY = "ddzspec_run"
_HEADER_START = b'{"' + HEADER_KEY.encode() + b'"'


def _not_a_run(p: Path) -> ExecuteError:
    return ExecuteError(f"{p}: not the output of a ddzspec run (its first line is not a ddzspec "
                        "header); it is left as it is: name a new file")


def read_output(path: str | Path, header: Mapping[str, Any] | None = None
                ) -> dict[str, dict[str, Any]]:
    """The rows already in an output file, by id (empty when the file does not exist). A torn
    last line (no newline, or not JSON) is cut off the file; a file whose first line is not a
    header (not even a torn one) is never touched. Raises ExecuteError when the file
    is not a run's output, was written for another ``header``, or has a bad line before the
    last."""
    p = Path(path)
    _check_regular(p)
    try:
        with p.open("rb") as f:  # someone else's file is judged by its start, never read whole
            start = f.read(len(_HEADER_START))
            if start and not start.startswith(b"{"):  # no JSON object: no run's header
                raise _not_a_run(p)
            data = start + f.read()
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise ExecuteError(f"{p}: cannot read: {e.strerror}") from None
    rows: dict[str, dict[str, Any]] = {}
    first: dict[str, Any] = {}  # the header line
    good = 0  # bytes of whole, valid lines
    lines = data.split(b"\n")
    for i, raw in enumerate(lines):
        last = i == len(lines) - 1  # after the final newline: empty, or a torn line
        if not raw:
            if not last:
                raise ExecuteError(f"{p}, line {i + 1}: an empty line in a run's output")
            continue
        try:
            obj = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            if i == 0 and not raw.startswith(_HEADER_START):  # someone else's file: kept
                raise _not_a_run(p) from None
            if last or (i == len(lines) - 2 and not lines[-1]):
                break  # a torn last line: redone
            raise ExecuteError(f"{p}, line {i + 1}: not a JSON row") from None
        if i == 0 and not (isinstance(obj, dict) and HEADER_KEY in obj):
            raise ExecuteError(f"{p}: not the output of a ddzspec run (no header line); it is "
                               "left as it is: name a new file")
        if last:
            break  # a whole JSON value but no newline: the write was cut, redo it
        if not isinstance(obj, dict):
            raise ExecuteError(f"{p}, line {i + 1}: a row must be a JSON object")
        if i == 0:
            if HEADER_KEY not in obj:
                raise ExecuteError(f"{p}: not the output of a ddzspec run (no header line); "
                                   "name a new file")
            ours = None if header is None else json.loads(json.dumps(header))
            if ours is not None and obj[HEADER_KEY] != ours:
                raise ExecuteError(f"{p} was written for another run "
                                   f"({_header_difference(obj[HEADER_KEY], ours)}); name a new "
                                   "file or rerun with the same options")
            first = obj
        elif HEADER_KEY in obj and ROW_KEY not in obj:  # a header again: two runs raced
            if obj != first:
                raise ExecuteError(f"{p}, line {i + 1}: a second header, for another run "
                                   f"({_header_difference(obj[HEADER_KEY], first[HEADER_KEY])}"
                                   "); name a new file")
        elif ROW_KEY not in obj:
            raise ExecuteError(f"{p}, line {i + 1}: a row without its {ROW_KEY!r} id")
        else:
            rows.setdefault(str(obj[ROW_KEY]), obj)
        good += len(raw) + 1
    if good < len(data):
        try:
            with open(p, "r+b") as f:
                f.truncate(good)
        except OSError as e:
            raise ExecuteError(f"{p}: cannot cut its torn last line: {e.strerror}") from None
    return rows


def _header_difference(theirs: Any, ours: Mapping[str, Any]) -> str:
    """What sets an output file's header (``theirs``) apart from this run's (``ours``), in a
    few words for a one-line refusal: the command that wrote it when another one did
    (``the file is from balance, this run is solve --batch``), else each option that differs,
    with both values when they are short (``want: "all" in the file, "score" now``) and by its
    name alone otherwise (``other rules``; ``sha256``: of the input's text)."""
    if not isinstance(theirs, dict):
        return "its header is not a JSON object"
    if theirs.get("command") != ours.get("command"):
        return (f"the file is from {theirs.get('command') or 'another command'}, this run is "
                f"{ours.get('command')}")
    parts = []
    for key in dict.fromkeys([*ours, *theirs]):
        if theirs.get(key) == ours.get(key):
            continue
        was, now = json.dumps(theirs.get(key)), json.dumps(ours.get(key))
        parts.append(f"{key}: {was} in the file, {now} now" if len(was) + len(now) <= 40
                     else f"other {key}" + (" (of the input's text)" if key == "sha256" else ""))
    return "; ".join(parts) or "another header"


def _check_regular(p: Path) -> None:
    """Raise ExecuteError when the output ``p`` exists and is not a regular file."""
    if p.exists() and not p.is_file():  # a device would be read without end (/dev/full)
        raise ExecuteError(f"{p}: not a regular file (an output file is read back to resume "
                           "a run): name a file")


class Writer:
    """Appends whole lines to an output file, one ``write`` per row, flushed to the disk.
    Opening it (created when missing, never truncated) takes the file's exclusive lock
    (module doc): ExecuteError when another run holds it. :meth:`start` writes the header
    into an empty file."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        _check_regular(self.path)
        try:
            self.fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        except OSError as e:
            raise ExecuteError(f"{self.path}: cannot write: {e.strerror}") from None
        try:
            _lock(self.fd, self.path)
        except BaseException:
            os.close(self.fd)
            raise

    def start(self, header: Mapping[str, Any] | None) -> None:
        """Write the header line when the file is empty (a new output)."""
        if os.fstat(self.fd).st_size == 0:
            self.write({HEADER_KEY: dict(header or {})})

    def write(self, row: Mapping[str, Any]) -> None:
        data = (json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
        try:
            n = os.write(self.fd, data)
            if n != len(data):  # pragma: no cover - a full disk mid-line
                raise OSError(28, "short write (is the disk full?)")
            os.fsync(self.fd)
        except OSError as e:
            raise ExecuteError(f"{self.path}: cannot write: {e.strerror}; the rows written "
                               "so far are kept (rerun to resume)") from None

    def close(self) -> None:
        """Close the file (its lock goes with it)."""
        os.close(self.fd)


def _lock(fd: int, path: Path) -> None:
    """Take the exclusive lock of the output open as ``fd`` without waiting: ExecuteError when
    another run holds it. A file system without locks (some network ones) runs unlocked."""
    if sys.platform == "win32":  # pragma: no cover - no flock; one writer is the user's care
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ExecuteError(f"{path}: another run is writing it (a second run on the same "
                           "output would duplicate its rows): wait for that run to end, or "
                           "name another file") from None
    except OSError:  # pragma: no cover - no locks on this file system (ENOLCK, EOPNOTSUPP)
        pass

