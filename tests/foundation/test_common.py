"""The floor (``common/``) knows no app: what the live pages must know of the apps' rows, each app
tells it at start-up (``AppConfig.ready``), and the apps reach the Celery app without importing
``config``. These tests check that the registrations cover what a viewer sees, and the shared
helpers the apps now take from ``common``."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.apps import apps
from django.db.models.signals import post_save

from common import live
from common.api import query_int


@pytest.mark.parametrize("label", ["tournaments", "tables", "scoring"])
def test_every_row_of_the_three_base_apps_gives_its_pages_a_new_version(label: str) -> None:
    """Registered by each app's ``ready`` (``live.watch(self.get_models())``): a row a page shows
    that was saved unwatched would leave phones on the old page (a 304) until something else changed."""
    from django.dispatch.dispatcher import _make_id

    wanted = {(f"live-save-{model.__name__}", _make_id(model)): model.__name__
              for model in apps.get_app_config(label).get_models()}
    connected = {entry[0] for entry in post_save.receivers}
    assert [name for key, name in wanted.items() if key not in connected] == []


def test_each_app_tells_how_its_rows_find_their_tournament() -> None:
    # a seat has no tournament_id: table_id → Table → game__tournament_id (tables' registration);
    # a confirmation has submission_id → ResultSubmission.tournament_id (scoring's)
    # (feature apps add their own, e.g. teams' team_id; the base apps' are these)
    owners = {attribute: (model._meta.label, path) for attribute, model, path in live._owners}
    assert owners.items() >= {
        "registration_id": ("tournaments.Registration", "tournament_id"),
        "game_id": ("tables.Game", "tournament_id"),
        "table_id": ("tables.Table", "game__tournament_id"),
        "submission_id": ("scoring.ResultSubmission", "tournament_id"),
    }.items()
    assert {m.__name__ for m in live._site_wide} == {"Player", "Club", "Tournament"}
    assert live._quiet == {"AccessLink"}  # a private link shows on no public page


def test_the_build_stamp_covers_every_app_folder_of_the_project() -> None:
    """A deploy that changes only a feature app's template (ranking/templates/...) is a new
    validator: every installed app of the repository is among the folders stamped."""
    from django.conf import settings

    names = {p.name for p in live._stamped_folders(settings.BASE_DIR)}
    assert {"templates", "locale", "static", "common", "config", "tournaments", "tables", "scoring",
            "ranking", "history", "seasons", "clubs", "publishing", "workbook", "ratings"} <= names


def test_the_apps_celery_app_is_the_configured_one_in_every_thread() -> None:
    """The apps write ``from celery import current_app``: in a gunicorn thread too it must be the
    project's app (its eager setting, its tasks), not Celery's unconfigured fallback."""
    from celery import current_app

    from config.celery import app

    seen: list[Any] = []
    thread = threading.Thread(target=lambda: seen.append(current_app._get_current_object()))
    thread.start()
    thread.join()
    assert seen == [app]
    assert "scoring.tasks.recompute_standings" in seen[0].tasks


@pytest.mark.parametrize(("raw", "expected"), [
    (None, 50),  # missing: the default
    ("", 50),
    ("abc", 50),  # not a number: the default, never a 400
    ("20", 20),
    ("0", 1),  # below the floor: the floor
    ("5000", 1000),  # above the ceiling (the lists' MAX_LIMIT): the ceiling
    ("-3", 1),
])
def test_a_query_number_is_bounded_and_never_refused(raw: str | None, expected: int) -> None:
    assert query_int(raw, 50, 1, 1000) == expected
