"""Demo step (``load_demo``'s DEMO_STEPS): finish game 1 of the demo tournament.

For every table of game 1, an engine-simulated game (``engine.simulate.simulate``, seeded by
the table number so every demo database is the same) is uploaded as a recorded game by the
referee, adjudicated by the engine, confirmed by the organizer, and the game is marked finished.
"""

from __future__ import annotations

from typing import Any

from engine import simulate
from tables.models import Game
from tournaments.models import Tournament, TournamentRole

from . import selectors, services


def _user(tournament: Tournament, role: str) -> Any:
    found = (TournamentRole.objects.filter(tournament=tournament, role=role)
             .select_related("user").order_by("pk").first())
    if found is None:
        raise RuntimeError(f"the demo tournament has no {role}")
    return found.user


def finish_game_1(tournament: Tournament) -> None:
    referee = _user(tournament, TournamentRole.Role.REFEREE)
    organizer = _user(tournament, TournamentRole.Role.ORGANIZER)
    game = Game.objects.get(tournament=tournament, number=1)
    for state in selectors.table_states(tournament, game):
        table = state.table
        seats = selectors.seats_of(table)
        record = simulate(len(seats), f"demo-result-{table.number}")
        names = {s.number: (s.player.display_name if s.player else "ghost") for s in seats}
        for p in record["players"]:  # the record speaks of the table's own players
            p["name"] = names.get(p["seat"], p["name"])
        sub = services.submit_result(actor=referee, table=table, kind="record", data={"record": record},
                                     expected_version=state.version)
        services.confirm_result(actor=organizer, submission=sub)
    services.finish_game(actor=organizer, game=game)


def club_season(tournament: Tournament) -> None:
    """A small season of the first demo club (so its club page shows one): two past weekly
    evenings of one game, the second made with "new evening" from the first (its players carried
    over), each played and confirmed like game 1 above. ``tournament`` gives the players."""
    import datetime as dt

    from django.utils import timezone

    from tables import demo as table_demo
    from tournaments import clubs
    from tournaments import demo as tournament_demo
    from tournaments import services as tournament_services
    from tournaments.models import Registration

    from . import seasons

    name, _city, _region = tournament_demo.CLUBS[0]
    setup = clubs.set_up_club(actor=None, name=name, admin_username="presidente-roma")  # no password
    president = setup.user
    season = seasons.create_season(actor=president, club=setup.club,
                                   name=f"Campionato del giovedì {timezone.localdate().year}",
                                   rule="best_evenings", best_n=3, evening_games=1)
    referee = _user(tournament, TournamentRole.Role.REFEREE)
    regulars = (Registration.objects.filter(tournament=tournament, player__club__name__in=[
        c for c, _city, _region in tournament_demo.CLUBS[:2]]).select_related("player__club").order_by("pk"))
    today = timezone.localdate()
    for weeks_ago in (2, 1):
        evening = seasons.new_evening(season, actor=president, date=today - dt.timedelta(days=7 * weeks_ago))
        if weeks_ago == 2:  # the first evening: its players register; the next one carries them over
            for r in regulars:
                tournament_services.register(evening, tournament_services.PlayerData(
                    first_name=r.player.first_name, last_name=r.player.last_name, nickname=r.player.nickname,
                    club=r.player.club.name, email=r.email, birth_date=r.birth_date), actor=president)
        tournament_services.add_role(evening, referee.get_username(), TournamentRole.Role.REFEREE, actor=president)
        tournament_services.change_status(evening, Tournament.Status.REGISTRATION, actor=president)
        tournament_services.change_status(evening, Tournament.Status.RUNNING, actor=president)
        tournament_services.bulk_checkin(list(evening.registrations.active()),
                                         1, actor=president)
        table_demo.start_game_1(evening)
        finish_game_1(evening)
