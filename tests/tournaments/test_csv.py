from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tournaments import services
from tournaments.models import AuditEntry, Player, Registration

GOOD = "nome;cognome;soprannome;circolo;email;data di nascita\n" \
       "Mario;Rossi;Il Generale;RisiKo Club Roma;mario@example.org;1980-02-03\n" \
       "Giulia;Bianchi;;RisiKo Club Roma;;\n"


@pytest.mark.django_db
def test_csv_import_registers_every_row(organizer, tournament) -> None:
    created = services.import_csv(tournament, GOOD.encode(), actor=organizer)
    assert [r.player.last_name for r in created] == ["Rossi", "Bianchi"]
    mario = Player.objects.get(last_name="Rossi")
    assert mario.nickname == "Il Generale" and mario.club.name == "RisiKo Club Roma"
    assert str(mario.birth_date) == "1980-02-03"


@pytest.mark.django_db
def test_csv_with_one_bad_row_imports_nothing_and_names_line_and_field(
    organizer_client, tournament
) -> None:
    bad = ("first_name,last_name,club,birth_date\n"
           "Anna,Verdi,Circolo A,1990-01-01\n"
           "Bruno,Neri,Circolo A,31/02/1990\n"      # line 3: no such date
           "Carla,Blu,Circolo A,\n")
    response = organizer_client.post(
        f"/t/{tournament.slug}/registrations/import/",
        {"file": SimpleUploadedFile("iscritti.csv", bad.encode(), content_type="text/csv")},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Riga 3 (Data di nascita)" in html  # the column as the organizer reads it
    assert not Registration.objects.exists() and not Player.objects.exists()

    api = organizer_client.post(f"/api/tournaments/{tournament.slug}/registrations/import/",
                                {"file": SimpleUploadedFile("x.csv", bad.encode())})
    assert api.status_code == 400
    assert api.json()["line"] == 3 and "birth_date" in api.json() and api.json()["rule"] == "CSV"
    assert not Registration.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="registration").exists()


@pytest.mark.django_db
def test_csv_duplicate_inside_the_file_is_reported_by_line(organizer, tournament) -> None:
    text = "first_name,last_name,club\nAnna,Verdi,C\nBruno,Neri,C\nanna,VERDI,C\n"
    with pytest.raises(services.CsvImportError) as err:
        services.import_csv(tournament, text, actor=organizer)
    assert err.value.line == 4 and err.value.field == "last_name"
    assert not Registration.objects.exists()


@pytest.mark.django_db
def test_csv_missing_column_is_reported(organizer, tournament) -> None:
    with pytest.raises(services.CsvImportError) as err:
        services.import_csv(tournament, "first_name,club\nAnna,C\n", actor=organizer)
    assert err.value.line == 1 and err.value.field == "last_name"


@pytest.mark.django_db
def test_export_then_import_round_trips(organizer_client, organizer, tournament) -> None:
    services.import_csv(tournament, GOOD, actor=organizer)
    response = organizer_client.get(f"/t/{tournament.slug}/registrations/export.csv")
    assert response.status_code == 200
    text = response.content.decode()
    assert "mario@example.org" in text and "03/02/1980" in text  # dd/mm/yyyy, as the clubs write it
    assert text.startswith("\ufeff") and text.splitlines()[0].count(";") == 7  # Excel's form, in words
    from tests.factories.tournaments import TournamentFactory, TournamentRoleFactory

    other = TournamentFactory()
    TournamentRoleFactory(tournament=other, user=organizer)
    created = services.import_csv(other, response.content, actor=organizer)  # its own export reads back
    assert len(created) == 2 and Player.objects.count() == 2  # same players, not copies


NICCOLO = ("nome;cognome;circolo;data di nascita\n"
           "Niccolò;D'Amico;Circolo A;\n"
           "Anna;Verdi;Circolo A;1990-01-01\n"
           "Bruno;Neri;Circolo A;31/02/1990\n"        # line 4: no such date
           "Carla;Blu;Circolo A;\n"
           "Niccolò;D'Amico;Circolo A;\n")            # line 6: the same player again


def _upload(client, tournament, content: str):  # type: ignore[no-untyped-def]
    return client.post(f"/t/{tournament.slug}/registrations/import/",
                       {"file": SimpleUploadedFile("iscritti.csv", content.encode(), "text/csv")})


@pytest.mark.django_db
def test_every_problem_line_is_listed_in_italian_and_the_others_import_without_a_new_upload(
    organizer_client, tournament
) -> None:
    response = _upload(organizer_client, tournament, NICCOLO)
    assert response.status_code == 400
    html = response.content.decode()
    # both problem lines, each with its column in Italian; the duplicate says it is the file's own
    assert "Riga 4 (Data di nascita)" in html
    assert "Riga 6 (Cognome): Niccolò D&#x27;Amico è già alla riga 2 di questo file." in html
    assert ".." not in html.replace("...", "")  # no double full stop after a message
    assert "Il file ha 2 righe con un problema: non è stato importato nulla." in html
    assert "Importa le altre righe (3)" in html
    assert not Registration.objects.exists()

    done = organizer_client.post(f"/t/{tournament.slug}/registrations/import/", {"action": "rest"},
                                 follow=True)
    assert done.status_code == 200
    assert sorted(Registration.objects.values_list("player__last_name", flat=True)) == [
        "Blu", "D'Amico", "Verdi"]
    page = done.content.decode()
    assert "3 iscrizioni importate" in page and "Righe 4, 6 lasciate fuori" in page
    # the kept file is used once: the same button again imports nothing twice
    again = organizer_client.post(f"/t/{tournament.slug}/registrations/import/", {"action": "rest"})
    assert again.status_code == 400 and Registration.objects.count() == 3


@pytest.mark.django_db
def test_a_corrected_file_replaces_the_kept_one(organizer_client, tournament) -> None:
    assert _upload(organizer_client, tournament, NICCOLO).status_code == 400
    fixed = NICCOLO.replace("31/02/1990", "28/02/1990").rsplit("Niccolò", 1)[0]
    assert _upload(organizer_client, tournament, fixed).status_code == 302
    assert Registration.objects.count() == 4


@pytest.mark.django_db
def test_the_api_lists_every_problem_line(organizer_client, tournament) -> None:
    api = organizer_client.post(f"/api/tournaments/{tournament.slug}/registrations/import/",
                                {"file": SimpleUploadedFile("x.csv", NICCOLO.encode())})
    assert api.status_code == 400
    body = api.json()
    assert body["line"] == 4 and body["rule"] == "CSV" and body["importable"] == 3
    assert [(p["line"], p["field"]) for p in body["problems"]] == [(4, "birth_date"), (6, "last_name")]
    assert not Registration.objects.exists()
