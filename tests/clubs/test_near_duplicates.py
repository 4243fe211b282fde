"""Near-duplicate players decided by club and federation admins: the pairs of their players with
both players' events, merge into one or the other (every result kept, audited), "not the same
person" remembered; refused to anyone else, with nothing changed."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from scoring.models import ResultSubmission
from tests.factories import scoring as f
from tests.factories.tournaments import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments import merge
from tournaments.clubs import FEDERATION_GROUP
from tournaments.models import AuditEntry, ClubRole, DistinctPlayers, Player, Registration

pytestmark = pytest.mark.django_db
BIRTH = dt.date(1988, 7, 4)


def _client(user: Any) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def world() -> dict[str, Any]:
    """Club Alfa's event has "Mario Rossi"; Club Beta's has "Mario Rosi" (a typo: the same
    person) and, in the same club, "Maria Rossa" of another date of birth (someone else). Mario
    Rossi's game has a confirmed result."""
    alfa, beta = ClubFactory(name="Circolo Alfa"), ClubFactory(name="Circolo Beta")
    admin_alfa, admin_beta = UserFactory(username="admin-alfa"), UserFactory(username="admin-beta")
    ClubRole.objects.create(club=alfa, user=admin_alfa)
    ClubRole.objects.create(club=beta, user=admin_beta)
    ta = f.ScoringTournamentFactory(club=alfa, name="Torneo Alfa")
    tb = TournamentFactory(club=beta, name="Torneo Beta")
    rossi = PlayerFactory(first_name="Mario", last_name="Rossi", club=None, birth_date=BIRTH, email="")
    rosi = PlayerFactory(first_name="Mario", last_name="Rosi", club=None, birth_date=BIRTH, email="mr@example.org")
    rossa = PlayerFactory(first_name="Maria", last_name="Rossa", club=beta, birth_date=dt.date(1970, 1, 1))
    Registration.objects.create(tournament=ta, player=rossi)
    others = f.players(ta, 3)
    table = f.make_table(ta, 1, [rossi, *others])
    objectives = [x.objective for x in table.seats.order_by("number")]
    f.enter(table, f.role(ta), "board", f.board_data(objectives, winner=1, armies=[30, 30, 30, 30]),
            ended_by="objective", confirm_by=f.role(ta, "organizer"))
    RegistrationFactory(tournament=tb, player=rosi)
    RegistrationFactory(tournament=tb, player=rossa)
    federation = UserFactory(username="federazione")
    federation.groups.add(Group.objects.get_or_create(name=FEDERATION_GROUP)[0])
    return {"alfa": alfa, "beta": beta, "admin_alfa": admin_alfa, "admin_beta": admin_beta, "ta": ta, "tb": tb,
            "rossi": rossi, "rosi": rosi, "rossa": rossa, "federation": federation, "table": table}


def test_the_bulk_detection_flags_what_the_single_one_does(world: dict[str, Any]) -> None:
    people = list(Player.objects.all())
    pairs = {(a.pk, b.pk) for a, b, _d in merge.duplicate_pairs(people)}
    single = {tuple(sorted((p.pk, q.pk))) for p in people for q, _d in merge.duplicates_of(p)}
    assert pairs == single and (world["rossi"].pk, world["rosi"].pk) in pairs
    assert not any(world["rossa"].pk in pair for pair in pairs)  # another date of birth, another name


def test_the_federation_sees_the_pair_with_both_players_events(world: dict[str, Any]) -> None:
    html = _client(world["federation"]).get("/clubs/duplicates/").content.decode()
    assert "Mario Rossi" in html and "Mario Rosi" in html and "Maria Rossa" not in html
    assert "Torneo Alfa" in html and "Torneo Beta" in html
    assert "mr@example.org" not in html and "04/07/1988" not in html and "1988-07-04" not in html


def test_a_club_admin_sees_pairs_of_their_players_only(world: dict[str, Any]) -> None:
    # Rosi played only club Beta's event: club Alfa's admin is not shown the pair, nor may decide it
    alfa = _client(world["admin_alfa"])
    assert "Mario Rosi" not in alfa.get("/clubs/duplicates/").content.decode()
    before = AuditEntry.objects.count()
    r = alfa.post("/clubs/duplicates/decide/", {"first": world["rossi"].pk, "second": world["rosi"].pk,
                                                 "decision": "first"})
    assert r.status_code == 403
    assert Player.objects.filter(pk=world["rosi"].pk).exists() and AuditEntry.objects.count() == before
    # once Rosi plays an Alfa event too, both are Alfa's players
    RegistrationFactory(tournament=TournamentFactory(club=world["alfa"]), player=world["rosi"])
    assert "Mario Rosi" in alfa.get("/clubs/duplicates/").content.decode()


def test_merge_into_either_keeps_every_result_and_is_audited(world: dict[str, Any]) -> None:
    rossi, rosi = world["rossi"], world["rosi"]
    c = _client(world["federation"])
    r = c.post("/clubs/duplicates/decide/", {"first": rossi.pk, "second": rosi.pk, "decision": "second"})
    assert r.status_code == 302 and r["Location"] == "/clubs/duplicates/"
    assert not Player.objects.filter(pk=rossi.pk).exists()
    kept = Player.objects.get(pk=rosi.pk)
    assert set(kept.registrations.values_list("tournament__name", flat=True)) == {"Torneo Alfa", "Torneo Beta"}
    assert world["table"].seats.get(number=1).player_id == kept.pk
    sub = ResultSubmission.objects.get(table=world["table"])
    assert any(row["player"] == kept.pk for row in sub.scores)
    entry = AuditEntry.objects.get(action="player.merge")
    assert entry.actor == world["federation"] and entry.before["drop"]["id"] == rossi.pk
    html = c.get("/clubs/duplicates/").content.decode()
    assert f'name="first" value="{rosi.pk}"' not in html  # nothing left to decide about them
    assert f'name="second" value="{rosi.pk}"' not in html


def test_not_the_same_person_is_remembered(world: dict[str, Any]) -> None:
    rossi, rosi = world["rossi"], world["rosi"]
    c = _client(world["federation"])
    c.post("/clubs/duplicates/decide/", {"first": rosi.pk, "second": rossi.pk, "decision": "distinct"})
    decision = DistinctPlayers.objects.get()
    assert (decision.first_id, decision.second_id) == (min(rossi.pk, rosi.pk), max(rossi.pk, rosi.pk))
    assert AuditEntry.objects.filter(action="player.distinct", actor=world["federation"]).count() == 1
    html = c.get("/clubs/duplicates/").content.decode()
    assert f'value="{rosi.pk}"' not in html and Player.objects.filter(pk__in=[rossi.pk, rosi.pk]).count() == 2
    # deciding again changes nothing
    c.post("/clubs/duplicates/decide/", {"first": rosi.pk, "second": rossi.pk, "decision": "distinct"})
    assert DistinctPlayers.objects.count() == 1


def test_refusals_change_nothing(world: dict[str, Any]) -> None:
    rossi, rosi, rossa = world["rossi"], world["rosi"], world["rossa"]
    organizer = UserFactory(username="org")
    TournamentRoleFactory(tournament=world["tb"], user=organizer)
    body = {"first": rossi.pk, "second": rosi.pk, "decision": "first"}
    before = (AuditEntry.objects.count(), Player.objects.count())
    assert Client().post("/clubs/duplicates/decide/", body)["Location"].startswith("/accounts/login/")
    assert Client().get("/clubs/duplicates/")["Location"].startswith("/accounts/login/")
    assert _client(organizer).post("/clubs/duplicates/decide/", body).status_code == 403
    assert _client(organizer).get("/clubs/duplicates/").status_code == 403
    # an admin of the right club, but a pair that is not flagged, or a bad form: a clear message
    beta = _client(world["admin_beta"])
    r = beta.post("/clubs/duplicates/decide/", {"first": rosi.pk, "second": rossa.pk, "decision": "first"},
                  follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "not flagged as probable duplicates" in r.content.decode()
    r = beta.post("/clubs/duplicates/decide/", {"first": "x", "second": rossa.pk, "decision": "first"},
                  follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 200 and "Choose the two players of a pair" in r.content.decode()
    assert (AuditEntry.objects.count(), Player.objects.count()) == before


def test_the_bulk_detection_agrees_with_the_single_one_on_varied_records(db: Any) -> None:
    """Typos, accents, missing dates of birth, dates a digit apart, national ids: the pairs found for
    the whole instance at once are exactly those each record's own detection finds."""
    import random

    rng = random.Random(7)
    names = [("Mario", "Rossi"), ("Mario", "Rosi"), ("Maria", "Rossi"), ("Luca", "Bianchi"), ("Luka", "Bianchi"),
             ("Anna", "Verdi"), ("Gianni", "Esposito"), ("Giovanni", "Esposito"), ("Élena", "D'Amico")]
    dates = [None, dt.date(1990, 1, 1), dt.date(1990, 1, 7), dt.date(1975, 3, 12)]
    for i in range(60):
        first, last = rng.choice(names)
        PlayerFactory(first_name=first, last_name=last, birth_date=rng.choice(dates), club=None,
                      national_id=f"N{i % 25}" if i % 3 == 0 and i < 50 else "")
    people = list(Player.objects.all())
    bulk = {(a.pk, b.pk) for a, b, _d in merge.duplicate_pairs(people)}
    single = {tuple(sorted((p.pk, q.pk))) for p in people for q, _d in merge.duplicates_of(p)}
    assert bulk == single and len(bulk) > 20


def test_the_name_index_finds_every_name_a_few_edits_away() -> None:
    """The index that spares comparing every undated player with everyone: whatever the lengths
    (short names included) and wherever the typos fall, the names it proposes include every name
    within the distance (measured here one by one)."""
    import random

    from tournaments.identity import MAX_DISTANCE, NameIndex, levenshtein

    rng = random.Random(11)
    letters = "abcdeilmnorstuv "

    def typo(text: str) -> str:
        for _ in range(rng.randint(0, MAX_DISTANCE + 1)):
            at = rng.randrange(len(text) + 1)
            kind = rng.choice("ids")
            text = (text[:at] + rng.choice(letters) + text[at:] if kind == "i" or not text else
                    text[:at] + text[at + 1:] if kind == "d" else text[:at] + rng.choice(letters) + text[at + 1:])
        return text

    bases = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 22))) for _ in range(40)]
    names = [(i, typo(rng.choice(bases))) for i in range(400)]
    index = NameIndex(names)
    close = 0
    for _i, name in names:
        within = {j for j, other in names if levenshtein(name, other, MAX_DISTANCE) <= MAX_DISTANCE}
        assert within <= index.near(name), name
        close += len(within) - 1
    assert close > 400  # typos of the same names: plenty of close pairs were checked


def test_the_page_shows_the_pairs_a_page_at_a_time(world: dict[str, Any]) -> None:
    """Thirty more pairs (one player of each without a date of birth): the first page shows 25
    pairs, the second the rest: every pair once."""
    import random

    rng = random.Random(3)  # ten random letters: names far apart from one another
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(10)) for _ in range(30)]
    Player.objects.bulk_create([Player(first_name=w, last_name="Zeta", birth_date=None if side else BIRTH)
                                for w in words for side in (0, 1)])
    fed = _client(world["federation"])
    first = fed.get("/clubs/duplicates/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    second = fed.get("/clubs/duplicates/?page=2", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    shown = [re.findall(r'name="first" value="(\d+)"><input type="hidden" name="second" value="(\d+)"', page)
             for page in (first, second)]
    every = {(str(a.pk), str(b.pk)) for a, b, _d in merge.duplicate_pairs(Player.objects.all())}
    assert len(shown[0]) == 25 and len(shown[1]) == len(every) - 25 >= 30 - 25
    assert set(shown[0]) | set(shown[1]) == every
    assert "Page 1 of 2" in first and "Page 2 of 2" in second


@pytest.fixture
def takeover() -> dict[str, Any]:
    """Roma's Marco Rossi played Roma's own evening and another organizer's tournament, and (sent
    by Club Alfa's laptop) one Alfa evening; Alfa's "Marco Rosi", the same date of birth, played
    Alfa's evenings only. Alfa's admin sees the pair."""
    alfa, roma = ClubFactory(name="Club Alfa"), ClubFactory(name="RisiKo Club Roma")
    admin = UserFactory(username="admin-alfa")
    ClubRole.objects.create(club=alfa, user=admin)
    evening = TournamentFactory(club=alfa, name="Serata Alfa")
    roma_evening = TournamentFactory(club=roma, name="Serata Roma")
    elsewhere = TournamentFactory(club=None, name="Torneo di Bruno")
    rossi = PlayerFactory(first_name="Marco", last_name="Rossi", club=roma, birth_date=BIRTH,
                          email="marco@example.org")
    rosi = PlayerFactory(first_name="Marco", last_name="Rosi", club=alfa, birth_date=BIRTH, email="")
    for t in (evening, roma_evening, elsewhere):
        RegistrationFactory(tournament=t, player=rossi)
    RegistrationFactory(tournament=evening, player=rosi)
    federation = UserFactory(username="federazione")
    federation.groups.add(Group.objects.get_or_create(name=FEDERATION_GROUP)[0])
    return {"admin": admin, "evening": evening, "rossi": rossi, "rosi": rosi, "federation": federation}


def _unchanged(w: dict[str, Any]) -> None:
    rossi = Player.objects.get(pk=w["rossi"].pk)
    assert rossi.email == "marco@example.org"
    assert set(rossi.registrations.values_list("tournament__name", flat=True)) == {
        "Serata Alfa", "Serata Roma", "Torneo di Bruno"}
    assert not AuditEntry.objects.filter(action__in=["player.merge", "player.distinct"]).exists()


def test_a_club_admin_may_not_merge_a_player_of_events_they_do_not_organise(takeover: dict[str, Any]) -> None:
    w = takeover
    alfa = _client(w["admin"])
    page = alfa.get("/clubs/duplicates/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    # the pair is shown with why Alfa's admin may not decide it, and no merge button
    assert "Marco Rossi" in page and "Serata Roma" in page
    assert "solo la federazione" in page and 'name="decision"' not in page
    assert "Non è stato cambiato nulla" not in page  # nothing was tried yet
    for decision in ("second", "first", "distinct"):
        r = alfa.post("/clubs/duplicates/decide/", {"first": w["rossi"].pk, "second": w["rosi"].pk,
                                                     "decision": decision}, HTTP_ACCEPT_LANGUAGE="it")
        assert r.status_code == 403
        text = r.content.decode()
        assert "Marco Rossi ha giocato anche eventi che non organizzi" in text
        assert "Serata Roma" in text and "Torneo di Bruno" in text and "Non è stato cambiato nulla" in text
    _unchanged(w)
    # the organizers' merge of the API holds to the same rule
    r = alfa.post(f"/api/tournaments/{w['evening'].slug}/players/merge/",
                  {"keep": w["rosi"].pk, "drop": w["rossi"].pk}, content_type="application/json")
    assert r.status_code == 403 and r.json()["rule"] == "PRIVACY"
    _unchanged(w)
    # the federation still merges everyone
    r = _client(w["federation"]).post("/clubs/duplicates/decide/", {
        "first": w["rossi"].pk, "second": w["rosi"].pk, "decision": "second"})
    assert r.status_code == 302 and not Player.objects.filter(pk=w["rossi"].pk).exists()


def test_a_club_admin_merges_players_of_their_own_events_only(takeover: dict[str, Any]) -> None:
    w = takeover
    twin = PlayerFactory(first_name="Marco", last_name="Rossi", club=None, birth_date=BIRTH)
    RegistrationFactory(tournament=TournamentFactory(club=w["evening"].club, name="Seconda serata"), player=twin)
    r = _client(w["admin"]).post("/clubs/duplicates/decide/", {
        "first": w["rosi"].pk, "second": twin.pk, "decision": "first"})
    assert r.status_code == 302 and not Player.objects.filter(pk=twin.pk).exists()
    assert set(Player.objects.get(pk=w["rosi"].pk).registrations.values_list("tournament__name", flat=True)) == {
        "Serata Alfa", "Seconda serata"}


def test_the_list_follows_every_change_of_a_name_though_the_detection_is_kept(world: dict[str, Any]) -> None:
    """The detection is kept between requests (it takes most of a second at 10,000 players), yet
    a corrected name drops its pair at once, and a new near-namesake appears at once."""
    fed = _client(world["federation"])
    assert "Mario Rosi" in fed.get("/clubs/duplicates/").content.decode()
    Player.objects.filter(pk=world["rosi"].pk).update(first_name="Luigi", last_name="Verdi")
    html = fed.get("/clubs/duplicates/").content.decode()
    assert "Luigi Verdi" not in html and "Mario Rossi" not in html
    PlayerFactory(first_name="Mario", last_name="Rossini", club=None, birth_date=BIRTH)  # 2 edits away
    html = fed.get("/clubs/duplicates/").content.decode()
    assert "Mario Rossini" in html and "Mario Rossi" in html
