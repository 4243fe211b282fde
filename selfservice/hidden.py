"""Hidden standings for the last games: the organizer hides them, the public sees the standings
before the first hidden game (scoring's public pages ask ``hidden_from``, registered in
``apps.py``), each player sees their own results on their personal page, and the organizer
shows them again at the end."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common import live
from common.errors import DomainError
from tournaments import audit
from tournaments.models import Tournament
from tournaments.permissions import require_organizer

from . import signals
from .models import HiddenStandings


def hidden_from(tournament: Tournament) -> int | None:
    """The first hidden game (None: nothing hidden)."""
    return HiddenStandings.objects.filter(tournament=tournament).values_list("from_game", flat=True).first()


@transaction.atomic
def hide_standings(tournament: Tournament, from_game: Any, *, actor: Any) -> HiddenStandings:
    require_organizer(actor, tournament)
    text = str(from_game).strip()
    number = int(text) if text.isdigit() and len(text) <= 3 else 0
    if not 2 <= number <= tournament.games_count:
        raise DomainError(_("Hide from a game between 2 and %(n)s: the standings before it stay public.")
                          % {"n": tournament.games_count}, field="from_game", rule="HIDDEN")
    hidden, _created = HiddenStandings.objects.update_or_create(
        tournament=tournament, defaults={"from_game": number, "hidden_by": actor, "hidden_at": timezone.now()})
    audit.record(actor=actor, action="standings.hide", obj=hidden, tournament=tournament,
                 after={"from_game": number})
    live.bump_on_commit(tournament.slug)  # the public pages show the standings before it at once
    transaction.on_commit(lambda: signals.standings_hidden.send(sender=HiddenStandings, tournament=tournament,
                                                                from_game=number))
    return hidden


@transaction.atomic
def show_standings(tournament: Tournament, *, actor: Any) -> None:
    require_organizer(actor, tournament)
    hidden = HiddenStandings.objects.filter(tournament=tournament).first()
    if hidden is None:
        return
    audit.record(actor=actor, action="standings.show", obj=hidden, tournament=tournament,
                 before={"from_game": hidden.from_game})
    hidden.delete()
    live.bump_on_commit(tournament.slug)
    transaction.on_commit(lambda: signals.standings_shown.send(sender=HiddenStandings, tournament=tournament))
