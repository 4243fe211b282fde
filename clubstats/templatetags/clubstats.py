"""How the statistics' pages write a figure: numbers in the page's language (12,5 in Italian),
nothing as a dash."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def cell(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, float):
        return number_format(value, use_l10n=True)
    return str(value)
