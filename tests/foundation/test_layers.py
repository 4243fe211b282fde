"""The apps depend one way: engine <- tournaments <- tables <- scoring (docs/architecture.md).

Checked on the source (AST) of every module of each app, so an import hidden inside a function
counts too: an app never imports one above it (tournaments imports neither tables nor scoring,
tables does not import scoring). What a lower app needs from a higher one is registered into it
at ``AppConfig.ready`` (``tournaments/hooks.py``, ``tables/hooks.py``). The engine imports none
of them (tests/engine/test_purity.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.test_purity import imported_modules

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("engine", "tournaments", "tables", "scoring", "ratings")  # each may import only those before it
MODULES = sorted(p for app in LAYERS[1:] for p in (ROOT / app).rglob("*.py"))


def upward(source: str, package: str) -> list[str]:
    """The imports in ``source`` (a module of ``package``) of an app above the module's own."""
    own = LAYERS.index(package.split(".")[0])
    above = LAYERS[own + 1:]
    return [f"line {line}: {name}" for line, name in imported_modules(source, package)
            if name.split(".")[0] in above]


def test_the_scan_sees_every_app() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in MODULES}
    assert {"tournaments/services/registration.py", "tables/seating.py", "scoring/selectors.py", "ratings/services.py",
            "tournaments/management/commands/erase_player.py"} <= names


def test_the_scan_catches_function_local_and_relative_imports() -> None:
    source = (
        "from tournaments.models import Player\n"
        "def f():\n"
        "    from scoring import national\n"
        "    import importlib\n"
        "    importlib.import_module('tables.models')\n"
        "from ...scoring import selectors\n"
        "from . import hooks\n"
    )
    assert sorted(upward(source, "tables.sub")) == ["line 3: scoring", "line 6: scoring"]
    assert sorted(upward(source, "tournaments.sub")) == [
        "line 3: scoring", "line 5: tables.models", "line 6: scoring",
    ]
    assert upward(source, "scoring") == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_app_imports_one_above_it(path: Path) -> None:
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    bad = upward(path.read_text(encoding="utf-8"), package)
    assert not bad, f"{path.relative_to(ROOT)} imports an app above it: {bad}"
