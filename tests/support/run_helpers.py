"""Helpers of the tests (and benchmarks) of the execution layer: :func:`demo_task`, a task
whose row is known, and :func:`dask_processes`, a real ``dask scheduler`` with ``dask worker``
processes. A task's function is imported by name in the worker processes: tests/conftest.py
puts this folder on ``sys.path`` and on ``PYTHONPATH`` (for the processes the tests start).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import import_module
from typing import Any

from ddzspec.execute import ExecuteError


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


def demo_task(n: int, seconds: float = 0.0) -> dict[str, Any]:
    """A deterministic task for tests of the execution layer: sleeps ``seconds``, then returns
    ``{"n", "square", "pid"}`` (``pid``: the process that ran it; the only field
    that depends on where it ran)."""
    time.sleep(seconds)
    return {"n": n, "square": n * n, "pid": os.getpid()}
