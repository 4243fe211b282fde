"""Standings as the worker keeps them in the shared cache: a small *head* and one entry per row.

A confirmation changes a few players' rows while the positions of many shift. So the head holds
the order compactly (player ids, ranks, shared marks and tie-breaks as arrays, a few kB per
thousand players) and names each row by a token; a row's entry (its cells, totals, name and club)
is stored once under ``(player, token)`` and never changed: a new row is a new token. After a
confirmation the worker writes the head and the rows that changed, not 5,000 rows; a page reads
the head and the hundred rows it shows (one round trip), not all of them. A reader never sees a
row of another computation than its head's, as entries are immutable; the worker deletes the
entries its previous computation replaced (a reader still holding that head falls back to a full
read, :func:`rows` returns None).

The names of the players (``q``: find me by name or club) are one entry of their own, written
when a name or a club changes.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.core.cache import cache

PER_POSITION = ("rank", "shared", "tiebreak", "pending_corrections")


def standings_key(tournament_id: int) -> str:
    """A reader's own computation of the standings, whole (``selectors._standings``)."""
    return f"scoring:standings:{tournament_id}"


def queued_key(tournament_id: int) -> str:
    """Set while a recomputation is queued (``recompute.schedule``)."""
    return f"scoring:standings:{tournament_id}:queued"


def generation_key(tournament_id: int) -> str:
    """The last generation asked for: every change asks for a new one."""
    return f"scoring:standings:{tournament_id}:generation"


def checked_key(tournament_id: int) -> str:
    """When the last recomputation that finished began (epoch seconds): every write audited
    before it is in the stored standings."""
    return f"scoring:standings:{tournament_id}:checked"


def head_key(tournament_id: int) -> str:
    return f"scoring:standings:{tournament_id}:head"


def row_key(tournament_id: int, player: int, token: int) -> str:
    return f"scoring:standings:{tournament_id}:row:{player}:{token}"


def names_key(tournament_id: int, token: int) -> str:
    return f"scoring:standings:{tournament_id}:names:{token}"


def search_text(name: str, club: str) -> str:
    """What ``q`` is looked for in: a row's name and club, casefolded."""
    return f"{name}\n{club}".casefold()


def make_head(meta: Mapping[str, Any], order: Sequence[int], tokens: Sequence[int], ranks: Sequence[int],
              shared: Sequence[bool], ties: Sequence[str | None], pending: Mapping[int, list[int]],
              names_token: int) -> dict[str, Any]:
    return {**meta, "ids": array("q", order).tobytes(), "tokens": array("q", tokens).tobytes(),
            "ranks": array("l", ranks).tobytes(), "shared": bytes(shared), "ties": list(ties),
            "pending": dict(pending), "names": names_token}


class Head:
    """A stored head, decoded: the order of the rows and how to read them."""

    def __init__(self, tournament_id: int, data: dict[str, Any]) -> None:
        self.tournament_id = tournament_id
        self.data = data
        self.ids = array("q")
        self.ids.frombytes(data["ids"])
        self.tokens = array("q")
        self.tokens.frombytes(data["tokens"])
        self.ranks = array("l")
        self.ranks.frombytes(data["ranks"])

    @property
    def meta(self) -> dict[str, Any]:
        return {k: v for k, v in self.data.items() if k not in ("ids", "tokens", "ranks", "shared", "ties",
                                                                   "pending", "names")}

    def __len__(self) -> int:
        return len(self.ids)

    def position(self, player: int) -> int | None:
        try:
            return self.ids.index(player)
        except ValueError:
            return None

    def rows(self, positions: Iterable[int]) -> list[dict[str, Any]] | None:
        """The rows at these positions, complete; None when an entry is gone (evicted, or replaced
        since this head was read)."""
        positions = list(positions)
        keys = [row_key(self.tournament_id, self.ids[i], self.tokens[i]) for i in positions]
        found = cache.get_many(keys)
        if len(found) < len(keys):
            return None
        shared, ties, pending = self.data["shared"], self.data["ties"], self.data["pending"]
        return [{**found[key], "rank": self.ranks[i], "shared": bool(shared[i]), "tiebreak": ties[i],
                 "pending_corrections": pending.get(self.ids[i], [])}
                for i, key in zip(positions, keys, strict=True)]

    def texts(self) -> dict[int, str] | None:
        """{player: name and club, casefolded} for ``q``."""
        found = cache.get(names_key(self.tournament_id, self.data["names"]))
        return found  # type: ignore[no-any-return]


def entries(keys: list[str]) -> dict[str, Any]:
    """The stored entries of these keys that are there (one round trip)."""
    return cache.get_many(keys)  # type: ignore[no-any-return]


def read(tournament_id: int) -> Head | None:
    data = cache.get(head_key(tournament_id))
    return Head(tournament_id, data) if data is not None else None


def read_many(tournament_ids: Iterable[int]) -> dict[int, Head]:
    ids = list(tournament_ids)
    found = cache.get_many([head_key(t) for t in ids])
    return {t: Head(t, found[head_key(t)]) for t in ids if head_key(t) in found}


def write(tournament_id: int, head: dict[str, Any], rows: Mapping[tuple[int, int], dict[str, Any]],
          texts: tuple[int, dict[int, str]] | None) -> None:
    """The new rows (``(player, token)`` → row without its per-position fields) and names first,
    the head last: a reader of the new head finds everything it names."""
    entries: dict[str, Any] = {row_key(tournament_id, p, token): row for (p, token), row in rows.items()}
    if texts is not None:
        entries[names_key(tournament_id, texts[0])] = texts[1]
    for chunk in _chunks(list(entries.items()), 1000):
        cache.set_many(dict(chunk), None)
    cache.set(head_key(tournament_id), head, None)


def forget(tournament_id: int, rows: Iterable[tuple[int, int]], names: Iterable[int] = ()) -> None:
    """Delete entries no stored head names any more."""
    keys = [row_key(tournament_id, p, token) for p, token in rows] + [names_key(tournament_id, n) for n in names]
    for chunk in _chunks(keys, 1000):
        cache.delete_many(chunk)


def drop(tournament_id: int) -> None:
    cache.delete(head_key(tournament_id))


def _chunks(items: list[Any], size: int) -> Iterable[list[Any]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]
