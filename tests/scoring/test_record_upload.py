"""A referee uploads a recorded game instead of typing the board: the engine adjudicates it."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from engine.replay import adjudicate
from engine.simulate import simulate
from scoring.models import ResultSubmission

pytestmark = pytest.mark.django_db


def test_an_uploaded_record_is_adjudicated_and_scored_like_the_verdict(client, setup) -> None:
    t, table = setup["t"], setup["table"]
    record = simulate(4, "upload-test")
    verdict = adjudicate(record)
    client.force_login(setup["ref1"])
    upload = SimpleUploadedFile("game.json", json.dumps(record).encode(), content_type="application/json")
    resp = client.post(f"/t/{t.slug}/results/table/{table.pk}/enter/", {"kind": "record", "version": 0, "record": upload})
    assert resp.status_code == 302
    sub = ResultSubmission.objects.get()
    assert sub.kind == "record" and sub.ended_by == verdict["ended_by"]
    want = {s["seat"]: s["tournament_points"] for s in verdict["scores"]}
    assert {r["seat"]: r["tournament_points"] for r in sub.scores} == want
    assert {r["seat"]: r["player"] for r in sub.scores} == {i + 1: p.pk for i, p in enumerate(setup["players"])}


def test_a_record_with_a_violation_is_refused_with_the_event_and_rule(client, setup) -> None:
    record = simulate(4, "upload-test")
    bad = copy.deepcopy(record)
    i = next(k for k, e in enumerate(bad["events"]) if e["type"] == "attack")
    bad["events"][i]["attacker"] = [6] * 4  # more dice than allowed
    client.force_login(setup["ref1"])
    resp = client.post(f"/api/scoring/tables/{setup['table'].pk}/results/",
                       data=json.dumps({"kind": "record", "version": 0, "record": bad}),
                       content_type="application/json")
    assert resp.status_code == 400
    body = resp.json()
    assert body["rule"] and f"evento {i}: " in body["detail"]  # Italian, the default language
    assert not ResultSubmission.objects.exists()
