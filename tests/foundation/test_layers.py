"""The apps depend one way: engine <- common <- tournaments <- tables <- scoring <- the feature
apps (clubs, ranking, workbook, history, seasons, publishing, ratings, teams, selfservice, fees, clubstats) <- config
(docs/architecture.md, "The parts and their direction").

``common`` is the floor of shared helpers (errors, refusals, edges, exact JSON, the live pages'
machinery): it imports no app. ``config`` is the wiring on top (settings, URLs, WSGI, the Celery
app): it may import every app, and neither an app nor ``common`` imports it (a Celery task is
reached through ``celery.current_app``).

Checked on the source (AST) of every module of each app, so an import hidden inside a function
counts too: an app never imports one above it (tournaments imports neither tables nor scoring,
tables does not import scoring, none of the three imports a feature app). What a lower app needs
from a higher one is registered into it at ``AppConfig.ready`` (``tournaments/hooks.py``,
``tables/hooks.py``). The engine imports none of them (tests/engine/test_purity.py). The apps and
config reach the engine only through its public face, the ``engine`` package
(``engine/__init__.py``), never one of its modules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.test_purity import imported_modules

ROOT = Path(__file__).resolve().parents[2]
# each may import only those before it; the feature apps sit above the three apps they read
LAYERS = ("engine", "common", "tournaments", "tables", "scoring", "clubs", "ranking", "workbook", "history", "seasons",
          "publishing", "ratings", "teams", "selfservice", "fees", "clubstats")
MODULES = sorted(p for app in LAYERS[1:] for p in (ROOT / app).rglob("*.py"))
WIRING = "config"  # above every layer: imported by none of them
ENGINE_USERS = sorted(p for part in (*LAYERS[1:], "config") for p in (ROOT / part).rglob("*.py"))


def upward(source: str, package: str) -> list[str]:
    """The imports in ``source`` (a module of ``package``) of an app above the module's own."""
    own = LAYERS.index(package.split(".")[0])
    above = LAYERS[own + 1:]
    return [f"line {line}: {name}" for line, name in imported_modules(source, package)
            if name.split(".")[0] in above]


def test_the_scan_sees_every_app() -> None:
    names = {p.relative_to(ROOT).as_posix() for p in MODULES}
    assert {"common/errors.py", "common/live.py", "common/engine_messages.py", "tournaments/services/registration.py", "tables/seating.py", "scoring/selectors.py",
            "tournaments/management/commands/erase_player.py", "publishing/services.py", "workbook/importer.py", "history/selectors.py", "seasons/services.py", "ratings/services.py", "fees/services.py",
            "ranking/national.py", "ranking/management/commands/recompute_ranking.py",
            "publishing/management/commands/publish_tournament.py", "clubs/near_duplicates.py",
            "clubs/management/commands/create_club.py"} <= names


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
    assert upward("from publishing import services\n", "scoring.sub") == ["line 1: publishing"]
    assert upward("from ranking import national\n", "publishing") == []
    assert upward("from ranking import national\n", "scoring.sub") == ["line 1: ranking"]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_app_imports_one_above_it(path: Path) -> None:
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    bad = upward(path.read_text(encoding="utf-8"), package)
    assert not bad, f"{path.relative_to(ROOT)} imports an app above it: {bad}"


def wiring(source: str, package: str) -> list[str]:
    """The imports in ``source`` (a module of ``package``) of ``config``, the wiring on top."""
    return [f"line {line}: {name}" for line, name in imported_modules(source, package)
            if name.split(".")[0] == WIRING]


def test_the_scan_catches_an_import_of_the_wiring() -> None:
    source = (
        "from common.errors import DomainError\n"
        "def f():\n"
        "    from config.celery import app\n"
        "from config import settings\n"
        "import config.urls\n"
    )
    assert sorted(wiring(source, "scoring")) == ["line 3: config.celery", "line 4: config", "line 5: config.urls"]
    assert upward("from tournaments.models import Tournament\n", "common") == ["line 1: tournaments.models"]
    assert upward("from scoring import selectors\n", "common.sub") == ["line 1: scoring"]
    assert upward("from common import live\n", "tournaments") == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_app_nor_the_helpers_import_the_wiring(path: Path) -> None:
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    bad = wiring(path.read_text(encoding="utf-8"), package)
    assert not bad, (f"{path.relative_to(ROOT)} imports config, the wiring above every app: {bad}; "
                     "take the helper from common/ (a Celery task: celery.current_app)")


def engine_modules(source: str, package: str) -> list[str]:
    """The imports in ``source`` (a module of ``package``) of one of the engine's modules rather
    than of the engine's public face: ``engine.board``, ``from engine.scoring import ...``.
    ``from engine import exact`` goes through the face (``exact`` is one of its names)."""
    return [f"line {line}: {name}" for line, name in imported_modules(source, package)
            if name.startswith("engine.")]


def test_the_scan_catches_an_app_importing_an_engine_module() -> None:
    source = (
        "from engine import Ending, exact\n"
        "import engine\n"
        "def f():\n"
        "    from engine.board import load_board\n"
        "import engine.scoring\n"
    )
    assert sorted(engine_modules(source, "scoring")) == ["line 4: engine.board", "line 5: engine.scoring"]


@pytest.mark.parametrize("path", ENGINE_USERS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_apps_use_the_engine_through_its_public_face(path: Path) -> None:
    where = path.relative_to(ROOT).as_posix()
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    bad = engine_modules(path.read_text(encoding="utf-8"), package)
    assert not bad, f"{where} imports the engine's modules, not the engine: {bad}; add what it needs to engine/__init__.py"

