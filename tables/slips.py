"""Objective-card slips: one action gives every seated player of a game their personal link.

The organizer prints the slips of a game (several per A4, cut out and handed at the tables):
each names the player, their table and seat, and carries the QR code of their personal link
(``tournaments.AccessLink``). Opening it shows the player's own secret card on their phone, on
the objective page of that game, and nowhere else: the slip itself never shows a card.
A player who already has an active link keeps it (the same slip works for every game); links are
created only for those who have none, each audited like a link made by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from tournaments import audit
from tournaments.models import AccessLink
from tournaments.services import require_organizer

from .models import Game, Seat


@dataclass(frozen=True)
class Slip:
    seat: Seat
    link: AccessLink


def _active_links(game: Game) -> dict[int, AccessLink]:
    links: dict[int, AccessLink] = {}
    for link in AccessLink.objects.filter(
        tournament=game.tournament, kind=AccessLink.Kind.PLAYER, revoked_at__isnull=True,
    ).order_by("created_at"):
        assert link.player_id is not None
        links.setdefault(link.player_id, link)
    return links


def _seats(game: Game) -> list[Seat]:
    return list(
        Seat.objects.filter(game=game, player__isnull=False)
        .select_related("player", "table").order_by("table__number", "number")
    )


def missing_links(game: Game) -> int:
    """How many seated players of ``game`` have no active personal link yet."""
    have = _active_links(game)
    return sum(1 for s in _seats(game) if s.player_id not in have)


def slips(game: Game) -> list[Slip]:
    """The slips that can be printed now: seated players with an active personal link."""
    have = _active_links(game)
    return [Slip(s, have[s.player_id]) for s in _seats(game) if s.player_id in have]


@transaction.atomic
def prepare_slips(game: Game, *, actor: Any) -> list[Slip]:
    """Every seated player of ``game`` gets an active personal link (new ones only where
    missing; each audited). Organizers only."""
    tournament = game.tournament
    require_organizer(actor, tournament)
    have = _active_links(game)
    for seat in _seats(game):
        if seat.player_id in have:
            continue
        link = AccessLink.objects.create(tournament=tournament, kind=AccessLink.Kind.PLAYER,
                                         player_id=seat.player_id)
        have[seat.player_id] = link
        audit.record(actor=actor, action="link.create", obj=link, tournament=tournament,
                     after={"kind": "player", "player": seat.player_id,
                            "slips_of_game": game.number})
    return slips(game)
