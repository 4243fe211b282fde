"""What the public and a new organizer read, said as people say it (issue: words, dates and what
the public sees): dates in Italian, names sorted with their accents, CSV files an Italian Excel
opens, status buttons in the order they come, a format in words, the technical proofs one tap
away, a ranking page that does not contradict itself, a club page that files a concluded event
under the past, the season's tie-breaks chosen in words, a one-time password link on the app's
own page. Each through the pages, as a browser gets them."""

from __future__ import annotations

import csv
import datetime as dt
import html
import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from clubs.federation import set_password_path
from tests.factories.tournaments import (
    ClubFactory,
    ClubRoleFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def _text(response) -> str:  # type: ignore[no-untyped-def]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def test_a_tournament_date_reads_as_italians_write_it(client: Client) -> None:
    t = TournamentFactory(date=dt.date(2026, 12, 5))
    assert "sabato 5 dicembre 2026" in _text(client.get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="it"))
    assert "Saturday 5 December 2026" in _text(client.get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="en"))
    assert "Sabato 05 Dicembre" not in _text(client.get("/", HTTP_ACCEPT_LANGUAGE="it"))


def test_names_sort_as_italian_readers_expect(organizer_client: Client, tournament) -> None:  # type: ignore[no-untyped-def]
    club = ClubFactory(name="Circolo dei Dadi")
    for first, last in [("Tommaso", "Tommasi"), ("Mesut", "Özil"), ("Anna", "orsini"), ("Luca", "Pace"),
                        ("Élodie", "Zanetti"), ("Ugo", "D'Amico")]:
        RegistrationFactory(tournament=tournament, player=PlayerFactory(first_name=first, last_name=last, club=club))
    expected = ["D'Amico", "orsini", "Özil", "Pace", "Tommasi", "Zanetti"]

    def order(text: str) -> list[str]:
        return sorted(expected, key=text.index)

    assert order(_text(organizer_client.get(f"/t/{tournament.slug}/checkin/1/"))) == expected
    assert order(_text(organizer_client.get(f"/clubs/{club.pk}/"))) == expected


def test_csv_downloads_open_in_an_italian_excel(organizer_client: Client, tournament) -> None:  # type: ignore[no-untyped-def]
    RegistrationFactory(tournament=tournament, player=PlayerFactory(first_name="Niccolò", last_name="D'Amico"))
    url = f"/t/{tournament.slug}/registrations/export.csv"
    excel = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE="it").content
    assert excel.startswith("\ufeff".encode())  # UTF-8 said so: Excel shows "Niccolò", not "NiccolÃ²"
    rows = list(csv.reader(io.StringIO(excel.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:2] == ["Nome", "Cognome"] and rows[1][:2] == ["Niccolò", "D'Amico"]
    assert rows[1][-1] == "Iscritto"  # the state in words, not "registered"
    plain = organizer_client.get(url + "?plain=1").content.decode("utf-8")
    assert not plain.startswith("\ufeff") and plain.splitlines()[1].startswith("Niccolò,D'Amico,")
    # the API keeps its form: codes, commas, no byte-order mark
    api = organizer_client.get(f"/api/tournaments/{tournament.slug}/registrations/export/").content.decode()
    assert api.startswith("first_name,last_name") and ",registered" in api


def test_the_status_buttons_come_in_the_order_of_the_event(organizer_client: Client, tournament) -> None:  # type: ignore[no-untyped-def]
    html = organizer_client.get(f"/t/{tournament.slug}/manage/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    running, draft = html.index("Passa a «In corso»"), html.index("Passa a «Bozza»")
    assert running < draft


def test_a_tournament_says_its_format_in_words(client: Client) -> None:
    t = TournamentFactory(scoring_system="S-SPARTAC", games_count=1)
    text = _text(client.get(f"/t/{t.slug}/", HTTP_ACCEPT_LANGUAGE="it"))
    assert "S-SPARTAC" not in text and "migliori due su tre" not in text
    assert "RTU · 1 partita" in text and "Spartac" in text


def _behind_verify(html: str, proof: str, summary: str) -> bool:
    """The proof is inside a closed <details> whose summary is the given "Verifica ..."."""
    at = html.index(proof)
    opened = html.rindex("<details", 0, at)
    return "</details>" not in html[opened:at] and " open" not in html[opened:html.index(">", opened)] \
        and summary in html[opened:at]


def test_the_table_page_keeps_the_deal_proof_behind_a_verify_detail(client: Client) -> None:
    from tests.factories.scoring import make_table, players

    t = TournamentFactory()
    table = make_table(t, 1, players(t, 4))
    table.deal_seed = "abc123"
    table.save()
    html = client.get(f"/t/{t.slug}/games/1/tables/{table.number}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert _behind_verify(html, "python -m engine deal", "Verifica la distribuzione")
    assert "motore delle regole del sistema dei tornei" in html


def test_the_printed_sheet_and_the_cards_keep_their_proofs_behind_verify(client: Client) -> None:
    """The table sheet's command line and the objective cards' SHA-256 fingerprint: kept, one
    tap away."""
    from tests.factories.scoring import make_table, players

    t = TournamentFactory()
    table = make_table(t, 1, players(t, 4))
    table.deal_seed = "abc123"
    table.save()
    table.game.secret_commitment = "f" * 64
    table.game.save()
    sheet = client.get(f"/t/{t.slug}/games/1/tables/{table.number}/sheet/", HTTP_ACCEPT_LANGUAGE="it")
    assert _behind_verify(sheet.content.decode(), "python -m engine deal", "Verifica la distribuzione")
    cards = client.get(f"/t/{t.slug}/games/1/objective/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert _behind_verify(cards, "SHA-256", "Verifica le carte")
    assert _behind_verify(cards, "f" * 64, "Verifica le carte")


def test_a_concluded_evening_is_a_past_event_of_its_club(client: Client) -> None:
    club = ClubFactory()
    today = timezone.localdate()
    done = TournamentFactory(club=club, date=today, status="finished", name="Serata conclusa")
    coming = TournamentFactory(club=club, date=today + dt.timedelta(days=7), name="Serata prossima")
    html = client.get(f"/clubs/{club.pk}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    past = html.index("Eventi passati")
    assert html.index(done.name) > past and html.index(coming.name) < past


def test_the_season_form_offers_tie_breaks_in_words() -> None:
    club = ClubFactory()
    admin = UserFactory(username="presidente")
    ClubRoleFactory(club=club, user=admin)
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    client.force_login(admin)
    url = f"/clubs/{club.pk}/seasons/new/"
    html = client.get(url).content.decode()
    assert '<option value="wins">partite vinte</option>' in html
    assert "raw_points_all:" not in html and "separati da virgola" not in html.lower()
    created = client.post(url, {"name": "Primavera", "year": "2026", "rule": "sum", "preset": "campionato",
                                "tiebreaks_0": "wins", "tiebreaks_1": "total"})
    assert created.status_code == 302
    from tournaments.models import Season

    assert Season.objects.get(name="Primavera").tiebreaks == ["wins", "total"]


def test_the_one_time_password_link_is_the_apps_own_page() -> None:
    user = get_user_model().objects.create_user(username="nuovo-admin")
    user.set_unusable_password()
    user.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="it")
    page = client.get(set_password_path(user), follow=True)
    html = page.content.decode()
    assert page.status_code == 200 and "Scegli la tua password" in html
    assert "Amministrazione Django" not in html and 'href="/admin/' not in html
    saved = client.post(page.redirect_chain[-1][0], {"new_password1": "dadi-e-carri-2026",
                                                     "new_password2": "dadi-e-carri-2026"}, follow=True)
    assert "Password salvata" in saved.content.decode() and "Amministrazione Django" not in saved.content.decode()
    user.refresh_from_db()
    assert user.check_password("dadi-e-carri-2026")


def test_the_event_ranking_page_does_not_contradict_itself(client: Client) -> None:
    """A tournament with neither event type nor format is ranked as a type the national ranking
    does not count: the page says so once, never also "the event counts"."""
    from tests.factories.scoring import board_data, enter, make_table, players, role

    t = TournamentFactory(status="running")
    seated = players(t, 8)
    referee, other = role(t), role(t)
    for game in (1, 2, 3):  # six table-games: enough for the ranking, were the type one it counts
        for at_table in (seated[:4], seated[4:]):
            enter(make_table(t, game, at_table), referee, "board", board_data(["RTU-01"] * 4, winner=1),
                  ended_by="objective", confirm_by=other)
    text = _text(client.get(f"/t/{t.slug}/standings/ranking/", HTTP_ACCEPT_LANGUAGE="it"))
    assert "non lo conta" in text
    assert "L'evento conta per il ranking nazionale" not in text


def test_the_standings_say_which_games_count_in_words(client: Client) -> None:
    """A one-game season evening whose format keeps the best 50: every game counts, said so,
    without a rule id a player cannot read."""
    from tournaments.models import ScoringSettings

    t = TournamentFactory(games_count=1)
    ScoringSettings.objects.update_or_create(tournament=t, defaults={"best_n": 50})
    text = _text(client.get(f"/t/{t.slug}/standings/", HTTP_ACCEPT_LANGUAGE="it"))
    assert "Contano tutte le partite" in text and "migliori 50" not in text and "K-BEST" not in text
    three = TournamentFactory(games_count=3)
    ScoringSettings.objects.update_or_create(tournament=three, defaults={"best_n": 2})
    text = _text(client.get(f"/t/{three.slug}/standings/", HTTP_ACCEPT_LANGUAGE="it"))
    assert "Contano le migliori 2 partite" in text and "K-BEST" not in text


def test_players_sharing_a_place_are_listed_by_name_with_accents_folded(client: Client) -> None:
    """Before the first result every player shares the first place: the standings list them by
    name, "Özgür" among the O's, not after "Tommaso"."""
    t = TournamentFactory(status="running")
    for first in ("Tommaso", "Özgür", "Anna"):
        RegistrationFactory(tournament=t, player=PlayerFactory(first_name=first, last_name="Rossi"))
    text = _text(client.get(f"/t/{t.slug}/standings/", HTTP_ACCEPT_LANGUAGE="it"))
    assert text.index("Anna Rossi") < text.index("Özgür Rossi") < text.index("Tommaso Rossi")


def test_an_ending_inside_a_sentence_starts_in_lower_case() -> None:
    from django.utils import translation

    from engine.closure import NextAction
    from engine.endings import Ending
    from tables.closure import describe

    with translation.override("it"):
        said = describe(NextAction("ended", None, None, None, "", Ending.SDADATA))
    assert said == "La partita è finita: sdadata."
