"""A player's identity across events: name, surname and date of birth (the national ranking's
key). Imports only *flag* probable duplicates — a Levenshtein distance of at
most :data:`MAX_DISTANCE` on "name surname birth-date" — for the organizer to merge; nothing is
ever merged silently."""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

MAX_DISTANCE = 4


@lru_cache(maxsize=65536)  # comparing a whole instance's players asks for each key many times
def identity_key(first_name: str, last_name: str, birth_date: dt.date | None) -> str:
    text = f"{first_name} {last_name}".lower()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = " ".join(text.replace("'", " ").split())
    return f"{text} {birth_date.isoformat() if birth_date else ''}".strip()


@lru_cache(maxsize=65536)
def _letters(text: str) -> Counter[str]:
    return Counter(text)


def _bag_distance(a: str, b: str) -> int:
    """A lower bound of the edit distance (each edit changes the letter counts by at most one
    on each side), much cheaper to compute: most pairs are told apart here."""
    ca, cb = _letters(a), _letters(b)
    more = sum(n - cb.get(c, 0) for c, n in ca.items() if n > cb.get(c, 0))
    fewer = sum(n - ca.get(c, 0) for c, n in cb.items() if n > ca.get(c, 0))
    return max(more, fewer)


def levenshtein(a: str, b: str, limit: int | None = None) -> int:
    """Edit distance (insertions, deletions, substitutions); stops early past ``limit``."""
    if len(a) < len(b):
        a, b = b, a
    if limit is not None and (len(a) - len(b) > limit or _bag_distance(a, b) > limit):
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if limit is not None and min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


@dataclass(frozen=True)
class Candidate:
    player_id: int
    first_name: str
    last_name: str
    birth_date: dt.date | None


@dataclass(frozen=True)
class ProbableDuplicate:
    player_id: int
    distance: int
    same: bool  # identical identity (name, surname and birth date)


def probable_duplicates(
    first_name: str, last_name: str, birth_date: dt.date | None, known: Iterable[Candidate],
    max_distance: int = MAX_DISTANCE,
) -> list[ProbableDuplicate]:
    """Known players whose identity is within ``max_distance`` edits, closest first. Two known
    birth dates that differ are never the same person (a typo in a date is caught only when the
    names agree exactly)."""
    key = identity_key(first_name, last_name, birth_date)
    names = identity_key(first_name, last_name, None)
    out = []
    for c in known:
        if birth_date and c.birth_date and birth_date != c.birth_date:
            if identity_key(c.first_name, c.last_name, None) != names:
                continue
        other = identity_key(c.first_name, c.last_name, c.birth_date if birth_date else None)
        d = levenshtein(key if c.birth_date or not birth_date else names, other, max_distance)
        if d <= max_distance:
            out.append(ProbableDuplicate(c.player_id, d, d == 0))
    return sorted(out, key=lambda x: (x.distance, x.player_id))
