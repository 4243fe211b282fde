"""Page forms. They only shape input; the rules live in ``services`` (whose DomainError is
shown next to its field by ``common.errors.add_to_form``, the form keeping what was typed)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from . import formats
from .dates import DateField
from .models import Club, Tournament, TournamentRole
from .spreadsheets import LIMITS


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=150)
    date = DateField(label=_("Date"))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices)
    ruleset = forms.ChoiceField(label=_("Rule set"), choices=Tournament.RuleSet.choices)
    scoring_system = forms.ChoiceField(label=_("Scoring system"), initial=formats.DEFAULT_SCORING_SYSTEM,
                                       choices=formats.scoring_system_choices)
    games_count = forms.IntegerField(label=_("Number of games"), min_value=1, max_value=20,
                                     initial=3)
    start_times = forms.CharField(
        label=_("Start times"), required=False, initial="10:30, 14:00, 16:30",
        help_text=_("One time per game, separated by commas (K-BEST2: 10:30, 14:00, 16:30)."),
    )
    capacity = forms.IntegerField(label=_("Capacity"), min_value=1, required=False,
                                  help_text=_("Empty: no limit. Beyond it players are waitlisted."))
    event_type = forms.ChoiceField(
        label=_("National ranking type (Tipologia)"), required=False,
        choices=[("", _("The format's type")), *Tournament.EventType.choices],
        help_text=_("Empty: the type of the chosen format (no format: friendly, not ranked). K-RANKING."),
    )

    @classmethod
    def initial_for(cls, t: Tournament) -> dict[str, object]:
        return {
            "name": t.name, "date": t.date, "venue": t.venue, "format": t.format,
            "ruleset": t.ruleset, "scoring_system": t.scoring_system,
            "games_count": t.games_count, "start_times": ", ".join(t.start_times or []),
            "capacity": t.capacity, "event_type": t.event_type,
        }


class TournamentCreateForm(TournamentForm):
    """A new tournament: a club admin also picks the organising club among their clubs (whose
    admins then organise it); the field is absent for whoever administers none."""

    club = forms.ModelChoiceField(
        label=_("Organising club"), queryset=Club.objects.none(), required=False,
        empty_label=_("No club"),
        help_text=_("The club's admins organise the tournament with you."),
    )

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        from .clubs import administered_clubs

        clubs = administered_clubs(user)
        if not clubs.exists():
            del self.fields["club"]
            return
        field = self.fields["club"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = clubs
        if clubs.count() == 1 and not getattr(user, "is_staff", False):
            field.initial = clubs.first()


class ClubSetupForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=120)
    city = forms.CharField(label=_("City"), max_length=120, required=False)
    region = forms.CharField(label=_("Region"), max_length=60, required=False)
    admin = forms.CharField(label=_("Admin's username"), max_length=150,
                            help_text=_("Created when missing, without a password: you get a one-time link "
                                        "for them to choose it."))


class ClubAdminForm(forms.Form):
    admin = forms.CharField(label=_("Username"), max_length=150)


class RegistrationForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=80)
    last_name = forms.CharField(label=_("Last name"), max_length=80)
    nickname = forms.CharField(label=_("Nickname"), max_length=80, required=False)
    club = forms.CharField(
        label=_("Club"), max_length=120, required=False,
        widget=forms.TextInput(attrs={"list": "clubs", "autocomplete": "off"}),
    )
    email = forms.EmailField(
        label=_("E-mail"), required=False,
        help_text=_("Seen only by the organizers."),
    )
    region = forms.CharField(
        label=_("Region"), max_length=60, required=False,
        help_text=_("The club's region (national events keep regions apart at the tables)."),
    )
    birth_date = DateField(
        label=_("Date of birth"), required=False,
        help_text=_("Seen only by the organizers."),
    )


class OrganizerRegistrationForm(RegistrationForm):
    """What an organizer types when adding a player: the public form and the national id."""

    national_id = forms.CharField(
        label=_("National id"), max_length=32, required=False,
        help_text=_("The national ranking's id of the player, if known. Seen only by the organizers."),
    )


class NationalIdForm(forms.Form):
    national_id = forms.CharField(label=_("National id"), max_length=32, required=False)


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("Columns: first_name, last_name, nickname, club, email, birth_date "
                    "(DD/MM/YYYY), national_id. A file with problem lines imports nothing: every such "
                    "line is listed, and you choose to import the others or to correct the file."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > LIMITS.upload_bytes:  # refused before it is read
            raise forms.ValidationError(_("The file is larger than %(mb)s MB.")
                                        % {"mb": LIMITS.upload_bytes // (1024 * 1024)})
        return upload


class RoleForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=TournamentRole.Role.choices,
                             initial=TournamentRole.Role.REFEREE)


class InvitationForm(forms.Form):
    prefix = "invite"  # the staff page has the role form too
    role = forms.ChoiceField(label=_("Role"), choices=TournamentRole.Role.choices,
                             initial=TournamentRole.Role.REFEREE)
    note = forms.CharField(label=_("For (name, only you see it)"), max_length=120,
                           required=False)
    email = forms.EmailField(label=_("E-mail (optional)"), required=False,
                             help_text=_("Sent only when the server has mail "
                                         "configured; the link works either way."))
