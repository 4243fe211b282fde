"""A correction nobody has confirmed yet can be taken back by its author or an organizer, from the
table's page or the API: the confirmed result keeps counting, the standings lose their mark, the
audit log keeps who withdrew what and when. Anyone else is refused with a reason."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring import selectors
from scoring.models import ResultSubmission
from tests.factories import scoring as f
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def _correct(setup):  # type: ignore[no-untyped-def]
    """Version 1 confirmed (seat 2 wins), version 2 by the first referee waiting (seat 3 wins)."""
    first = f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])
    f.enter(setup["table"], setup["ref1"], "board", first, ended_by="objective", confirm_by=setup["ref2"])
    second = f.board_data(setup["objectives"], winner=3, armies=[30, 30, 40, 30])
    return f.enter(setup["table"], setup["ref1"], "board", second, ended_by="objective")


def test_the_author_withdraws_from_the_page_and_the_standings_mark_goes(client, setup) -> None:
    t = setup["t"]
    correction = _correct(setup)
    standings = f"/t/{t.slug}/standings/"
    assert "pending-correction" in client.get(standings).content.decode()
    client.force_login(setup["ref1"])
    page = client.get(f"/t/{t.slug}/results/table/{setup['table'].pk}/", headers={"Accept-Language": "it"})
    assert "Ritira la correzione (versione 2)" in page.content.decode()

    done = client.post(f"/t/{t.slug}/results/{correction.pk}/withdraw/", headers={"Accept-Language": "it"},
                       follow=True)
    assert done.status_code == 200 and "Correzione ritirata" in done.content.decode()
    state = selectors.table_state(setup["table"])
    assert state.status == selectors.CONFIRMED and state.version == 1 and not state.pending_correction
    assert "pending-correction" not in client.get(standings).content.decode()
    winner = selectors.standings(t)["rows"][0]
    assert winner["player"] == setup["players"][1].pk  # the confirmed version 1 still counts

    entry = AuditEntry.objects.get(action="result.withdraw")
    assert entry.actor == setup["ref1"] and entry.at is not None
    assert entry.before["version"] == 2 and entry.before["scores"] == correction.scores
    assert entry.before["entered_by"] == setup["ref1"].pk and entry.after == {"counts": 1}
    client.force_login(setup["org"])  # the audit log is the organizer's
    audit = client.get(f"/t/{t.slug}/audit/", headers={"Accept-Language": "it"}).content.decode()
    assert "ha ritirato una correzione del risultato del tavolo 1, partita 1" in audit


def test_an_organizer_withdraws_through_the_api(setup) -> None:
    correction = _correct(setup)
    api = APIClient()
    api.force_authenticate(setup["org"])
    response = api.post(f"/api/scoring/results/{correction.pk}/withdraw/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == selectors.CONFIRMED and body["version"] == 1
    assert [s["version"] for s in body["submissions"]] == [1]
    assert all(r["pending_corrections"] == [] for r in api.get(
        f"/api/scoring/tournaments/{setup['t'].slug}/standings/").json()["rows"])
    # the table takes a new correction as version 2 again
    again = f.enter(setup["table"], setup["ref2"], "board",
                    f.board_data(setup["objectives"], winner=4, armies=[30, 30, 30, 40]), ended_by="objective")
    assert again.number == 2


def test_someone_else_is_refused_and_the_correction_stays(client, setup) -> None:
    correction = _correct(setup)
    api = APIClient()
    api.force_authenticate(setup["ref2"])  # a referee of the tournament, but not its author
    refused = api.post(f"/api/scoring/results/{correction.pk}/withdraw/", HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 403
    assert "Only whoever entered this correction or an organizer" in refused.json()["detail"]
    assert APIClient().post(f"/api/scoring/results/{correction.pk}/withdraw/").status_code in (401, 403)
    client.force_login(setup["ref2"])
    page = client.get(f"/t/{setup['t'].slug}/results/table/{setup['table'].pk}/").content.decode()
    assert "/withdraw/" not in page  # no button for them
    assert client.post(f"/t/{setup['t'].slug}/results/{correction.pk}/withdraw/").status_code == 403
    assert ResultSubmission.objects.filter(pk=correction.pk).exists()
    assert selectors.table_state(setup["table"]).pending_correction
    assert not AuditEntry.objects.filter(action="result.withdraw").exists()


def test_only_a_pending_correction_can_be_withdrawn(setup) -> None:
    first = f.enter(setup["table"], setup["ref1"], "board",
                    f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30]), ended_by="objective")
    api = APIClient()
    api.force_authenticate(setup["org"])
    # a first entry is not a correction, and a confirmed result is no longer waiting
    assert api.post(f"/api/scoring/results/{first.pk}/withdraw/").json()["rule"] == "CONFIRM"
    from scoring import services

    services.confirm_result(actor=setup["ref2"], submission=first)
    refused = api.post(f"/api/scoring/results/{first.pk}/withdraw/", HTTP_ACCEPT_LANGUAGE="it")
    assert refused.status_code == 400 and "non è una correzione in attesa" in refused.json()["detail"]
    assert selectors.table_state(setup["table"]).version == 1
