"""E-SDADATA / E-TIME: a result ended by sdadata is refused while the table's clock still runs."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation

from common.errors import DomainError
from scoring.models import ResultSubmission
from tests.factories import scoring as f

pytestmark = pytest.mark.django_db

SHORT = f.short_data([(50, 20, 40, None, False), (60, 4, 30, None, False),
                      (20, 5, 20, None, False), (5, 0, 10, None, False)])


def _submit(table, user, kind, data, ended_by):
    """Straight to the service (the factory's ``enter`` expires the clock first)."""
    from scoring import services
    from scoring.selectors import table_state

    return services.submit_result(actor=user, table=table, kind=kind, data=data,
                                  ended_by=ended_by, expected_version=table_state(table).version)


def _clock(table, *, left: dt.timedelta) -> None:
    now = timezone.now()
    table.clock_started_at = now - dt.timedelta(hours=2)
    table.deadline = now + left
    table.save(update_fields=["clock_started_at", "deadline"])


def test_sdadata_before_the_clock_expires_is_refused_citing_the_rule(setup) -> None:
    table = setup["table"]
    _clock(table, left=dt.timedelta(minutes=25))
    with pytest.raises(DomainError) as refused, translation.override("en"):
        _submit(table, setup["ref1"], "short", SHORT, "sdadata")
    assert refused.value.rule == "E-SDADATA" and refused.value.field == "ended_by"
    assert "E-TIME" in refused.value.message and "24 minutes" in refused.value.message
    assert not ResultSubmission.objects.filter(table=table).exists()


def test_the_page_refuses_it_too_and_keeps_the_form(setup, client) -> None:
    table = setup["table"]
    _clock(table, left=dt.timedelta(minutes=10))
    client.force_login(setup["ref1"])
    post = {"kind": "short", "version": 0, "ended_by": "sdadata"}
    for row in SHORT["players"]:
        for key in ("objective_points", "extra_points", "armies"):
            post[f"{key}_{row['seat']}"] = row[key]
    r = client.post(f"/t/{setup['t'].slug}/results/table/{table.pk}/enter/", post,
                    HTTP_ACCEPT_LANGUAGE="en")
    assert r.status_code == 400
    assert "E-SDADATA" in r.content.decode()
    assert not ResultSubmission.objects.filter(table=table).exists()


def test_a_recorded_game_carries_its_own_expiry(setup) -> None:
    from engine.simulate import simulate

    table = setup["table"]
    _clock(table, left=dt.timedelta(minutes=25))
    record = simulate(4, "own-expiry")
    sub = _submit(table, setup["ref1"], "record", {"record": record}, "")
    assert sub.kind == "record" and sub.ended_by == "sdadata"


def test_sdadata_after_expiry_or_without_an_app_clock_is_accepted(setup) -> None:
    table = setup["table"]
    sub = _submit(table, setup["ref1"], "short", SHORT, "sdadata")  # no clock here: referee's word
    assert sub.ended_by == "sdadata"
    _clock(table, left=-dt.timedelta(minutes=1))
    assert _submit(table, setup["ref1"], "short", SHORT, "sdadata").number == 2


def test_a_paused_clock_has_not_expired(setup) -> None:
    table = setup["table"]
    _clock(table, left=-dt.timedelta(minutes=5))
    table.paused_at = table.deadline - dt.timedelta(minutes=3)
    table.save(update_fields=["paused_at"])
    with pytest.raises(DomainError):
        _submit(table, setup["ref1"], "short", SHORT, "sdadata")
    # another ending is not concerned
    with pytest.raises(DomainError) as other:
        _submit(table, setup["ref1"], "short", SHORT, "objective")
    assert other.value.rule != "E-SDADATA"
