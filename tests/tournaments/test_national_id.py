"""A player's national id (optional, unique when set): organizers enter it when adding a player,
correct it per row, import it (CSV "codice"/"national_id", Iscritti "ID nazionale"), see it in
the API; nobody else ever does, and a duplicate is a clear 400 on the field."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from openpyxl import Workbook

from common.errors import DomainError, PermissionDeniedError
from tests.factories.tournaments import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
)
from tests.formats.xls import workbook
from tournaments import privacy, services
from tournaments.iscritti import import_iscritti
from tournaments.models import AuditEntry, Player, Registration

pytestmark = pytest.mark.django_db


def _add(client: Client, slug: str, **fields: str):  # the "Add a player" form of the page
    return client.post(f"/t/{slug}/register/", {"next": "registrations", **fields})


def test_organizer_adds_a_player_with_a_national_id_seen_only_by_organizers(
    organizer_client, tournament
) -> None:
    page = organizer_client.get(f"/t/{tournament.slug}/registrations/").content.decode()
    assert 'name="national_id"' in page
    response = _add(organizer_client, tournament.slug, first_name="Mario", last_name="Rossi",
                    national_id=" RCU-00421 ")
    assert response.status_code == 302
    assert Player.objects.get(last_name="Rossi").national_id == "RCU-00421"
    assert "RCU-00421" in organizer_client.get(f"/t/{tournament.slug}/registrations/").content.decode()
    for url in (f"/t/{tournament.slug}/", f"/api/tournaments/{tournament.slug}/registrations/",
                "/api/players/"):
        assert "RCU-00421" not in Client().get(url).content.decode()
    assert 'name="national_id"' not in Client().get(f"/t/{tournament.slug}/register/").content.decode()


def test_a_duplicate_national_id_on_the_page_is_a_400_that_keeps_what_was_typed(
    organizer_client, tournament
) -> None:
    PlayerFactory(first_name="Anna", last_name="Verdi", national_id="RCU-7")
    response = _add(organizer_client, tournament.slug, first_name="Bruno", last_name="Neri",
                    nickname="Il Corsaro", national_id="RCU-7")
    assert response.status_code == 400
    html = response.content.decode()
    assert "RCU-7" in html and "Anna Verdi" in html and "DUPLICATE" not in html
    assert 'value="Il Corsaro"' in html and 'value="Bruno"' in html
    assert not Player.objects.filter(last_name="Neri").exists()


def test_the_national_id_is_the_identity_across_clubs_but_never_someone_elses(organizer, tournament) -> None:
    known = PlayerFactory(first_name="Luca", last_name="Bianchi", national_id="RCU-9")
    reg = services.register(tournament, services.PlayerData("luca", "BIANCHI", club="Another club",
                                                            national_id="RCU-9"), actor=organizer)
    assert reg.player == known  # same person who moved club
    other = TournamentFactory()
    TournamentRoleFactory(tournament=other, user=organizer, role="organizer")
    with pytest.raises(DomainError) as taken:
        services.register(other, services.PlayerData("Marco", "Gialli", national_id="RCU-9"),
                          actor=organizer)
    assert (taken.value.field, taken.value.rule, taken.value.status_code) == ("national_id", "DUPLICATE", 400)
    # A known player (same name and club) who already holds another id is not silently changed.
    holder = PlayerFactory(first_name="Sara", last_name="Blu", national_id="RCU-1")
    with pytest.raises(DomainError) as changed:
        services.register(other, services.PlayerData("Sara", "Blu", club=holder.club.name,
                                                     national_id="RCU-2"), actor=organizer)
    assert changed.value.field == "national_id"
    holder.refresh_from_db()
    assert holder.national_id == "RCU-1"
    # ...while one without an id gets it (audited).
    bare = PlayerFactory(first_name="Ugo", last_name="Rosa")
    services.register(other, services.PlayerData("Ugo", "Rosa", club=bare.club.name,
                                                 national_id="RCU-3"), actor=organizer)
    bare.refresh_from_db()
    assert bare.national_id == "RCU-3"
    assert AuditEntry.objects.filter(action="player.national_id", object_id=str(bare.pk)).exists()
    with pytest.raises(DomainError):
        services.register(other, services.PlayerData("Ada", "Lunga", national_id="X" * 33),
                          actor=organizer)


def test_only_organizers_may_enter_one(tournament) -> None:
    with pytest.raises(PermissionDeniedError):
        services.register(tournament, services.PlayerData("Eva", "Grigi", national_id="RCU-5"))
    api = Client().post(f"/api/tournaments/{tournament.slug}/registrations/",
                        {"first_name": "Eva", "last_name": "Grigi", "national_id": "RCU-5"},
                        content_type="application/json")
    assert api.status_code == 403 and "national_id" in api.json()
    assert not Player.objects.filter(last_name="Grigi").exists()
    # Without it, public registration works as before.
    ok = Client().post(f"/api/tournaments/{tournament.slug}/registrations/",
                       {"first_name": "Eva", "last_name": "Grigi"}, content_type="application/json")
    assert ok.status_code == 201 and "national_id" not in ok.json()["player"]


def test_api_organizers_enter_and_see_it_others_never(organizer_client, tournament) -> None:
    url = f"/api/tournaments/{tournament.slug}/registrations/"
    created = organizer_client.post(url, {"first_name": "Ivo", "last_name": "Mori", "national_id": "N-1",
                                          "email": "ivo@example.org"}, content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json()["player"]["national_id"] == "N-1"
    rows = organizer_client.get(url).json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    assert rows[0]["player"]["national_id"] == "N-1" and rows[0]["player"]["email"] == "ivo@example.org"
    public = Client().get(url).content.decode()
    assert "N-1" not in public and "national_id" not in public and "ivo@example.org" not in public
    dup = organizer_client.post(url, {"first_name": "Pia", "last_name": "Sole", "national_id": "N-1"},
                                content_type="application/json")
    assert dup.status_code == 400
    assert dup.json()["rule"] == "DUPLICATE" and "national_id" in dup.json()


def test_organizer_corrects_a_registered_players_national_id(
    organizer_client, tournament, referee
) -> None:
    reg = RegistrationFactory(tournament=tournament)
    PlayerFactory(first_name="Altro", last_name="Giocatore", national_id="TAKEN")
    url = f"/t/{tournament.slug}/registrations/{reg.pk}/national-id/"
    assert organizer_client.post(url, {"national_id": "NEW-1"}).status_code == 302
    reg.player.refresh_from_db()
    assert reg.player.national_id == "NEW-1"
    entry = AuditEntry.objects.get(action="player.national_id", object_id=str(reg.player.pk))
    assert (entry.before, entry.after) == ({"national_id": ""}, {"national_id": "NEW-1"})

    refused = organizer_client.post(url, {"national_id": "TAKEN"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert 'value="TAKEN"' in html and "Altro Giocatore" in html and "DUPLICATE" not in html
    reg.player.refresh_from_db()
    assert reg.player.national_id == "NEW-1"

    api = f"/api/tournaments/{tournament.slug}/registrations/{reg.pk}/national-id/"
    assert organizer_client.post(api, {"national_id": "TAKEN"},
                                 content_type="application/json").json()["rule"] == "DUPLICATE"
    cleared = organizer_client.post(api, {"national_id": ""}, content_type="application/json")
    assert cleared.status_code == 200 and cleared.json()["player"]["national_id"] == ""
    referee_client = Client()
    referee_client.force_login(referee)
    assert referee_client.post(url, {"national_id": "R-1"}).status_code == 403
    assert referee_client.post(api, {"national_id": "R-1"},
                               content_type="application/json").status_code == 403
    reg.player.refresh_from_db()
    assert reg.player.national_id == ""


def test_csv_import_reads_the_national_id_and_export_writes_it(organizer, tournament) -> None:
    text = "nome;cognome;circolo;codice\nMario;Rossi;Club A;RCU-11\nGiulia;Bianchi;Club A;\n"
    services.import_csv(tournament, text, actor=organizer)
    assert Player.objects.get(last_name="Rossi").national_id == "RCU-11"
    assert Player.objects.get(last_name="Bianchi").national_id == ""
    exported = services.export_csv(tournament, actor=organizer)
    assert exported.splitlines()[0].split(",")[6] == "national_id" and ",RCU-11," in exported

    other = TournamentFactory()
    TournamentRoleFactory(tournament=other, user=organizer, role="organizer")
    bad = "first_name,last_name,national_id\nAnna,Verdi,RCU-20\nBruno,Neri,RCU-11\n"
    with pytest.raises(services.CsvImportError) as err:
        services.import_csv(other, bad, actor=organizer)
    assert (err.value.line, err.value.field, err.value.status_code) == (3, "national_id", 400)
    assert not Registration.objects.filter(tournament=other).exists()


def _xlsx(rows: list[list[object]]) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Iscritti"
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def test_iscritti_import_reads_an_optional_national_id_column(organizer, tournament) -> None:
    rows = [["ID", "Nome", "Cognome", "Club", "ID nazionale"],
            [1, "Mario", "Rossi", "RCU Milano", "RCU-31"], [2, "Anna", "Verdi", "", 12345]]
    report = import_iscritti(tournament, _xlsx(rows), "torneo.xlsx", actor=organizer)
    assert [r.player.national_id for r in report.registered] == ["RCU-31", "12345"]
    other = TournamentFactory()
    TournamentRoleFactory(tournament=other, user=organizer, role="organizer")
    bad = [["ID", "Nome", "Cognome", "Codice"], [1, "Luca", "Neri", "RCU-31"]]
    with pytest.raises(DomainError) as err:
        import_iscritti(other, workbook("Iscritti", bad), "torneo.xls", actor=organizer)
    assert err.value.field == "national_id" and err.value.line == 2  # type: ignore[attr-defined]
    response = Client()
    response.force_login(organizer)
    page = response.post(f"/t/{other.slug}/registrations/iscritti/",
                         {"file": SimpleUploadedFile("t.xls", workbook("Iscritti", bad))},
                         HTTP_ACCEPT_LANGUAGE="it")
    assert page.status_code == 400 and "Riga 2 (Codice nazionale)" in page.content.decode()
    assert not Registration.objects.filter(tournament=other).exists()


def test_export_and_erasure_cover_the_national_id(organizer, tournament) -> None:
    reg = RegistrationFactory(tournament=tournament, player=PlayerFactory(national_id="RCU-ERASE"))
    services.set_national_id(reg, "RCU-ERASE-2", actor=organizer)
    reg.player.refresh_from_db()
    assert privacy.export_player_data(reg.player)["player"]["national_id"] == "RCU-ERASE-2"
    privacy.erase_player(reg.player, actor=organizer)
    reg.player.refresh_from_db()
    assert reg.player.national_id == ""
    snapshots = [(e.before, e.after) for e in AuditEntry.objects.filter(action="player.national_id")]
    assert snapshots and "RCU-ERASE" not in str(snapshots)
