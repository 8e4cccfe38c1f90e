"""The execution layer: independent tasks (deals, solves) run on many processes or machines, their
result rows streamed to a resumable JSONL file.

A :class:`Task` is a top-level importable function (``"module:function"``), JSON-able keyword
arguments and a task id; the function returns a JSON-able dict, the task's *row*.
:func:`stream` yields rows as they complete; :func:`run` returns every row in the order of the
tasks. They run in this process (``workers=1``), on a local Dask cluster or process pool
(``workers`` N), or on a running Dask scheduler (``scheduler="tcp://HOST:PORT"``); ``output``
makes a run resumable. The same tasks give the same rows whatever the number of workers.

Modules: :mod:`.tasks` (tasks, rows, rules on workers), :mod:`.output` (the resumable file),
:mod:`.backends` (where tasks run), :mod:`.runner` (:func:`stream`, :func:`run`). Design
notes: docs/scaling.md, "Design notes, module by module".
"""

from .backends import backend_for, dask_available, default_workers
from .output import HEADER_KEY, read_output
from .runner import Progress, RunStats, run, stream
from .tasks import ROW_KEY, ExecuteError, Task, call, rules_of, rules_ref

__all__ = ["HEADER_KEY", "ROW_KEY", "ExecuteError", "Progress", "RunStats", "Task", "backend_for",
           "call", "dask_available", "default_workers", "read_output", "rules_of", "rules_ref",
           "run", "stream"]
