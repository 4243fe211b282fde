"""Every package of the project reaches the installed app and the Docker image: an app added to
``INSTALLED_APPS`` but missing from ``pyproject.toml``'s package list or the image's ``COPY``
lines starts on a developer's checkout and fails in production (``No module named …``)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def project_packages() -> set[str]:
    """The top-level packages of this repository that the settings install, the engine and the
    shared helpers (common: imported, never installed)."""
    names = {entry.split(".")[0] for entry in settings.INSTALLED_APPS}
    return {name for name in names if (ROOT / name / "__init__.py").exists()} | {"engine", "common"}


def test_every_installed_app_is_packaged_and_copied_into_the_image() -> None:
    wanted = project_packages()
    assert {"config", "common", "tournaments", "tables", "scoring", "engine"} <= wanted
    included = {pattern.rstrip("*") for pattern in
                tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]["include"]}
    copied = set(re.findall(r"^COPY (\w+) \./\1$", (ROOT / "docker" / "Dockerfile").read_text(), re.M))
    assert wanted - included == set(), f"add to pyproject.toml's packages.find include: {sorted(wanted - included)}"
    assert wanted - copied == set(), f"add a COPY line to docker/Dockerfile: {sorted(wanted - copied)}"
