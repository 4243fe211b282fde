"""A club switches over: the organizer imports the Iscritti sheet (page and API), sees the
probable duplicates, and merges two records of one person, choosing who stays (never
automatic); a national id identifies a player whatever the spelling."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.urls import reverse

from common.errors import ConflictError, DomainError, PermissionDeniedError
from ranking import event
from scoring import selectors
from tests.factories import scoring as f
from tests.factories.tournaments import PlayerFactory, RegistrationFactory
from tournaments import merge
from tournaments.models import AuditEntry, Player, Registration

from .test_phases import result
from .xls import workbook

HEADER = ["ID", "Nome", "Cognome", "Nick", "Club", "Partecipa", "Regione", "Data di nascita", "e-mail"]


def sheet(*rows: list[Any]) -> bytes:
    return workbook("Iscritti", [["SCHEDA DATI TORNEO"], [], HEADER, *rows])


@pytest.fixture
def known(db: Any) -> Player:
    """Mario Rossi, who played an earlier event (a seat with a result there)."""
    rossi = PlayerFactory(bare=True, first_name="Mario", last_name="Rossi", birth_date=dt.date(1990, 1, 1),
                                  national_id="RCU-0042")
    earlier = f.ScoringTournamentFactory()
    RegistrationFactory(tournament=earlier, player=rossi, birth_date=rossi.birth_date,
                                national_id="RCU-0042")
    others = f.players(earlier, 3)
    table = f.make_table(earlier, 1, [rossi, *others])
    f.enter(table, f.role(earlier), "short", result(4, 1), confirm_by=f.role(earlier, "organizer"))
    return rossi


def test_upload_page_lists_probable_duplicates_and_the_merge_moves_everything(client: Any, known: Player) -> None:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    f.role(known.registrations.get().tournament, "organizer", user=org)  # manages both records
    client.force_login(org)
    upload = SimpleUploadedFile("torneo.xls", sheet(
        [1, "Mario", "Rosi", "", "RCU Milano", "SI", "Lombardia", dt.date(1990, 1, 1), ""],
        [2, "Anna", "Bianchi", "", "RCU Milano", "SI", "Lombardia", None, ""],
        [3, "Luca", "Verdi", "", "", "NO", "", None, ""],
    ))
    page = client.post(reverse("tournaments:iscritti", args=[t.slug]), {"file": upload})
    text = page.content.decode()
    assert page.status_code == 200 and "Mario Rossi" in text and "Mario Rosi" in text
    rosi = Player.objects.get(last_name="Rosi")
    assert reverse("tournaments:merge", args=[t.slug, rosi.pk]) in text
    assert Player.objects.filter(first_name="Mario").count() == 2  # flagged, not merged

    # Rosi plays game 1 here before anyone notices
    field = f.players(t, 3)
    table = f.make_table(t, 1, [rosi, *field])
    f.enter(table, ref, "short", result(4, 1), confirm_by=org)
    assert selectors.standings(t)["rows"][0]["player"] == rosi.pk

    listing = client.get(reverse("tournaments:duplicates", args=[t.slug])).content.decode()
    assert "Mario Rosi" in listing and "Mario Rossi" in listing
    merge_url = reverse("tournaments:merge", args=[t.slug, rosi.pk])
    assert "Mario Rossi" in client.get(merge_url).content.decode()
    refused = client.post(merge_url, {"other": str(known.pk)})  # who stays not chosen
    assert refused.status_code == 400 and Player.objects.filter(pk=rosi.pk).exists()
    done = client.post(merge_url, {"other": str(known.pk), "keep": "other"})
    assert done.status_code == 302

    assert not Player.objects.filter(pk=rosi.pk).exists()
    assert Registration.objects.filter(tournament=t, player=known).exists()
    assert table.seats.get(number=1).player_id == known.pk
    assert selectors.standings(t)["rows"][0]["player"] == known.pk  # the result follows
    assert Registration.objects.filter(player=known).count() == 2  # the earlier event too
    entry = AuditEntry.objects.get(action="player.merge", tournament=t)
    assert entry.before["drop"]["id"] == rosi.pk and entry.after["keep"]["id"] == known.pk


def test_a_bad_row_imports_nothing_and_says_which(client: Any, db: Any) -> None:
    t = f.ScoringTournamentFactory()
    client.force_login(f.role(t, "organizer"))
    upload = SimpleUploadedFile("torneo.xls", sheet(
        [1, "Anna", "Bianchi", "", "", "SI", "", "01/01/1990", ""],
        [2, "Bruno", "Neri", "", "", "SI", "", "31/02/1990", ""],
    ))
    page = client.post(reverse("tournaments:iscritti", args=[t.slug]), {"file": upload})
    assert page.status_code == 400 and "Row 5" in page.content.decode()
    assert not Registration.objects.filter(tournament=t).exists()
    page = client.post(reverse("tournaments:iscritti", args=[t.slug]),
                       {"file": SimpleUploadedFile("torneo.csv", b"a,b")})
    assert page.status_code == 400 and ".xls or .xlsx" in page.content.decode()


def test_merges_that_are_refused(known: Player) -> None:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    f.role(known.registrations.get().tournament, "organizer", user=org)  # manages both records
    stranger = PlayerFactory(bare=True, first_name="Giulia", last_name="Esposito")
    RegistrationFactory(tournament=t, player=stranger)
    with pytest.raises(DomainError, match="not flagged"):
        merge.merge_players(t, keep=known.pk, drop=stranger.pk, actor=org)
    twin = PlayerFactory(bare=True, first_name="Mario", last_name="Rossi", birth_date=dt.date(1990, 1, 1))
    RegistrationFactory(tournament=t, player=twin)
    with pytest.raises(PermissionDeniedError):
        merge.merge_players(t, keep=known.pk, drop=twin.pk, actor=ref)
    # the twin sat in the same game as Mario Rossi: two people, not one
    earlier_game = known.seats.get().game
    f.make_table(earlier_game.tournament, 1, [twin, *f.players(earlier_game.tournament, 3)])
    with pytest.raises(ConflictError):
        merge.merge_players(t, keep=known.pk, drop=twin.pk, actor=org)
    assert Player.objects.filter(pk=twin.pk).exists()
    assert not AuditEntry.objects.filter(action="player.merge").exists()


def test_national_id_identifies_and_is_unique_when_set(known: Player) -> None:
    PlayerFactory(bare=True, first_name="Senza", last_name="Tessera")  # many players without one
    PlayerFactory(bare=True, first_name="Altra", last_name="Persona")
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerFactory(bare=True, first_name="Altro", last_name="Nome", national_id="RCU-0042")
    other = PlayerFactory(bare=True, first_name="Marius", last_name="Rossetti-Bianchi")
    assert known.pk not in [p.pk for p, _d in merge.duplicates_of(other)]  # names too far apart
    other.national_id = "RCU-0042"  # as an import would know it: the same person
    assert [(p.pk, d.same) for p, d in merge.duplicates_of(other)] == [(known.pk, True)]


def test_api_import_duplicates_and_merge(client: Any, known: Player) -> None:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    f.role(known.registrations.get().tournament, "organizer", user=org)  # manages both records
    client.force_login(org)
    upload = SimpleUploadedFile("torneo.xls", sheet([1, "Mario", "Rosi", "", "", "SI", "", dt.date(1990, 1, 1), ""]))
    response = client.post(f"/api/tournaments/{t.slug}/registrations/iscritti/", {"file": upload})
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["registered"] == 1 and body["duplicates"][0]["candidates"][0]["player"]["id"] == known.pk
    assert "birth" not in response.content.decode() and "1990" not in response.content.decode()
    rosi = body["duplicates"][0]["player"]["id"]
    listed = client.get(f"/api/tournaments/{t.slug}/duplicates/").json()
    assert [row["player"]["id"] for row in listed] == [rosi]
    merged = client.post(f"/api/tournaments/{t.slug}/players/merge/", {"keep": known.pk, "drop": rosi},
                         content_type="application/json")
    assert merged.status_code == 200 and merged.json()["id"] == known.pk
    assert client.get(f"/api/tournaments/{t.slug}/duplicates/").json() == []
    client.force_login(ref)
    assert client.get(f"/api/tournaments/{t.slug}/duplicates/").status_code == 403


def test_ranking_rows_carry_the_national_id(known: Player) -> None:
    t = known.registrations.get().tournament
    rows = event.event_ranking(t, national_ids=True)["standings"]
    by_player = {r["giocatore"]: r["idNazionale"] for r in rows}
    assert by_player[known.pk] == "RCU-0042"
    assert sorted(by_player.values()).count("") == 3
    # Public (anyone but an organizer): the column stays, the ids do not (privacy).
    public = event.event_ranking(t)["standings"]
    assert {r["idNazionale"] for r in public} == {""}
