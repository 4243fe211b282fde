"""Concurrency figures: N parallel clients on PostgreSQL for N = 2, 8, 32.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/risiko_e SECRET_KEY=... HTTPS=false \\
        .venv/bin/python benchmarks/concurrency.py [--n 2 8 32]

Creates a throw-away test database (``test_<name>``), and for every N loads the demo tournament
afresh and runs the scenarios of ``tests/hardening/concurrency_scenarios.py`` (results entered
for one table, confirmations, check-ins, seat swaps — each by N threads released at once through
the REST API). Prints one Markdown row per scenario and N: wall time, the HTTP statuses the N
clients got, and whether every invariant held (no lost update, no duplicate, losers told).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("HTTPS", "false")
os.environ.setdefault("ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[2, 8, 32])
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        print("needs DATABASE_URL=postgres://... (threads need real row locks)", file=sys.stderr)
        return 2

    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test.utils import setup_databases, setup_test_environment, teardown_databases

    from tests.hardening import concurrency_scenarios as sc
    from tournaments.models import Tournament

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    failures = 0
    try:
        print(f"# {dt.date.today()} · {platform.python_implementation()} "
              f"{platform.python_version()} · {os.cpu_count()} CPUs · PostgreSQL")
        print("| N | scenario | seconds | statuses | invariants |")
        print("|---|---|---|---|---|")
        for n in args.n:
            for scenario in sc.SCENARIOS:
                call_command("flush", interactive=False, verbosity=0)
                call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
                outcome = scenario(Tournament.objects.get(slug="demo"), n)
                statuses = dict(outcome["statuses"])
                if "repeats" in outcome:
                    statuses = {"first taps": statuses, "repeats": outcome["repeats"]}
                failures += not outcome["ok"]
                print(f"| {n} | {outcome['scenario']} | {outcome['seconds']:.3f} | {statuses} | "
                      f"{'held' if outcome['ok'] else 'BROKEN'} |", flush=True)
    finally:
        teardown_databases(old, verbosity=0)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
