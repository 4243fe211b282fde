"""Every route of the project, read from the URL configuration (not from a hand-made list), and
the arguments to call each one on the demo tournament. A route without an entry in ``ARGS`` (or
in the caller's expectation table) makes the hardening tests fail: a new endpoint must be added
here and given its expected permissions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.factories.tournaments import InvitationFactory

# Routes not checked here, with the reason.
EXCLUDED_PREFIXES = ("admin:",)  # Django's admin: staff only, has its own permission system


@dataclass(frozen=True)
class Route:
    name: str
    route: str
    callback: Any

    @property
    def is_api(self) -> bool:
        return self.route.startswith("api/")


def _walk(patterns: list[Any], prefix: str = "", ns: str | None = None) -> Iterator[Route]:
    for p in patterns:
        if isinstance(p, URLResolver):
            sub = ":".join(x for x in (ns, p.namespace) if x) or None
            yield from _walk(p.url_patterns, prefix + str(p.pattern), sub)
        elif isinstance(p, URLPattern):
            name = f"{ns}:{p.name}" if ns else str(p.name)
            yield Route(name, prefix + str(p.pattern), p.callback)


def all_routes() -> list[Route]:
    return [r for r in _walk(get_resolver().url_patterns)
            if not r.name.startswith(EXCLUDED_PREFIXES)]


@dataclass
class World:
    """Objects of the demo tournament that routes point at."""

    slug: str
    registration: int
    role: int
    link: int
    player: int
    table1: int  # pk of a table of game 1 (finished, with results)
    table2: int  # pk of a table of game 2 (running)
    result: int
    token: str
    club: int = 0  # the demo tournament's organising club


def _game(w: World, extra: dict[str, Any] | None = None, number: int = 2) -> dict[str, Any]:
    return {"slug": w.slug, "number": number, **(extra or {})}


ARGS: dict[str, Callable[[World], dict[str, Any]]] = {
    "healthz": lambda w: {}, "favicon": lambda w: {}, "set_language": lambda w: {}, "login": lambda w: {},
    "language": lambda w: {}, "server-time": lambda w: {},
    "logout": lambda w: {}, "password_change": lambda w: {}, "password_change_done": lambda w: {},
    "password_reset": lambda w: {}, "password_reset_done": lambda w: {},
    "password_reset_confirm": lambda w: {"uidb64": "MQ", "token": "set-password"},
    "password_reset_complete": lambda w: {},
    "api-schema": lambda w: {}, "api-docs": lambda w: {}, "api-redoc": lambda w: {},
    "api-clubs": lambda w: {}, "api-players": lambda w: {},
    "api-player": lambda w: {"pk": w.player},
    "api-tournaments": lambda w: {}, "api-tournament": lambda w: {"slug": w.slug},
    "api-tournament-status": lambda w: {"slug": w.slug},
    "api-publish": lambda w: {"slug": w.slug},
    "publishing:publish": lambda w: {"slug": w.slug},
    "api-registrations": lambda w: {"slug": w.slug},
    "api-registrations-import": lambda w: {"slug": w.slug},
    "api-registrations-export": lambda w: {"slug": w.slug},
    "api-registration-withdraw": lambda w: {"slug": w.slug, "pk": w.registration},
    "api-checkins": lambda w: {"slug": w.slug}, "api-roles": lambda w: {"slug": w.slug},
    "api-role": lambda w: {"slug": w.slug, "pk": w.role},
    "api-links": lambda w: {"slug": w.slug},
    "api-link-revoke": lambda w: {"slug": w.slug, "pk": w.link},
    "api-game": _game, "api-game-compose": _game, "api-game-swap": _game,
    "api-game-move": _game, "api-game-withdraw": _game, "api-game-start": _game,
    "api-game-rehearsal": _game,
    "api-table": lambda w: _game(w, {"table": 1}),
    "api-game-where": _game, "api-game-objectives": _game,
    "api-knockout-plan": lambda w: {"slug": w.slug},
    "api-knockout-phases": lambda w: {"slug": w.slug}, "tables:phases": lambda w: {"slug": w.slug},
    "api-knockout-phase": lambda w: {"slug": w.slug, "phase": "semifinals"},
    "api-table-clock": lambda w: _game(w, {"table": 1}),
    "api-table-clock-pause": lambda w: _game(w, {"table": 1}),
    "api-table-clock-resume": lambda w: _game(w, {"table": 1}),
    "api-table-clock-extend": lambda w: _game(w, {"table": 1}),
    "api-table-turns": lambda w: _game(w, {"table": 1}),
    "api-table-eliminate": lambda w: _game(w, {"table": 1}),
    "api-table-expiry-seat": lambda w: _game(w, {"table": 1}),
    "api-table-undo": lambda w: _game(w, {"table": 1}),
    "api-standings": lambda w: {"slug": w.slug},
    "api-format": lambda w: {"slug": w.slug}, "api-event-ranking": lambda w: {"slug": w.slug},
    "scoring:format": lambda w: {"slug": w.slug}, "ranking:event": lambda w: {"slug": w.slug},
    "workbook:export": lambda w: {"slug": w.slug}, "workbook:import": lambda w: {},
    "api-workbook": lambda w: {"slug": w.slug}, "api-workbook-import": lambda w: {},
    "api-workbook-file": lambda w: {"slug": w.slug, "fmt": "xls"},
    "api-table-results": lambda w: {"pk": w.table2},
    "api-result-confirm": lambda w: {"pk": w.result},
    "api-result-withdraw": lambda w: {"pk": w.result},
    "tables_referee:projector": _game,
    "tables_referee:referee_table": lambda w: _game(w, {"table": 1}),
    "tables_referee:referee_status": lambda w: _game(w, {"table": 1}),
    "tables:game_tables": _game, "tables:table": lambda w: _game(w, {"table": 1}),
    "tables:sheet": lambda w: _game(w, {"table": 1}), "tables:where": _game,
    "tables:scoresheets": _game, "tables:meetings": lambda w: {"slug": w.slug},
    "tables:objective": _game, "tables:organize": _game,
    "tables:knockout": lambda w: {"slug": w.slug},
    "tables:qr": lambda w: {},  # the QR image; without ?path= a 404 (tests/tables/test_qr.py)
    "scoring:standings": lambda w: {"slug": w.slug}, "scoring:print": lambda w: {"slug": w.slug},
    "scoring:player": lambda w: {"slug": w.slug, "pk": w.player},
    "scoring:status": lambda w: {"slug": w.slug},
    "api-game-finish": _game, "scoring:finish-game": _game,
    "scoring:table": lambda w: {"slug": w.slug, "pk": w.table1},
    "scoring:enter": lambda w: {"slug": w.slug, "pk": w.table2},
    "scoring:confirm": lambda w: {"slug": w.slug, "pk": w.result},
    "scoring:withdraw": lambda w: {"slug": w.slug, "pk": w.result},
    "scoring:export": lambda w: {"slug": w.slug, "what": "standings", "fmt": "csv"},
    "ranking:national": lambda w: {}, "ranking:national-year": lambda w: {"year": 2026},
    "ranking:national-player": lambda w: {"year": 2026, "pk": w.player},
    "ranking:national-export": lambda w: {"year": 2026, "fmt": "csv"},
    "api-national-ranking": lambda w: {}, "api-national-ranking-year": lambda w: {"year": 2026},
    "ratings:list": lambda w: {}, "api-ratings": lambda w: {},
    **{f"clubstats:{n}": (lambda w: {}) for n in ("home", "games_csv", "players", "players_csv")},
    "clubstats:player": lambda w: {"pk": w.player}, "api-statistics-player": lambda w: {"pk": w.player},
    **{f"clubstats:{n}": (lambda w: {"pk": w.club}) for n in ("club", "club_csv", "ranking", "ranking_csv", "ranking_rule")},
    "api-statistics-games": lambda w: {},
    **{n: (lambda w: {"pk": w.club}) for n in ("api-statistics-club", "api-statistics-club-ranking",
                                               "api-statistics-club-ranking-rule")},
    "history:player": lambda w: {"pk": w.player}, "history:opponents": lambda w: {"pk": w.player},
    "history:head-to-head": lambda w: {"pk": w.player, "other": _opponent(w)},
    "api-player-history": lambda w: {"pk": w.player},
    "api-head-to-head": lambda w: {"pk": w.player, "other": _opponent(w)},
    "tournaments:list": lambda w: {}, "tournaments:create": lambda w: {},
    "tournaments:link": lambda w: {"token": w.token},
    **{f"tournaments:{n}": (lambda w: {"slug": w.slug}) for n in (
        "detail", "register", "manage", "edit", "status", "registrations", "import", "export",
        "staff", "link_create", "audit")},
    "tournaments:withdraw": lambda w: {"slug": w.slug, "pk": w.registration},
    "tournaments:national_id": lambda w: {"slug": w.slug, "pk": w.registration},
    "api-registration-national-id": lambda w: {"slug": w.slug, "pk": w.registration},
    "tournaments:iscritti": lambda w: {"slug": w.slug}, "tournaments:duplicates": lambda w: {"slug": w.slug},
    "tournaments:merge": lambda w: {"slug": w.slug, "pk": w.player},
    "tournaments:player_data": lambda w: {"slug": w.slug, "pk": w.player},
    "api-player-data": lambda w: {"slug": w.slug, "pk": w.player},
    "api-player-erase": lambda w: {"slug": w.slug, "pk": w.player},
    "api-registrations-iscritti": lambda w: {"slug": w.slug}, "api-duplicates": lambda w: {"slug": w.slug},
    "api-players-merge": lambda w: {"slug": w.slug},
    "tournaments:promote": lambda w: {"slug": w.slug, "pk": w.registration},
    "tournaments:checkin": lambda w: {"slug": w.slug, "game": 2},
    "tournaments:checkin_count": lambda w: {"slug": w.slug, "game": 2},
    "tournaments:checkin_toggle": lambda w: {"slug": w.slug, "game": 2, "pk": w.registration},
    "tournaments:role_remove": lambda w: {"slug": w.slug, "pk": w.role},
    "tournaments:link_revoke": lambda w: {"slug": w.slug, "pk": w.link},
    "tournaments:checkin_bulk": lambda w: {"slug": w.slug, "game": 2},
    "api-invitations": lambda w: {"slug": w.slug},
    "api-invitation-revoke": lambda w: {"slug": w.slug, "pk": _invitation(w)},
    "tournaments:invitation_create": lambda w: {"slug": w.slug},
    "tournaments:invitation_show": lambda w: {"slug": w.slug, "pk": _invitation(w)},
    "tournaments:invitation_revoke": lambda w: {"slug": w.slug, "pk": _invitation(w)},
    # an unknown token, and a setup page that exists only while no user does: refused to all
    "tournaments:invitation": lambda w: {"token": "x" * 43},
    "tournaments:setup": lambda w: {},
    "tables:slips": _game, "tables:game_clocks": _game,
    "tables:player_home": lambda w: {"slug": w.slug},
    "tables:clock_settings": lambda w: {"slug": w.slug},
    "clubs:list": lambda w: {}, "clubs:create": lambda w: {},
    "clubs:detail": lambda w: {"pk": w.club}, "clubs:admin_add": lambda w: {"pk": w.club},
    "clubs:admin_remove": lambda w: {"pk": w.club, "role": _club_role(w)},
    "seasons:create": lambda w: {"club": w.club}, "api-club-seasons": lambda w: {"club": w.club},
    **{f"seasons:{n}": (lambda w: {"club": w.club, "pk": _season(w)})
       for n in ("season", "standings", "edit", "evening", "attach", "detach", "finals", "finals-create",
                 "finals-absent")},
    "seasons:finals-draw": lambda w: {"club": w.club, "pk": _season(w), "phase": "semifinals"},
    **{n: (lambda w: {"pk": _season(w)}) for n in ("api-season", "api-season-standings", "api-season-evenings",
                                                   "api-season-evenings-attach", "api-season-evenings-detach",
                                                   "api-season-finals", "api-season-finals-withdraw",
                                                   "api-season-finals-draw")},
    "clubs:federation": lambda w: {}, "clubs:federation_revoke": lambda w: {"user": _federation_member(w)},
    "clubs:duplicates": lambda w: {}, "clubs:duplicates_decide": lambda w: {},
    # players help themselves (selfservice): the player's own actions, a table's call, the staff's pages
    **{f"selfservice:{n}": (lambda w: {"slug": w.slug})
       for n in ("door", "checkin", "skip", "withdraw", "calls", "settings", "standings", "sanctions")},
    "selfservice:call": lambda w: _game(w, {"table": 1}),
    "selfservice:take": lambda w: {"slug": w.slug, "pk": _referee_call(w)},
    "selfservice:window_delete": lambda w: {"slug": w.slug, "pk": _checkin_window(w)},
    "selfservice:sanction_delete": lambda w: {"slug": w.slug, "pk": _sanction(w)},
    "api-checkin-self": lambda w: {"slug": w.slug},
    "api-table-referee-calls": lambda w: _game(w, {"table": 1}),
    "api-referee-calls": lambda w: {"slug": w.slug},
    "api-referee-call-take": lambda w: {"slug": w.slug, "pk": _referee_call(w)},
    # entry fees: the demo tournament's; a member of its club made here
    **{n: (lambda w: {"slug": w.slug}) for n in ("fees:settings", "fees:cash", "fees:cash_csv", "api-fee",
                                                 "api-payments", "api-cash")},
    "fees:mark": lambda w: {"slug": w.slug, "pk": w.registration},
    "api-registration-payment": lambda w: {"slug": w.slug, "pk": w.registration},
    "fees:members": lambda w: {"pk": w.club}, "api-club-members": lambda w: {"club": w.club},
    "fees:member_change": lambda w: {"pk": w.club, "member": _member(w)},
    "fees:member_remove": lambda w: {"pk": w.club, "member": _member(w)},
    "api-club-member": lambda w: {"club": w.club, "pk": _member(w)},
}


# Team events: the demo tournament is not one (its pages answer 404, its writes are refused); who
# may write at a team event is tests/teams/test_team_event.py's. No team has id 1 here.
TEAM_ARGS: dict[str, Callable[[World], dict[str, Any]]] = {
    "teams:list": lambda w: {"slug": w.slug}, "teams:create": lambda w: {"slug": w.slug},
    "teams:standings": lambda w: {"slug": w.slug}, "api-team-standings": lambda w: {"slug": w.slug},
    "api-teams": lambda w: {"slug": w.slug},
    **{n: (lambda w: {"slug": w.slug, "pk": 1}) for n in ("teams:team", "teams:change", "teams:starters",
                                                          "api-team", "api-team-members")},
    "teams:captain": lambda w: {"slug": w.slug, "pk": 1, "token": "not-a-captain-link"},
    "api-team-member": lambda w: {"slug": w.slug, "pk": 1, "player": w.player},
    "api-team-starters": lambda w: {"slug": w.slug, "pk": 1, "number": 1},
}
ARGS.update(TEAM_ARGS)


def _referee_call(w: World) -> int:
    """An open call for the referee from table 1 of game 2 (running)."""
    from selfservice.models import RefereeCall
    from tables.models import Table

    table = Table.objects.get(game__tournament__slug=w.slug, game__number=2, number=1)
    call = RefereeCall.objects.open().filter(table=table).first()
    return (call or RefereeCall.objects.create(tournament=table.game.tournament, table=table)).pk


def _checkin_window(w: World) -> int:
    """The players' own check-in window of game 3 (closed: nobody checks in through it here)."""
    import datetime as dt

    from django.utils import timezone

    from selfservice.models import CheckInWindow
    from tournaments.models import Tournament

    past = timezone.now() - dt.timedelta(days=1)
    return CheckInWindow.objects.get_or_create(
        tournament=Tournament.objects.get(slug=w.slug), game_number=3,
        defaults={"opens_at": past, "closes_at": past + dt.timedelta(minutes=30)})[0].pk


def _sanction(w: World) -> int:
    """A warning in the demo's log."""
    from selfservice.models import Sanction
    from tournaments.models import Tournament

    return Sanction.objects.get_or_create(tournament=Tournament.objects.get(slug=w.slug), player_id=w.player,
                                          defaults={"reason": "prova"})[0].pk


def _member(w: World) -> int:
    """A member of the demo tournament's club for 2026 (made here: the demo has none)."""
    from fees.models import Membership
    from tournaments.models import Player

    player = Player.objects.get(pk=w.player)
    return Membership.objects.get_or_create(club_id=w.club, player=player, year=2026)[0].pk


def _season(w: World) -> int:
    """A season of the demo tournament's club, the demo tournament its evening."""
    from tournaments.models import Season, Tournament

    season = Season.objects.get_or_create(club_id=w.club, name="Campionato demo", defaults={"year": 2026})[0]
    Tournament.objects.filter(slug=w.slug).update(season=season)
    return season.pk


def _club_role(w: World) -> int:
    """An admin of the demo club made to be removed (not one of the visitors)."""
    from django.contrib.auth import get_user_model

    from tournaments.models import ClubRole

    user, _ = get_user_model().objects.get_or_create(username="admin-da-rimuovere")
    return ClubRole.objects.get_or_create(club_id=w.club, user=user)[0].pk


def _opponent(w: World) -> int:
    """A player who sat at a table with the world's player (else any other player)."""
    from tables.models import Seat
    from tournaments.models import Player

    met = (Seat.objects.filter(table__seats__player_id=w.player).exclude(player_id=w.player)
           .exclude(player=None).values_list("player_id", flat=True).first())
    return met or Player.objects.exclude(pk=w.player).values_list("pk", flat=True).first() or w.player


def _federation_member(w: World) -> int:
    """A federation admin made to be revoked (not one of the visitors)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    user, _ = get_user_model().objects.get_or_create(username="federazione-da-revocare")
    user.groups.add(Group.objects.get_or_create(name="federation")[0])
    return int(user.pk)


def _invitation(w: World) -> int:
    """An open invitation of the demo tournament (made here: the demo has none)."""
    from tournaments.models import Invitation, Tournament

    t = Tournament.objects.get(slug=w.slug)
    inv = Invitation.objects.filter(tournament=t, revoked_at=None, accepted_at=None).first()
    return (inv or InvitationFactory(tournament=t, role="referee")).pk

# Form fields a write needs to get past its own lookups (so "accepted" is not hidden by a 404).
BODY: dict[str, Callable[[World], Any]] = {
    "clubstats:ranking_rule": lambda w: {"rule": "best", "best_n": "3"},
    "api-statistics-club-ranking-rule": lambda w: {"rule": "best", "best_n": 3},
    "tournaments:link_create": lambda w: {"kind": "player", "registration": w.registration},
    "tournaments:invitation_create": lambda w: {"invite-role": "referee"},
    "api-invitations": lambda w: {"role": "referee"},
    "clubs:create": lambda w: {"name": "Circolo Nuovo", "admin": "nuovo-admin"},
    "api-clubs": lambda w: {"name": "Circolo Nuovo"},
    "clubs:admin_add": lambda w: {"admin": "nuovo-admin"},
    "clubs:federation": lambda w: {"admin": "nuova-federazione"},
    # two players of the demo (its club's events): a decision the club admin may take
    "clubs:duplicates_decide": lambda w: {"first": w.player, "second": _opponent(w), "decision": "distinct"},
    # a whole, valid published tournament (the demo's own content): the token's PUT gets past the
    # allow-list to the receive path (refused there as a conflict: the demo is run here)
    "api-publish": lambda w: _publish_document(w),
    "api-checkin-self": lambda w: {"game_number": 3},  # past its own checks: the player is told it is closed
    # a valid write of each fees route (the world's player paid in cash; a new member; a card)
    "fees:settings": lambda w: {"fee": "6", "member_price": "3"},
    "api-fee": lambda w: {"fee": "6.00", "member_price": "3.00"},
    "fees:mark": lambda w: {"status": "unpaid"}, "api-registration-payment": lambda w: {"status": "unpaid"},
    "fees:members": lambda w: {"player": w.player, "year": "2027"},
    "api-club-members": lambda w: {"player": w.player, "year": 2027},
    "api-club-member": lambda w: {"card": True, "card_amount": "50"},
    # the season's final phase: a date, a player, a phase (the demo's season has no final phase: refused
    # as such, 400, to those who may run it)
    "seasons:finals-create": lambda w: {"date": "20/12/2026"}, "seasons:finals-absent": lambda w: {"player": w.player},
    "api-season-finals": lambda w: {"date": "2026-12-20"}, "api-season-finals-withdraw": lambda w: {"player": w.player},
    "api-season-finals-draw": lambda w: {"phase": "semifinals"},
    # the demo tournament, an evening of the club's season (``_season``)
    **{n: (lambda w: {"tournament": _tournament_pk(w)})
       for n in ("seasons:attach", "seasons:detach", "api-season-evenings-attach",
                 "api-season-evenings-detach")},
}


def _publish_document(w: World) -> Any:
    """As the laptop sends it: JSON text with exact numbers (the test client would write a
    Decimal as a string)."""
    from engine import exact
    from publishing import services as publishing
    from tournaments.models import Tournament

    return exact.dumps(publishing.prepare(Tournament.objects.get(slug=w.slug)))


def _tournament_pk(w: World) -> int:
    from tournaments.models import Tournament

    return int(Tournament.objects.get(slug=w.slug).pk)


def url_of(route: Route, world: World) -> str:
    try:
        kwargs = ARGS[route.name](world)
    except KeyError:
        raise AssertionError(
            f"route {route.name!r} ({route.route}) has no entry in tests/hardening/urlmap.py ARGS"
        ) from None
    return reverse(route.name, kwargs=kwargs)


def demo_world() -> World:
    from scoring.models import ResultSubmission
    from tables.models import Table
    from tournaments import demo
    from tournaments.models import AccessLink, Registration, Tournament, TournamentRole

    t = Tournament.objects.get(slug=demo.SLUG)
    if t.club_id is None:  # run by a club: its admins organise it (tests/hardening/test_permissions.py)
        from tournaments.models import Club

        t.club = Club.objects.get_or_create(name="Circolo demo")[0]
        t.save(update_fields=["club"])
    reg = Registration.objects.filter(tournament=t).order_by("pk").last()
    assert reg is not None
    role = TournamentRole.objects.filter(tournament=t, role="referee").first()
    link = AccessLink.objects.filter(tournament=t).first()
    assert role is not None and link is not None
    tables = Table.objects.filter(game__tournament=t).order_by("game__number", "number")
    table1 = tables.filter(game__number=1).first()
    assert table1 is not None
    # The latest result of that table (the one that can be confirmed).
    result = ResultSubmission.objects.filter(table=table1).order_by("-number").first()
    assert result is not None
    return World(
        slug=t.slug, registration=reg.pk, role=role.pk, link=link.pk, player=reg.player_id,
        table1=table1.pk,
        table2=tables.filter(game__number=2).first().pk,  # type: ignore[union-attr]
        result=result.pk, token=link.token, club=t.club_id or 0,
    )
