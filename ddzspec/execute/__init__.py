"""The execution layer (:mod:`.backends`): tasks on processes or a Dask cluster, their rows in a
resumable JSONL file; its public names."""

from .backends import (
    ROW_KEY,
    ExecuteError,
    RunStats,
    Task,
    backend_for,
    call,
    dask_available,
    dask_processes,
    default_workers,
    demo_task,
    read_output,
    rules_of,
    rules_ref,
    run,
    run_options,
    stream,
)

__all__ = ["ROW_KEY", "ExecuteError", "RunStats", "Task", "backend_for", "call",
           "dask_available", "dask_processes", "default_workers", "demo_task", "read_output",
           "rules_of", "rules_ref", "run", "run_options", "stream"]
