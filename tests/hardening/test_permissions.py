"""Permissions, generated from the URL configuration.

Every route of the project (``urlmap.all_routes()``) is called with every write method
(POST, PUT, PATCH, DELETE) by ten visitors: anonymous, a player (their private link opened in the
browser), a hall laptop holding the publishing token of this tournament's club (``Authorization:
Bearer``, no session), the referee of another tournament, the organizer of another tournament,
the admin of another club (which organises that other tournament), a federation admin (sets up
clubs, organises no tournament), the referee of this tournament, the admin of its organising club
and its organizer. ``EXPECTED`` says, per route, which visitors may write;
everyone else must be refused (401/403, a 404, or the login page). A route that only reads must
change nothing, whatever the method (the audit log, which records every change, must not grow).
A route missing from ``EXPECTED`` fails the test.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.test import Client

from scoring.models import ResultSubmission
from tests.factories.tournaments import (
    ClubFactory,
    ClubRoleFactory,
    GroupFactory,
    PlayerLinkFactory,
    TournamentFactory,
    TournamentRoleFactory,
    make_user,
    open_private_link,
)
from tests.hardening.urlmap import BODY, World, all_routes, demo_world, url_of
from tournaments.clubs import FEDERATION_GROUP
from tournaments.models import AccessLink, AuditEntry, Tournament

ROLES = ["anonymous", "player", "token", "referee_other", "organizer_other", "club_admin_other", "federation",
         "referee", "club_admin", "organizer"]
ANY = set(ROLES)
SIGNED_IN = ANY - {"anonymous", "player", "token"}
ORGANIZER = {"organizer", "club_admin"}  # the organising club's admins organise it
REFEREE = {"referee"} | ORGANIZER
FEDERATION = {"federation"}
READ = "read"  # no write method at all

# route name -> {method: roles that may use it} or READ.
EXPECTED: dict[str, Any] = {
    # The health check answers every method the same and writes nothing.
    "healthz": {m: ANY for m in ("post", "put", "patch", "delete")},
    # Django's own views; FormView treats PUT like POST.
    "set_language": {"post": ANY, "put": ANY, "patch": ANY, "delete": ANY},
    "login": {"post": ANY, "put": ANY}, "logout": {"post": ANY},
    # The GET language switch and the server's time (common/live.py) answer reads only.
    "language": READ, "server-time": READ,
    "password_change": {"post": SIGNED_IN, "put": SIGNED_IN}, "password_change_done": READ,
    "password_reset": {"post": ANY, "put": ANY}, "password_reset_done": READ,
    "password_reset_confirm": READ,  # a wrong token: the page says so for any method
    "password_reset_complete": READ,
    "api-schema": READ, "api-docs": READ, "api-redoc": READ,
    "api-clubs": {"post": FEDERATION},  # as the page: the federation creates clubs
    "api-players": READ, "api-player": READ,
    "api-tournaments": {"post": SIGNED_IN},
    "api-tournament": {"put": ORGANIZER, "patch": ORGANIZER},
    "api-tournament-status": {"post": ORGANIZER},
    "api-registrations": {"post": ANY},  # open registration is public; the service decides
    "api-registrations-import": {"post": ORGANIZER},
    "api-registrations-export": READ,
    "api-registrations-iscritti": {"post": ORGANIZER}, "api-duplicates": READ,
    "api-players-merge": {"post": ORGANIZER},  # club switch-over: Iscritti sheet, merge duplicates
    "tournaments:iscritti": {"post": ORGANIZER}, "tournaments:duplicates": READ,
    "tournaments:merge": {"post": ORGANIZER},
    # A player's personal data (export / erase); tournaments.privacy decides who may.
    "tournaments:player_data": {"post": ORGANIZER}, "api-player-data": READ,
    "api-player-erase": {"post": ORGANIZER},
    "api-registration-withdraw": {"post": ORGANIZER},
    "api-registration-national-id": {"post": ORGANIZER}, "tournaments:national_id": {"post": ORGANIZER},
    "api-checkins": {"post": REFEREE},
    "api-roles": {"post": ORGANIZER}, "api-role": {"delete": ORGANIZER},
    "api-links": {"post": ORGANIZER}, "api-link-revoke": {"post": ORGANIZER},
    "api-game": READ,
    "api-game-compose": {"post": ORGANIZER}, "api-game-swap": {"post": ORGANIZER},
    "api-game-move": {"post": ORGANIZER}, "api-game-withdraw": {"post": ORGANIZER},
    "api-game-start": {"post": ORGANIZER}, "api-game-rehearsal": {"post": ORGANIZER},
    "api-table": READ, "api-game-where": READ, "api-game-objectives": READ,
    "api-knockout-plan": READ,
    "api-knockout-phases": READ, "api-knockout-phase": {"post": ORGANIZER},
    "tables:phases": {"post": ORGANIZER},  # K-KO-RCU phases (organizer page)
    "api-table-clock": READ,
    "api-table-clock-pause": {"post": REFEREE}, "api-table-clock-resume": {"post": REFEREE},
    "api-table-clock-extend": {"post": REFEREE},
    "api-table-turns": {"post": REFEREE}, "api-table-eliminate": {"post": REFEREE},
    "api-table-expiry-seat": {"post": REFEREE}, "api-table-undo": {"post": REFEREE},
    "api-standings": READ, "api-event-ranking": READ,
    "api-format": {"post": ORGANIZER},  # choose a format preset
    "api-game-finish": {"post": ORGANIZER}, "scoring:finish-game": {"post": ORGANIZER},
    "api-table-results": {"post": REFEREE},
    "api-result-confirm": {"post": REFEREE | {"player"}},
    "api-result-withdraw": {"post": ORGANIZER},  # a correction's author too (tests/scoring/test_withdraw_correction.py)
    "tables_referee:projector": READ, "tables_referee:referee_table": {"post": REFEREE},
    "tables_referee:referee_status": READ,
    "tables:game_tables": READ, "tables:table": READ, "tables:sheet": READ, "tables:where": READ,
    "tables:objective": READ, "tables:organize": {"post": ORGANIZER}, "tables:knockout": READ,
    "tables:qr": READ,  # the QR image of a table page (GET/HEAD only)
    "tables:scoresheets": READ, "tables:meetings": READ, "favicon": READ,
    "scoring:standings": READ, "scoring:print": READ, "scoring:player": READ, "ranking:event": READ,
    "scoring:status": {"post": ORGANIZER},  # scoring settings
    "scoring:table": READ, "scoring:format": {"post": ORGANIZER},
    "scoring:enter": {"post": REFEREE}, "scoring:confirm": {"post": REFEREE | {"player"}},
    "scoring:withdraw": {"post": ORGANIZER},
    "scoring:export": READ,
    # The event workbook: the organizer's name (organizer); importing past events (anyone who
    # organizes a tournament, or staff).
    "workbook:export": {"post": ORGANIZER}, "api-workbook": READ, "api-workbook-file": READ,
    "workbook:import": {"post": ORGANIZER | {"organizer_other", "club_admin_other"}},
    "api-workbook-import": {"post": ORGANIZER | {"organizer_other", "club_admin_other"}},
    # the national ranking: public and read-only (the blacklist is edited in the admin, staff only)
    "ranking:national": READ, "ranking:national-year": READ, "ranking:national-player": READ,
    "ranking:national-export": READ, "api-national-ranking": READ, "api-national-ranking-year": READ,
    "ratings:list": READ, "api-ratings": READ,
    # the statistics: public reads; a club's ranking rule by its admins (clubstats/services.py: set_rule)
    **{f"clubstats:{n}": READ for n in ("home", "games_csv", "players", "players_csv", "player", "club", "club_csv",
                                        "ranking", "ranking_csv")},
    **{n: READ for n in ("api-statistics-games", "api-statistics-club", "api-statistics-club-ranking",
                         "api-statistics-player")},
    "clubstats:ranking_rule": {"post": {"club_admin"} | FEDERATION},
    "api-statistics-club-ranking-rule": {"put": {"club_admin"} | FEDERATION},
    # a player's history across events and head-to-head: public and read-only
    "history:player": READ, "history:opponents": READ, "history:head-to-head": READ,
    "api-player-history": READ, "api-head-to-head": READ,
    "tournaments:list": READ, "tournaments:create": {"post": SIGNED_IN},
    # a private link: its landing page reads; its button (POST) opens it for whoever holds it
    "tournaments:link": {"post": ANY}, "tournaments:detail": READ,
    # Closed in the running demo: others are sent back to the tournament page with a message.
    "tournaments:register": {"post": ANY},
    "tournaments:manage": READ, "tournaments:edit": {"post": ORGANIZER},
    "tournaments:status": {"post": ORGANIZER},
    "tournaments:registrations": READ,
    "tournaments:withdraw": {"post": ORGANIZER}, "tournaments:promote": {"post": ORGANIZER},
    "tournaments:import": {"post": ORGANIZER}, "tournaments:export": READ,
    "tournaments:checkin": READ, "tournaments:checkin_count": READ,
    "tournaments:checkin_toggle": {"post": REFEREE},
    "tournaments:staff": {"post": ORGANIZER},
    "tournaments:role_remove": {"post": ORGANIZER},
    "tournaments:link_create": {"post": ORGANIZER},
    "tournaments:link_revoke": {"post": ORGANIZER},
    "tournaments:audit": READ,
    # Publishing: the instance takes a club's Bearer token only, never a session; the token opens
    # nothing else. (Here the body is a valid published tournament and the slug one run on this
    # instance itself: the token's PUT passes the allow-list and is refused as a conflict,
    # tests/publishing.) On the laptop, the Publish page is the organizer's.
    "api-publish": {"put": {"token"}}, "publishing:publish": {"post": ORGANIZER},
    "tournaments:checkin_bulk": {"post": REFEREE},
    "api-invitations": {"post": ORGANIZER}, "api-invitation-revoke": {"post": ORGANIZER},
    "tournaments:invitation_create": {"post": ORGANIZER},
    "tournaments:invitation_show": READ, "tournaments:invitation_revoke": {"post": ORGANIZER},
    # an unknown invitation and the first-organizer page of an install that has users: nobody
    # (tests/tournaments/test_invitations.py covers real invitations and a fresh install)
    "tournaments:invitation": {"post": set()}, "tournaments:setup": {"post": set()},
    "tables:slips": {"post": ORGANIZER}, "tables:game_clocks": {"post": ORGANIZER},
    "tables:player_home": READ, "tables:clock_settings": {"post": ORGANIZER},
    # clubs: public pages; only a federation admin sets up clubs and appoints or removes admins
    "clubs:list": READ, "clubs:detail": READ, "clubs:create": {"post": FEDERATION},
    "clubs:admin_add": {"post": FEDERATION}, "clubs:admin_remove": {"post": FEDERATION},
    # a club's seasons: public standings; the club's admins and federation admins run them
    "seasons:season": READ, "seasons:standings": READ, "api-season-standings": READ,
    **{name: {"post": {"club_admin"} | FEDERATION}
       for name in ("seasons:create", "seasons:edit", "seasons:evening", "api-club-seasons",
                    "api-season-evenings")},
    "api-season": {"patch": {"club_admin"} | FEDERATION},
    # its final phase: public page and API read; the club's admins and federation admins run it
    "seasons:finals": READ,
    **{name: {"post": {"club_admin"} | FEDERATION}
       for name in ("seasons:finals-create", "seasons:finals-absent", "seasons:finals-draw", "api-season-finals",
                    "api-season-finals-withdraw", "api-season-finals-draw")},
    # an existing tournament joins or leaves the season: its club's admins, federation admins and
    # the organizer of that tournament (here the demo tournament, the club's evening)
    **{name: {"post": ORGANIZER | FEDERATION}
       for name in ("seasons:attach", "seasons:detach", "api-season-evenings-attach",
                    "api-season-evenings-detach")},
    # federation admins appoint and revoke federation admins; club admins (their clubs' players)
    # and federation admins (every player) decide on probable duplicates
    "clubs:federation": {"post": FEDERATION}, "clubs:federation_revoke": {"post": FEDERATION},
    "clubs:duplicates": READ, "clubs:duplicates_decide": {"post": FEDERATION | {"club_admin"}},
    # team events: the demo tournament is not one, so its team pages answer 404 and no team exists;
    # the API's teams list lets its organizers through the permission, then refuses (400, no rosters
    # in this format). Who may write at a team event: tests/teams/test_team_event.py
    "teams:list": READ, "teams:standings": READ, "teams:team": READ, "api-team-standings": READ,
    **{name: {"post": set()} for name in ("teams:create", "teams:change", "teams:starters", "teams:captain",
                                          "api-team-members")},
    "api-teams": {"post": ORGANIZER}, "api-team": {"patch": set()}, "api-team-member": {"delete": set()},
    "api-team-starters": {"put": set()},
    # players help themselves: only the player's own link checks in, skips, withdraws; anyone at
    # a table may call the referee (like a bell: tests/selfservice); referees take the calls; the
    # organizer keeps the window, the warnings log and hidden standings
    "selfservice:door": READ, "selfservice:checkin": {"post": {"player"}},
    "selfservice:skip": {"post": {"player"}}, "selfservice:withdraw": {"post": {"player"}},
    "selfservice:call": {"post": ANY}, "api-table-referee-calls": {"post": ANY},
    "selfservice:calls": READ, "api-referee-calls": READ,
    "selfservice:take": {"post": REFEREE}, "api-referee-call-take": {"post": REFEREE},
    "api-checkin-self": {"post": {"player"}},
    "selfservice:settings": {"post": ORGANIZER}, "selfservice:window_delete": {"post": ORGANIZER},
    "selfservice:standings": {"post": ORGANIZER},
    "selfservice:sanctions": {"post": ORGANIZER}, "selfservice:sanction_delete": {"post": ORGANIZER},
    # entry fees: the event's organizers set the fee and take the money (the cash summary is
    # theirs to read); a club's members are kept by its admins and the federation admins
    "fees:settings": {"post": ORGANIZER}, "fees:mark": {"post": ORGANIZER}, "fees:cash": READ,
    "fees:cash_csv": READ, "api-fee": {"put": ORGANIZER}, "api-payments": READ, "api-cash": READ,
    "api-registration-payment": {"put": ORGANIZER},
    **{name: {"post": {"club_admin"} | FEDERATION}
       for name in ("fees:members", "fees:member_change", "fees:member_remove", "api-club-members")},
    "api-club-member": {"put": {"club_admin"} | FEDERATION, "delete": {"club_admin"} | FEDERATION},
}
METHODS = ["post", "put", "patch", "delete"]


def _clients(t: Tournament) -> dict[str, Client]:
    users = get_user_model().objects
    other = TournamentFactory(name="Altro torneo", slug="altro-torneo", date=t.date, venue="",
                              status=Tournament.Status.DRAFT)
    ref_other = make_user("ref-altro", password="x")
    org_other = make_user("org-altro", password="x")
    TournamentRoleFactory(tournament=other, user=ref_other, role="referee")
    TournamentRoleFactory(tournament=other, user=org_other, role="organizer")
    world = demo_world()  # the demo tournament is run by a club
    other.club = ClubFactory(name="Altro circolo")
    other.save(update_fields=["club"])
    admin = make_user("admin-circolo", password="x")
    admin_other = make_user("admin-altro-circolo", password="x")
    ClubRoleFactory(club_id=world.club, user=admin)
    ClubRoleFactory(club=other.club, user=admin_other)
    federation = make_user("federazione", password="x")
    federation.groups.add(GroupFactory(name=FEDERATION_GROUP))
    sub = ResultSubmission.objects.get(pk=world.result)
    sub.entered_by = None  # entered by someone else than the visitors (CONFIRM: not by its author)
    sub.save(update_fields=["entered_by"])
    seated = sub.table.seats.exclude(player=None).first().player  # a player of that table
    link = PlayerLinkFactory(tournament=t, player=seated)
    player = Client()
    assert open_private_link(player, link.token).status_code == 302
    from publishing import services as publishing
    from tournaments.models import Club

    laptop = Client(headers={"Authorization": f"Bearer {publishing.issue_token(Club.objects.get(pk=world.club))}"})
    clients = {"anonymous": Client(), "player": player, "token": laptop}
    for role, user in [
        ("referee_other", ref_other), ("organizer_other", org_other),
        ("referee", users.get(username="arbitro")), ("organizer", users.get(username="organizzatore")),
        ("club_admin", admin), ("club_admin_other", admin_other), ("federation", federation),
    ]:
        c = Client()
        c.force_login(user)
        clients[role] = c
    return clients


@pytest.fixture(scope="module")
def visitors(demo_module: Tournament, django_db_blocker: Any) -> dict[str, tuple[Any, dict[str, str]]]:
    """The ten visitors' sessions (cookies) and request defaults (the laptop's token), made once for the module inside the
    demo's module transaction: each test then only opens fresh clients on them."""
    from django.test import override_settings

    # as the function-scoped ``_plain_http`` does for each test (conftest.py)
    with django_db_blocker.unblock(), override_settings(SECURE_SSL_REDIRECT=False):
        made = _clients(demo_module)
    return {role: (client.cookies, dict(client.defaults)) for role, client in made.items()}


def _open(visitors: dict[str, tuple[Any, dict[str, str]]]) -> dict[str, Client]:
    """A fresh client per visitor: what one test's requests do to its cookies (a login that
    rotates the session, a logout) never reaches the next test."""
    clients = {}
    for role, (cookies, defaults) in visitors.items():
        client = Client(**defaults)
        client.cookies = copy.deepcopy(cookies)
        clients[role] = client
    return clients


def _call(client: Client, method: str, url: str, api: bool, body: Any) -> Any:
    if api:
        return getattr(client, method)(url, data=body, content_type="application/json")
    if method == "post":
        return client.post(url, data=body)
    return getattr(client, method)(url)


def _refused(response: Any) -> bool:
    if response.status_code in (401, 403, 404):
        return True
    return response.status_code == 302 and "/accounts/login/" in response["Location"]


def _outcome(response: Any) -> str:
    if response.status_code >= 500:
        return f"server error {response.status_code}"
    if response.status_code == 405:
        return "no such method"
    return "refused" if _refused(response) else f"accepted ({response.status_code})"


ROUTES = all_routes()


def test_every_route_has_an_expectation() -> None:
    missing = sorted(r.name for r in ROUTES if r.name not in EXPECTED)
    assert missing == [], "add these routes to EXPECTED in tests/hardening/test_permissions.py"
    stale = sorted(set(EXPECTED) - {r.name for r in ROUTES})
    assert stale == [], "these routes no longer exist"


@pytest.mark.parametrize("route", ROUTES, ids=[r.name for r in ROUTES])
def test_writes_are_allowed_exactly_as_expected(demo_module: Tournament, visitors: Any, db: Any,
                                                route: Any) -> None:
    expected = EXPECTED.get(route.name)
    if expected is None:
        pytest.fail(f"no expectation for route {route.name!r}")
    world: World = demo_world()
    url = url_of(route, world)
    body = BODY[route.name](world) if route.name in BODY else {}
    clients = _open(visitors)
    problems = []
    for role in ROLES:  # least privileged first: a refused call changes nothing
        # Each visitor meets the same state: a write accepted for one (the referee's role removed
        # by the club admin) must not hide whether the next one (the organizer) may do it too.
        with transaction.atomic():
            _visit(clients[role], role, url, route.is_api, body, expected, problems)
            transaction.set_rollback(True)
    assert problems == [], f"{route.name} {url}"


def _visit(client: Client, role: str, url: str, api: bool, body: Any, expected: Any,
           problems: list[str]) -> None:
    """One visitor calls ``url`` with every write method; what went wrong goes to ``problems``."""
    for method in METHODS:
        allowed_roles = None if expected == READ else expected.get(method)
        audited = AuditEntry.objects.count()
        response = _call(client, method, url, api, body)
        got = _outcome(response)
        changed = AuditEntry.objects.count() != audited
        what = f"{role} {method.upper()}"
        if got.startswith("server error"):
            problems.append(f"{what}: {got}")
        elif allowed_roles is None:  # no such write here: nothing may change
            if changed:
                problems.append(f"{what}: not a write route, yet it changed data ({got})")
        elif role in allowed_roles:
            if got in ("refused", "no such method"):
                problems.append(f"{what}: expected accepted, got {got}")
        elif got != "refused" or changed:
            problems.append(f"{what}: expected refused, got {got}"
                            + (" and it changed data" if changed else ""))


# --- reads: what each visitor may see ----------------------------------------------------------
# Secrets and personal data that only the tournament's organizers (its club's admins included) may
# read (and, for a game's secret seed, nobody while the game runs). Every route is read (GET) by
# every visitor but the organizer and the club admin; none of these may appear in what they get.
NOT_FOR = {"anonymous", "player", "token", "referee_other", "organizer_other", "club_admin_other", "federation",
           "referee"}


def _secrets(t: Tournament) -> dict[str, str]:
    from tables.models import Game
    from tournaments.models import Registration

    found: dict[str, str] = {}
    for link in AccessLink.objects.filter(tournament=t):
        found[link.token] = f"token of link {link.pk}"
    for reg in Registration.objects.filter(tournament=t).select_related("player"):
        for value in (reg.email, reg.player.email, reg.national_id, reg.player.national_id):
            if value:
                found[value] = f"personal data of registration {reg.pk}"
        for date in (reg.birth_date, reg.player.birth_date):
            if date:
                found[date.isoformat()] = f"birth date of registration {reg.pk}"
                found[date.strftime("%d/%m/%Y")] = f"birth date of registration {reg.pk}"
    for game in Game.objects.filter(tournament=t).exclude(status=Game.Status.FINISHED):
        if game.secret_seed:
            found[game.secret_seed] = f"secret seed of running game {game.number}"
    return found


@pytest.mark.parametrize("route", ROUTES, ids=[r.name for r in ROUTES])
def test_reads_show_no_secret_or_personal_data_to_anyone_but_the_organizer(
    demo_module: Tournament, visitors: Any, db: Any, route: Any,
) -> None:
    from tournaments.models import Registration

    reg = Registration.objects.filter(tournament=demo_module).order_by("pk").first()
    Registration.objects.filter(pk=reg.pk).update(national_id="NID-SECRET-1")
    world: World = demo_world()
    url = url_of(route, world)
    if route.name == "tournaments:link":
        return  # opening a private link is its holder's business (tested in test_security.py)
    if route.name == "api-publish":
        _stored_copy_with_personal_data(demo_module)
    clients = _open(visitors)
    secrets = _secrets(demo_module)
    problems = []
    for role in sorted(NOT_FOR):
        response = clients[role].get(url)
        if response.status_code >= 500:
            problems.append(f"{role}: server error {response.status_code}")
            continue
        body = (b"".join(response.streaming_content) if response.streaming
                else response.content).decode(errors="replace")
        for value, what in secrets.items():
            if value in body:
                problems.append(f"{role} GET shows {what}")
    assert problems == [], f"{route.name} {url}"


# --- accepting a real invitation ---------------------------------------------------------------
# ``EXPECTED`` calls ``/invite/<token>/`` with an unknown token (nobody). With an open invitation,
# anyone holding its link accepts it, as themselves (signed in with a password) or with a new
# account; a session a referee's private link signed in never does (it may have been planted).
ACCEPTS = ANY  # every visitor of the matrix; "referee_link" (added below) is not one


def test_an_open_invitation_is_accepted_by_its_holder_never_by_a_link_session(
    demo_module: Tournament, visitors: Any, db: Any,
) -> None:
    from tournaments import invitations
    from tournaments.models import Invitation, TournamentRole

    organizer = get_user_model().objects.get(username="organizzatore")
    clients = _open(visitors)
    link = AccessLink.objects.filter(tournament=demo_module, kind="referee").first()
    referee_link = Client()
    assert open_private_link(referee_link, link.token).status_code == 302
    clients["referee_link"] = referee_link
    body = {"username": "nuovo-arbitro", "password": "a-long-Password-2026", "password2": "a-long-Password-2026"}
    problems = []
    for role, client in clients.items():
        with transaction.atomic():
            inv = invitations.create_invitation(demo_module, "referee", actor=organizer)
            response = client.post(f"/invite/{inv.token}/", body)
            accepted = Invitation.objects.get(pk=inv.pk).accepted_at is not None
            got = _outcome(response)
            if (role in ACCEPTS) != accepted or (accepted and got != "accepted (302)"):
                problems.append(f"{role}: {got}, accepted={accepted}")
            if role == "referee_link" and TournamentRole.objects.filter(
                    tournament=demo_module, user__username="nuovo-arbitro").exists():
                problems.append("referee_link: an account was made")
            transaction.set_rollback(True)
    assert problems == []


def _stored_copy_with_personal_data(t: Tournament) -> None:
    """A published copy of the demo as an instance stored it before the allow-list: its standings
    rows and seats carry the e-mail, date of birth and national id the public GET must not show."""
    import uuid

    from django.utils import timezone

    from publishing import services as publishing
    from publishing.models import PublishedTournament
    from tournaments.models import Registration

    t = Tournament.objects.get(pk=t.pk)  # its club set by demo_world()
    content = publishing.content_of(t)
    reg = Registration.objects.filter(tournament=t).exclude(national_id="").select_related("player").first()
    personal = {"email": reg.email or "x@example.org", "national_id": reg.national_id,
                "birth_date": (reg.birth_date or reg.player.birth_date).isoformat()
                if (reg.birth_date or reg.player.birth_date) else ""}
    for row in content["standings"]["rows"]:
        row.update(personal)
    for game in content["games"]:
        for table in game["tables"]:
            for seat in table["seats"]:
                seat.update(personal)
    PublishedTournament.objects.create(club=t.club, source_id=uuid.uuid4(), slug=t.slug, name=t.name,
                                       payload=content, sequence=1, published_digest="-",
                                       published_at=timezone.now())


def test_the_publish_endpoint_takes_a_valid_tournament_from_the_token_only(
        demo_module: Tournament, visitors: Any, db: Any) -> None:
    """Past the allow-list: the token's PUT of the demo's own content is heard (a conflict, the
    demo is run here) and, under a new address, stored; no session, whoever's, publishes."""
    from engine import exact
    from publishing import services as publishing

    demo_world()  # the demo is run by a club
    t = Tournament.objects.get(pk=demo_module.pk)
    clients = _open(visitors)
    document = publishing.prepare(t)
    put = "/api/publish/tournaments/{}/"
    for role in ROLES:
        r = clients[role].put(put.format(t.slug), exact.dumps(document), content_type="application/json")
        assert r.status_code == (409 if role == "token" else 401), (role, r.content[:300])
    fresh = exact.dumps({**document, "slug": "copia-demo"})
    for role in ROLES:
        r = clients[role].put(put.format("copia-demo"), fresh, content_type="application/json")
        assert r.status_code == (201 if role == "token" else 401), (role, r.content[:300])
