"""Forms of the season pages: they keep what was typed; ``seasons.services`` checks and writes."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scoring.standings import METRICS
from tournaments import formats, labels
from tournaments.dates import DateField
from tournaments.models import Season

from .finals import options as final_options


def preset_choices() -> list[tuple[str, str]]:
    return [(p.id, str(p.name)) for p in formats.PRESETS.values()]


CHAIN_LENGTH = 4  # tie-breaks an organizer chooses, in order


def metric_choices() -> list[tuple[str, str]]:
    return [("", "—"), *((key, labels.metric(key)) for key in METRICS if key != "final")]


class ChainWidget(forms.MultiWidget):
    """One list per place in the chain, each tie-break in words (nothing to type)."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__([forms.Select(attrs={"aria-label": format_lazy("{} {}", _("Tie-break"), n)})
                          for n in range(1, CHAIN_LENGTH + 1)], attrs)

    def decompress(self, value: Any) -> list[str]:
        chain = [m.strip() for m in value.split(",")] if isinstance(value, str) else list(value or [])
        return (chain + [""] * CHAIN_LENGTH)[:CHAIN_LENGTH]


class ChainField(forms.MultiValueField):
    """The tie-breaks in order, as the comma-separated keys ``seasons.services`` checks."""

    widget = ChainWidget

    def __init__(self, **kwargs: Any) -> None:
        fields = [forms.ChoiceField(required=False, choices=metric_choices) for _n in range(CHAIN_LENGTH)]
        super().__init__(fields, require_all_fields=False, **kwargs)
        for select in self.widget.widgets:
            select.choices = metric_choices()

    def compress(self, data_list: list[str]) -> str:
        return ", ".join(m for m in data_list if m)


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
    tiebreaks = ChainField(label=_("Tie-breaks, in order"), required=False,
                           help_text=_("None chosen: the format's."))
    # the final phase (seasons.finals.options checks the numbers together)
    finals = forms.BooleanField(label=_("The season ends with a final phase"), required=False)
    finals_direct = forms.IntegerField(label=_("Straight to the final"), min_value=0, max_value=4, required=False,
                                       help_text=_("The first of the standings, into the final without a semifinal."))
    finals_semifinal_places = forms.TypedChoiceField(
        label=_("Semifinal places"), coerce=int, required=False, empty_value=None,
        choices=[(n, str(n)) for n in (0, 4, 8, 12, 16)],
        help_text=_("Tables of four; each semifinal's winner goes to the final (3 to 5 finalists in all)."))
    finals_ripescati = forms.IntegerField(
        label=_("Of which by ripescaggio"), min_value=0, max_value=16, required=False,
        help_text=_("Semifinal places for the best single games of the season among the players left out."))
    finals_min_evenings = forms.IntegerField(label=_("Evenings needed for the ripescaggio"), min_value=0,
                                             max_value=100, required=False)
    finals_consolation = forms.BooleanField(label=_("Torneo degli esclusi for everyone else"), required=False)

    @staticmethod
    def initial_for(season: Season) -> dict[str, Any]:
        current = final_options.snapshot(season)
        finals = {f"finals_{k}": v for k, v in (current or final_options.DEFAULTS).items()}
        return {"name": season.name, "year": season.year, "starts_on": season.starts_on,
                "ends_on": season.ends_on, "rule": season.rule, "best_n": season.best_n,
                "preset": season.preset, "evening_games": season.evening_games,
                "tiebreaks": ", ".join(season.tiebreaks or []), "finals": current is not None, **finals}


class EveningForm(forms.Form):
    date = DateField(label=_("Date"))
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)  # the evening confirmed
