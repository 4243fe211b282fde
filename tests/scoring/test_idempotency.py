"""A write sent again with its idempotency key (the answer was lost, the offline queue retries)
gets the answer it got, and is saved once (tournaments/idempotency.py). The same fault on the
real stack, with the answer lost after the commit: tests/hardening/test_faults.py."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Confirmation, ResultSubmission
from tests.factories import scoring as f
from tests.scoring.test_pages import _board_post

pytestmark = pytest.mark.django_db


def _api(user: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(user)
    return api


def test_a_result_sent_again_with_its_key_gets_the_same_answer_and_is_saved_once(setup: dict[str, Any]) -> None:
    table = setup["table"]
    body = {"kind": "board", "version": 0, "ended_by": "objective",
            **f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])}
    url = f"/api/scoring/tables/{table.pk}/results/"
    api = _api(setup["ref1"])
    first = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="entry-1")
    again = api.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="entry-1")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert ResultSubmission.objects.filter(table=table).count() == 1
    # without the key a repeat is what it always was: a newer version exists
    assert api.post(url, body, format="json").status_code == 409
    # another client's key of the same name is another write
    other = _api(setup["ref2"]).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="entry-1")
    assert other.status_code == 409


def test_a_confirmation_sent_again_is_one_confirmation(setup: dict[str, Any]) -> None:
    table = setup["table"]
    sub = f.enter(table, setup["ref1"], "board", f.board_data(setup["objectives"], winner=1), "objective")
    api = _api(setup["ref2"])
    url = f"/api/scoring/results/{sub.pk}/confirm/"
    first = api.post(url, HTTP_IDEMPOTENCY_KEY="confirm-1")
    again = api.post(url, HTTP_IDEMPOTENCY_KEY="confirm-1")
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert Confirmation.objects.filter(submission=sub).count() == 1


def test_a_key_used_on_another_path_or_badly_formed_is_a_400(setup: dict[str, Any]) -> None:
    table = setup["table"]
    sub = f.enter(table, setup["ref2"], "board", f.board_data(setup["objectives"], winner=1), "objective")
    api = _api(setup["ref1"])
    assert api.post(f"/api/scoring/results/{sub.pk}/confirm/", HTTP_IDEMPOTENCY_KEY="k").status_code == 201
    reused = api.post(f"/api/scoring/tables/{table.pk}/results/", {"kind": "board", "version": 1},
                      format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert reused.status_code == 400 and reused.json()["rule"] == "IDEMPOTENCY"
    bad = api.post(f"/api/scoring/results/{sub.pk}/confirm/", HTTP_IDEMPOTENCY_KEY="with space")
    assert bad.status_code == 400 and "Idempotency-Key" in bad.json()


def test_the_result_form_sent_twice_saves_once_and_shows_the_saved_result(client: Any, setup: dict[str, Any]) -> None:
    t, table = setup["t"], setup["table"]
    url = f"/t/{t.slug}/results/table/{table.pk}/enter/"
    client.force_login(setup["ref1"])
    page = client.get(url).content.decode()
    key = page.split('name="idempotency_key" value="', 1)[1].split('"', 1)[0]
    assert len(key) >= 32
    post = {**_board_post(setup, f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])),
            "idempotency_key": key}
    first = client.post(url, post)
    again = client.post(url, post)  # the answer was lost: the browser sends the form again
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"] == f"/t/{t.slug}/results/table/{table.pk}/"
    assert ResultSubmission.objects.filter(table=table).count() == 1


def test_the_confirm_button_pressed_again_confirms_once_and_says_so(client: Any, setup: dict[str, Any]) -> None:
    t, table = setup["t"], setup["table"]
    sub = f.enter(table, setup["ref1"], "board", f.board_data(setup["objectives"], winner=1), "objective")
    client.force_login(setup["ref2"])
    page = client.get(f"/t/{t.slug}/results/table/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    key = page.split('name="idempotency_key" value="', 1)[1].split('"', 1)[0]
    url = f"/t/{t.slug}/results/{sub.pk}/confirm/"
    client.post(url, {"idempotency_key": key})
    again = client.post(url, {"idempotency_key": key}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert Confirmation.objects.filter(submission=sub).count() == 1
    shown = again.content.decode()
    assert "Result confirmed." in shown and "already confirmed" not in shown
