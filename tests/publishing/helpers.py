"""A laptop tournament with results, shared by the publishing tests."""

from __future__ import annotations

from typing import Any

from tests.factories import scoring as f
from tests.factories.tournaments import ClubFactory
from tournaments.models import Club, Player, Tournament

SHORT = f.short_data([(50, 10, 20, None, False), (30, 20, 20, None, False),
                      (20, 14, 20, None, False), (10, 10, 20, None, False)])
SHORT_2 = f.short_data([(10, 10, 20, None, False), (20, 14, 20, None, False),
                        (30, 20, 20, None, False), (50, 10, 20, None, False)])


def laptop_event(club_name: str = "Club Alfa", slug: str | None = None) -> dict[str, Any]:
    club = Club.objects.filter(name=club_name).first() or ClubFactory(name=club_name)
    kwargs: dict[str, Any] = {"club": club}
    if slug:
        kwargs["slug"] = slug
    t: Tournament = f.ScoringTournamentFactory(**kwargs)
    org, ref = f.role(t, "organizer"), f.role(t)
    people = f.players(t, 4)
    for i, p in enumerate(people):  # personal data that must never leave the laptop
        Player.objects.filter(pk=p.pk).update(email=f"p{i}@example.org", national_id=f"NID{t.pk}x{i}",
                                              birth_date=f"1990-01-0{i + 1}", club=club)
    table = f.make_table(t, 1, people)
    f.enter(table, ref, "short", SHORT, confirm_by=org)
    return {"t": t, "org": org, "ref": ref, "table": table, "players": people, "club": club}


def add_second_game(event: dict[str, Any]) -> None:
    table = f.make_table(event["t"], 2, list(reversed(event["players"])))
    f.enter(table, event["ref"], "short", SHORT_2, confirm_by=event["org"])
