"""The demo's club season (``manage.py load_demo``): a season of the first demo club with two
past evenings played and confirmed like the demo's game 1."""

from __future__ import annotations

from scoring.demo import finish_game_1, user_with_role
from tournaments.models import Tournament, TournamentRole

from . import services as seasons


def club_season(tournament: Tournament) -> None:
    """A small season of the first demo club (so its club page shows one): two past weekly
    evenings of one game, the second made with "new evening" from the first (its players carried
    over), each played and confirmed like the demo's game 1 (``scoring.demo.finish_game_1``). ``tournament`` gives the players."""
    import datetime as dt

    from django.utils import timezone

    from clubs import federation
    from tables import demo as table_demo
    from tournaments import demo as tournament_demo
    from tournaments import services as tournament_services
    from tournaments.models import Registration

    name, _city, _region = tournament_demo.CLUBS[0]
    setup = federation.set_up_club(actor=None, name=name, admin_username="presidente-roma")  # no password
    president = setup.user
    season = seasons.create_season(actor=president, club=setup.club,
                                   name=f"Campionato del giovedì {timezone.localdate().year}",
                                   rule="best_evenings", best_n=3, evening_games=1)
    referee = user_with_role(tournament, TournamentRole.Role.REFEREE)
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
