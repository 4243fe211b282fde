"""The seating priorities in the reader's language.

``tables/seating.py`` stays free of Django: it names priorities by key and explains a report
with reason codes (and English). This is the one place the pages turn those into the active
language through gettext.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext

from tables.seating import PRIORITY_BY_KEY, SeatingError, explain, render_reason


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


def seating_error_text(exc: SeatingError) -> str:
    """A refused composition in the active language, with the organizer's options."""
    if exc.reason is None:  # a refusal made in English only (knock-out plans)
        message, options = exc.message, exc.options
    else:
        message = render_reason(exc.reason, gettext, _tables_of)
        options = [render_reason(o, gettext, _tables_of) for o in exc.option_reasons]
    if options:
        message += " " + gettext("Options: %(options)s.") % {"options": "; ".join(options)}
    return message


def _tables_of(singular: str, plural: str, n: int) -> str:
    """The one plural of the seating texts (seating.TABLE_OF, TABLES_OF), written out here so
    the catalogue has it as a plural entry."""
    return ngettext("%(n)s table of %(size)s", "%(n)s tables of %(size)s", n)
