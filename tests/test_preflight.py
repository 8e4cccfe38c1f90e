"""The test session's preflight (tests/preflight.py): what it installs, with which command, and
the one line that stops the session when it cannot. The machine is faked: prerequisites whose
presence the test sets, the installer's prefix, and a ``run`` that records the commands."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

pf = sys.modules["ddzspec_tests_preflight"]  # tests/preflight.py, loaded by tests/conftest.py


class Machine:
    """Which prerequisites are present; apt-get installs the packages it is asked for, or fails
    at ``fail_at`` ("update" or "install") with apt's last line."""

    def __init__(self, present: set[str], fail_at: str = "") -> None:
        self.present, self.fail_at = set(present), fail_at
        self.commands: list[list[str]] = []
        self.said: list[str] = []
        self.known = {
            "chromium": pf.Prerequisite("/usr/bin/chromium (the browser tests)", ("chromium",),
                                        lambda: "chromium" in self.present),
            "cc": pf.Prerequisite("a C compiler, cc (the compiled solver core's test)",
                                  ("gcc", "libc6-dev"), lambda: "gcc" in self.present),
            "python-headers": pf.Prerequisite(
                "the headers of Python 3.11, /py/include/Python.h (the compiled solver core's "
                "test)", (), lambda: "headers" in self.present,
                hint="install Python 3.11 with its headers (its development files)"),
        }

    def run(self, cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        assert kw["stdin"] is subprocess.DEVNULL and kw["capture_output"] and kw["text"]
        self.commands.append(cmd)
        step = cmd[cmd.index("-y") + 1]
        if step == self.fail_at:
            return subprocess.CompletedProcess(cmd, 100, "", "Reading package lists...\n"
                                               "E: Could not open lock file\n")
        if step == "install":
            self.present |= set(cmd[cmd.index("install") + 1:])
        return subprocess.CompletedProcess(cmd, 0, "", "")

    def preflight(self, needed: list[str], prefix: list[str] | None) -> str | None:
        result: str | None = pf.preflight(needed, known=self.known, prefix=lambda: prefix,
                                          run=self.run, say=self.said.append)
        return result


def test_nothing_missing_runs_nothing() -> None:
    m = Machine({"chromium", "gcc"})
    assert m.preflight(["chromium", "cc", "chromium"], prefix=[]) is None
    assert m.preflight([], prefix=None) is None
    assert m.commands == [] and m.said == []


def test_a_missing_browser_is_installed_as_root_in_one_line() -> None:
    m = Machine({"gcc"})
    assert m.preflight(["chromium", "cc"], prefix=[]) is None
    assert m.said == ["ddzspec tests: missing /usr/bin/chromium (the browser tests): installing "
                      "chromium with apt-get"]
    apt = ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-q", "-y"]
    assert m.commands == [[*apt, "update"], [*apt, "install", "chromium"]]


def test_through_sudo_both_packages_at_once() -> None:
    m = Machine(set())
    assert m.preflight(["chromium", "cc"], prefix=["sudo", "-n"]) is None
    apt = ["sudo", "-n", "env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "-q", "-y"]
    assert m.commands == [[*apt, "update"], [*apt, "install", "chromium", "gcc", "libc6-dev"]]
    assert m.said == ["ddzspec tests: missing /usr/bin/chromium (the browser tests); a C "
                      "compiler, cc (the compiled solver core's test): installing chromium gcc "
                      "libc6-dev with apt-get"]


def test_without_a_way_to_install_one_line_names_what_and_the_command() -> None:
    m = Machine({"gcc"})
    assert m.preflight(["chromium"], prefix=None) == (
        "ddzspec tests: missing /usr/bin/chromium (the browser tests): sudo apt-get install -y "
        "chromium, then run the tests again")
    assert m.commands == [] and m.said == []


@pytest.mark.parametrize("step", ["update", "install"])
def test_a_failed_apt_get_is_named_with_its_last_line(step: str) -> None:
    m = Machine(set(), fail_at=step)
    stop = m.preflight(["cc"], prefix=[])
    assert stop == ("ddzspec tests: missing a C compiler, cc (the compiled solver core's test) "
                    f"(apt-get {step} failed: E: Could not open lock file): sudo apt-get "
                    "install -y gcc libc6-dev, then run the tests again")
    assert len(m.commands) == (1 if step == "update" else 2)


def test_what_no_package_brings_is_named_with_its_hint_after_the_rest_is_installed() -> None:
    m = Machine(set())
    stop = m.preflight(["cc", "python-headers"], prefix=[])
    assert [c[-2:] for c in m.commands] == [["-y", "update"], ["gcc", "libc6-dev"]]
    assert stop == ("ddzspec tests: missing the headers of Python 3.11, /py/include/Python.h "
                    "(the compiled solver core's test): install Python 3.11 with its headers "
                    "(its development files), then run the tests again")


@pytest.mark.parametrize("apt,euid,sudo_code,want", [
    (True, 0, None, []),                   # root: apt-get itself
    (True, 1000, 0, ["sudo", "-n"]),       # sudo without a password
    (True, 1000, 1, None),                 # sudo wants a password
    (True, 1000, "absent", None),          # no sudo
    (False, 0, None, None),                # no apt-get (not Debian)
])
def test_the_installer_prefix(apt: bool, euid: int, sudo_code: object, want: object) -> None:
    ran: list[list[str]] = []

    def which(name: str) -> str | None:
        if name == "apt-get":
            return "/usr/bin/apt-get" if apt else None
        return None if sudo_code == "absent" else "/usr/bin/sudo"

    def run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[bytes]:
        ran.append(cmd)
        return subprocess.CompletedProcess(cmd, int(str(sudo_code)))

    assert pf.installer(which=which, euid=lambda: euid, run=run) == want
    assert ran == ([["sudo", "-n", "true"]] if sudo_code in (0, 1) else [])


def test_the_prerequisites_of_this_machine_are_named_as_the_messages_say() -> None:
    known = pf.prerequisites()
    assert sorted(known) == ["cc", "chromium", "python-headers"]
    assert known["chromium"].what == "/usr/bin/chromium (the browser tests)"
    assert known["chromium"].packages == ("chromium",)
    assert known["cc"].packages == ("gcc", "libc6-dev")
    assert known["python-headers"].what.startswith("the headers of Python 3.")
