"""A fresh web process does its one-time work when it starts, not on a phone's first request:
that request used to take 20-40 times a warm one (benchmarks/cold_start.py). Served by the WSGI
application gunicorn loads, the first pages import no module and compile no template."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FIRST_REQUESTS = r"""
import json, sys
from wsgiref.util import setup_testing_defaults

from config.wsgi import application  # what gunicorn loads: warmed when it is imported
from django.template import base

compiled = []
original = base.Template.compile_nodelist
base.Template.compile_nodelist = lambda self: compiled.append(self.name) or original(self)
before = set(sys.modules)
statuses = []
for path, language in (("/", "it"), ("/", "en"), ("/api/tournaments/", "it"), ("/accounts/login/", "en")):
    environ = {"PATH_INFO": path, "HTTP_ACCEPT_LANGUAGE": language, "HTTP_HOST": "localhost"}
    setup_testing_defaults(environ)
    b"".join(application(environ, lambda status, headers, info=None: statuses.append(status)))
print(json.dumps({"statuses": statuses, "imported": sorted(set(sys.modules) - before), "compiled": compiled}))
"""


def test_the_first_requests_of_a_fresh_process_import_and_compile_nothing(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.update({"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "DJANGO_SETTINGS_MODULE": "config.settings"})
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    out = subprocess.run([sys.executable, "-c", FIRST_REQUESTS], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True).stdout
    first = json.loads(out.splitlines()[-1])
    assert all(s.startswith("200") for s in first["statuses"]), first["statuses"]
    assert first["compiled"] == [], first["compiled"]
    assert first["imported"] == [], first["imported"]
