"""The repository stands alone: no file in it points at documents kept outside it."""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "node_modules", ".git", "staticfiles", "__pycache__", ".hypothesis"}
SUFFIXES = {".py", ".md", ".html", ".txt", ".toml", ".json", ".js", ".css", ".sh", ".cfg", ".yml"}
# the rules' and the clubs' reference documents, and the folder they live in
OUTSIDE = re.compile("|".join(re.escape(name) for name in (
    "RULES" + ".md", "CLUB" + "-TOOLS", "GT" + "-WORKBOOK", "../" + "shared", "shared/" + "RULES",
    "specs/" + "game-record",
)))


def test_no_file_points_outside_the_repository() -> None:
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder, name)
            if path.suffix not in SUFFIXES:
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for number, line in enumerate(text.splitlines(), 1):
                if OUTSIDE.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}")
    assert found == [], "say it here, or point at docs/rules.md:\n" + "\n".join(found)
