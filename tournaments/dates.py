"""Dates as the clubs write them: dd/mm/yyyy, in every form and every CSV; and as a page says
them in a sentence, "sabato 5 dicembre 2026".

One parser and one formatter for the whole app (:func:`long_date` and :func:`long_datetime`
for the pages, the template filters of the same names), and :class:`DateField`, the form field every page
uses for a date: a text box showing ``25/11/2026`` (a browser's ``type="date"`` box drops a value
it cannot read, so an edit form came back empty). ISO dates (2026-11-25) are accepted too, so a
file written by another program still imports. The API keeps ISO 8601.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django import forms
from django.utils import dateformat, timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

DISPLAY = "%d/%m/%Y"
_DMY = re.compile(r"^\s*(\d{1,2})[/.\-](\d{1,2})[/.\-](\d{4})\s*$")
_ISO = re.compile(r"^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$")


def parse_date(text: str) -> dt.date | None:
    """``25/11/2026``, ``25-11-2026``, ``25.11.2026`` or ``2026-11-25`` → a date; None when not
    a date (an empty text included)."""
    m = _DMY.match(text or "")
    if m:
        day, month, year = (int(x) for x in m.groups())
    else:
        m = _ISO.match(text or "")
        if not m:
            return None
        year, month, day = (int(x) for x in m.groups())
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def format_date(value: dt.date | None) -> str:
    return value.strftime(DISPLAY) if value else ""


def _spoken(value: dt.date, pattern: str) -> str:
    text = dateformat.format(value, pattern)
    # Italian writes weekdays and months in lower case ("sabato 5 dicembre"); Django's catalogue
    # capitalises them, as English does
    return text.lower() if (get_language() or "").startswith("it") else text


def long_date(value: dt.date | None) -> str:
    """``sabato 5 dicembre 2026`` (``Saturday 5 December 2026`` in English); "" for no date."""
    if not value:
        return ""
    if isinstance(value, dt.datetime):
        value = timezone.localtime(value) if timezone.is_aware(value) else value
        value = value.date()
    return _spoken(value, "l j F Y")


def long_datetime(value: dt.datetime | None) -> str:
    """``sabato 5 dicembre 2026, 14:30`` in the server's time zone; "" for no time."""
    if not value:
        return ""
    local = timezone.localtime(value) if timezone.is_aware(value) else value
    return f"{long_date(local.date())}, {local:%H:%M}"


class DateInput(forms.TextInput):
    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__({"placeholder": _("dd/mm/yyyy"), "inputmode": "numeric", "autocomplete": "off",
                          "pattern": r"\d{1,2}/\d{1,2}/\d{4}|\d{4}-\d{2}-\d{2}", "size": "10",
                          **(attrs or {})})

    def format_value(self, value: Any) -> str | None:
        if isinstance(value, dt.date):
            return format_date(value)
        return super().format_value(value)  # type: ignore[no-any-return]


class DateField(forms.DateField):
    """A date typed as dd/mm/yyyy (what was typed is kept when it is not a date)."""

    widget = DateInput
    default_error_messages = {"invalid": _("Enter the date as DD/MM/YYYY.")}

    def to_python(self, value: Any) -> dt.date | None:
        if value in self.empty_values:
            return None
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
        parsed = parse_date(str(value))
        if parsed is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return parsed
