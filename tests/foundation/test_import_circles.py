"""No import circle among the project's modules (docs/architecture.md).

A circle (a imports b, b imports a, perhaps through others) means neither module can be read,
tested or moved without the other; it is usually a private name taken across or a read module
doing the write side. Imports are read from the source (AST) with the layer test's reader, so an
import inside a function counts too: it hides the circle from Python, not from the reader.
Every top-level package of the repository is scanned (engine, the apps, config and any new one).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from tests.engine.test_purity import imported_modules

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name != "tests")
SOURCES = {
    p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8")
    for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))
}

# Circles allowed while a move breaks them (none left since the national ranking got its own
# feature folder). Remove an entry when its circle is gone: the last test below fails on an entry no circle
# matches any more, so none outlives its reason.
CIRCLES_BEING_BROKEN: list[frozenset[str]] = []


def module_name(path: str) -> str:
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(sources: Mapping[str, str]) -> dict[str, set[str]]:
    """Each module (by name) and the project's modules it imports, from {path: source}."""
    names = {module_name(path) for path in sources}
    graph: dict[str, set[str]] = {}
    for path, source in sources.items():
        name, package = module_name(path), ".".join(path.split("/")[:-1])
        graph[name] = set()
        for _line, imported in imported_modules(source, package, names=True):
            while imported and imported not in names:  # a name inside a module: the module
                imported = imported.rpartition(".")[0]
            # its own package is loaded before any module of it (``from . import x`` names it)
            if imported and imported != name and not name.startswith(imported + "."):
                graph[name].add(imported)
    return graph


def circles(graph: Mapping[str, set[str]]) -> list[frozenset[str]]:
    """The circles of the graph: its strongly connected parts of more than one module
    (Tarjan's algorithm), each the set of modules that all reach one another."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph.get(module, ())):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            part = []
            while True:
                other = stack.pop()
                part.append(other)
                if other == module:
                    break
            if len(part) > 1:
                found.append(frozenset(part))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def said(circle: frozenset[str], graph: Mapping[str, set[str]]) -> str:
    """The circle's imports in words: who imports whom inside it."""
    return "; ".join(f"{m} imports {', '.join(sorted(graph[m] & circle))}" for m in sorted(circle))


def test_the_scan_sees_every_package() -> None:
    assert {"engine", "tournaments", "tables", "scoring", "config"} <= set(PACKAGES)
    assert {"tables/clocks.py", "workbook/export.py", "common/live.py",
            "engine/scoring.py"} <= set(SOURCES)


def test_a_circle_through_a_function_local_or_relative_import_is_found() -> None:
    graph = import_graph({
        "app/__init__.py": "",
        "app/clock.py": "from app.models import Table\ndef f():\n    from . import closure\n",
        "app/closure.py": "from app import clock\n",
        "app/models.py": "import json\n",
        "app/tasks.py": "from .clock import f\n",
        "other/a.py": "import other.b\n",
        "other/b.py": "def g():\n    from other.a import x\n",
    })
    assert graph["app.clock"] == {"app.models", "app.closure"}  # not its own package
    assert sorted(map(sorted, circles(graph))) == [["app.clock", "app.closure"], ["other.a", "other.b"]]


def test_no_module_import_circle() -> None:
    graph = import_graph(SOURCES)
    unexpected = [c for c in circles(graph) if not any(c <= allowed for allowed in CIRCLES_BEING_BROKEN)]
    assert not unexpected, "import circles:\n" + "\n".join(said(c, graph) for c in unexpected)


def test_every_allowed_circle_still_exists() -> None:
    found = circles(import_graph(SOURCES))
    gone = [sorted(allowed) for allowed in CIRCLES_BEING_BROKEN if not any(c <= allowed for c in found)]
    assert not gone, f"these circles are broken now: remove them from CIRCLES_BEING_BROKEN: {gone}"
