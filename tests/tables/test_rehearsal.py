"""A rehearsal game ("partita di prova"): marked by an organizer before the start (pages and
API, audited), played as usual, labelled on its pages, and never history for seating later games."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from common.errors import ConflictError, PermissionDeniedError
from tables import selectors, services
from tables.models import Game, Table
from tests.factories.scoring import ConfirmationFactory, ResultSubmissionFactory
from tests.tables.conftest import add_players, make_user
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _play_confirmed(game: Game, organizer) -> None:  # type: ignore[no-untyped-def]
    for table in Table.objects.filter(game=game):
        seats = list(table.seats.order_by("number"))
        sub = ResultSubmissionFactory(
            table=table, tournament=game.tournament, number=1, kind="short", ended_by="sdadata",
            scores=[{"seat": s.number, "player": s.player_id, "place": s.number} for s in seats],
        )
        ConfirmationFactory(submission=sub, user=organizer, by_organizer=True)


def test_only_an_organizer_marks_a_planned_game_and_it_is_audited(tournament, organizer):
    game = services.ensure_game(tournament, 1, actor=organizer)
    with pytest.raises(PermissionDeniedError):
        services.set_rehearsal(game, True, actor=make_user())
    game = services.set_rehearsal(game, True, actor=organizer)
    assert Game.objects.get(pk=game.pk).rehearsal
    entry = AuditEntry.objects.filter(action="game.rehearsal").latest("pk")
    assert entry.before == {"rehearsal": False} and entry.after == {"rehearsal": True}

    add_players(tournament, 8)
    services.compose_game(game, actor=organizer, seed="r", effort=0.3)
    services.start_game(game, actor=organizer)  # deals and clocks work as usual
    assert Table.objects.filter(game=game).exclude(deal={}).count() == 2
    with pytest.raises(ConflictError):
        services.set_rehearsal(game, False, actor=organizer)
    assert Game.objects.get(pk=game.pk).rehearsal


def test_seating_the_next_game_ignores_the_rehearsal_meetings(tournament, organizer):
    add_players(tournament, 8, games=(1, 2))
    game1 = services.ensure_game(tournament, 1, actor=organizer)
    services.compose_game(game1, actor=organizer, seed="m1", effort=0.3)
    _play_confirmed(game1, organizer)
    game2 = services.ensure_game(tournament, 2, actor=organizer)
    counted = selectors.history_before(game2)
    assert len(counted.tables) == 2 and counted.winners  # a game that counts is history

    services.set_rehearsal(game1, True, actor=organizer)
    history = selectors.history_before(game2)
    assert history.tables == () and history.winners == frozenset() and history.previous_tables == ()
    # The same tables as game 1 are no repeat: those meetings were a rehearsal.
    game2 = services.compose_game(game2, actor=organizer, seed="m1", effort=0.3)
    assert game2.composition_report["repeated_pairs"] == 0


def test_pages_label_the_rehearsal_and_the_organizer_marks_it_there(client, tournament, organizer):
    add_players(tournament, 8)
    client.force_login(organizer)
    organize = f"/t/{tournament.slug}/games/1/organize/"
    page = client.get(organize, headers={"Accept-Language": "it"}).content.decode()
    assert "Rendila una partita di prova" in page and "Partita di prova</span>" not in page
    r = client.post(organize, {"action": "rehearsal", "rehearsal": "1"}, headers={"Accept-Language": "it"})
    assert r.status_code == 302
    assert Game.objects.get(tournament=tournament, number=1).rehearsal
    page = client.get(organize, headers={"Accept-Language": "it"}).content.decode()
    assert "Partita di prova</span>" in page and "Rendila una partita che conta" in page
    public = client.get(f"/t/{tournament.slug}/games/1/tables/", headers={"Accept-Language": "it"})
    assert "Questa è una partita di prova" in public.content.decode()
    english = client.get(f"/t/{tournament.slug}/games/1/tables/", headers={"Accept-Language": "en"})
    assert "This is a rehearsal game" in english.content.decode()
    services.compose_game(Game.objects.get(tournament=tournament, number=1), actor=organizer, seed="p", effort=0.3)
    results = client.get(f"/t/{tournament.slug}/results/", headers={"Accept-Language": "it"}).content.decode()
    assert "status-rehearsal" in results and "Partita di prova" in results


def test_the_api_marks_a_game_before_it_starts(tournament, organizer):
    add_players(tournament, 8)
    url = f"/api/tournaments/{tournament.slug}/games/1/"
    assert APIClient().post(url + "rehearsal/", {"rehearsal": True}, format="json").status_code in (401, 403)
    org = APIClient()
    org.force_authenticate(organizer)
    bad = org.post(url + "rehearsal/", {"rehearsal": "perhaps"}, format="json")
    assert bad.status_code == 400 and "rehearsal" in bad.content.decode()
    r = org.post(url + "rehearsal/", {"rehearsal": True}, format="json")
    assert r.status_code == 200 and r.json()["rehearsal"] is True
    assert APIClient().get(url).json()["rehearsal"] is True
    org.post(url + "compose/", {"seed": "x"}, format="json")
    org.post(url + "start/", {}, format="json")
    assert org.post(url + "rehearsal/", {"rehearsal": False}, format="json").status_code == 409


def test_the_meetings_grid_leaves_the_rehearsal_out(client, tournament, organizer):
    add_players(tournament, 8, games=(1, 2))
    game1 = services.set_rehearsal(services.ensure_game(tournament, 1, actor=organizer), True, actor=organizer)
    services.compose_game(game1, actor=organizer, seed="same", effort=0.3)
    game2 = services.compose_game(services.ensure_game(tournament, 2, actor=organizer), actor=organizer,
                                  seed="same", effort=0.3)
    assert selectors.seated_tables([game1])[game1.pk] == selectors.seated_tables([game2])[game2.pk]
    html = client.get(f"/t/{tournament.slug}/meetings/", headers={"Accept-Language": "it"}).content.decode()
    assert 'class="num">1<' in html and 'class="num repeat">' not in html
