"""A player's identity across events: name, surname and date of birth (the national ranking's
key). Imports only *flag* probable duplicates — a Levenshtein distance of at
most :data:`MAX_DISTANCE` on "name surname birth-date" — for the organizer to merge; nothing is
ever merged silently."""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

MAX_DISTANCE = 4


@lru_cache(maxsize=65536)  # comparing a whole instance's players asks for each key many times
def identity_key(first_name: str, last_name: str, birth_date: dt.date | None) -> str:
    text = f"{first_name} {last_name}".lower()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = " ".join(text.replace("'", " ").split())
    return f"{text} {birth_date.isoformat() if birth_date else ''}".strip()


def levenshtein(a: str, b: str, limit: int | None = None) -> int:
    """Edit distance (insertions, deletions, substitutions); past ``limit`` it answers
    ``limit + 1`` without finishing the count. rapidfuzz's (C++, bit-parallel): a whole
    instance's players are compared with it, where a Python table took seconds."""
    return Levenshtein.distance(a, b, score_cutoff=limit)


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


def _pieces(length: int, pieces: int) -> list[tuple[int, int]]:
    """(start, size) of ``pieces`` consecutive pieces of a text of ``length`` characters."""
    base, longer = divmod(length, pieces)
    out, start = [], 0
    for i in range(pieces):
        size = base + (1 if i >= pieces - longer else 0)
        out.append((start, size))
        start += size
    return out


class NameIndex:
    """The names within ``max_distance`` edits of a given one, without comparing it with every
    name: each indexed name is cut into ``max_distance + 1`` pieces; that many edits leave at least
    one piece whole (pigeonhole), found in the other name at most ``max_distance`` characters from
    where it was. :meth:`near` returns a superset (each candidate is then measured), never fewer.
    Names too short to cut (a piece would be empty) are compared with everyone of a close length."""

    def __init__(self, names: Iterable[tuple[int, str]], max_distance: int = MAX_DISTANCE) -> None:
        self.k = max_distance
        self.pieces: dict[tuple[int, int, str], list[int]] = defaultdict(list)
        self.short: list[tuple[int, str]] = []
        self.lengths: set[int] = set()
        for key, name in names:
            if len(name) <= self.k:
                self.short.append((key, name))
                continue
            self.lengths.add(len(name))
            for i, (start, size) in enumerate(_pieces(len(name), self.k + 1)):
                self.pieces[(len(name), i, name[start:start + size])].append(key)

    def near(self, name: str) -> set[int]:
        k, n = self.k, len(name)
        found: set[int] = set()
        for length in range(n - k, n + k + 1):
            if length not in self.lengths:
                continue
            shift = n - length
            for i, (start, size) in enumerate(_pieces(length, k + 1)):
                # piece i whole: the edits before it moved it by at most i, those after by at most
                # k - i (the first piece left whole has an edit in each piece before it)
                lowest = max(0, start - i, start + shift - (k - i))
                highest = min(n - size, start + i, start + shift + (k - i))
                for pos in range(lowest, highest + 1):
                    found.update(self.pieces.get((length, i, name[pos:pos + size]), ()))
        found.update(key for key, other in self.short if abs(len(other) - n) <= k)
        return found
