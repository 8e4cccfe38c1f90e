"""Input files of every command: an endless input (/dev/zero) is one line, not all memory;
``read_input`` caps files and standard input; a UTF-8 byte-order mark is read in positions,
batch files and records as in rules files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest


# found by tester 5
@pytest.mark.parametrize("args", [("solve", "/dev/zero"), ("solve", "--batch", "/dev/zero"),
                                  ("puzzles", "check", "/dev/zero"),
                                  ("puzzles", "play", "/dev/zero"), ("replay", "/dev/zero")])
def test_an_endless_input_is_one_line_not_all_memory(args: tuple[str, ...], cli: Any) -> None:
    code, _, err = cli(*args)
    assert code == 2 and err.count("\n") == 1
    assert "/dev/zero" in err and "larger than 64 MiB: not an input file" in err


# found by tester 5
def test_read_input_caps_files_and_standard_input(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import io

    from ddzspec._io import read_input
    f = tmp_path / "p.txt"
    f.write_text("landlord: 3\n")
    assert read_input(f, limit=12) == "landlord: 3\n"
    with pytest.raises(OSError) as e:
        read_input(f, limit=11)
    assert e.value.errno == errno.EFBIG and "larger than" in str(e.value.strerror)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"x" * 20)))
    with pytest.raises(OSError):
        read_input("-", limit=19)
    monkeypatch.setattr("sys.stdin", io.StringIO("peasant: 4\n"))  # no .buffer
    assert read_input("-", limit=11) == "peasant: 4\n"


# found by tester 6
def test_a_byte_order_mark_is_read_as_the_rules_files_read_it(tmp_path: Path, cli: Any) -> None:
    """Tester 6: a UTF-8 byte-order mark (Windows Notepad writes one) was accepted in rules
    files but refused in positions, batch files and records."""
    bom = "\ufeff"
    pos = tmp_path / "bom.pos"
    pos.write_text(bom + "rules classic\nlandlord: 33\npeasant: 4\nto_move: landlord\n",
                   encoding="utf-8")
    code, out, err = cli("solve", str(pos), "--json")
    assert code == 0 and json.loads(out)["winning_moves"] == ["33"], err
    batch = tmp_path / "bom.jsonl"
    batch.write_text(bom + json.dumps({"id": "b", "position": pos.read_text(
        encoding="utf-8-sig")}) + "\n", encoding="utf-8")
    code, out, err = cli("solve", "--batch", str(batch), "--workers", "1", "--json")
    assert code == 0 and '"winning_moves": ["33"]' in out, err
    rec = tmp_path / "rec.json"
    code, _, err = cli("play", "--rules", "duel", "--seed", "3", "--levels", "1,1",
                       "--save", str(rec))
    assert code == 0, err
    rec.write_text(bom + rec.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = cli("replay", str(rec))
    assert code == 0, err


@pytest.mark.parametrize(("shell", "code", "stderr"), [
    # a closed standard output: one line, exit 74, before any work
    ("read 33 >&-", 74, "ddzspec: error: standard output is closed\n"),
    # a closed standard input reads as an empty one
    ("solve - <&-", 2, "ddzspec: error: <stdin>: no hands given (e.g. 'landlord: 33', "
                       "'peasant: 44')\n"),
    ("puzzles play DDZ2-15 <&-", 0, ""),
    ("read 33 2>&-", 0, ""),
])
def test_a_closed_standard_stream_is_one_line_never_a_traceback(
        shell: str, code: int, stderr: str) -> None:
    """``ddzspec read 33 >&-`` ended in an AttributeError traceback and exit 1; ``<&-`` in
    ``input(): lost sys.stdin`` (found by a tester)."""
    done = subprocess.run(["bash", "-c", f"{sys.executable} -m ddzspec {shell}"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (code, stderr)
