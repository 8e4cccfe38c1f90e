"""Atomic writes: a failed write never leaves a truncated or empty record, never
destroys an existing file and leaves no temporary file; ``play --save`` checks its path before
playing."""

from __future__ import annotations

import errno
import io
import json
import os
from pathlib import Path
from typing import Any

import pytest

from ddzspec._io import write_atomic, write_problem
from ddzspec.game import GameState
from ddzspec.game.record import RecordError, load, save
from ddzspec.rules import load_rules


class _DiskFull(io.RawIOBase):
    """A file that takes ``room`` bytes, then fails with ENOSPC (a full disk mid-write)."""

    def __init__(self, fd: int, room: int) -> None:
        self.fd, self.room = fd, room

    def writable(self) -> bool:
        return True

    def write(self, b: Any) -> int:
        data = bytes(b)[:self.room]
        os.write(self.fd, data)
        self.room -= len(data)
        if not self.room:
            raise OSError(errno.ENOSPC, "No space left on device")
        return len(data)

    def close(self) -> None:
        if not self.closed:
            os.close(self.fd)
        super().close()


def test_write_atomic_writes_and_replaces(tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    write_atomic(f, "first\n")
    assert f.read_text() == "first\n"
    umask = os.umask(0)
    os.umask(umask)
    assert f.stat().st_mode & 0o777 == 0o666 & ~umask
    f.chmod(0o640)
    write_atomic(f, "second ✓\n")
    assert f.read_text(encoding="utf-8") == "second ✓\n"
    assert f.stat().st_mode & 0o777 == 0o640  # an existing file keeps its mode
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


@pytest.mark.parametrize("room", [0, 5, 100])
def test_a_full_disk_mid_write_keeps_the_old_file(tmp_path: Path, room: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "r.json"
    f.write_text("old record\n")
    monkeypatch.setattr("ddzspec._io.os.fdopen", lambda fd, mode: _DiskFull(fd, room))
    with pytest.raises(OSError) as e:
        write_atomic(f, "x" * 1000)
    assert e.value.errno == errno.ENOSPC
    assert f.read_text() == "old record\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]  # no temporary file left


@pytest.mark.parametrize("step", ["fsync", "replace"])
def test_a_failure_before_the_rename_keeps_the_old_file(tmp_path: Path, step: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "r.json"
    f.write_text("old record\n")

    def boom(*args: object) -> None:
        raise OSError(errno.EIO, "Input/output error")
    monkeypatch.setattr(f"ddzspec._io.os.{step}", boom)
    with pytest.raises(OSError):
        write_atomic(f, "new record\n")
    assert f.read_text() == "old record\n"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_an_unencodable_text_writes_nothing(tmp_path: Path) -> None:
    f = tmp_path / "new.json"
    with pytest.raises(UnicodeEncodeError):
        write_atomic(f, "\ud800")
    assert list(tmp_path.iterdir()) == []


def test_write_problem_names_what_is_wrong(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    assert write_problem(tmp_path / "ok.json") is None
    assert write_problem(tmp_path) == "is a folder"
    assert write_problem(tmp_path / "no" / "x.json") == f"no folder {str(tmp_path / 'no')!r}"
    assert write_problem(tmp_path / "file" / "x.json") == \
        f"{str(tmp_path / 'file')!r} is not a folder"
    with pytest.raises(OSError) as e:
        write_atomic(tmp_path, "x")
    assert e.value.errno == errno.EISDIR and tmp_path.is_dir()


def test_save_failing_mid_write_keeps_the_previous_record(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    rules = load_rules("classic")
    f = tmp_path / "r.json"
    first = GameState.new(rules, seed=1)
    save(first, f)
    before = f.read_text()
    monkeypatch.setattr("ddzspec._io.os.fdopen", lambda fd, mode: _DiskFull(fd, 50))
    with pytest.raises(RecordError, match="cannot write: No space left on device"):
        save(GameState.new(rules, seed=2), f)
    assert f.read_text() == before and json.loads(before)["deal"] == {"seed": 1}
    assert load(f).seed == 1
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


@pytest.mark.parametrize("bad", ["no/x.json", ".", "file/x.json"])
def test_play_games_checks_the_save_path_before_playing(tmp_path: Path, bad: str,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        cli: Any) -> None:
    (tmp_path / "file").write_text("")
    monkeypatch.chdir(tmp_path)
    from ddzspec.cli import game as cli_game

    def no_deal(*args: object) -> None:
        raise AssertionError("a deal was played before the path was checked")
    monkeypatch.setattr(cli_game, "self_play", no_deal)
    for games in ("1", "1000"):
        res = cli("play", "--games", games, "--save", bad)
        assert res.exit_code == 2, res.output
        assert res.stderr.startswith(f"ddzspec: error: {bad}: cannot write: ")
        assert res.stdout == ""


def test_write_atomic_may_refuse_an_existing_file(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """``overwrite=False``: a new file is written whole; an existing one is refused and kept,
    also one that appears while the text is being written (the name is taken atomically)."""
    from ddzspec._io import EXISTS
    f = tmp_path / "new.json"
    write_atomic(f, "first\n", overwrite=False)
    assert f.read_text() == "first\n"
    with pytest.raises(FileExistsError) as e:
        write_atomic(f, "second\n", overwrite=False)
    assert e.value.strerror == EXISTS == "the file exists"
    assert write_problem(f, overwrite=False) == EXISTS and write_problem(f) is None
    real = os.fsync

    def appears(fd: int) -> None:  # another program creates the file mid-write
        real(fd)
        if not (tmp_path / "late.json").exists():
            (tmp_path / "late.json").write_text("theirs\n")
    monkeypatch.setattr("ddzspec._io.os.fsync", appears)
    with pytest.raises(FileExistsError):
        write_atomic(tmp_path / "late.json", "mine\n", overwrite=False)
    assert (tmp_path / "late.json").read_text() == "theirs\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["late.json", "new.json"]


def test_commands_refuse_to_overwrite_a_file_without_force(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    """Tester 7: ``play --save FILE`` replaced an existing FILE without a word. Every command
    writing a file (play --save, also with --seat; puzzles generate --output; balance --plot)
    refuses an existing one in one line, exit 2, before any work; --force overwrites it."""
    from ddzspec.cli import game as cli_game
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for name in ("r.json", "p.jsonl", "b.png"):
        (tmp_path / name).write_text("mine\n")

    def no_deal(*args: object) -> None:
        raise AssertionError("a deal was played before the path was checked")
    with monkeypatch.context() as m:
        m.setattr(cli_game, "self_play", no_deal)
        for args in (["play", "--save", "r.json"], ["play", "--games", "3", "--save", "r.json"],
                     ["play", "--seat", "0", "--save", "r.json"],
                     ["puzzles", "generate", "--output", "p.jsonl"],
                     ["balance", "classic", "--plot", "b.png"]):
            res = cli(*args, input="quit\n")
            file = args[-1]
            assert (res.exit_code, res.stdout) == (2, ""), (args, res.output)
            assert res.stderr == (f"ddzspec: error: {file}: cannot write: the file exists; "
                                  "give --force to overwrite it\n"), args
    assert all((tmp_path / n).read_text() == "mine\n" for n in ("r.json", "p.jsonl", "b.png"))
    res = cli("play", "--seed", "1", "--save", "r.json", "--force")
    assert res.exit_code == 0, res.output
    assert load(tmp_path / "r.json").seed == 1
    res = cli("play", "--seat", "0", "--seed", "2", "--save", "r.json",
              "--force", input="quit\n")
    assert res.exit_code == 0 and "the deal is saved" in res.output, res.output
    assert load(tmp_path / "r.json").seed == 2
    # resuming keeps saving to the --resume file itself (its own deal: no --force needed)
    res = cli("play", "--resume", "r.json", "--save", "./r.json",
              input="quit\n")
    assert res.exit_code == 0 and "the deal is saved" in res.output, res.output
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == \
        ["b.png", "p.jsonl", "r.json"]  # no temporary file left


def test_the_default_autosave_never_takes_an_existing_deals_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``play --seat`` without --save names its file by the second it started: a second deal
    started in the same second gets ``-2`` (it replaced the first one's record)."""
    from ddzspec.cli.seat import default_save_path
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setattr("time.strftime", lambda fmt: "20261201-120000")
    rules = load_rules("classic")
    first = default_save_path(rules)
    assert first == tmp_path / "ddzspec" / "games" / "classic-20261201-120000.json"
    first.parent.mkdir(parents=True)
    first.write_text("a deal\n")
    assert default_save_path(rules).name == "classic-20261201-120000-2.json"


def test_a_symbolic_link_is_written_through(tmp_path: Path) -> None:
    """Tester F2: writing to a symbolic link replaced the link by a regular file and left its
    target as it was. The target is the file replaced (atomically); the link stays a link."""
    (tmp_path / "data").mkdir()
    target = tmp_path / "data" / "record.json"
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "link.json"
    link.symlink_to(Path("data") / "record.json")
    assert write_problem(link) is None
    write_atomic(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(Path("data") / "record.json")
    assert target.read_text() == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["record.json"]
    # a dangling link: its target is created, the link kept
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "data" / "later.json")
    write_atomic(dangling, "later\n")
    assert dangling.is_symlink() and (tmp_path / "data" / "later.json").read_text() == "later\n"
    # overwrite=False refuses the link as it refuses a file
    with pytest.raises(FileExistsError):
        write_atomic(link, "no\n", overwrite=False)
    assert write_problem(link, overwrite=False) == "the file exists"
    assert target.read_text() == "new\n"


def test_a_fifo_socket_or_device_is_refused(tmp_path: Path, cli: Any) -> None:
    """Tester F2: a FIFO (or a socket, a device) given as the output is refused in one line,
    exit 2, at once (never waiting for a reader, never replaced by a file)."""
    import socket
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    sock_path = tmp_path / "out.sock"
    sock = socket.socket(socket.AF_UNIX)
    try:
        sock.bind(str(sock_path))
        assert write_problem(fifo) == "is a FIFO, not a regular file"
        assert write_problem(sock_path) == "is a socket, not a regular file"
        assert write_problem("/dev/null") == "is a device, not a regular file"
        with pytest.raises(OSError) as e:
            write_atomic(fifo, "x\n")
        assert (e.value.errno, e.value.strerror) == (errno.EINVAL,
                                                      "is a FIFO, not a regular file")
        with pytest.raises(OSError) as e:  # not "the file exists; give --force"
            write_atomic(fifo, "x\n", overwrite=False)
        assert e.value.strerror == "is a FIFO, not a regular file"
        assert write_problem(fifo, overwrite=False) == "is a FIFO, not a regular file"
        link = tmp_path / "to-fifo"
        link.symlink_to(fifo)
        assert write_problem(link) == "is a FIFO, not a regular file"
    finally:
        sock.close()
    import stat
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    res = cli("play", "--seed", "1", "--save", str(fifo), "--force")
    assert (res.exit_code, res.stdout) == (2, "")
    assert res.stderr == (f"ddzspec: error: {fifo}: cannot write: is a FIFO, not a regular "
                          "file\n")
    plot = tmp_path / "plot.png"
    os.mkfifo(plot)
    for args in (["play", "--seed", "1", "--save", str(fifo)],
                 ["balance", "classic", "--plot", str(plot)]):
        res = cli(*args)
        assert (res.exit_code, res.stderr) == (2, f"ddzspec: error: {args[-1]}: cannot write: "
                                                  "is a FIFO, not a regular file\n"), args


# found by a fresh tester
def test_play_save_to_a_bad_path(tmp_path: Path, cli: Any) -> None:
    code, _, err = cli("play", "--save", str(tmp_path / "no" / "x.json"))
    assert code == 2 and "cannot write" in err
    code, _, err = cli("play", "--save", str(tmp_path))
    assert code == 2 and "cannot write" in err


# found by tester 1
def test_a_folder_that_takes_no_new_file_is_refused_before_playing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any) -> None:
    """Tester 1 §9: saving to /proc/version said "No such file or directory" (the temporary
    file could not be created in /proc). The folder is probed before playing and named."""
    import errno
    import os

    from ddzspec import _io
    real_open = os.open

    def refuse(path: object, *a: object, **kw: object) -> int:
        if str(path).endswith(".tmp"):
            raise OSError(errno.ENOENT, "No such file or directory", str(path))
        return real_open(path, *a, **kw)  # type: ignore[arg-type]
    monkeypatch.setattr(_io.os, "open", refuse)
    target = tmp_path / "version"
    target.write_text("kept\n")
    code, out, err = cli("play", "--seed", "1", "--save", str(target), "--force")
    assert (code, out) == (2, "")
    assert err == (f"ddzspec: error: {target}: cannot write: no file can be created in folder "
                   f"'{tmp_path}' (No such file or directory)\n")
    assert target.read_text() == "kept\n"


# found by tester 5
def test_a_device_is_no_output_file(cli: Any) -> None:
    batch = str(Path(__file__).parents[2] / "examples" / "puzzles.jsonl")
    code, _, err = cli("solve", "--batch", batch, "--output", "/dev/full")
    assert (code, err) == (2, "ddzspec: error: /dev/full: not a regular file (an output file "
                              "is read back to resume a run): name a file\n")
