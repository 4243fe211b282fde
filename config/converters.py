"""Path converters shared by every app's URLs.

``<id:pk>`` is Django's ``<int:pk>`` bounded to 18 digits: a larger number cannot be a row's key
(PostgreSQL's bigint and SQLite's INTEGER stop at 2**63 - 1), and passing one to a query is an
OverflowError on SQLite and a DataError on PostgreSQL — a 500 where the answer is a plain 404.
"""

from __future__ import annotations

MAX_DIGITS = 18


class IdConverter:
    regex = f"[0-9]{{1,{MAX_DIGITS}}}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
