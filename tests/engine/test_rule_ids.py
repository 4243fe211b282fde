"""Rule ids: every id the engine can cite is in its catalogue, and docs/engine.md explains each one."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from engine.rules import RULES, explain

ROOT = Path(__file__).resolve().parents[2]
RULE_ID = re.compile(r"^(FORMAT|[A-Z][A-Z0-9]*(-[A-Z0-9]+)+)$")

# the rule ids of docs/rules.md, in the order of the rulebooks
RULES_MD = """
B-MAP T-SIZE T-ORDER D-DEAL D-50 D-ARMIES D-CAP TURN-PHASES R-BASE R-CONT R-PLUS1 C-TRIS C-DRAW
C-HAND7 R-PLACE A-ADJ A-SRC RTU-DEF-MAX RTU-ATT-DICE A-RESOLVE A-OCCUPY RTU-GARRISON A-ELIM M-MOVE
RTU-CARTA O-RTU O-CLASSIC E-TIME E-SUPP E-SDADATA E-BAR S-RTU S-PLACE S-TOURNAMENT S-M1 S-M2 S-M3
S-TA S-MEDIO S-OPEN S-RADUNO S-MASTER S-SPARTAC S-GUFO S-BGL S-BYE K-BEST2 K-ITALIANA K-KO K-TABLES
K-KO-RCU K-BESTN K-RANKING K-SWISS K-KO-SE
""".split()


def cited_in_engine() -> dict[str, set[str]]:
    """Every string constant of engine/ shaped like a rule id, with the files that use it."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and RULE_ID.match(node.value):
                found.setdefault(node.value, set()).add(path.name)
    return found


def documented() -> list[str]:
    text = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    section = text.split("## Rule ids", 1)[1].split("\n## ", 1)[0]
    ids: list[str] = []
    for line in section.splitlines():
        if line.startswith("| `"):
            first_cell = line.split("|")[1]
            ids += re.findall(r"`([^`]+)`", first_cell)
    return ids


def test_every_rules_md_id_is_in_the_catalogue() -> None:
    assert [r for r in RULES_MD if r not in RULES] == []
    assert all(explain(r) for r in RULES_MD)
    assert explain("X-NOPE") == ""


def test_every_id_the_engine_cites_is_in_the_catalogue() -> None:
    cited = cited_in_engine()
    assert {"FORMAT", "RTU-ATT-DICE", "E-SDADATA", "D-50"} <= set(cited)  # the scan works
    unknown = {r: sorted(files) for r, files in cited.items() if r not in RULES}
    assert unknown == {}


def test_docs_table_explains_every_rule_id_once() -> None:
    ids = documented()
    assert len(ids) == len(set(ids)), [r for r in ids if ids.count(r) > 1]
    assert sorted(set(RULES) - set(ids)) == []
    assert sorted(set(ids) - set(RULES)) == []
