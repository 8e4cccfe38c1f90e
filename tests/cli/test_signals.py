"""The command line interrupted: Ctrl-C (while working, or while the CLI is still being
imported) is one line and exit 130; a closed pipe is exit 141 without a message."""

from __future__ import annotations

import pytest


# found by tester 2
def test_ctrl_c_is_one_line_and_exit_130() -> None:
    import signal
    import subprocess
    import sys
    import time
    p = subprocess.Popen([sys.executable, "-m", "ddzspec", "arena", "--levels", "3,3",
                          "--games", "50"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True,
                         # a job started in the background inherits SIGINT ignored: restore it
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509
    time.sleep(2.5)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130 and err.strip() == "ddzspec: interrupted"


# found by tester 3
@pytest.mark.parametrize("args", [("explain", "3333"), ("rules", "overview", "classic")])
def test_a_closed_pipe_exits_141_without_a_message(args: tuple[str, ...]) -> None:
    import os
    import subprocess
    import sys
    r, w = os.pipe()
    os.close(r)  # the reader is gone before anything is written: every write fails
    try:
        p = subprocess.run([sys.executable, "-m", "ddzspec", *args], check=False, stdout=w,
                           stderr=subprocess.PIPE, timeout=60)
    finally:
        os.close(w)
    assert p.returncode == 141 and p.stderr == b""


# found by tester 5
def test_ctrl_c_while_the_cli_is_imported_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from ddzspec import _entry

    def interrupted(name: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(_entry, "import_module", interrupted)
    with pytest.raises(SystemExit) as e:
        _entry.main()
    assert e.value.code == 130 and capsys.readouterr().err == "\nddzspec: interrupted\n"
