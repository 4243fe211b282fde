"""Forms of the season pages: they keep what was typed; ``scoring.seasons`` checks and writes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments import formats, labels
from tournaments.dates import DateField
from tournaments.models import Season

from .standings import METRICS


def preset_choices() -> list[tuple[str, str]]:
    return [(p.id, str(p.name)) for p in formats.PRESETS.values()]


def metrics_help() -> str:
    return "; ".join(f"{key}: {labels.metric(key)}" for key in METRICS if key != "final")


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    year = forms.IntegerField(label=_("Year"), min_value=2000, max_value=2100)
    starts_on = DateField(label=_("First evening"), required=False)
    ends_on = DateField(label=_("Last evening"), required=False)
    rule = forms.ChoiceField(label=_("How the evenings combine"), choices=Season.Rule.choices)
    best_n = forms.IntegerField(label=_("N (best N evenings or games)"), min_value=1, max_value=500,
                                required=False)
    preset = forms.ChoiceField(label=_("Format of the evenings"), choices=preset_choices, initial="campionato")
    evening_games = forms.IntegerField(label=_("Games per evening"), min_value=1, max_value=20, required=False,
                                       help_text=_("Empty: the format's number."))
    tiebreaks = forms.CharField(label=_("Tie-breaks (comma-separated)"), required=False, max_length=300,
                                help_text=_("Empty: the format's. Known: %(known)s"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["tiebreaks"].help_text = str(self.fields["tiebreaks"].help_text) % {"known": metrics_help()}

    @staticmethod
    def initial_for(season: Season) -> dict[str, Any]:
        return {"name": season.name, "year": season.year, "starts_on": season.starts_on,
                "ends_on": season.ends_on, "rule": season.rule, "best_n": season.best_n,
                "preset": season.preset, "evening_games": season.evening_games,
                "tiebreaks": ", ".join(season.tiebreaks or [])}


class EveningForm(forms.Form):
    date = DateField(label=_("Date"))
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)  # the evening confirmed
