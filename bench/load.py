"""Load on the web table: ``ddzspec serve`` started on 127.0.0.1 (a free port, a
fresh data folder), then 50 and 200 simulated players, each playing deals to the end over its
own kept-alive connection (a tenth of them against a level-3 computer, which thinks 0.5 s a
move in the server's thinking queue; the others against levels 1 and 2). Meanwhile a probe
reads a deal (``GET /api/games/{id}``) every 50 ms.

Printed per run: the wall time, deals finished and requests answered per second, the busy
answers (503, retried after their Retry-After), the probe's p50 / p99 / max while the
computers think, the server's peak memory (VmHWM, Linux), and the replay of every autosave
(each file replayed action by action; a finished deal must end as it was saved).

Bounded: 127.0.0.1 only, at most 500 players and 5 deals each, every request with a timeout.

Usage: ``python bench/load.py [--players 50 200] [--deals 1] [--level3 0.1]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HOST = "127.0.0.1"


class Server:
    """``ddzspec serve`` in a subprocess on 127.0.0.1, a free port, ``data`` as its folder."""

    def __init__(self, data: Path) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "ddzspec", "serve", "--host", HOST, "--port", "0",
             "--data-dir", str(data)], stdout=subprocess.PIPE, text=True, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "http://" not in line:
            self.stop()
            raise SystemExit(f"the server did not start: {line!r}")
        self.port = int(line.split(f"http://{HOST}:")[1].split("/")[0])

    def peak_rss_mib(self) -> float:
        """The server's peak resident memory, MiB (VmHWM; 0 where /proc is missing)."""
        try:
            for ln in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if ln.startswith("VmHWM:"):
                    return int(ln.split()[1]) / 1024
        except OSError:
            pass
        return 0.0

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(20)


class Client:
    """One kept-alive connection; counts requests and busy answers (retried)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection(HOST, port, timeout=120)
        self.requests = 0
        self.busy = 0

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        data = None if body is None else json.dumps(body)
        for _ in range(600):
            try:
                self.conn.request(method, path, data, headers)
                r = self.conn.getresponse()
                out = json.loads(r.read())
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()  # a connection closed by the server: open another
                continue
            self.requests += 1
            if r.status == 503:
                self.busy += 1
                time.sleep(float(r.headers.get("Retry-After", "1")))
                continue
            if r.status >= 400:
                raise RuntimeError(f"{method} {path}: {r.status} {out}")
            return out
        raise RuntimeError(f"{method} {path}: busy for 600 tries")


def choose(g: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A person's action from the offered choices: a random bid, call or rob; the smallest
    move, or a pass half the time when one is allowed (always when nothing beats)."""
    legal = g["legal"]
    if legal["kind"] == "bid":
        return {"kind": "bid", "value": rng.choice(legal["choices"])}
    if legal["kind"] in ("call", "rob"):
        return {"kind": legal["kind"], "value": rng.choice(legal["choices"])}
    if legal["can_pass"] and (not legal["moves"] or rng.random() < 0.5):
        return {"kind": "pass"}
    return {"kind": "play", "cards": legal["moves"][0]}


def player(port: int, index: int, deals: int, level3: bool, stats: dict[str, Any]) -> None:
    """Play ``deals`` classic deals to the end at seat 0."""
    rng = random.Random(index)
    c = Client(port)
    for d in range(deals):
        levels = [0, 3, 1] if level3 else [0, rng.choice((1, 2)), rng.choice((1, 2))]
        g = c.call("POST", "/api/games", {"rules": "classic", "seat": 0, "levels": levels,
                                          "seed": index * 100 + d})
        while g["result_lines"] is None:
            if g["computer_to_act"]:
                g = c.call("POST", f"/api/games/{g['id']}/computer")
            else:
                g = c.call("POST", f"/api/games/{g['id']}/action", choose(g, rng))
        with stats["lock"]:
            stats["deals"] += 1
    with stats["lock"]:
        stats["requests"] += c.requests
        stats["busy"] += c.busy


def probe(port: int, stop: threading.Event, times: list[float]) -> None:
    """Read one deal every 50 ms until ``stop``; its answer times, seconds."""
    c = Client(port)
    gid = c.call("POST", "/api/games", {"rules": "classic", "seat": 0, "levels": 1})["id"]
    while not stop.is_set():
        t0 = time.perf_counter()
        c.call("GET", f"/api/games/{gid}")
        times.append(time.perf_counter() - t0)
        stop.wait(0.05)


def check_autosaves(folder: Path) -> tuple[int, int, list[str]]:
    """Replay every autosave: (files, finished deals, problems)."""
    from ddzspec.game.record import Record, replay
    problems, finished, n = [], 0, 0
    for p in sorted(folder.glob("*.json")):
        n += 1
        try:
            obj = json.loads(p.read_text(encoding="utf-8"))
            rec = Record.from_json(obj["record"])
            rep = replay(rec)
        except Exception as e:  # a bench reports every failure and goes on
            problems.append(f"{p.name}: {e}")
            continue
        if rep.error is not None:
            problems.append(f"{p.name}: action {rep.error_index}: {rep.error}")
        elif rec.result is not None:
            finished += 1
            if rep.state.result is None:
                problems.append(f"{p.name}: saved as finished, replays unfinished")
    return n, finished, problems


def run(players: int, deals: int, share3: float) -> None:
    with tempfile.TemporaryDirectory(prefix="ddzspec-load-") as tmp:
        srv = Server(Path(tmp))
        try:
            stats: dict[str, Any] = {"lock": threading.Lock(), "deals": 0, "requests": 0,
                                     "busy": 0}
            n3 = max(1, round(players * share3))
            stop = threading.Event()
            times: list[float] = []
            pr = threading.Thread(target=probe, args=(srv.port, stop, times), daemon=True)
            pr.start()
            errors: list[str] = []

            def one(i: int) -> None:
                try:
                    player(srv.port, i, deals, i < n3, stats)
                except Exception as e:  # counted and shown, the others go on
                    errors.append(f"player {i}: {e}")
            t0 = time.perf_counter()
            ths = [threading.Thread(target=one, args=(i,), daemon=True)
                   for i in range(players)]
            for th in ths:
                th.start()
            for th in ths:
                th.join(1800)
            wall = time.perf_counter() - t0
            stop.set()
            pr.join(10)
            rss = srv.peak_rss_mib()
        finally:
            srv.stop()
        files, finished, problems = check_autosaves(Path(tmp) / "web-games")
    ms = sorted(t * 1000 for t in times)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else 0.0
    print(f"{players} players ({n3} against a level-3 computer), {deals} deal(s) each: "
          f"{wall:.1f} s")
    print(f"  {stats['deals']} deals finished ({stats['deals'] / wall:.2f}/s), "
          f"{stats['requests']} requests ({stats['requests'] / wall:.0f}/s), "
          f"{stats['busy']} busy answers (503, retried), {len(errors)} errors")
    if ms:
        print(f"  GET a deal while computers think: p50 {statistics.median(ms):.1f} ms, "
              f"p99 {p99:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} probes)")
    print(f"  server peak RSS {rss:.0f} MiB")
    print(f"  autosaves: {files} files replayed, {finished} finished deals, "
          f"{len(problems)} problems")
    for line in (errors + problems)[:10]:
        print(f"    {line}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[50, 200])
    ap.add_argument("--deals", type=int, default=1, help="deals per player (1-5)")
    ap.add_argument("--level3", type=float, default=0.1,
                    help="the share of players against a level-3 computer")
    a = ap.parse_args()
    if not all(1 <= p <= 500 for p in a.players) or not 1 <= a.deals <= 5 or \
            not 0 <= a.level3 <= 1:
        ap.error("1-500 players, 1-5 deals, a level-3 share from 0 to 1")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for p in a.players:
        run(p, a.deals, a.level3)


if __name__ == "__main__":
    main()
