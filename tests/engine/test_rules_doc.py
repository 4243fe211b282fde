"""docs/rules.md explains every rule id the engine knows (engine/rules.py)."""

from __future__ import annotations

import re
from pathlib import Path

from engine.rules import RULES

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_every_rule_id_is_explained_in_docs_rules_md() -> None:
    text = DOC.read_text(encoding="utf-8")
    explained = set(re.findall(r"^- \*\*([A-Z0-9-]+)\*\* — \S", text, re.M))
    assert sorted(set(RULES) - explained) == []
    assert sorted(explained - set(RULES)) == []  # no id the engine does not know
