"""The execution layer (ddzspec/execute/): inline, process pool, a Dask LocalCluster and a real
``dask scheduler`` + ``dask worker`` started here; resuming; a worker killed mid-run."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import distributed  # noqa: F401  (the test extra installs Dask: a missing Dask fails here)
import psutil
import pytest
from run_helpers import dask_processes, demo_task

from ddzspec.execute import ExecuteError, RunStats, Task, read_output, run, stream
from ddzspec.execute import backends as execute

HEADER = {"what": "demo"}


def _tasks(n: int, seconds: float = 0.0) -> list[Task]:
    return [Task.of(f"{i:03d}", demo_task, n=i, seconds=seconds) for i in range(n)]


def _exact(rows: list[dict], n: int) -> None:
    """``rows`` are the ``n`` demo rows, in id order, each once, each right."""
    assert [r["task"] for r in rows] == [f"{i:03d}" for i in range(n)]
    assert [r["square"] for r in rows] == [i * i for i in range(n)]


def _file_rows(path: Path) -> list[dict]:
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"ddzspec_run": HEADER}
    rows = [json.loads(x) for x in lines[1:]]
    return sorted(rows, key=lambda r: r["task"])


def test_inline_pool_and_local_cluster_give_the_same_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tasks = _tasks(8)
    one = RunStats()
    inline = run(tasks, workers=1, stats=one)
    assert one.backend == "inline" and one.computed == 8
    assert {r["pid"] for r in inline} == {os.getpid()}
    dask_stats = RunStats()
    local = run(tasks, workers=2, stats=dask_stats, output=tmp_path / "d.jsonl",
                header=HEADER)
    assert dask_stats.backend == "dask-local"
    assert os.getpid() not in {r["pid"] for r in local}  # ran in the worker processes
    monkeypatch.setattr(execute, "dask_available", lambda: False)
    pool_stats = RunStats()
    pool = run(tasks, workers=2, stats=pool_stats)
    assert pool_stats.backend == "processes"
    strip = [[{k: v for k, v in r.items() if k != "pid"} for r in rows]
             for rows in (inline, local, pool)]
    assert strip[0] == strip[1] == strip[2]
    _exact(inline, 8)
    _exact(_file_rows(tmp_path / "d.jsonl"), 8)


def test_resume_after_interruption_skips_done_ids_and_redoes_a_torn_line(
        tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    tasks = _tasks(10)
    it = stream(tasks, workers=1, output=out, header=HEADER)
    first = [next(it) for _ in range(4)]
    it.close()  # interrupted after 4 rows
    assert [r["task"] for r in first] == ["000", "001", "002", "003"]
    with out.open("a") as f:
        f.write('{"n": 4, "square": 16, "id": "0')  # a crash while writing row 004
    st = RunStats()
    rows = run(tasks, workers=1, output=out, header=HEADER, stats=st)
    assert (st.skipped, st.computed) == (4, 6)
    _exact(rows, 10)
    _exact(_file_rows(out), 10)  # each id once, no torn line left
    again = RunStats()
    assert run(tasks, workers=1, output=out, header=HEADER, stats=again) == rows
    assert (again.skipped, again.computed) == (10, 0)


def test_an_output_of_another_run_or_foreign_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    run(_tasks(2), workers=1, output=out, header=HEADER)
    before = out.read_bytes()
    with pytest.raises(ExecuteError, match="written for another run"):
        run(_tasks(2), workers=1, output=out, header={"what": "other"})
    assert out.read_bytes() == before  # nothing changed
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"a": 1}\n')
    with pytest.raises(ExecuteError, match="no header line"):
        read_output(foreign, HEADER)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"ddzspec_run": {"what": "demo"}}\nxx\n{"task": "1"}\n')
    with pytest.raises(ExecuteError, match="line 2: not a JSON row"):
        read_output(bad, HEADER)
    with pytest.raises(ExecuteError, match="given twice"):
        run(_tasks(2) + _tasks(1), workers=1)


#: A run of ``sys.argv[2]`` demo tasks sleeping ``argv[3]`` s each on ``argv[4]`` workers
#: (a process pool) into the output ``argv[1]``, in its own process: exit 2 with the error's
#: message when the layer refuses it.
_WRITER = """
import sys
from ddzspec.execute import ExecuteError, Task, stream
from run_helpers import demo_task
tasks = [Task.of(f"{i:03d}", demo_task, n=i, seconds=float(sys.argv[3]))
         for i in range(int(sys.argv[2]))]
try:
    for _ in stream(tasks, workers=int(sys.argv[4]), pool=True, output=sys.argv[1],
                    header={"what": "demo"}):
        pass
except ExecuteError as e:
    print(f"ddzspec: error: {e}", file=sys.stderr)
    sys.exit(2)
"""


def _writer(out: Path, tasks: int, seconds: float, workers: int = 1
            ) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", _WRITER, str(out), str(tasks),
                             str(seconds), str(workers)], stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def test_two_runs_started_at_once_on_one_output_one_is_refused(tmp_path: Path) -> None:
    """Two runs on one output duplicated every row (and sometimes wrote two
    headers); now the output is locked: the second is refused at once (exit 2, one line
    naming the file), the first writes each row once and the file resumes."""
    out = tmp_path / "run.jsonl"
    procs = [_writer(out, 12, 0.25) for _ in range(2)]
    ends = [(p.wait(60), p.stderr.read() if p.stderr else "") for p in procs]
    assert sorted(code for code, _ in ends) == [0, 2], ends
    err = next(e for code, e in ends if code == 2)
    assert err == (f"ddzspec: error: {out}: another run is writing it (a second run on the "
                   "same output would duplicate its rows): wait for that run to end, or name "
                   "another file\n")
    lines = out.read_text().splitlines()
    assert len(lines) == 13 and sum('"ddzspec_run"' in x for x in lines) == 1
    _exact(_file_rows(out), 12)
    st = RunStats()
    _exact(run(_tasks(12), workers=1, output=out, header=HEADER, stats=st), 12)
    assert (st.skipped, st.computed) == (12, 0)


def test_a_second_writer_is_refused_by_the_commands_with_exit_2(tmp_path: Path, cli: Any) -> None:
    """solve --batch and arena on an output another run holds: exit 2, the file named, the
    file untouched."""
    import fcntl
    out = tmp_path / "rows.jsonl"
    out.write_text(json.dumps({"ddzspec_run": {"command": "solve --batch"}}) + "\n")
    batch = tmp_path / "b.jsonl"
    batch.write_text('{"id": "a", "position": "landlord: 3\\npeasant: 4\\nto_move: '
                     'peasant\\n"}\n')
    with out.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)  # another run writing it
        for args in (("solve", "--batch", str(batch)),
                     ("arena", "--rules", "duel", "--levels", "2,1", "--games", "2")):
            code, text, err = cli(*args, "--workers", "1", "--output", str(out))
            assert (code, text) == (2, "")
            assert err == (f"ddzspec: error: {out}: another run is writing it (a second run "
                           "on the same output would duplicate its rows): wait for that run "
                           "to end, or name another file\n")
        assert out.read_text() == '{"ddzspec_run": {"command": "solve --batch"}}\n'
    code, text, _ = cli("solve", "--batch", str(batch), "--workers", "1", "--json",
                         "--output", str(tmp_path / "new.jsonl"))
    assert code == 0 and json.loads(text)["winner"] == "peasants"


def test_a_killed_writer_leaves_no_lock_behind(tmp_path: Path) -> None:
    """A run killed with SIGKILL mid-run (its pool's processes left to end by themselves)
    holds no lock: the next run resumes at once, each row once."""
    out = tmp_path / "run.jsonl"
    p = _writer(out, 20, 0.3, workers=2)
    try:
        deadline = time.monotonic() + 60
        while (not out.exists() or out.read_text().count("\n") < 3) and p.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        os.kill(p.pid, signal.SIGKILL)
        assert p.wait(10) == -signal.SIGKILL
        st = RunStats()
        _exact(run(_tasks(20, 0.3), workers=1, output=out, header=HEADER, stats=st), 20)
        assert st.skipped >= 2 and st.skipped + st.computed == 20
        _exact(_file_rows(out), 20)
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)  # the pool's processes, if any are left
        except ProcessLookupError:
            pass


def test_a_repeated_identical_header_resumes(tmp_path: Path) -> None:
    """A file with its header written twice (two runs that raced before the output was
    locked) resumes: the repeat is skipped; a repeat for another run is a located error."""
    out = tmp_path / "run.jsonl"
    head = json.dumps({"ddzspec_run": HEADER})
    rows = [json.dumps({"task": f"{i:03d}", "n": i, "square": i * i}) for i in range(3)]
    out.write_text("\n".join([head, head, rows[0], rows[1], rows[0], rows[2]]) + "\n")
    assert sorted(read_output(out, HEADER)) == ["000", "001", "002"]
    st = RunStats()
    _exact(run(_tasks(5), workers=1, output=out, header=HEADER, stats=st), 5)
    assert (st.skipped, st.computed) == (3, 2)
    assert out.read_text().splitlines()[:6] == [head, head, rows[0], rows[1], rows[0],
                                                rows[2]]
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join([head, json.dumps({"ddzspec_run": {"what": "else"}}),
                                 rows[0]]) + "\n")
    with pytest.raises(ExecuteError) as got:
        read_output(other, HEADER)
    assert str(got.value) == (f'{other}, line 2: a second header, for another run (what: '
                              f'"else" in the file, "demo" now); name a new file')


def test_a_task_must_be_a_top_level_function() -> None:
    with pytest.raises(ValueError, match="not a top-level function"):
        Task.of("x", lambda: {})


def test_the_process_pool_survives_a_killed_worker(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(execute, "dask_available", lambda: False)
    out = tmp_path / "run.jsonl"
    killed = []
    me = psutil.Process()

    def kill_one(row: dict) -> None:
        if not killed:
            pid = row["pid"]  # a pool process this run started
            assert pid in {c.pid for c in me.children(recursive=True)}
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    st = RunStats()
    rows = run(_tasks(12, 0.2), workers=2, output=out, header=HEADER, on_row=kill_one,
               stats=st)
    assert killed
    _exact(rows, 12)
    _exact(_file_rows(out), 12)
    # tester 6: the death was silent; now one line says it and what runs again
    err = capsys.readouterr().err
    assert "ddzspec: its worker process died; the worker processes are restarted and " in err
    assert "unfinished task(s) run again" in err


def test_ctrl_c_ends_the_process_pool_at_once(tmp_path: Path) -> None:
    """Tester 6: a Ctrl-C while the pool's tasks ran waited for them (8-24 s with solver
    tasks), and a second one hung the exit; now the workers are ended at once."""
    import threading
    me = psutil.Process()
    threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT)).start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in stream(_tasks(4, 30.0), workers=2, pool=True, output=tmp_path / "r.jsonl",
                        header=HEADER):
            pass
    assert time.monotonic() - t0 < 8  # the tasks sleep 30 s each
    # no pool worker left (multiprocessing's resource tracker lives as long as this process)
    workers = []
    for c in me.children(recursive=True):
        try:  # an ended worker not yet reaped is a zombie: dead, not left running
            if "resource_tracker" not in " ".join(c.cmdline()):
                workers.append(c)
        except (psutil.ZombieProcess, psutil.NoSuchProcess):
            pass
    _, alive = psutil.wait_procs(workers, timeout=5)
    assert not alive


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A ``dask scheduler`` and two ``dask worker`` processes (no nanny: killing one kills
    the worker) on 127.0.0.1, terminated at the end."""
    with (tmp_path / "dask.log").open("wb") as log, \
            dask_processes(2, nanny=False, log=log, timeout=60) as cluster:
        yield cluster


def test_a_real_scheduler_and_workers_with_one_killed_mid_run(
        tmp_path: Path, dask_cluster: tuple[str, list[subprocess.Popen[bytes]]]) -> None:
    address, workers = dask_cluster
    out = tmp_path / "run.jsonl"
    worker_pids = {w.pid for w in workers}
    killed: list[int] = []

    def kill_one(row: dict) -> None:
        assert row["pid"] in worker_pids
        if not killed:
            victim = next(w for w in workers if w.pid == row["pid"])
            victim.kill()  # a worker dies mid-run, with tasks on it
            victim.wait()
            killed.append(victim.pid)

    st = RunStats()
    t0 = time.perf_counter()
    rows = run(_tasks(12, 0.2), scheduler=address, output=out, header=HEADER,
               on_row=kill_one, stats=st)
    assert time.perf_counter() - t0 < 60
    assert st.backend == "dask" and killed
    _exact(rows, 12)
    _exact(_file_rows(out), 12)


def test_a_scheduler_that_cannot_be_reached_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(execute, "CONNECT_TIMEOUT", "1s")
    with pytest.raises(ExecuteError, match="cannot connect"):
        run(_tasks(1), scheduler=f"tcp://127.0.0.1:{_free_port()}")


def test_a_port_where_something_else_answers_is_not_called_a_cluster_that_cannot_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that is not a Dask scheduler (here one that answers every connection with an
    HTTP reply) made Dask read its bytes as a frame length and fail with 'MemoryError: Unable
    to allocate 3.07 EiB', reported as 'the Dask cluster cannot start'."""
    import socket
    import threading

    monkeypatch.setattr(execute, "CONNECT_TIMEOUT", "2s")
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    port = srv.getsockname()[1]

    def answer() -> None:
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 8)
            conn.close()

    threading.Thread(target=answer, daemon=True).start()
    try:
        with pytest.raises(ExecuteError) as got:
            run(_tasks(1), scheduler=f"tcp://127.0.0.1:{port}")
    finally:
        srv.close()
    msg = str(got.value)
    assert msg.startswith(f"--scheduler tcp://127.0.0.1:{port}: "), msg
    assert "cannot start" not in msg and "\n" not in msg, msg


def test_a_port_that_accepts_and_says_nothing_is_refused_in_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tester 8: --scheduler naming a service that accepts the connection and waits (a web
    server waiting for the rest of a request, here one that never writes) hung for ever:
    Dask waits for the scheduler's handshake with no time limit."""
    import socket
    import threading

    monkeypatch.setattr(execute, "CONNECT_TIMEOUT", "1s")
    monkeypatch.setattr(execute, "HANDSHAKE_GRACE", 1.0)
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen()
    port = srv.getsockname()[1]
    held = []

    def accept() -> None:
        while True:
            try:
                held.append(srv.accept()[0])  # kept open, never written to
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    t0 = time.monotonic()
    try:
        with pytest.raises(ExecuteError) as got:
            run(_tasks(1), scheduler=f"tcp://127.0.0.1:{port}")
    finally:
        srv.close()
        for c in held:
            c.close()
    assert time.monotonic() - t0 < 10
    assert str(got.value) == (f"--scheduler tcp://127.0.0.1:{port}: no Dask scheduler answers "
                              "there (something accepted the connection but did not answer "
                              "the handshake within 2 s)")


@pytest.mark.parametrize("port", ["99999", "0", "65536"])
def test_a_scheduler_port_out_of_range_is_refused_at_once(port: str) -> None:
    t0 = time.monotonic()
    with pytest.raises(ExecuteError) as got:  # was a 10 s connect time-out
        run(_tasks(1), scheduler=f"tcp://127.0.0.1:{port}")
    assert time.monotonic() - t0 < 2
    assert str(got.value) == (f"--scheduler tcp://127.0.0.1:{port}: {port} is not a port "
                              "(1 to 65535)")


def test_arena_on_two_workers_and_resumed_gives_the_library_figures(tmp_path: Path,
                                                                    cli: Any) -> None:
    from ddzspec import load_rules
    from ddzspec.players.arena import arena
    want = arena(load_rules("duel"), (2, 1), 4, seed=5).to_json()
    want.pop("seconds")
    out = tmp_path / "arena.jsonl"
    args = ("arena", "--rules", "duel", "--levels", "2,1", "--games", "4", "--seed", "5",
            "--json", "--output", str(out))
    code, text, _ = cli(*args, "--workers", "2")
    got = json.loads(text)
    got.pop("seconds")
    assert code == 0 and got == want
    lines = out.read_text().splitlines()
    assert len(lines) == 5  # the header and one row per duplicate deal
    rows = sorted((json.loads(x) for x in lines[1:]), key=lambda r: r["task"])
    assert [r["deal"] for r in rows] == [0, 1, 2, 3]
    assert all(len(r["seat_deals"]) == 4 for r in rows)  # 2 seats x 2 rotations
    # interrupted after two deals, the third torn: the rerun plays the rest only
    out.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])
    code, text, _ = cli(*args, "--workers", "1")
    got = json.loads(text)
    got.pop("seconds")
    assert code == 0 and got == want
    assert len(out.read_text().splitlines()) == 5
    code, _, err = cli("arena", "--rules", "duel", "--levels", "3,1", "--games", "4",
                        "--seed", "5", "--output", str(out))
    assert code == 2 and "written for another run" in err


def test_solve_batch_output_resumes_with_the_same_rows(tmp_path: Path, cli: Any) -> None:
    src = Path(__file__).parents[1] / "data" / "puzzles" / "two_seat.jsonl"
    batch = tmp_path / "b.jsonl"
    batch.write_text("".join(src.read_text().splitlines(keepends=True)[:2]))
    out = tmp_path / "rows.jsonl"
    code, first, _ = cli("solve", "--batch", str(batch), "--json", "--output", str(out))
    assert code == 0
    lines = out.read_text().splitlines()
    out.write_text("\n".join(lines[:2]) + "\n")  # stopped after one row
    code, again, _ = cli("solve", "--batch", str(batch), "--json", "--output", str(out))
    strip = [[{k: v for k, v in json.loads(x).items() if k != "seconds"}
              for x in t.splitlines()] for t in (first, again)]
    assert code == 0 and strip[0] == strip[1]
    assert [r["id"] for r in strip[0]] == ["DDZ2-01", "DDZ2-02"]
    assert len(out.read_text().splitlines()) == 3
    code, _, err = cli("solve", "--landlord", "3", "--peasant", "4", "--to-move", "landlord",
                        "--output", str(out))
    assert code == 2 and "go with --batch" in err


_ORPHAN = """
import os, sys, time
from ddzspec.execute.backends import _exit_with_parent
parent = os.getpid()
child = os.fork()
if child == 0:
    _exit_with_parent(0.1, parent)
    time.sleep(30)
    os._exit(0)
print(child, flush=True)
os._exit(0)  # the parent dies at once, as a killed one does
"""


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


# found by tester 3
def test_output_never_overwrites_a_file_that_is_not_ddzspec_s(tmp_path: Path, cli: Any) -> None:
    for text in ("x\n", "x", '{"a": 1}', "first\nsecond\n"):
        f = tmp_path / "one.txt"
        f.write_text(text)
        code, _, err = cli("arena", "--levels", "2,1", "--games", "1", "--workers", "1",
                           "--output", str(f))
        assert code == 2 and err.count("\n") == 1 and str(f) in err, err
        assert "not the output of a ddzspec run" in err
        assert f.read_text() == text


# found by tester 3
def test_a_scheduler_without_workers_says_so_and_gives_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    from ddzspec.execute import backends as execute
    monkeypatch.setattr(execute, "WORKER_TIMEOUT", 1.5)
    with (tmp_path / "dask.log").open("wb") as log, \
            dask_processes(0, log=log, timeout=60) as (address, _):
        code, _, err = cli("arena", "--levels", "2,1", "--games", "1", "--scheduler", address)
    lines = err.splitlines()
    assert code == 2 and len(lines) == 2
    assert lines[0] == f"ddzspec: waiting for workers on {address} (at most 1.5 s)"
    assert lines[1] == (f"ddzspec: error: --scheduler {address}: no worker joined within "
                        f"1.5 s (start one with `dask worker {address}`)")


# found by tester 3
def test_a_run_whose_workers_are_all_gone_fails_instead_of_waiting(tmp_path: Path) -> None:
    from ddzspec import execute
    from ddzspec.execute import ExecuteError, Task
    tasks = [Task.of(f"{i}", demo_task, n=i, seconds=0.3) for i in range(6)]
    rows: list[dict[str, object]] = []
    with (tmp_path / "dask.log").open("wb") as log, \
            dask_processes(1, nanny=False, log=log, timeout=60) as (address, workers), \
            pytest.raises(ExecuteError, match=r"every worker is gone .* for 1\.5 s"):
        for row in execute.stream(tasks, scheduler=address, worker_timeout=1.5,
                                  output=tmp_path / "run.jsonl", header={}):
            rows.append(row)
            workers[0].kill()  # the only worker dies, and nothing restarts it
    assert rows and len(rows) < 6  # what was done is kept in the output
    assert len((tmp_path / "run.jsonl").read_text().splitlines()) == 1 + len(rows)


# found by tester 3
def test_ctrl_c_while_the_cluster_starts_is_one_line_and_130() -> None:
    """A terminal's Ctrl-C reaches the whole process group, workers included, while they
    start: one line, exit 130, no worker traceback."""
    import os
    import signal
    import subprocess
    import sys
    import time

    def own_group() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.setpgrp()
    p = subprocess.Popen([sys.executable, "-m", "ddzspec", "arena", "--levels", "3,3",
                          "--games", "50", "--workers", "2"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=own_group)  # noqa: PLW1509
    time.sleep(1.6)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and err.strip() == "ddzspec: interrupted", err


# found by tester 3
def test_a_scheduler_that_is_no_address_names_the_option(cli: Any) -> None:
    code, _, err = cli("arena", "--levels", "2,1", "--games", "1", "--scheduler", "notaurl")
    assert code == 2 and err.startswith("ddzspec: error: --scheduler notaurl: not a scheduler "
                                        "address (tcp://HOST:PORT)")


# found by tester 9
@pytest.mark.skipif(not Path("/proc/self/stat").is_file(), reason="reads Linux's /proc")
def test_a_pool_worker_ends_when_its_parent_dies() -> None:
    """Before: a parent killed by SIGKILL or SIGTERM left its two workers (145 MiB each) and
    the resource tracker alive for good. Each worker now watches its parent."""
    out = subprocess.run([sys.executable, "-c", _ORPHAN], capture_output=True, text=True,
                         check=True, timeout=60)
    child = int(out.stdout.split()[0])
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child)


# found by a fresh tester
def test_a_huge_foreign_output_is_judged_by_its_start_never_read_whole(tmp_path: Path) -> None:
    """A 2 GiB file named as --output was read whole (16 s, 2.65 GB) before being refused."""
    import tracemalloc
    f = tmp_path / "sp.jsonl"
    with f.open("wb") as w:
        w.truncate(2 * 1024 ** 3)  # sparse: NUL bytes
    tracemalloc.start()
    try:
        with pytest.raises(ExecuteError, match="not the output of a ddzspec run"):
            read_output(f)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1024 ** 2 and f.stat().st_size == 2 * 1024 ** 3
