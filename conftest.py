"""Project-wide pytest setup.

Under ``CI=true`` a test that skips because PostgreSQL, Redis or a browser is missing is a
failure: CI must exercise the production path for real (DEVELOPERS.md).
"""

from __future__ import annotations

import os

import pytest

_skipped: list[str] = []


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.skipped:
        _skipped.append(report.nodeid)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if os.environ.get("CI", "").lower() == "true" and _skipped and exitstatus == 0:
        session.exitstatus = 1


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # type: ignore[no-untyped-def]
    if os.environ.get("CI", "").lower() == "true" and _skipped:
        terminalreporter.write_line(
            f"CI=true: {len(_skipped)} skipped test(s) count as failures: " + ", ".join(_skipped[:10]),
            red=True,
        )


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing():  # type: ignore[no-untyped-def]
    """Users are made in nearly every test and every demo load; PBKDF2 takes 0.6 s a password here
    and would dominate the run. Session-wide, so module-scoped demos and live servers use it too."""
    from django.conf import settings

    previous = settings.PASSWORD_HASHERS
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    yield
    settings.PASSWORD_HASHERS = previous


@pytest.fixture(autouse=True)
def _plain_http(settings):  # type: ignore[no-untyped-def]
    """Tests talk plain HTTP to the test client even with production settings."""
    settings.SECURE_SSL_REDIRECT = False


@pytest.fixture(autouse=True)
def _celery_eager(request):  # type: ignore[no-untyped-def]
    """Ordinary tests run tasks in-process even when REDIS_URL is set (CI); tests marked
    ``celery_worker`` talk to a real worker instead."""
    from config.celery import app

    if request.node.get_closest_marker("celery_worker"):
        yield
        return
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _fresh_cache():  # type: ignore[no-untyped-def]
    from django.core.cache import cache

    cache.clear()
    yield
