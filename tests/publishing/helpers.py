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


def preset_event(preset_id: str, club_name: str, slug: str, players: int = 12) -> dict[str, Any]:
    """A finished event of ``club_name`` in format ``preset_id``: its qualifying rounds composed by
    the app and played (every table's Extra, Armate and ending of its own), as the format
    registry's tests play them."""
    from django.utils import timezone

    from tables import services as table_services
    from tests.formats.test_registry import choose_preset, qualifying_rounds
    from tournaments import formats
    from tournaments.services import change_status

    club = Club.objects.filter(name=club_name).first() or ClubFactory(name=club_name)
    other = Club.objects.get_or_create(name=f"{club_name} ospiti")[0]
    t: Tournament = f.ScoringTournamentFactory(club=club, slug=slug, date=timezone.localdate())
    org, ref = f.role(t, "organizer"), f.role(t)
    for i, p in enumerate(f.players(t, players)):
        p.club = club if i % 3 else other
        p.last_name = f"{p.last_name} {preset_id}"  # people of their own in each event
        p.save()
    choose_preset(t, org, preset_id)
    for number in qualifying_rounds(formats.PRESETS[preset_id]):
        game = table_services.compose_game(table_services.ensure_game(t, number, actor=org), actor=org,
                                           seed=f"{slug}-{number}")
        for table in game.tables.order_by("number"):
            f.enter(table, ref, "short", varied(table.seats.count(), number + table.number),
                    ended_by="sdadata" if (number + table.number) % 2 else "time", confirm_by=org)
    change_status(t, Tournament.Status.FINISHED, actor=org)
    return {"t": t, "org": org, "ref": ref, "club": club}


def varied(size: int, turn: int) -> dict[str, Any]:
    """A short-form result won by seat ``turn % size + 1``, every seat with its own extra points
    and armies (the leaderboard's Extra and Armate columns)."""
    winner = turn % size
    points = iter([40, 30, 20, 10])
    objective = [50 if s == winner else next(points) for s in range(size)]
    extra = [(turn + s) % 2 * 2 for s in range(size)]
    extra[winner] = 0
    extra[winner] = 164 - sum(objective) - sum(extra)  # the engine's total of a table
    return f.short_data([(o, e, 12 + (turn * 5 + s * 7) % 20, None, False)
                         for s, (o, e) in enumerate(zip(objective, extra, strict=True))])
