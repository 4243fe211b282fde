"""Tests of data migrations: the database moved to a given state, and the models as they were there."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets: list[tuple[str, str]]) -> Any:
    """Migrates the test database to ``targets`` (forwards or back); returns the historical apps
    of that state, whose models are the ones the migrations saw."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def migrate_to_latest() -> None:
    """Back to the newest state, for the tests that follow."""
    migrate_to(MigrationExecutor(connection).loader.graph.leaf_nodes())
