"""A selector never writes or schedules (docs/architecture.md): every ``selectors.py`` of the
project only reads. Queuing a task, saving or deleting rows and storing in the cache belong to
the write side (services, ``scoring/recompute.py``), which the tasks call.

The scan is of the source's calls (AST): ``.delay(``, ``.apply_async(``, ``send_task(``,
``app.tasks[...]``, ``.save(``, ``.create(``, ``.update(``, ``.delete(``, ``bulk_create(``,
``cache.set(`` / ``cache.set_many(`` (a plain dict's ``update`` counts too: write ``|=``). The allow-list below is of memos of a pure computation,
never of state: a reader that computed the standings itself keeps them for the next reader
(dropping them loses nothing but time; the worker's stored standings are written by
``scoring.recompute`` only).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p for p in ROOT.rglob("selectors.py")
                 if not {".venv", "node_modules", ".git"} & set(p.relative_to(ROOT).parts))
METHODS = {"delay", "apply_async", "send_task", "save", "create", "update", "delete", "bulk_create"}
CACHE_WRITES = {"set", "set_many"}

# "path:function" -> why it may store in the cache
ALLOWED = {
    "scoring/selectors.py:_standings": "a memo of the reader's own computation of the standings",
    "scoring/selectors.py:standings_many": "a memo of the computation of many tournaments' standings",
    "scoring/selectors.py:standings_before": "a memo of the reader's own computation of the standings before the "
                                             "hidden games, under the stamp of the standings it comes from",
}


def writes(source: str) -> list[tuple[str, str]]:
    """(enclosing function, what it calls) of every write or scheduling call in ``source``."""
    found: list[tuple[str, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            called = _written(child)
            if called:
                found.append((function, called))
            visit(child, inner)

    visit(ast.parse(source), "<module>")
    return found


def _written(node: ast.AST) -> str:
    if isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith("app.tasks"):
        return "app.tasks[...]"
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name in METHODS:
        return f"{name}()"
    if isinstance(func, ast.Attribute) and name in CACHE_WRITES and ast.unparse(func.value) == "cache":
        return f"cache.{name}()"
    return ""


def test_the_scan_finds_every_kind_of_write() -> None:
    source = ("def a():\n    app.tasks['x'].delay(1)\n    job.apply_async()\n    send_task('x')\n"
              "def b():\n    row.save(); M.objects.create(); qs.update(x=1); qs.delete(); M.objects.bulk_create([])\n"
              "def c():\n    cache.set('k', 1); cache.set_many({})\n    cache.get('k'); qs.filter()\n")
    assert sorted(c for _f, c in writes(source)) == sorted([
        "app.tasks[...]", "delay()", "apply_async()", "send_task()", "save()", "create()", "update()",
        "delete()", "bulk_create()", "cache.set()", "cache.set_many()"])
    assert {f for f, _c in writes(source)} == {"a", "b", "c"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_selector_never_writes_or_schedules(path: Path) -> None:
    where = path.relative_to(ROOT).as_posix()
    bad = [f"{function}: {called}" for function, called in writes(path.read_text(encoding="utf-8"))
           if f"{where}:{function}" not in ALLOWED]
    assert not bad, f"{where} writes or schedules: {bad}; move it to the app's services (tasks call services)"


def test_every_exception_is_still_needed() -> None:
    used = {f"{p.relative_to(ROOT).as_posix()}:{function}" for p in MODULES
            for function, _called in writes(p.read_text(encoding="utf-8"))}
    assert not set(ALLOWED) - used, f"no longer writing: remove from ALLOWED: {set(ALLOWED) - used}"
