"""Forms of the organizer's self-service pages (a bound form keeps what was typed)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Sanction

TIME_FORMATS = ["%Y-%m-%dT%H:%M", "%d/%m/%Y %H:%M", "%Y-%m-%d %H:%M"]


class WindowForm(forms.Form):
    game_number = forms.TypedChoiceField(label=_("Game"), coerce=int)
    opens_at = forms.DateTimeField(label=_("Opens at"), input_formats=TIME_FORMATS,
                                   widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                              format="%Y-%m-%dT%H:%M"))
    closes_at = forms.DateTimeField(label=_("Closes at"), input_formats=TIME_FORMATS,
                                    widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                               format="%Y-%m-%dT%H:%M"))

    def __init__(self, *args: object, games: int = 1, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["game_number"].choices = [(n, str(n)) for n in range(1, games + 1)]  # type: ignore[attr-defined]


class SanctionForm(forms.Form):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)
    kind = forms.ChoiceField(label=_("Kind"), choices=Sanction.Kind.choices)
    game_number = forms.TypedChoiceField(label=_("Game"), coerce=int, required=False, empty_value=None)
    reason = forms.CharField(label=_("Why"), max_length=300, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: object, players: list[tuple[int, str]] = (), games: int = 1,  # type: ignore[assignment]
                 **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["player"].choices = [("", "—"), *players]  # type: ignore[attr-defined]
        self.fields["game_number"].choices = [("", _("no game")),  # type: ignore[attr-defined]
                                              *[(n, str(n)) for n in range(1, games + 1)]]
