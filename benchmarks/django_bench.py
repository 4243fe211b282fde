"""What the benchmarks that run the Django app share: a throw-away database (a temporary SQLite
file, or a ``test_`` database next to the PostgreSQL one named by ``DATABASE_URL``), the line
that says where and when a figure was measured, and the rewrite of one section of
docs/benchmarks.md. A benchmark run as a script imports it as ``django_bench`` (its folder is
on the path).
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def start_django(*, postgres: bool = True) -> Callable[[], None]:
    """Set Django up on a throw-away database and return what removes it. PostgreSQL when
    ``DATABASE_URL`` names one (and ``postgres``), else a temporary SQLite file; the local memory
    cache and eager Celery (no ``REDIS_URL``)."""
    on_postgres = postgres and os.environ.get("DATABASE_URL", "").startswith("postgres")
    if not on_postgres:
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SECRET_KEY", "benchmark-only-not-secret")
    os.environ.setdefault("HTTPS", "false")
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    if on_postgres:
        from django.test.utils import setup_databases, teardown_databases

        old = setup_databases(verbosity=0, interactive=False)
        return lambda: teardown_databases(old, verbosity=0)
    call_command("migrate", verbosity=0)
    return lambda: None


def database() -> str:
    from django.db import connection

    return "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"


def measured(load: float | None = None) -> str:
    """"measured <date> UTC on <machine>, nproc, Python, <database>, load average <1 min>"."""
    load = os.getloadavg()[0] if load is None else load
    return (f"measured {dt.datetime.now(dt.UTC):%Y-%m-%d %H:%M} UTC on `{platform.platform()}`, nproc "
            f"{os.cpu_count()}, Python {platform.python_version()}, {database()}, load average {load:.1f}")


def write_section(title: str, text: str) -> None:
    """Replace the section ``## title`` of docs/benchmarks.md with ``text`` (appended if new)."""
    doc = ROOT / "docs" / "benchmarks.md"
    body = doc.read_text(encoding="utf-8")
    pattern = re.compile(rf"## {re.escape(title)}\n.*?(?=\n## |\Z)", re.S)
    text = text.rstrip("\n") + "\n"
    body = pattern.sub(lambda _m: text, body) if pattern.search(body) else body.rstrip("\n") + "\n\n" + text
    doc.write_text(body, encoding="utf-8")
