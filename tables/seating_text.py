"""The seating priorities in the reader's language.

``tables/seating.py`` stays free of Django: it names priorities by key and explains a report
with reason codes (and English). This is the one place the pages turn those into the active
language through gettext.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from tables.seating import PRIORITY_BY_KEY, explain


def priority_label(key: str) -> str:
    priority = PRIORITY_BY_KEY.get(key)
    return gettext(priority.label) if priority is not None else key


def priority_choices() -> list[tuple[str, str]]:
    """(key, translated label) of every priority, in the registry's order."""
    return [(key, priority_label(key)) for key in PRIORITY_BY_KEY]


def localized_report(report: dict[str, Any]) -> dict[str, Any]:
    """A quality report whose unmet priorities read in the active language.

    A report stored before reasons were recorded keeps its English explanation.
    """
    if not report.get("unmet"):
        return report
    unmet = []
    for entry in report["unmet"]:
        entry = dict(entry)
        entry["label"] = priority_label(entry.get("priority", ""))
        reasons = entry.get("reasons")
        if reasons:
            try:
                entry["explanation"] = explain(reasons, gettext)
            except (KeyError, TypeError, ValueError):
                pass  # a reason this version does not know: the stored English stays
        unmet.append(entry)
    return {**report, "unmet": unmet}
