"""The round trip: import a club's "Iscritti" sheet, run a whole Raduno (two qualifiers, the
K-KO-RCU semifinals and final) with simulated games, export the ranking rows, and check the
contributions against the K-RANKING formula."""

from __future__ import annotations

import datetime as dt
import io
import math
import random
from typing import Any

from openpyxl import Workbook

from ranking import event
from ranking import formula as ranking_formula
from scoring import selectors, services
from tables.knockout import rcu_finalists, rcu_semifinals
from tests.factories import scoring as f
from tests.factories.tournaments import PlayerFactory
from tournaments import formats
from tournaments.iscritti import import_iscritti
from tournaments.models import Player

CLUBS = ["RCU Milano", "Eagles Palermo", "Lario Como", "Roma Tre", "Napoli Sud"]


def sheet(n: int) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Iscritti"
    ws.append(["SCHEDA DATI TORNEO"])
    ws.append([])
    ws.append(["ID", "Nome", "Cognome", "Nick", "Club", "Partecipa", "Regione", "Data di nascita", "e-mail"])
    for i in range(1, n + 1):
        ws.append([i, f"Nome{i:02d}", f"Giocatore{i:02d}", "", CLUBS[i % len(CLUBS)], "SI", "Lombardia",
                   dt.datetime(1980 + i % 20, 1 + i % 12, 1 + i % 27), f"p{i}@example.org"])
    ws.append([n + 1, "Assente", "Sempre", "", CLUBS[0], "NO", "Lazio", "01/02/1990", ""])
    ws.append([n + 2, "Mario", "Rosi", "", CLUBS[1], "SI", "Sicilia", "01/01/1990", ""])  # ≈ Mario Rossi
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def short(rng: random.Random, size: int) -> dict[str, Any]:
    objective = [rng.randint(5, 160 // size) for _ in range(size)]
    extra = [0] * size
    for _ in range(164 - sum(objective)):
        extra[rng.randrange(size)] += 1
    return f.short_data([(o, e, rng.randint(10, 60), None, False) for o, e in zip(objective, extra, strict=True)])


def play(t: Any, game: int, tables: list[list[Player]], ref: Any, org: Any, rng: random.Random) -> None:
    for number, seated in enumerate(tables, start=1):
        table = f.make_table(t, game, seated, number=number)
        f.enter(table, ref, "short", short(rng, len(seated)), confirm_by=org)


def test_iscritti_to_raduno_to_ranking_rows(db: Any) -> None:
    rng = random.Random(6)
    t = f.ScoringTournamentFactory(date=dt.date(2026, 5, 9))
    org, ref = f.role(t, "organizer"), f.role(t)
    PlayerFactory(bare=True, first_name="Mario", last_name="Rossi", birth_date=dt.date(1990, 1, 1))

    report = import_iscritti(t, sheet(39), "torneo.xlsx", actor=org)
    assert len(report.registered) == 40 and report.skipped == [43]
    assert [(row, p.last_name, [d.distance for d in ds]) for row, p, ds in report.duplicates] == [(44, "Rosi", [1])]
    assert Player.objects.filter(last_name="Rossi").count() == 1  # flagged, not merged

    services.apply_preset(actor=org, tournament=t, preset_id="raduno")
    everyone = [r.player for r in t.registrations.select_related("player").order_by("pk")]
    for game in (1, 2):  # qualifiers: 10 tables of 4
        rng.shuffle(everyone)
        play(t, game, [everyone[i:i + 4] for i in range(0, 40, 4)], ref, org, rng)

    rows = selectors.standings(t)["rows"]
    order = [r["player"] for r in rows]
    by_pk = {p.pk: p for p in everyone}
    phase = rcu_semifinals(order, "raduno", clubs={p.pk: p.club.name for p in everyone},
                           wins={r["player"]: r["wins"] for r in rows}, points={r["player"]: r["total"] for r in rows})
    assert (phase.semifinals, phase.plan.finals) == (4, 1)  # 40 > 36: 4 semis, 1 final
    assert sorted(p for table in phase.tables[0] for p in table) == sorted(order[:16])
    assert formats.PRESETS["raduno"].as_dict()["knockout_thresholds"][0] == 36
    semis = [[by_pk[p] for p in table] for table in phase.tables[0]]
    play(t, 3, semis, ref, org, rng)

    semi_results = []
    for state in selectors.table_states(t):
        if state.table.game.number == 3:
            scores = sorted(state.confirmed.scores, key=lambda r: r["place"])  # type: ignore[union-attr]
            semi_results.append([r["player"] for r in scores])
    finalists = rcu_finalists(semi_results, standings=order)
    assert len(finalists) == 4 and all(table[0] in finalists for table in semi_results)
    play(t, 4, [[by_pk[p] for p in finalists]], ref, org, rng)

    final = selectors.standings(t)["rows"]
    final_table = next(s for s in selectors.table_states(t) if s.table.game.number == 4).confirmed
    by_place = [r["player"] for r in sorted(final_table.scores, key=lambda r: r["place"])]  # type: ignore[union-attr]
    assert [r["player"] for r in final[:4]] == by_place  # finalists first, by their final
    assert not any(r["finalist"] for r in final[4:])

    ranking = event.event_ranking(t)
    assert (ranking["event_type"], ranking["table_games"], ranking["counts"]) == ("RDN", 25, True)  # 10+10+4+1
    for c in ranking["contributions"]:
        a = 1.2 if c["position"] == 1 else math.exp(-c["position"] / 20)
        assert c["vt"] == ranking_formula.contribution(c["position"], 25, "RDN", 4)  # one decimal, half down
        assert abs(float(c["vt"]) - a * (100 + 25) * 5) <= 0.05
    assert ranking["contributions"][0]["vt"] == 750
    assert len(ranking["events"]) == 1 and ranking["events"][0]["tavoli"] == 25
    assert len(ranking["games"]) == 25 and len(ranking["standings"]) == 40
    assert {r["idTorneo"] for r in ranking["games"]} == {ranking["events"][0]["idTorneo"]}

    client_rows = event.event_ranking(t)["standings"]
    assert [r["vt"] for r in client_rows] == [c["vt"] for c in ranking["contributions"]]
