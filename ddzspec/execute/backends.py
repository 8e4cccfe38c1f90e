"""Where tasks run: :func:`backend_for` picks it (in this process, a local process pool, a local
Dask cluster or a running Dask scheduler), and ``run_inline``, ``run_pool`` and
``run_dask`` run a list of tasks there, yielding (task, result) as each completes. Also what
their worker processes run first: SIGINT ignored (:func:`dask_setup`, the pool's initializer)
and an end with their parent. Retries, a dead worker, a run with no worker and Ctrl-C:
docs/scaling.md, "Design notes, module by module".
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib import import_module
from typing import TYPE_CHECKING, Any

from .tasks import ExecuteError, Task, call

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

#: How long to try reaching a ``--scheduler`` before giving up (a Dask duration).
CONNECT_TIMEOUT = "10s"

#: Seconds a Dask run waits with no worker at all (none joined the ``--scheduler`` yet, or
#: every worker is gone: died and not restarted) before giving up with an ExecuteError.
WORKER_TIMEOUT = 60.0

#: Seconds between two checks that a Dask run still has workers.
_POLL = 1.0


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

def backend_for(workers: int | None, scheduler: str | None,
                pool: bool = False) -> tuple[str, int]:
    """(backend name, workers) a run uses: ``inline`` (``workers`` 1), ``processes`` (the
    pool: ``pool``, or Dask missing), ``dask-local`` or ``dask`` (``scheduler``; ExecuteError
    when Dask is missing). ``workers`` None: the number of cores."""
    if scheduler is not None:
        if not dask_available():
            raise ExecuteError("--scheduler needs Dask distributed: pip install "
                               "'ddzspec[dask]'")
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



def run_inline(todo: Sequence[Task], retries: int) -> Iterator[tuple[Task, dict[str, Any]]]:
    """Each task in turn, in this process (``retries`` unused: an error ends the run)."""
    for t in todo:
        yield t, call(t.func, t.kwargs)


def run_pool(todo: Sequence[Task], workers: int, retries: int
             ) -> Iterator[tuple[Task, dict[str, Any]]]:
    """A concurrent.futures process pool (spawned processes: the progress bar runs a thread,
    and forking a threaded process may deadlock). A pool broken by a dead worker is rebuilt
    and its unfinished tasks resubmitted, each at most ``retries`` times. A Ctrl-C, an error
    or the caller closing the stream ends the pool's processes at once (their running tasks
    are abandoned: a Ctrl-C must not wait for a long search)."""
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


def _stop_pool(ex: ProcessPoolExecutor) -> None:
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


def run_dask(todo: Sequence[Task], workers: int, scheduler: str | None, retries: int,
             worker_timeout: float | None = None) -> Iterator[tuple[Task, dict[str, Any]]]:
    """Dask distributed: a client of ``scheduler``, or of a LocalCluster of ``workers``
    single-thread processes started (and closed) here. ``worker_timeout`` (default
    :data:`WORKER_TIMEOUT`): seconds with no worker before an ExecuteError (docs/scaling.md)."""
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
