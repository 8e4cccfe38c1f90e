"""The wheel's compiled solver core: a hatchling build hook that compiles the endgame solver's
hot modules, ``solver/search.py`` and ``solver/movegen.py``, with mypyc when a standard wheel is
built (``pip install .``, ``pip wheel``, ``python -m build``), the pure-Python modules staying
the one source of truth and the fallback.

Entry points: :class:`SolverCoreBuildHook`, which hatchling calls (pyproject.toml:
``[tool.hatch.build.targets.wheel.hooks.custom]``), and :func:`build_compiled`, with which the
tests build the same extension modules (tests/solver/test_compiled.py). Editable installs keep
the pure modules; ``DDZSPEC_PURE_PYTHON=1``, or any failure to compile (one warning line), gives
the pure-Python wheel. At run time ``ddzspec.solver.COMPILED`` says which one was imported.

How the sources are staged and checked: docs/solver.md, "Design notes, module by module".
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: the modules of the top-level solver/ folder compiled by mypyc (as ddzspec.solver.<name>)
COMPILED_MODULES = ("search", "movegen")
#: mypyc's group name: its shared library is the extension module ``GROUP + "__mypyc"``
GROUP = "ddzspec.solver._core"
#: set to 1 to build the pure-Python wheel without trying the compile
PURE_ENV = "DDZSPEC_PURE_PYTHON"

_MYPY_INI = """\
[mypy]
python_version = {major}.{minor}
follow_imports = silent
ignore_missing_imports = true
"""

# run in the staging folder by a child interpreter: argv[1] is the group name, the rest the
# module files to compile
_COMPILE = """\
import sys
from mypyc.build import mypycify
from setuptools import setup
setup(name="ddzspec-solver-core", script_args=["build_ext", "--inplace"],
      ext_modules=mypycify(["--config-file", "mypy.ini", *sys.argv[2:]], opt_level="3",
                           group_name=sys.argv[1]))
"""


class CompileError(Exception):
    """The compiled solver core could not be built; the message says why, in one line."""


def _c_compiler() -> str | None:
    """The C compiler setuptools will run, when it is on PATH (None otherwise): the ``CC``
    environment variable, else the interpreter's build configuration's (e.g. ``gcc -pthread``),
    else ``cc``."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if cc and shutil.which(cc[0]):
        return cc[0]
    return None


def _last_error_line(output: str) -> str:
    """The most telling line of a failed compile's output: mypy's first error, else the last
    non-blank line (setuptools' or the compiler's)."""
    lines = [ln.strip() for ln in output.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ": error:" in ln]
    line = (errors or lines or ["no output"])[0 if errors else -1]
    return line if len(line) <= 300 else line[:297].rsplit(" ", 1)[0] + " ..."


def build_compiled(root: Path, work: Path) -> list[Path]:
    """Compile the solver's hot modules with mypyc for the running interpreter.

    ``root`` is the repository (or unpacked sdist): ``ddzspec/`` and the top-level ``solver/``
    folder; ``work`` an empty scratch folder, which receives the staged copy
    (``work/ddzspec/...``, the wheel's layout) and the build. Returns the built extension files,
    all in ``work/ddzspec/solver/``: one per module of :data:`COMPILED_MODULES` and mypyc's
    shared library (``_core__mypyc.<abi>.so``). Takes about 20 s of CPU.

    Raises :class:`CompileError` (one-line message) when mypyc or setuptools is not
    importable, no C compiler is on PATH, the interpreter's C headers are missing, or mypy or
    the compile fails.
    """
    for module in ("mypyc", "setuptools"):
        if importlib.util.find_spec(module) is None:
            raise CompileError(f"{module} is not installed")
    if _c_compiler() is None:
        raise CompileError("no C compiler on PATH (CC, else cc)")
    headers = Path(sysconfig.get_paths()["include"])
    if not (headers / "Python.h").is_file():
        raise CompileError(f"no Python.h in {headers} (the C headers of Python "
                           f"{sys.version_info[0]}.{sys.version_info[1]}: its -dev package)")
    package = work / "ddzspec"
    shutil.copytree(root / "ddzspec", package, ignore=shutil.ignore_patterns(
        "__pycache__", "*.pyc", "*.so", "*.pyd", "static", "data", "_data"))
    for source in (root / "solver").glob("*.py"):
        shutil.copy2(source, package / "solver" / source.name)
    (work / "mypy.ini").write_text(_MYPY_INI.format(major=sys.version_info[0],
                                                    minor=sys.version_info[1]), "utf-8")
    files = [f"ddzspec/solver/{m}.py" for m in COMPILED_MODULES]
    env = {**os.environ, "MYPY_CACHE_DIR": str(work / ".mypy_cache")}
    try:
        res = subprocess.run([sys.executable, "-c", _COMPILE, GROUP, *files], cwd=work,
                             env=env, capture_output=True, text=True, timeout=900, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CompileError(f"the compile could not run: {e}") from None
    if res.returncode != 0:
        raise CompileError(f"mypyc failed: {_last_error_line(res.stdout + res.stderr)}")
    # the file name setuptools gives an extension module (e.g. .cpython-311-x86_64-linux-gnu.so)
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or importlib.machinery.EXTENSION_SUFFIXES[0]
    names = [*COMPILED_MODULES, GROUP.rsplit(".", 1)[1] + "__mypyc"]
    built = [package / "solver" / f"{name}{suffix}" for name in names]
    missing = [p.name for p in built if not p.is_file()]
    if missing:
        raise CompileError(f"mypyc built no {', '.join(missing)}")
    return built


class SolverCoreBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """hatchling's ``custom`` wheel hook (pyproject ``[tool.hatch.build.targets.wheel.hooks.
    custom]``): for a standard wheel, the mypyc-compiled solver modules and a platform tag;
    for an editable wheel, or when the compile fails (one warning line), nothing."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Add the compiled modules to ``build_data["force_include"]`` (a standard wheel only)
        and mark the wheel platform-specific; on failure warn and leave the wheel pure."""
        self._work: Path | None = None
        if version != "standard":
            return
        if os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no", "off"):
            self.app.display_info(f"ddzspec: {PURE_ENV} is set: installing the pure-Python "
                                  "solver")
            return
        self._work = Path(tempfile.mkdtemp(prefix="ddzspec-mypyc-"))
        try:
            built = build_compiled(Path(self.root), self._work)
        except Exception as e:  # any failure: the pure wheel, never a failed install
            self._cleanup()
            reason = str(e) if isinstance(e, CompileError) else f"{type(e).__name__}: {e}"
            self.app.display_warning(f"ddzspec: WARNING: the compiled solver core was not "
                                     f"built ({reason}): installing the pure-Python solver")
            return
        for path in built:
            build_data["force_include"][str(path)] = f"ddzspec/solver/{path.name}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info("ddzspec: compiled the solver core with mypyc "
                              f"({', '.join(p.name for p in built)})")

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        """Remove the staging folder once the wheel is written."""
        self._cleanup()

    def _cleanup(self) -> None:
        work: Path | None = getattr(self, "_work", None)
        if work is not None:
            shutil.rmtree(work, ignore_errors=True)
            self._work = None
