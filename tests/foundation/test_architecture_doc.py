"""docs/architecture.md names real places: every file or folder it cites exists, and every
``file.py: name`` it points at is defined there (a move that forgets the page fails here)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
PARTS = sorted(p.parent.name for p in ROOT.glob("*/__init__.py")) + ["templates", "docs", "benchmarks"]
CITED = re.compile(rf"`((?:{'|'.join(PARTS)})/[\w/.<>-]*)"
                   r"(?:: (\w+))?")


def cited() -> list[tuple[str, str | None]]:
    return [(m.group(1), m.group(2)) for m in CITED.finditer(DOC)]


def test_the_page_cites_the_parts() -> None:
    paths = {p for p, _name in cited()}
    assert {"tournaments/hooks.py", "tables/hooks.py", "scoring/selectors.py", "common/live.py"} <= paths


def test_every_cited_path_exists_and_every_cited_name_is_defined_there() -> None:
    missing = []
    for path, name in cited():
        if "<" in path:  # a pattern such as templates/<app>/
            continue
        target = ROOT / path
        if not target.exists():
            missing.append(path)
        elif name and not re.search(rf"^\s*(def|class) {name}\b|^{name}\b.*=", target.read_text(encoding="utf-8"),
                                    re.MULTILINE):
            missing.append(f"{path}: {name}")
    assert missing == []
