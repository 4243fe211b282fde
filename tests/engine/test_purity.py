"""engine/ is pure Python: no module imports Django, DRF or one of the project's apps.

Checked on the source (AST) of every module, so an import hidden inside a function counts too,
and in a fresh interpreter, so nothing Django-shaped is loaded by importing the whole engine.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "engine"
# third-party and project packages the engine must never reach
FORBIDDEN = ("django", "rest_framework", "drf_spectacular", "celery", "config", "tournaments", "tables", "scoring",
             "clubs", "ranking", "workbook", "history", "seasons", "publishing", "ratings")
MODULES = sorted(ENGINE.rglob("*.py"))


def imported_modules(source: str, package: str, *, names: bool = False) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``source``, a module of ``package``.
    With ``names``, ``from a import b`` also gives ``a.b``: b may be a module (the import loads
    it), which the reader of the source cannot tell from a name defined in ``a``."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolve against the module's package
                parts = package.split(".")
                base = parts[: len(parts) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name))
            if names:
                found.extend((node.lineno, f"{name}.{alias.name}") for alias in node.names if alias.name != "*")
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in (
            "import_module",
            "__import__",
        ):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def forbidden(source: str, package: str) -> list[str]:
    return [f"line {line}: {name}" for line, name in imported_modules(source, package)
            if name.split(".")[0] in FORBIDDEN]


def test_the_scan_sees_every_module() -> None:
    names = {p.relative_to(ENGINE).as_posix() for p in MODULES}
    assert {"replay.py", "cli.py", "deal.py", "scoring.py", "closure.py", "schema/__init__.py"} <= names


def test_the_scan_catches_hidden_and_relative_imports() -> None:
    source = (
        "import json\n"
        "def f():\n"
        "    from django.conf import settings\n"
        "    import importlib\n"
        "    importlib.import_module('tournaments.models')\n"
        "from ...scoring import services\n"
        "from . import board\n"
    )
    assert sorted(forbidden(source, "engine.sub")) == [
        "line 3: django.conf", "line 5: tournaments.models", "line 6: scoring",
    ]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_engine_module_imports_nothing_from_django_or_the_apps(path: Path) -> None:
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    bad = forbidden(path.read_text(encoding="utf-8"), package)
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_importing_the_whole_engine_loads_no_django() -> None:
    names = [p.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".") for p in MODULES]
    names = [n.removesuffix(".__init__") for n in names if not n.endswith("__main__")]
    code = (
        "import importlib, json, sys\n"
        f"for n in {names!r}: importlib.import_module(n)\n"
        f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r})))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(out.stdout) == []
