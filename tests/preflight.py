"""What the tests need from the machine that pip cannot install, brought before any test runs.

The browser tests drive the OS packages' Chromium at /usr/bin/chromium (never a browser download
of Playwright's own); the compiled solver core's test builds C extensions, so it needs a C
compiler and this Python's headers. A test module says so with ``pytestmark =
pytest.mark.needs("chromium")`` (or ``"cc"``, ``"python-headers"``). Once the tests are
collected, tests/conftest.py calls :func:`preflight` with the needs of the selected ones: what
is missing is installed with Debian's apt-get, as root or through ``sudo -n`` when that works,
in one line saying so; when it cannot be installed, the session stops before any test runs with
one line naming what is missing and the command that installs it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")


@dataclass(frozen=True)
class Prerequisite:
    what: str  # as the messages name it
    packages: tuple[str, ...]  # Debian's packages that bring it; () when apt-get cannot
    present: Callable[[], bool]
    hint: str = ""  # how to get it when no package brings it


def prerequisites() -> dict[str, Prerequisite]:
    """The prerequisites by the names the ``needs`` marker uses, for this machine and Python."""
    cc = (shlex.split(os.environ.get("CC", "")) or ["cc"])[0]  # as hatch_build.py: CC, else cc
    include = Path(sysconfig.get_paths()["include"])
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    debian_python = sys.base_prefix == "/usr"  # Debian's Python: its headers are a package
    return {
        "chromium": Prerequisite(f"{CHROMIUM} (the browser tests)", ("chromium",),
                                 lambda: os.access(CHROMIUM, os.X_OK)),
        "cc": Prerequisite(f"a C compiler, {cc} (the compiled solver core's test)",
                           ("gcc", "libc6-dev"), lambda: shutil.which(cc) is not None),
        "python-headers": Prerequisite(
            f"the headers of Python {version}, {include / 'Python.h'} (the compiled solver "
            "core's test)", (f"python{version}-dev",) if debian_python else (),
            (include / "Python.h").is_file,
            hint=f"install Python {version} with its headers (its development files)"),
    }


def installer(*, which: Callable[[str], str | None] = shutil.which,
              euid: Callable[[], int] = os.geteuid,
              run: Callable[..., subprocess.CompletedProcess[bytes]] = subprocess.run
              ) -> list[str] | None:
    """The prefix of a command that installs OS packages here: ``[]`` as root, ``["sudo",
    "-n"]`` when sudo works without a password; None without apt-get, or without either."""
    if which("apt-get") is None:
        return None
    if euid() == 0:
        return []
    if which("sudo") is not None and run(["sudo", "-n", "true"], stdin=subprocess.DEVNULL,
                                         capture_output=True).returncode == 0:
        return ["sudo", "-n"]
    return None


def preflight(needed: Sequence[str], *, known: dict[str, Prerequisite] | None = None,
              prefix: Callable[[], list[str] | None] = installer,
              run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
              say: Callable[[str], None] = print) -> str | None:
    """None when the ``needed`` prerequisites are present, installed now if they must be (said
    in one line); else the one line that stops the session: what is missing and its command."""
    known = prerequisites() if known is None else known
    missing = [known[n] for n in dict.fromkeys(needed) if not known[n].present()]
    if not missing:
        return None
    packages = [p for m in missing for p in m.packages]
    failed = ""
    cmd = prefix() if packages else None
    if cmd is not None:
        say(f"ddzspec tests: missing {_names(missing)}: installing {' '.join(packages)} with "
            "apt-get")
        apt = [*cmd, "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-q", "-y"]
        for step in (["update"], ["install", *packages]):
            done = run([*apt, *step], stdin=subprocess.DEVNULL, capture_output=True, text=True)
            if done.returncode != 0:
                lines = (done.stderr or done.stdout or "").strip().splitlines()
                failed = f" (apt-get {step[0]} failed: {lines[-1] if lines else done.returncode})"
                break
        missing = [m for m in missing if not m.present()]
        if not missing:
            return None
    packages = [p for m in missing for p in m.packages]
    how = " and ".join(([f"sudo apt-get install -y {' '.join(packages)}"] if packages else [])
                       + [m.hint for m in missing if not m.packages])
    return f"ddzspec tests: missing {_names(missing)}{failed}: {how}, then run the tests again"


def _names(missing: list[Prerequisite]) -> str:
    return "; ".join(m.what for m in missing)
