"""The two ways the app runs: the embedded default with no settings, production from env."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json, django; from django.conf import settings; django.setup();"
    "from config.celery import app;"
    "print(json.dumps({'engine': settings.DATABASES['default']['ENGINE'],"
    "'cache': settings.CACHES['default']['BACKEND'], 'eager': app.conf.task_always_eager,"
    "'broker': app.conf.broker_url, 'debug': settings.DEBUG,"
    "'secure_cookies': settings.SESSION_COOKIE_SECURE, 'lang': settings.LANGUAGE_CODE}))"
)
CONFIG_VARS = ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG", "HTTPS", "CELERY_BROKER_URL",
               "CELERY_TASK_ALWAYS_EAGER", "ALLOWED_HOSTS")


def _run(env_vars: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in CONFIG_VARS}
    env.update(env_vars, DJANGO_SETTINGS_MODULE="config.settings")
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def _probe(env_vars: dict[str, str]) -> dict[str, object]:
    result = _run(env_vars, "-c", PROBE)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


PRODUCTION = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/risiko_settings_probe",
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "SECRET_KEY": "x" * 60 + "-production-like-secret",
    "ALLOWED_HOSTS": "risiko.example.org",
}


def test_nothing_set_runs_on_the_embedded_default() -> None:
    probe = _probe({})
    assert probe["engine"] == "django.db.backends.sqlite3"
    assert probe["cache"].endswith("LocMemCache")
    assert probe["eager"] is True
    assert probe["debug"] is True
    assert probe["lang"] == "it"


def test_database_and_redis_urls_switch_to_production() -> None:
    probe = _probe(PRODUCTION)
    assert probe["engine"] == "django.db.backends.postgresql"
    assert probe["cache"].endswith("RedisCache")
    assert probe["eager"] is False
    assert probe["broker"] == "redis://127.0.0.1:6379/0"
    assert probe["debug"] is False
    assert probe["secure_cookies"] is True


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = _run(env, "-c", PROBE)
    assert result.returncode != 0
    assert "SECRET_KEY must be set" in result.stderr


def test_check_deploy_passes_with_production_variables() -> None:
    result = _run(PRODUCTION, "manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_file_runs_the_whole_stack_with_healthchecks() -> None:
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((ROOT / "docker" / "compose.yaml").read_text())
    services = compose["services"]
    assert {"db", "redis", "web", "worker", "beat"} <= set(services)
    for name in ("db", "redis", "web", "worker"):
        assert "healthcheck" in services[name], name
    assert services["web"]["command"] == ["web"]
    entrypoint = (ROOT / "docker" / "entrypoint.sh").read_text()
    assert "migrate --noinput" in entrypoint  # migrations on start
