"""Files: :func:`write_atomic` (a write that fails leaves the old file as it was and no partial
file), :func:`write_problem` (why a path could not be written, checked before long work) and
:func:`read_input` (an input text file, read to a size cap)."""

from __future__ import annotations

import errno
import os
import secrets
import stat
import sys
from pathlib import Path

#: The largest input text read (a position, a batch, a puzzle or record file), in bytes.
MAX_INPUT_BYTES = 64 * 1024 * 1024

#: Why :func:`write_problem` and :func:`write_atomic` refuse an existing file when they may not
#: overwrite it.
EXISTS = "the file exists"


def read_input(path: str | Path, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of an input file (``"-"``: standard input), read whatever the file is (a
    pipe too) but never more than ``limit`` bytes, so a device that never ends (/dev/zero)
    cannot exhaust memory. Raises OSError as opening or reading does, an OSError (errno
    EFBIG, ``strerror`` saying so) for an input over ``limit`` bytes, and UnicodeDecodeError
    for a file that is not UTF-8. A leading byte-order mark (Windows editors write one) is
    dropped, as the rules files' reader drops it."""
    if str(path) == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text-only stdin (a test harness): characters, not bytes
            text: str = sys.stdin.read(limit + 1)
            if len(text) > limit:
                raise _too_large(path, limit)
            return text.removeprefix("\ufeff")
        data: bytes = stream.read(limit + 1)
    else:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    if len(data) > limit:
        raise _too_large(path, limit)
    return data.decode("utf-8-sig")


def _too_large(path: str | Path, limit: int) -> OSError:
    return OSError(errno.EFBIG, f"larger than {limit // (1024 * 1024)} MiB: not an input file "
                   "(a device that never ends?)", str(path))


def write_problem(path: str | Path, overwrite: bool = True) -> str | None:
    """Why ``path`` could not be written as a file, or None when it can: a folder, a missing
    parent folder, a parent that is not a folder, a folder or file without write permission,
    a folder where no file can be created (``/proc``: the temporary file :func:`write_atomic`
    writes first is created and removed to find out), or — ``overwrite=False`` — an existing
    file (:data:`EXISTS`), or something that is not a regular file (a FIFO, a socket, a
    device). A symbolic link is judged by the file it points to (:func:`write_atomic` writes
    that file). A check made before long work (it cannot foresee a full disk)."""
    problem = _static_problem(_through_links(Path(path)))
    if problem is None and not overwrite and os.path.lexists(path):
        return EXISTS
    if problem is not None:
        return problem
    try:
        fd, tmp = _open_temp(_through_links(Path(path)))
    except OSError as e:
        return e.strerror
    os.close(fd)
    try:
        os.unlink(tmp)
    except OSError:  # pragma: no cover - a file just created in a writable folder
        pass
    return None


def _through_links(p: Path) -> Path:
    """``p``, or — ``p`` a symbolic link (a chain of them; dangling too) — the path it
    finally points to, so a write replaces the link's target and keeps the link."""
    return Path(os.path.realpath(p)) if os.path.islink(p) else p


def _kind(p: Path) -> str | None:
    """What ``p`` is when it exists and is neither a regular file nor a folder ("a FIFO",
    "a socket", "a device"), else None."""
    try:
        mode = os.stat(p).st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else \
        "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a special file"


def _open_temp(p: Path) -> tuple[int, Path]:
    """Create the new temporary file :func:`write_atomic` writes ``p`` through, in ``p``'s
    folder: (file descriptor, its path). Raises OSError saying that the folder takes no new
    file."""
    while True:
        tmp = p.with_name(f".{p.name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:  # pragma: no cover - 32 random bits collided
            continue
        except OSError as e:
            folder = str(p.parent) if str(p.parent) else "."
            raise OSError(e.errno, f"no file can be created in folder {folder!r} "
                          f"({e.strerror})", str(p)) from None


def _static_problem(p: Path) -> str | None:
    """:func:`write_problem`'s checks that create nothing."""
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        return "is a folder"
    kind = _kind(p)
    if kind is not None:
        return f"is {kind}, not a regular file"
    if not parent.exists():
        return f"no folder {str(parent)!r}"
    if not parent.is_dir():
        return f"{str(parent)!r} is not a folder"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"folder {str(parent)!r} is not writable"
    if p.exists() and not os.access(p, os.W_OK):
        return "the file is read-only"
    return None


def write_atomic(path: str | Path, text: str | bytes, encoding: str = "utf-8", *,
                 overwrite: bool = True) -> None:
    """Write ``text`` (or bytes) to ``path`` atomically: into a new temporary file in the same
    folder, flushed and fsynced, then renamed over ``path`` (``os.replace``). Readers see the
    old file or the new one, never a truncated or empty one; if anything fails (a full disk,
    an encoding error, an interrupt) the temporary file is removed, the old file is left
    intact and the error propagates (OSError, UnicodeEncodeError). A new file gets the usual
    mode (0666 less the umask); an existing file keeps its mode. Raises PermissionError for a
    read-only file. ``overwrite=False``: an existing ``path`` is never replaced, even one
    created while this writes (the new file is linked in place, which fails if the name is
    taken): raises FileExistsError (errno EEXIST) and leaves it as it was. A symbolic link
    ``path`` stays a link: the file it points to is the one replaced (created, if the link
    dangles). A FIFO, socket or device is never written (nothing would read it as a file;
    opening a FIFO would wait for a reader): raises OSError (errno EINVAL) saying what it
    is."""
    p = _through_links(Path(path))
    problem = _static_problem(p)
    if problem is None and not overwrite and (os.path.lexists(path) or os.path.lexists(p)):
        raise FileExistsError(errno.EEXIST, EXISTS, str(path))
    if problem is not None:
        code = errno.EISDIR if problem == "is a folder" else \
            errno.ENOENT if problem.startswith("no folder") else \
            errno.EINVAL if problem.endswith("not a regular file") else errno.EACCES
        raise OSError(code, problem, str(path))
    data = text.encode(encoding) if isinstance(text, str) else text
    mode = p.stat().st_mode & 0o7777 if overwrite and p.exists() else None
    fd, tmp = _open_temp(p)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        if overwrite:
            os.replace(tmp, p)
        else:
            _link_new(tmp, p)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable (POSIX; not possible everywhere)
        dfd = os.open(p.parent if str(p.parent) else ".", os.O_RDONLY)
    except OSError:  # pragma: no cover
        return
    try:
        os.fsync(dfd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(dfd)


def _link_new(tmp: Path, p: Path) -> None:
    """Give the written temporary file ``tmp`` the name ``p`` unless ``p`` exists (then raise
    FileExistsError): a hard link fails on a taken name, atomically. Where the file system has
    no hard links, the name is checked, then the file renamed."""
    try:
        os.link(tmp, p)
    except FileExistsError:
        raise FileExistsError(errno.EEXIST, EXISTS, str(p)) from None
    except OSError as e:
        if e.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV,
                           errno.EMLINK):
            raise
        if os.path.lexists(p):  # pragma: no cover - a file system without hard links
            raise FileExistsError(errno.EEXIST, EXISTS, str(p)) from None
        os.replace(tmp, p)  # pragma: no cover
        return
    os.unlink(tmp)


__all__ = ["EXISTS", "read_input", "write_atomic", "write_problem"]
