"""The season's final-phase option: checked and stored with the season's other fields
(``seasons.services``: ``season.create`` / ``season.update`` audit it in their snapshot).

The season's fields ``finals`` (on or off) and ``finals_direct``, ``finals_semifinal_places``,
``finals_ripescati``, ``finals_min_evenings``, ``finals_consolation``. The numbers: 0–4
players straight to the final; 0, 4, 8, 12 or 16 semifinal places (tables of four, each winner
to the final); the final is one table of 3 to 5 (T-SIZE); up to all the semifinal places by
ripescaggio; 0–100 evenings needed for it. Refusals name the field and a rule (``FORMAT``,
``T-SIZE``; ``K-KO-RCU`` once the final phase exists: its options no longer change).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from tournaments.models import Season

from ..models import FINAL_SIZES, SeasonFinals

KEYS = ("direct", "semifinal_places", "ripescati", "min_evenings", "consolation")
DEFAULTS: dict[str, Any] = {"direct": 2, "semifinal_places": 8, "ripescati": 1, "min_evenings": 1,
                            "consolation": True}


def of(season: Season) -> SeasonFinals | None:
    return SeasonFinals.objects.filter(season_id=season.pk).select_related("phase", "consolation_event").first()


def snapshot(season: Season) -> dict[str, Any] | None:
    finals = of(season) if season.pk else None
    return finals.options() if finals is not None else None


FIELDS = ("finals", *(f"finals_{k}" for k in KEYS))  # the season's fields of this option


def _number(values: dict[str, Any], key: str, low: int, high: int) -> int:
    try:
        value = int(str(values[key]).strip())
    except (TypeError, ValueError):
        value = low - 1
    if not low <= value <= high:
        raise DomainError(_("Between %(low)s and %(high)s.") % {"low": low, "high": high},
                          field=f"finals_{key}", rule="FORMAT")
    return value


def _flag(value: Any) -> bool:
    return str(value).strip().lower() not in ("false", "0", "", "none", "off", "no")


def check(given: dict[str, Any], current: dict[str, Any] | None) -> dict[str, Any] | None:
    """The option as stored, or None (no final phase), from the season's fields given
    (``finals``: on or off; ``finals_direct``…; the others keep their current or default value);
    refused when it cannot be played."""
    enabled = _flag(given["finals"]) if "finals" in given else current is not None
    if not enabled:
        return None
    values = {**DEFAULTS, **(current or {}),
              **{k: given[f"finals_{k}"] for k in KEYS if given.get(f"finals_{k}") not in (None, "")}}
    direct = _number(values, "direct", 0, 4)
    places = _number(values, "semifinal_places", 0, 16)
    if places % 4:
        raise DomainError(_("Semifinals are tables of four: 0, 4, 8, 12 or 16 places."),
                          field="finals_semifinal_places", rule="T-SIZE")
    if direct + places // 4 not in FINAL_SIZES:
        raise DomainError(_("The final is one table of 3 to 5 players: the players straight to the final plus "
                            "one per semifinal make %(n)s.") % {"n": direct + places // 4},
                          field="finals_direct", rule="T-SIZE")
    return {"direct": direct, "semifinal_places": places, "ripescati": _number(values, "ripescati", 0, places),
            "min_evenings": _number(values, "min_evenings", 0, 100), "consolation": _flag(values["consolation"])}


def store(season: Season, given: dict[str, Any]) -> None:
    """Write the checked option (the season is saved). Once the final phase exists it stays."""
    if not any(k in given for k in FIELDS):
        return
    current = of(season)
    wanted = check(given, current.options() if current is not None else None)
    if current is not None and current.phase_id is not None and wanted != current.options():
        raise ConflictError(_("The final phase has been created: its options no longer change."),
                            field="finals", rule="K-KO-RCU")
    if wanted is None:
        if current is not None:
            current.delete()
        return
    SeasonFinals.objects.update_or_create(season=season, defaults=wanted)
