"""Format presets (tournaments/formats/presets.py): an organizer picks one, sees its numbers, changes what the
format allows, and results are scored by the preset's system through the engine."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from common.errors import DomainError, PermissionDeniedError
from engine import exact
from engine.scoring import SCORING_SYSTEMS
from scoring import selectors, services
from scoring.standings import METRICS
from tables.seating import PRIORITIES
from tests.factories import scoring as f
from tournaments import formats, labels
from tournaments.models import AuditEntry

# P 50/30/20/10 (+ extra 10/20/14/10 = 164), nobody made RisiKo!
SHORT = f.short_data([(50, 10, 20, None, False), (30, 20, 20, None, False),
                      (20, 14, 20, None, False), (10, 10, 20, None, False)])


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    ps = f.players(t, 4)
    return {"t": t, "org": org, "ref": ref, "players": ps}


def test_every_preset_is_consistent_data() -> None:
    assert set(formats.PRESETS) == {"rtu-one-day", "open", "raduno", "master", "campionato", "cni", "gufo", "bgl",
                                    "bgl-swiss", "1vs1", "1vs1-swiss", "2vs2", "victory", "santeufemia", "cns", "squadre"}
    for p in formats.PRESETS.values():
        assert p.scoring_system in SCORING_SYSTEMS
        assert all(m in METRICS for m in p.chain)
        for r in p.rounds.values():
            assert set(r.priorities) <= set(PRIORITIES) and r.seeding in ("random", "swiss", "greca")
        exact.dumps(p.as_dict())
    cni = formats.PRESETS["cni"]
    assert cni.games_count == 3 and cni.tables_for(2).seeding == "greca" and cni.tables_for(3).seeding == "random"
    assert formats.PRESETS["raduno"].as_dict()["knockout_thresholds"] == [36, 76, 116, 156, 196]
    assert formats.PRESETS["master"].as_dict()["knockout_thresholds"] == [49, 99, 149, 199]
    assert formats.PRESETS["campionato"].best_n == 50
    assert formats.PRESETS["master"].as_dict()["scoring_numbers"]["cap"] == 100


def test_master_preset_scores_results_with_the_master_formula(event: dict[str, Any]) -> None:
    t, org, ref = event["t"], event["org"], event["ref"]
    services.apply_preset(actor=org, tournament=t, preset_id="master")
    t.refresh_from_db()
    assert (t.scoring_system, t.games_count) == ("S-MASTER", 4)
    table = f.make_table(t, 1, event["players"])
    sub = f.enter(table, ref, "short", SHORT, confirm_by=org)
    assert sorted(r["tournament_points"] for r in sub.scores) == [Decimal(x) for x in ("0.01", "0.02", "0.03", "1.05")]
    data = selectors.standings(t)
    assert data["preset"] == "master" and data["chain"][:2] == ["total", "best_game"]
    assert [r["total"] for r in data["rows"]] == [Decimal(x) for x in ("1.05", "0.03", "0.02", "0.01")]
    assert AuditEntry.objects.filter(action="scoring.preset").count() == 1


def test_organizer_changes_what_the_format_allows(event: dict[str, Any]) -> None:
    t, org, ref = event["t"], event["org"], event["ref"]
    services.apply_preset(actor=org, tournament=t, preset_id="open", changes={"win_bonus": 40, "games_count": 5})
    t.refresh_from_db()
    assert t.games_count == 5 and t.format == "italiana"
    table = f.make_table(t, 1, event["players"])
    sub = f.enter(table, ref, "short", SHORT)
    assert sorted(r["tournament_points"] for r in sub.scores) == [10, 20, 30, 90]  # 50 + 40

    with pytest.raises(DomainError) as err:
        services.apply_preset(actor=org, tournament=t, preset_id="raduno", changes={"games_count": 6})
    assert err.value.field == "games_count"
    with pytest.raises(DomainError) as err:
        services.apply_preset(actor=org, tournament=t, preset_id="open", changes={"chain": ["total", "luck"]})
    assert err.value.field == "chain"
    with pytest.raises(DomainError) as err:
        services.apply_preset(actor=org, tournament=t, preset_id="open", changes={"win_bonus": -5})
    assert err.value.field == "win_bonus"
    with pytest.raises(DomainError):
        services.apply_preset(actor=org, tournament=t, preset_id="nope")
    with pytest.raises(PermissionDeniedError):
        services.apply_preset(actor=ref, tournament=t, preset_id="open")
    t.refresh_from_db()
    assert t.games_count == 5  # refused changes left the tournament as it was


def test_campionato_counts_the_best_n_and_spartac_scores(event: dict[str, Any]) -> None:
    t, org, ref = event["t"], event["org"], event["ref"]
    services.apply_preset(actor=org, tournament=t, preset_id="campionato", changes={"best_n": 1, "games_count": 2})
    for game in (1, 2):
        table = f.make_table(t, game, event["players"])
        f.enter(table, ref, "short", SHORT, confirm_by=org)
    rows = selectors.standings(t)["rows"]
    assert [r["total"] for r in rows] == [150, 80, 70, 60]  # one game counts: 100 + 50, 100 − 20…
    assert all(sum(c["counted"] for c in r["games"]) == 1 for r in rows)


def test_format_page_and_api(event: dict[str, Any], client: Any) -> None:
    t, org, ref = event["t"], event["org"], event["ref"]
    url = f"/t/{t.slug}/results/format/"
    client.force_login(ref)
    assert client.get(url).status_code == 403
    client.force_login(org)
    page = client.get(url)
    assert page.status_code == 200 and b"S-MASTER" in page.content and b"36 / 76 / 116 / 156 / 196" in page.content
    bad = client.post(url, {"preset": "open", "win_bonus": "-3"})
    assert bad.status_code == 400 and b'value="-3"' in bad.content  # what was typed is kept
    ok = client.post(url, {"preset": "open", "win_bonus": "40", "games_count": "4"})
    assert ok.status_code == 302
    t.refresh_from_db()
    assert (t.scoring_system, t.games_count) == ("S-OPEN", 4)

    api = f"/api/scoring/tournaments/{t.slug}/format/"
    data = client.get(api).json()
    assert data["current"] == "open" and data["current_numbers"]["scoring_numbers"]["win_bonus"] == 40
    refused = client.post(api, {"preset": "master", "changes": {"best_n": 2}}, content_type="application/json")
    assert refused.status_code == 400 and "best_n" in refused.content.decode()
    done = client.post(api, {"preset": "master"}, content_type="application/json")
    assert done.status_code == 200 and done.json()["current"] == "master"
    client.force_login(ref)
    assert client.post(api, {"preset": "open"}, content_type="application/json").status_code == 403


def test_standings_page_explains_the_tie_break(event: dict[str, Any], client: Any) -> None:
    t, org, ref = event["t"], event["org"], event["ref"]
    services.apply_preset(actor=org, tournament=t, preset_id="open", changes={"games_count": 2})
    a, b, c, d = event["players"]
    game1 = f.short_data([(50, 10, 20, None, False), (40, 10, 20, None, False),
                          (20, 14, 20, None, False), (10, 10, 20, None, False)])
    game2 = f.short_data([(40, 10, 20, None, False), (30, 20, 20, None, False),
                          (20, 14, 20, None, False), (10, 20, 20, None, False)])
    f.enter(f.make_table(t, 1, [a, b, c, d]), ref, "short", game1, confirm_by=org)  # a 100, b 40
    f.enter(f.make_table(t, 2, [b, a, c, d]), ref, "short", game2, confirm_by=org)  # b 90, a 30
    rows = selectors.standings(t)["rows"]
    assert [(r["player"], r["total"], r["wins"]) for r in rows[:2]] == [(a.pk, 130, 1), (b.pk, 130, 1)]
    assert rows[0]["tiebreak"] == rows[1]["tiebreak"] == "best_game"  # total, wins level: best game 100 > 90
    page = client.get(f"/t/{t.slug}/standings/")
    assert labels.metric(rows[0]["tiebreak"]).encode() in page.content
