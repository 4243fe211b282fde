"""What the apps above tournaments (tables, scoring, the feature apps) add to its operations.

The apps depend one way: engine <- tournaments <- tables <- scoring (docs/architecture.md), so
tournaments never imports tables or scoring. Where one of its operations reaches their rows — a
finished tournament changes the national ranking, a player's seats and results belong in their
data export, a merge rewrites stored results — it calls the hooks below, which those apps
register in their ``AppConfig.ready`` (``tables/apps.py``, ``scoring/apps.py``,
``ranking/apps.py``). A hook list
with nothing registered does nothing, so tournaments works on its own.

Each hook is a plain list of functions, called in the order the apps registered them
(``INSTALLED_APPS``: tables before scoring).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .models import Player, Tournament

# Removes every copy of an erased player's name from a value (``privacy._scrub`` with the
# player's names bound): returns the cleaned value and whether anything changed.
Scrub = Callable[[Any], tuple[Any, bool]]

# A finished tournament was reopened, restored, or its status, dates or details changed
# (ranking: the national ranking of its years is recomputed, K-RANKING). Scoring calls it too,
# when a result of a finished tournament changes.
tournament_changed: list[Callable[[Tournament], None]] = []

# Players' names changed (erased, merged): ranking recomputes the national ranking rows naming them.
players_changed: list[Callable[[list[int]], None]] = []

# Ids of the tournaments a player took part in beyond their registrations (tables: seats).
player_tournaments: list[Callable[[Player], set[int]]] = []

# Sections of a player's data export after their registrations, in order (tables: "seats";
# scoring: "results", "confirmations").
player_data: list[Callable[[Player], dict[str, Any]]] = []

# A player was erased: copies of their name in those tournaments' rows are scrubbed
# (scoring: the stored result data).
player_erased: list[Callable[[Player, list[Tournament], Scrub], None]] = []

# Before a merge of player ``drop`` into ``keep``: raises ConflictError when they cannot be one
# person (tables: both sat in the same game).
merge_refusals: list[Callable[[int, int], None]] = []

# During a merge, after the foreign keys moved to ``keep`` (scoring: the player ids inside stored
# results, the cached standings of ``keep``'s tournaments).
players_merged: list[Callable[[int, int], None]] = []

# Audit sentences name the table, game or player an entry is about: for an object type
# ("tables.Table"), a function from ids to {id: {"table": 3, "game": 2, ...}}.
audit_context: dict[str, Callable[[set[int]], dict[int, dict[str, Any]]]] = {}

# The last game of a tournament that has its tables (tables: the highest game number with tables;
# 0 before the first): a withdrawal takes effect from the game after it.
games_under_way: list[Callable[[Tournament], int]] = []

# Registrations of a tournament whose players said they skip game ``n`` (the self-service app:
# "I skip this game"): carrying presences over from the previous game leaves them out.
skipping: list[Callable[[Tournament, int], set[int]]] = []

# The check-in page's word on each row of game ``n`` ({registration id: text}; the self-service
# app: "checked in by themselves", "skips this game").
checkin_notes: list[Callable[[Tournament, int], dict[int, str]]] = []


# Models of the apps above that a tournament owns, by label, for its backup
# (``tournaments/backup.py``; fees: "fees.EventFee", "fees.Payment").
backed_up: list[str] = []


def call(hooks: list[Callable[..., Any]], *args: Any) -> None:
    """Call every registered function of ``hooks`` with ``args``."""
    for hook in hooks:
        hook(*args)


def register(hooks: list[Callable[..., Any]], function: Callable[..., Any]) -> None:
    """Add ``function`` to ``hooks`` once (``ready`` may run twice in tests)."""
    if function not in hooks:
        hooks.append(function)
