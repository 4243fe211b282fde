"""A player's identity across events: name, surname and date of birth (the national ranking's
key). Imports only *flag* probable duplicates — a Levenshtein distance of at
most :data:`MAX_DISTANCE` on "name surname birth-date" — for the organizer to merge; nothing is
ever merged silently."""

from __future__ import annotations

import datetime as dt
import unicodedata
from collections import Counter, defaultdict
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
    """Edit distance (insertions, deletions, substitutions); stops early past ``limit`` (and then
    fills only the cells within ``limit`` of the diagonal: a path outside costs more)."""
    if len(a) < len(b):
        a, b = b, a
    if limit is not None and (len(a) - len(b) > limit or _bag_distance(a, b) > limit):
        return limit + 1
    far = len(a) + len(b) + 1 if limit is None else limit + 1
    band = len(a) + len(b) if limit is None else limit
    previous = [j if j <= band else far for j in range(len(b) + 1)]
    for i, ca in enumerate(a, start=1):
        low, high = max(1, i - band), min(len(b), i + band)
        current = [i if i <= band else far] + [far] * len(b)
        for j in range(low, high + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != b[j - 1]))
        if limit is not None and min(current) > limit:
            return limit + 1
        previous = current
    return min(previous[-1], far)


class Pattern:
    """One text measured against many (Myers' bit-parallel edit distance): each character of the
    other text costs a few operations on whole integers instead of a row of the table, several
    times faster than :func:`levenshtein` in Python; the same distances."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.mask = (1 << len(text)) - 1
        self.last = 1 << (len(text) - 1) if text else 0
        self.where: dict[str, int] = {}
        for i, c in enumerate(text):
            self.where[c] = self.where.get(c, 0) | (1 << i)

    def distance(self, other: str) -> int:
        if not self.text:
            return len(other)
        mask, last, where = self.mask, self.last, self.where
        plus, minus, score = mask, 0, len(self.text)
        for c in other:
            eq = where.get(c, 0)
            xv = eq | minus
            xh = (((eq & plus) + plus) ^ plus) | eq
            ph = minus | (~(xh | plus) & mask)
            mh = plus & xh
            if ph & last:
                score += 1
            elif mh & last:
                score -= 1
            ph = ((ph << 1) | 1) & mask
            mh = (mh << 1) & mask
            plus = mh | (~(xv | ph) & mask)
            minus = ph & xv
        return score


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
