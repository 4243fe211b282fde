"""Randomness derived explicitly from a seed string.

Deals, seatings and simulations must be reproducible on any machine and Python version, so we
never rely on ``random.Random``'s algorithms (``shuffle``/``randrange`` changed across versions).
Bits come from SHA-256 in counter mode; integers below ``n`` by rejection (no modulo bias).
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")


class SeededRng:
    def __init__(self, seed: str, *, stream: str = "") -> None:
        self._key = hashlib.sha256(f"{stream}\x00{seed}".encode()).digest()
        self._counter = 0
        self._pool = b""

    def _bytes(self, n: int) -> bytes:
        while len(self._pool) < n:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._pool += block
        out, self._pool = self._pool[:n], self._pool[n:]
        return out

    def randbelow(self, n: int) -> int:
        """Uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("n must be positive")
        if n == 1:
            return 0
        bits = (n - 1).bit_length()
        nbytes = (bits + 7) // 8
        mask = (1 << bits) - 1
        while True:
            value = int.from_bytes(self._bytes(nbytes), "big") & mask
            if value < n:
                return value

    def randint(self, low: int, high: int) -> int:
        """Uniform integer in [low, high], both included."""
        return low + self.randbelow(high - low + 1)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self.randbelow(len(items))]

    def random(self) -> float:
        """Uniform float in [0, 1) with 53 bits."""
        return (int.from_bytes(self._bytes(7), "big") >> 3) / (1 << 53)


def derive_seed(seed: str, *parts: object) -> str:
    """A child seed (e.g. deal k of ``--count K``, or table 3 of game 2): stable and distinct."""
    text = "\x1f".join([seed, *map(str, parts)])
    return hashlib.sha256(text.encode()).hexdigest()[:32]
