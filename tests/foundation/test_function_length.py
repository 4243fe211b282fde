"""No function over 60 lines in the engine, the shared helpers, the apps or config (the
developers' guide): every top-level package of the repository, a new app included.

A function is measured from its ``def`` line to its last line (``end_lineno - lineno + 1``, from
the AST, so a nested function counts on its own and inside its parent). The only exceptions
are plain data tables, where splitting would scatter one table over several places, and the
functions named below with their reason; an exception that is no longer over the limit fails
too, so the list only ever shrinks.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 60
PACKAGES = sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name not in ("tests", "benchmarks"))
MODULES = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))

# "path:function" -> why it may stay longer
ALLOWED: dict[str, str] = {}


def long_functions(source: str) -> list[tuple[str, int]]:
    """(name, length in lines) of every function of ``source`` over the limit."""
    return [
        (node.name, node.end_lineno - node.lineno + 1)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.end_lineno is not None and node.end_lineno - node.lineno + 1 > LIMIT
    ]


def test_a_long_function_is_measured_from_def_to_its_last_line() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT - 2))
    source = f"@decorator\ndef fits():\n    '''doc'''\n{body}\n\nasync def too_long():\n    '''doc'''\n{body}    return 1\n"
    assert long_functions(source) == [("too_long", LIMIT + 1)]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_function_over_the_limit(path: Path) -> None:
    where = path.relative_to(ROOT).as_posix()
    long = [f"{name} ({lines} lines)" for name, lines in long_functions(path.read_text(encoding="utf-8"))
            if f"{where}:{name}" not in ALLOWED]
    assert not long, f"{where}: over {LIMIT} lines: {long}; split by what each part does"


def test_every_exception_is_still_needed() -> None:
    over = {f"{p.relative_to(ROOT).as_posix()}:{name}"
            for p in MODULES for name, _lines in long_functions(p.read_text(encoding="utf-8"))}
    assert not set(ALLOWED) - over, f"no longer over {LIMIT} lines: remove from ALLOWED: {set(ALLOWED) - over}"
