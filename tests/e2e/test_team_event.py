"""A small CNS team event in the browser: the organizer enters a team and its players, the
captain names the starters from a 360 px phone through the captain's private link, the game is
drawn and played, and the team standings read on a phone (alive, accessible, no sideways
scrolling, in Italian)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def _event() -> dict[str, Any]:
    """A CNS of 4 clubs with 5 registered players each; teams B, C, D entered with starters."""
    from scoring import services as scoring_services
    from teams import services
    from tests.factories import scoring as f
    from tests.factories.tournaments import CheckInFactory, ClubFactory, make_user
    from tournaments.models import Registration

    t = f.ScoringTournamentFactory(name="CNS di primavera")
    org = make_user("capo-torneo")
    f.role(t, "organizer", user=org)
    scoring_services.apply_preset(actor=org, tournament=t, preset_id="cns")
    t.refresh_from_db()
    rosters = {}
    for name in ("Lario", "Etna", "Vesuvio", "Brenta"):
        club = ClubFactory(name=f"Circolo {name}")
        roster = f.players(t, 5)
        for p in roster:
            p.club = club
            p.save()
        rosters[name] = (club, roster)
    for name in ("Etna", "Vesuvio", "Brenta"):
        club, roster = rosters[name]
        team = services.create_team(t, actor=org, name=f"Squadra {name}", club=club)
        for p in roster:
            services.add_member(team, p, actor=org)
        services.set_starters(team, 1, [p.pk for p in roster[:4]], actor=org)
    for reg in Registration.objects.filter(tournament=t):
        CheckInFactory(registration=reg, game_number=1)
    return {"t": t, "org": org, "ref": f.role(t), "lario": rosters["Lario"][1]}


def test_a_team_event_from_registration_to_team_standings(browser: Any) -> None:
    from tables import services as table_services
    from teams import selectors
    from teams.models import Team
    from tests.factories import scoring as f
    from tests.formats.test_phases import result

    e = _event()
    t, b = e["t"], browser
    organizer = b.person(DESKTOP)
    organizer.goto("/accounts/login/")
    organizer.fill("input[name=username]", "capo-torneo")
    organizer.fill("input[name=password]", "secret-pass-123")
    with organizer.expect_navigation():
        organizer.click("main button[type=submit]")

    # registration: the organizer enters the team and its 5 players, the first is captain
    organizer.goto(f"/t/{t.slug}/teams/")
    organizer.fill("#team-name", "Squadra Lario")
    with organizer.expect_navigation():
        organizer.click("text=Iscrivi la squadra")
    for p in e["lario"]:
        organizer.select_option("#add-player", str(p.pk))
        with organizer.expect_navigation():
            organizer.click("main button[name=action][value=add]")
    with organizer.expect_navigation():
        organizer.click("main ul.roster button[value=captain] >> nth=0")
    assert organizer.locator("main ul.roster li").count() == 5
    b.check(organizer, "teams-01-roster")
    link = organizer.input_value("input.copy")
    team = Team.objects.get(tournament=t, name="Squadra Lario")
    assert link.endswith(f"/teams/{team.pk}/captain/{team.captain_token}/")

    # the captain's phone: tick 4 of the 5 players for game 1; a wrong count is refused first
    captain = b.person(PHONE, phone=True)
    b.allowed_status.add((link.split(b.host, 1)[1], 400))
    captain.goto(link)
    b.check(captain, "teams-02-captain-phone")
    boxes = captain.locator("form.starters-form input[type=checkbox]")
    assert boxes.count() == 5
    boxes.nth(0).check()
    with captain.expect_navigation():
        captain.click("text=Salva i titolari")
    assert "Indica 4 titolari" in captain.locator("main").inner_text()
    assert captain.locator("form.starters-form input[type=checkbox]").nth(0).is_checked()  # kept
    b.problems = [p for p in b.problems if "status of 400" not in p]  # the refusal's own 400
    for k in (1, 2, 3):
        captain.locator("form.starters-form input[type=checkbox]").nth(k).check()
    with captain.expect_navigation():
        captain.click("text=Salva i titolari")
    assert "Titolari della partita 1 salvati" in captain.locator("main").inner_text()
    b.check(captain, "teams-03-captain-saved")

    # the draw seats the 16 starters, 4 different teams a table; results; team standings
    game = table_services.compose_game(table_services.ensure_game(t, 1, actor=e["org"]), actor=e["org"], seed="e2e")
    for table in game.tables.order_by("number"):
        f.enter(table, e["ref"], "short", result(4, 1), confirm_by=e["org"])
    phone = b.person(PHONE, phone=True)
    phone.goto(f"/t/{t.slug}/teams/standings/")
    rows = phone.locator("#team-standings tbody tr")
    assert rows.count() == 4
    # each table's seat 1 wins: S-GUFO 12.5 + 7.4 + 5.3 + 3.2 = 28.4 a table, so whoever sat
    # where, the four teams' totals add up to 4 tables × 28.4 = 113.6
    assert sum(r["total"] for r in selectors.standings(t)["rows"]) == Decimal("113.6")
    text = phone.locator("#team-standings").inner_text()
    assert "Squadra Lario" in text and "Classifica a squadre" in phone.locator("h1").inner_text()
    b.check(phone, "teams-04-team-standings-phone")
    phone.click("#team-standings a >> text=Squadra Lario")
    phone.wait_for_url(f"**/teams/{team.pk}/")
    assert phone.locator("main table tbody tr").count() == 4  # the 4 starters' results
    b.check(phone, "teams-05-team-page-phone")
    b.assert_clean()
