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
    assert "3" in html and "birth_date" in html
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
