"""``{{ tournament.date|long_date }}``, ``{{ entry.at|long_datetime }}``: the one way a page says a
date in words (``tournaments.dates``). Loaded everywhere (a built-in of the template engine)."""

from __future__ import annotations

from django import template

from tournaments import dates

register = template.Library()
register.filter("long_date", dates.long_date)
register.filter("long_datetime", dates.long_datetime)
