"""The runner: :func:`stream` yields a run's rows as they complete (the rows already in its
output first, then each new one once it is written), :func:`run` returns them in the order of
the tasks while a progress display (``progress``: the command line passes its bar) counts
them, and :class:`RunStats` says what a run did. Where the tasks run:
:func:`ddzspec.execute.backends.backend_for`; the output file: :mod:`ddzspec.execute.output`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .backends import backend_for, run_dask, run_inline, run_pool
from .output import Writer, read_output
from .tasks import ROW_KEY, ExecuteError, Task

#: A progress display of :func:`run`: called with (label, number of tasks), a context manager
#: whose value is called once per row.
Progress = Callable[[str, int], AbstractContextManager[Callable[[], None]]]

def _no_progress(label: str, total: int) -> AbstractContextManager[Callable[[], None]]:
    return nullcontext(lambda: None)


def _row(task: Task, result: dict[str, Any]) -> dict[str, Any]:
    return {ROW_KEY: task.id, **{k: v for k, v in result.items() if k != ROW_KEY}}


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


def stream(tasks: Iterable[Task], *, workers: int | None = None, scheduler: str | None = None,
           output: str | Path | None = None, header: Mapping[str, Any] | None = None,
           retries: int = 3, stats: RunStats | None = None,
           worker_timeout: float | None = None, pool: bool = False
           ) -> Iterator[dict[str, Any]]:
    """Run ``tasks`` and yield their rows (result dicts with the task id as ``"task"``) as
    they complete: first
    the rows already in ``output`` (resumed; only those of these tasks), then each new row
    once it is written to ``output``. ``workers``/``scheduler``: where (:func:`backend_for`);
    ``retries``: attempts after a failure; ``stats``: filled in as the run goes;
    ``worker_timeout``: seconds a Dask run may have no worker (default
    :data:`~ddzspec.execute.backends.WORKER_TIMEOUT`); ``pool``: a local run uses the process
    pool even when Dask is installed (it starts in well under a second, a local cluster in
    ~2 s; closing this generator early ends the pool's processes at once). Raises
    ExecuteError (a duplicate task id, a bad output file, an output another run is writing,
    a task failing every time, a scheduler that cannot be reached or that no worker joins in
    time, every worker gone; with ``scheduler`` and Dask missing)."""
    t0 = time.perf_counter()
    tasks = list(tasks)
    ids = [t.id for t in tasks]
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise ExecuteError(f"task id {dup!r} given twice")
    backend, n = backend_for(workers, scheduler, pool)
    st = stats if stats is not None else RunStats()
    st.total, st.backend, st.workers = len(tasks), backend, n
    writer = Writer(output) if output is not None else None  # locked before it is read
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
            it = run_inline(todo, retries)
        elif backend == "processes":
            it = run_pool(todo, min(n, len(todo)), retries)
        else:
            it = run_dask(todo, min(n, len(todo)), scheduler, retries, worker_timeout)
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
        retries: int = 3, label: str = "tasks", progress: Progress | None = None,
        stats: RunStats | None = None,
        on_row: Callable[[dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:
    """:func:`stream`, counted by ``progress`` (called with ``label`` and the number of tasks;
    none by default; the command line passes :func:`ddzspec.cli.common.task_progress`),
    calling ``on_row(row)`` as each row arrives; returns every row in the order of ``tasks``
    (whatever order they completed in). Raises as :func:`stream`."""
    tasks = list(tasks)
    rows: dict[str, dict[str, Any]] = {}
    display = _no_progress if progress is None else progress
    with display(label, len(tasks)) as advance:
        for row in stream(tasks, workers=workers, scheduler=scheduler, output=output,
                          header=header, retries=retries, stats=stats):
            rows[str(row[ROW_KEY])] = row
            if on_row is not None:
                on_row(row)
            advance()
    return [rows[t.id] for t in tasks]
