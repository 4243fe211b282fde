"""The words of a format that apps above tournaments define.

A preset names tie-break metrics (``scoring.standings.METRICS``), table priorities
(``tables.seating.PRIORITY_BY_KEY``) and seedings (``tables.seating.SEEDINGS``). Those
registries stay in their apps; tournaments may not import them (engine <- tournaments <- tables
<- scoring), so each app registers its keys here at start-up (``TablesConfig.ready``,
``ScoringConfig.ready``) and :mod:`tournaments.formats.choice` checks names against them.
"""

from __future__ import annotations

from collections.abc import Iterable

_words: dict[str, tuple[str, ...]] = {"metrics": (), "priorities": (), "seedings": ()}


def register(kind: str, keys: Iterable[str]) -> None:
    """Make ``keys`` the known words of ``kind`` ("metrics", "priorities" or "seedings")."""
    if kind not in _words:
        raise KeyError(kind)
    _words[kind] = tuple(keys)


def known(kind: str) -> tuple[str, ...]:
    """The registered words of ``kind``, in their registry's order."""
    return _words[kind]
