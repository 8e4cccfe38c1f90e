"""The execution layer: independent tasks (deals, solves) run on many processes or machines, their
result rows streamed to a resumable JSONL file.

A :class:`Task` is a top-level importable function (``"module:function"``), JSON-able keyword
arguments and a task id; the function returns a JSON-able dict, the task's *row*.
:func:`stream` yields rows as they complete; :func:`run` does the same with a progress bar and
returns every row in the order of the tasks. They run in this process (``workers=1``), on a
local Dask cluster or process pool (``workers`` N), or on a running Dask scheduler
(``scheduler="tcp://HOST:PORT"``); ``output`` makes a run resumable. The same tasks give the
same rows whatever the number of workers.

Where tasks run, resuming, a run with no worker, Ctrl-C: docs/scaling.md, "Design notes,
module by module".
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import Any

from ..errors import DdzError
from ..rules import Rules

#: The header line's key in an output file.
HEADER_KEY = "ddzspec_run"
_HEADER_START = b'{"' + HEADER_KEY.encode() + b'"'

#: How long to try reaching a ``--scheduler`` before giving up (a Dask duration).
CONNECT_TIMEOUT = "10s"

#: Seconds a Dask run waits with no worker at all (none joined the ``--scheduler`` yet, or
#: every worker is gone: died and not restarted) before giving up with an ExecuteError.
WORKER_TIMEOUT = 60.0

#: Seconds between two checks that a Dask run still has workers.
_POLL = 1.0


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


def _row(task: Task, result: dict[str, Any]) -> dict[str, Any]:
    return {ROW_KEY: task.id, **{k: v for k, v in result.items() if k != ROW_KEY}}


def default_workers() -> int:
    """The number of cores this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def dask_available() -> bool:
    """Whether Dask distributed (the ``ddzspec[dask]`` extra) can be imported."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        return False
    return True


# ---------------------------------------------------------------------- rules on workers


def rules_ref(rules: Rules) -> dict[str, Any]:
    """``rules`` as JSON-able task arguments, rebuilt on a worker by :func:`rules_of`: a
    built-in by name (and ``without``), other rules by their resolved text, so that a worker
    on another machine needs no file of this one."""
    from ..rules import builtin_rules, load_rules, resolved_text
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
    from ..rules import load_rules, load_rules_text
    if text is None:
        return load_rules(name, without=without)
    return replace(load_rules_text(text, path=f"<rules {name}>", resolve=False), name=name,
                   without=without)


# ---------------------------------------------------------------------- the output file


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


class _Writer:
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
    import fcntl
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ExecuteError(f"{path}: another run is writing it (a second run on the same "
                           "output would duplicate its rows): wait for that run to end, or "
                           "name another file") from None
    except OSError:  # pragma: no cover - no locks on this file system (ENOLCK, EOPNOTSUPP)
        pass


# ---------------------------------------------------------------------- backends


def _run_inline(todo: Sequence[Task], retries: int) -> Iterator[tuple[Task, dict[str, Any]]]:
    for t in todo:
        yield t, call(t.func, t.kwargs)


def _run_pool(todo: Sequence[Task], workers: int, retries: int
              ) -> Iterator[tuple[Task, dict[str, Any]]]:
    """A concurrent.futures process pool (spawned processes: the progress bar runs a thread,
    and forking a threaded process may deadlock). A pool broken by a dead worker is rebuilt
    and its unfinished tasks resubmitted, each at most ``retries`` times. A Ctrl-C, an error
    or the caller closing the stream ends the pool's processes at once (their running tasks
    are abandoned: a Ctrl-C must not wait for a long search)."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool
    pending = list(todo)
    tries = dict.fromkeys((t.id for t in todo), 0)
    ctx = multiprocessing.get_context("spawn")
    while pending:
        ex = ProcessPoolExecutor(max_workers=workers, mp_context=ctx,
                                 initializer=_pool_worker_setup)
        again: list[tuple[Task, str]] = []
        stopped = False
        try:  # submitting starts the processes: a Ctrl-C may come then too
            futs: dict[Future[dict[str, Any]], Task] = {
                ex.submit(call, t.func, t.kwargs): t for t in pending}
            waiting = set(futs)
            while waiting:
                done, waiting = wait(waiting, return_when=FIRST_COMPLETED)
                for f in done:
                    t = futs[f]
                    try:
                        res = f.result()
                    except BrokenProcessPool:
                        again.append((t, "its worker process died"))
                        continue
                    except Exception as e:
                        again.append((t, f"{type(e).__name__}: {e}"))
                        continue
                    yield t, res
        except BaseException:
            # the caller stopped early (GeneratorExit), a Ctrl-C (KeyboardInterrupt) or an
            # error: the running tasks are abandoned, their processes ended, not waited for
            stopped = True
            _stop_pool(ex)
            raise
        finally:
            ex.shutdown(wait=not again and not stopped, cancel_futures=True)
        for t, why in again:
            tries[t.id] += 1
            if tries[t.id] > retries:
                raise ExecuteError(f"task {t.id} failed {tries[t.id]} times: {why}")
        if again:  # said, not silent: a dead worker breaks the whole pool, which is rebuilt
            print(f"ddzspec: {again[0][1]}; the worker processes are restarted and "
                  f"{len(again)} unfinished task(s) run again", file=sys.stderr, flush=True)
        pending = [t for t, _ in again]


def _stop_pool(ex: Any) -> None:
    """End a process pool's worker processes now (its running tasks are abandoned):
    ``terminate_workers`` from Python 3.14, the pool's process table before."""
    stop = getattr(ex, "terminate_workers", None)
    if stop is not None:  # pragma: no cover - Python 3.14+
        stop()
        return
    procs = getattr(ex, "_processes", None) or {}
    for proc in list(procs.values()):
        proc.terminate()


def _pool_worker_setup() -> None:
    """The local pool's worker initializer: ignore SIGINT (:func:`_ignore_sigint`) and end
    with the parent (:func:`_exit_with_parent`)."""
    _ignore_sigint()
    _exit_with_parent()


def _exit_with_parent(every: float = 1.0, parent: int | None = None) -> None:
    """In a worker process: a daemon thread ends the process (exit 1) within ``every``
    seconds of its parent's death — a parent killed (SIGKILL, or SIGTERM's default action)
    cannot shut its pool down, and its idle workers would stay forever (found by a tester:
    two workers of 145 MiB each still there 90 s after the parent was killed). The parent is
    gone when the worker's parent process id is no longer ``parent`` (it was re-parented);
    ``parent`` None: the process that started this one under multiprocessing, else the
    current parent (a parent that died before this call is then missed)."""
    import multiprocessing
    import os
    import threading
    import time
    if parent is None:
        started_by = multiprocessing.parent_process()
        parent = os.getppid() if started_by is None or started_by.pid is None \
            else started_by.pid

    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(1)
            time.sleep(every)

    threading.Thread(target=watch, name="ddzspec-parent-watch", daemon=True).start()


def _ignore_sigint() -> None:
    """In a worker process: ignore SIGINT, so that a Ctrl-C at the terminal interrupts only
    the parent, which shuts the workers down (no worker tracebacks). Main thread only."""
    import signal
    import threading
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run in each worker process of a local cluster (this module is
    named as its ``preload``): the worker ignores SIGINT (:func:`_ignore_sigint`)."""
    _ignore_sigint()


@contextmanager
def _interrupt_deferred(caught: list[int] | None = None) -> Iterator[None]:
    """Hold back SIGINT (Ctrl-C) inside the block and raise KeyboardInterrupt after it: a
    cluster interrupted half-started cannot be closed cleanly. ``caught`` (optional) receives
    the signals held back, for the block to look at. Only in the main thread (where Python
    handles signals); elsewhere a plain block."""
    import signal
    import threading
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = caught if caught is not None else []
    old = signal.signal(signal.SIGINT, lambda signum, _frame: got.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if got:
        raise KeyboardInterrupt


@contextmanager
def _children_quiet() -> Iterator[None]:
    """Inside the block, the standard error this process's children inherit is the null
    device (this process's own is restored after): the worker processes a local cluster
    starts there would otherwise print a traceback each when a Ctrl-C reaches them before
    :func:`dask_setup` ignores it. A plain block where standard error is no real file."""
    try:
        fd = sys.stderr.fileno()
        saved = os.dup(fd)
    except (OSError, ValueError, AttributeError):  # a test runner's stream
        yield
        return
    try:
        sys.stderr.flush()
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, fd)
        os.close(null)
        yield
    finally:
        os.dup2(saved, fd)
        os.close(saved)


def _count_workers(client: Any) -> int:
    try:
        return len(client.nthreads())
    except Exception:  # the scheduler unreachable: no worker either
        return 0


def _no_worker(scheduler: str | None, timeout: float, gone: bool) -> ExecuteError:
    where = f"--scheduler {scheduler}" if scheduler is not None else "the local Dask cluster"
    if gone:
        return ExecuteError(f"{where}: every worker is gone (died, not restarted) for "
                            f"{timeout:g} s; the rows written so far are kept (rerun to "
                            "resume)")
    return ExecuteError(f"{where}: no worker joined within {timeout:g} s (start one with "
                        f"`dask worker {scheduler}`)")


#: Seconds beyond :data:`CONNECT_TIMEOUT` that a scheduler's handshake may take.
HANDSHAKE_GRACE = 5.0


def _client_of(client_class: Any, scheduler: str) -> Any:
    """A Dask client of ``scheduler``, within :data:`CONNECT_TIMEOUT` plus
    :data:`HANDSHAKE_GRACE`: Dask waits for the scheduler's handshake with no time limit, so
    a service that accepts the connection and says nothing (a web server waiting for the rest
    of a request) would hang the run forever. Raises what ``Client`` raises, or an
    ExecuteError when nothing answered in time (the connecting thread is left behind, a
    daemon)."""
    import threading

    from dask.utils import parse_timedelta
    out: list[Any] = []
    err: list[BaseException] = []

    def connect() -> None:
        try:
            out.append(client_class(scheduler, timeout=CONNECT_TIMEOUT))
        except BaseException as e:  # handed to the caller's thread
            err.append(e)
    th = threading.Thread(target=connect, name="ddzspec-connect", daemon=True)
    th.start()
    wait = float(parse_timedelta(CONNECT_TIMEOUT, "s")) + HANDSHAKE_GRACE
    th.join(wait)
    if th.is_alive():
        raise ExecuteError(f"--scheduler {scheduler}: no Dask scheduler answers there "
                           f"(something accepted the connection but did not answer the "
                           f"handshake within {wait:g} s)")
    if err:
        raise err[0]
    return out[0]


def _run_dask(todo: Sequence[Task], workers: int, scheduler: str | None, retries: int,
              worker_timeout: float | None = None) -> Iterator[tuple[Task, dict[str, Any]]]:
    """Dask distributed: a client of ``scheduler``, or of a LocalCluster of ``workers``
    single-thread processes started (and closed) here. ``worker_timeout`` (default
    :data:`WORKER_TIMEOUT`): seconds with no worker before an ExecuteError (module doc)."""
    import logging
    import secrets

    timeout = WORKER_TIMEOUT if worker_timeout is None else worker_timeout
    dist: Any = import_module("distributed")  # untyped: reached through Any
    Client, LocalCluster = dist.Client, dist.LocalCluster
    cluster = None
    caught: list[int] = []
    with _interrupt_deferred(caught):  # a Ctrl-C while a cluster starts waits until it has
        try:                           # started (or failed), then interrupts
            if scheduler is not None:
                try:
                    client = _client_of(Client, scheduler)
                except ExecuteError:
                    raise
                except (OSError, TimeoutError) as e:
                    raise ExecuteError(f"--scheduler {scheduler}: cannot connect: {e}") from None
                except (ValueError, TypeError) as e:  # not an address at all
                    raise ExecuteError(f"--scheduler {scheduler}: not a scheduler address "
                                       f"(tcp://HOST:PORT): {e}") from None
                except Exception as e:  # something answers there, but not a scheduler
                    raise ExecuteError(f"--scheduler {scheduler}: no Dask scheduler answers "
                                       f"there (what answered broke the protocol: "
                                       f"{type(e).__name__}: {str(e)[:120]})") from None
            else:
                logging.getLogger("distributed").setLevel(logging.CRITICAL)
                with _children_quiet():
                    cluster = LocalCluster(n_workers=workers, threads_per_worker=1,
                                           processes=True, dashboard_address=":0",
                                           silence_logs=logging.CRITICAL, preload=[__name__])
                client = Client(cluster)
        except ExecuteError:
            raise
        except Exception as e:  # a cluster that cannot start (or was interrupted starting)
            if caught:
                raise KeyboardInterrupt from None
            raise ExecuteError(f"the Dask cluster cannot start: {type(e).__name__}: {e}"
                               ) from None
    run = secrets.token_hex(4)
    try:
        if scheduler is not None and _count_workers(client) == 0:
            print(f"ddzspec: waiting for workers on {scheduler} (at most {timeout:g} s)",
                  file=sys.stderr, flush=True)
            try:
                client.wait_for_workers(1, timeout=timeout)
            except (TimeoutError, OSError):
                raise _no_worker(scheduler, timeout, gone=False) from None
        futs = {client.submit(call, t.func, dict(t.kwargs), key=f"ddzspec-{run}-{t.id}",
                              retries=retries, pure=False): t for t in todo}
        ids = {f: i for i, f in enumerate(futs)}
        pending = set(futs)
        none_since: float | None = None
        while pending:
            try:
                done, pending = dist.wait(pending, timeout=_POLL,
                                          return_when="FIRST_COMPLETED")
            except TimeoutError:
                if _count_workers(client) > 0:
                    none_since = None
                    continue
                now = time.monotonic()
                none_since = now if none_since is None else none_since
                if now - none_since >= timeout:
                    raise _no_worker(scheduler, timeout, gone=True) from None
                continue
            none_since = None
            for f in sorted(done, key=lambda f: ids[f]):
                t = futs[f]
                try:
                    res = f.result()
                except Exception as e:
                    raise ExecuteError(f"task {t.id} failed: {type(e).__name__}: {e}"
                                       ) from None
                yield t, res
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# ---------------------------------------------------------------------- the API


@dataclass(slots=True)
class RunStats:
    """What a run did: ``total`` tasks, ``skipped`` (already in the output), ``computed``,
    ``backend`` (``inline``, ``processes``, ``dask-local`` or ``dask``), ``workers``,
    ``seconds`` (wall clock)."""

    total: int = 0
    skipped: int = 0
    computed: int = 0
    backend: str = ""
    workers: int = 0
    seconds: float = 0.0

    def line(self) -> str:
        """One line for a command's summary."""
        return (f"{self.computed} computed, {self.skipped} resumed from the output, "
                f"{self.total} in all; {self.backend}, {self.workers} worker(s), "
                f"{self.seconds:.1f} s")


def backend_for(workers: int | None, scheduler: str | None,
                pool: bool = False) -> tuple[str, int]:
    """(backend name, workers) :func:`stream` uses (see the module doc; ``pool``: the
    process pool rather than a local Dask cluster)."""
    if scheduler is not None:
        port = scheduler.rsplit(":", 1)[-1] if "://" in scheduler else ""
        if port.isdigit() and not 0 < int(port) < 65536:  # else a 10 s connect time-out
            raise ExecuteError(f"--scheduler {scheduler}: {port} is not a port (1 to 65535)")
        return "dask", 0
    n = default_workers() if workers is None else workers
    if n < 1:
        raise ExecuteError(f"--workers {n}: at least 1")
    if n == 1:
        return "inline", 1
    return ("dask-local" if dask_available() and not pool else "processes"), n


def stream(tasks: Iterable[Task], *, workers: int | None = None, scheduler: str | None = None,
           output: str | Path | None = None, header: Mapping[str, Any] | None = None,
           retries: int = 3, stats: RunStats | None = None,
           worker_timeout: float | None = None, pool: bool = False
           ) -> Iterator[dict[str, Any]]:
    """Run ``tasks`` and yield their rows (result dicts with the task id as ``"task"``) as
    they complete: first
    the rows already in ``output`` (resumed; only those of these tasks), then each new row
    once it is written to ``output``. ``workers``/``scheduler``: where (module doc);
    ``retries``: attempts after a failure; ``stats``: filled in as the run goes;
    ``worker_timeout``: seconds a Dask run may have no worker (default
    :data:`WORKER_TIMEOUT`); ``pool``: a local run uses the process pool even when Dask is
    installed (it starts in well under a second, a local cluster in ~2 s; closing this
    generator early ends the pool's processes at once). Raises ExecuteError (a duplicate
    task id, a bad output file, an output another run is writing, a task failing every
    time, a scheduler that cannot be reached or that no worker joins in time, every worker
    gone; with ``scheduler`` and Dask missing)."""
    t0 = time.perf_counter()
    tasks = list(tasks)
    ids = [t.id for t in tasks]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise ExecuteError(f"task id {dup!r} given twice")
    if scheduler is not None and not dask_available():
        raise ExecuteError("--scheduler needs Dask distributed: pip install 'ddzspec[dask]'")
    backend, n = backend_for(workers, scheduler, pool)
    st = stats if stats is not None else RunStats()
    st.total, st.backend, st.workers = len(tasks), backend, n
    writer = _Writer(output) if output is not None else None  # locked before it is read
    try:
        done = read_output(output, header) if output is not None else {}
        if writer is not None:
            writer.start(header)
        todo = []
        for t in tasks:
            if t.id in done:
                st.skipped += 1
                yield done[t.id]
            else:
                todo.append(t)
        if not todo:
            return
        if backend != "dask" and min(n, len(todo)) == 1:
            st.backend, st.workers = "inline", 1  # one task: no process to start
        if st.backend == "inline":
            it = _run_inline(todo, retries)
        elif backend == "processes":
            it = _run_pool(todo, min(n, len(todo)), retries)
        else:
            it = _run_dask(todo, min(n, len(todo)), scheduler, retries, worker_timeout)
        for t, res in it:
            row = _row(t, res)
            if writer is not None:
                writer.write(row)
            st.computed += 1
            st.seconds = time.perf_counter() - t0
            yield row
    finally:
        st.seconds = time.perf_counter() - t0
        if writer is not None:
            writer.close()


def run(tasks: Iterable[Task], *, workers: int | None = None, scheduler: str | None = None,
        output: str | Path | None = None, header: Mapping[str, Any] | None = None,
        retries: int = 3, label: str = "tasks", quiet: bool = False,
        stats: RunStats | None = None,
        on_row: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """:func:`stream` with a rich progress bar on standard error (silent when it is not a
    terminal, or ``quiet``), calling ``on_row(row)`` as each row arrives; returns every row
    in the order of ``tasks`` (whatever order they completed in). Raises as :func:`stream`."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from ..cli_common import progress_bar
    tasks = list(tasks)
    rows: dict[str, dict[str, Any]] = {}
    with progress_bar(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(), quiet=quiet) as prog:
        bar = prog.add_task(label, total=len(tasks))
        for row in stream(tasks, workers=workers, scheduler=scheduler, output=output,
                          header=header, retries=retries, stats=stats):
            rows[str(row[ROW_KEY])] = row
            if on_row is not None:
                on_row(row)
            prog.advance(bar)
    return [rows[t.id] for t in tasks]


def run_options(output_help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Click options of a command that runs on this layer: ``--workers N`` (default: the
    number of cores), ``--scheduler tcp://HOST:PORT`` and ``--output FILE.jsonl`` (its help:
    ``output_help``), passed as ``workers``, ``scheduler``, ``output``."""
    import click

    from ..cli_common import FileName

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        func = click.option("--output", type=FileName(), metavar="FILE.jsonl",
                            help=output_help)(func)
        func = click.option("--scheduler", metavar="tcp://HOST:PORT",
                            help="Run on a running Dask scheduler and its workers.")(func)
        return click.option(
            "--workers", type=click.IntRange(1, 256), metavar="N",
            help="Worker processes (default: the number of cores; 1: in this process)."
        )(func)
    return decorate


@contextmanager
def dask_processes(workers: int = 2, *, nanny: bool = True, log: Any = None,
                   timeout: float = 120.0) -> Iterator[tuple[str, list[Any]]]:
    """A ``dask scheduler`` and ``workers`` ``dask worker`` processes (one thread each;
    ``nanny``: each under a nanny that restarts it) started on 127.0.0.1 on a free port, for
    tests and benchmarks of the multi-machine path: yields (scheduler address, the workers'
    ``subprocess.Popen``), once every worker has joined; stops them all at the end. ``log``:
    a binary file for their output (default: discarded). Raises ExecuteError when they do
    not come up within ``timeout`` seconds."""
    import socket
    import subprocess
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    address = f"tcp://127.0.0.1:{port}"
    out = log if log is not None else subprocess.DEVNULL
    procs: list[subprocess.Popen[bytes]] = []
    try:
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port",
             str(port), "--no-dashboard"], stdout=out, stderr=out))
        extra = [] if nanny else ["--no-nanny"]
        for _ in range(workers):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "dask", "worker", address, "--nthreads", "1",
                 "--no-dashboard", "--host", "127.0.0.1", *extra], stdout=out, stderr=out))
        dist: Any = import_module("distributed")
        try:
            with dist.Client(address, timeout=f"{timeout}s") as c:
                if workers:  # 0: a scheduler alone (tests of a run with no worker)
                    c.wait_for_workers(workers, timeout=timeout)
        except (OSError, TimeoutError) as e:
            raise ExecuteError(f"the dask processes did not come up: {e}") from None
        yield address, procs[1:]
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


# ---------------------------------------------------------------------- a demo task


def demo_task(n: int, seconds: float = 0.0) -> dict[str, Any]:
    """A deterministic task for tests and benchmarks of this layer: sleeps ``seconds``, then
    returns ``{"n", "square", "pid"}`` (``pid``: the process that ran it; the only field
    that depends on where it ran)."""
    time.sleep(seconds)
    return {"n": n, "square": n * n, "pid": os.getpid()}


__all__ = ["ExecuteError", "RunStats", "Task", "backend_for", "call", "dask_available",
           "dask_processes",
           "default_workers", "demo_task", "read_output", "rules_of", "rules_ref", "run",
           "run_options", "stream"]
