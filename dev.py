#!/usr/bin/env python3
"""The two Quick-start commands, with nothing but Python 3.11+ and git.

    python3 dev.py serve   # local virtualenv + install + migrate + demo event + http://127.0.0.1:8000/
    python3 dev.py test    # local virtualenv + install + the whole test suite on every core (extra args go to pytest)

The virtualenv lives in ``.venv``; it is (re)installed whenever pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed-from"


def _run(*args: str | Path, **env: str) -> None:
    result = subprocess.run([str(a) for a in args], cwd=ROOT, env={**os.environ, **env})
    if result.returncode:
        sys.exit(result.returncode)


def ensure_virtualenv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - this script may be started by an old python3
        sys.exit(f"Python 3.11 or newer is needed (found {sys.version.split()[0]}).")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PYTHON.exists() and STAMP.exists() and STAMP.read_text() == wanted:
        return
    if not PYTHON.exists():
        print("Creating the virtualenv in .venv …", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("Installing dependencies (pyproject.toml) …", flush=True)
    _run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    _run(PYTHON, "-m", "pip", "install", "--quiet", "-e", ".[test]")
    STAMP.write_text(wanted)


def serve(args: list[str]) -> None:
    address = args[0] if args else "127.0.0.1:8000"
    _run(PYTHON, "manage.py", "migrate", "--noinput")
    _run(PYTHON, "manage.py", "load_demo", "--base-url", f"http://{address}")
    print(f"\nOpen http://{address}/  (Ctrl+C stops the server)\n", flush=True)
    os.execv(PYTHON, [str(PYTHON), "manage.py", "runserver", address])


def parallel(args: list[str]) -> list[str]:
    """The whole suite runs on every core (pytest-xdist, one file per worker at a time, so a
    module's shared set-up is made once); a test chosen by path, a worker count of one's own or a
    debugger keeps the run in this one process."""
    if (os.cpu_count() or 1) < 2:
        return []
    for arg in args:
        if (arg.startswith(("-n", "--numprocesses", "--pdb", "--trace")) or arg == "no:xdist"
                or "::" in arg or (ROOT / arg).exists()):
            return []
    return ["-n", "auto", "--dist", "loadfile"]


def test(args: list[str]) -> None:
    os.chdir(ROOT)
    os.execv(PYTHON, [str(PYTHON), "-m", "pytest", *parallel(args), *args])


def main() -> None:
    commands = {"serve": serve, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit(__doc__)
    ensure_virtualenv()
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
