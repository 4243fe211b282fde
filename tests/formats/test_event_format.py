"""A tournament's format is one frozen value read through one accessor,
``tournament.event_format()`` (tournaments/formats/event.py), with one owner per field."""

from __future__ import annotations

import ast
import dataclasses
import datetime as dt
import pickle
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps

from scoring import selectors, services
from tables import hooks
from tables import services as table_services
from tests.factories import scoring as f
from tests.migrating import migrate_to, migrate_to_latest
from tournaments import formats
from tournaments.models import ScoringSettings, Tournament

ROOT = Path(__file__).resolve().parents[2]


def test_a_preset_gives_every_number_of_the_format(db: Any) -> None:
    t = f.ScoringTournamentFactory()
    org = f.role(t, "organizer")
    services.apply_preset(actor=org, tournament=t, preset_id="raduno")
    fmt = t.event_format()
    raduno = formats.PRESETS["raduno"]
    assert (fmt.preset, fmt.scoring_system, fmt.method, fmt.games_count) == ("raduno", "S-RADUNO", "italiana", 4)
    assert fmt.chain == raduno.chain and fmt.knockout == "raduno"
    # Raduno: four games, the last is the final (K-KO-RCU) and ranks finalists first
    assert fmt.final_games == frozenset({4})
    assert fmt.tables_for(2).seeding == "greca" and fmt.tables_for(9) == raduno.rounds[3]
    assert (fmt.event_type, fmt.event_type_source) == ("RDN", "preset")
    assert fmt.rules().closure != "none" and fmt.time_limit() == dt.timedelta(minutes=90)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fmt.best_n = 3  # type: ignore[misc]


def test_an_organizers_change_is_what_everyone_reads(db: Any) -> None:
    t = f.ScoringTournamentFactory()
    org = f.role(t, "organizer")
    services.apply_preset(actor=org, tournament=t, preset_id="rtu-one-day",
                          changes={"best_n": 1, "chain": ["total", "armies"]})
    fresh = Tournament.objects.get(pk=t.pk)  # as the next request reads it
    for fmt in (t.event_format(), fresh.event_format()):
        assert (fmt.best_n, fmt.chain, fmt.method) == (1, ("total", "armies"), "rtu")
    # the standings, the format API and the tables read the same value
    assert (selectors.standings(fresh)["best_n"], selectors.standings(fresh)["chain"]) == (1, ["total", "armies"])
    assert table_services.preset_options(fresh, 2)["priorities"] == list(formats.DEFAULT_ROUNDS[2].priorities)


def test_no_preset_reads_the_defaults_written_once(db: Any) -> None:
    t = f.ScoringTournamentFactory(event_type="")
    fmt = t.event_format()
    assert (fmt.preset, fmt.best_n, fmt.chain) == ("", 2, formats.DEFAULT_CHAIN)
    assert fmt.tables_for(1) == formats.DEFAULT_ROUNDS[1] and fmt.tables_for(5) == formats.DEFAULT_ROUNDS[2]
    assert (fmt.event_type, fmt.event_type_source) == ("AMC", "default")  # a friendly: not ranked
    assert table_services.default_priorities(1) == formats.DEFAULT_ROUNDS[1].priorities
    # a stored chain of metrics the standings do not know falls back to K-BEST2's, once
    ScoringSettings.store(t, tiebreaks=["no-such-metric"])
    assert t.event_format().chain == ("total", "extra", "armies")


def test_the_format_is_kept_on_the_instance_and_read_again_after_a_save(db: Any, django_assert_num_queries: Any) -> None:
    t = f.ScoringTournamentFactory(games_count=3)
    first = t.event_format()
    with django_assert_num_queries(0):
        assert t.event_format() is first  # kept: no query
    t.games_count = 5
    t.save()
    assert t.event_format().games_count == 5
    org = f.role(t, "organizer")
    services.update_settings(actor=org, tournament=t, publish_unconfirmed=True, best_n=3)
    assert (t.event_format().publish_unconfirmed, t.event_format().best_n) == (True, 3)
    ScoringSettings.objects.filter(tournament=t).update(best_n=4)  # no save: the instance is told
    t.refresh_from_db()
    assert t.event_format().best_n == 4
    copied = pickle.loads(pickle.dumps(t))  # a cached or copied tournament reads it again
    assert copied.event_format() == t.event_format()


def test_many_formats_take_one_query(db: Any, django_assert_num_queries: Any) -> None:
    ts = [f.ScoringTournamentFactory() for _ in range(4)]
    ScoringSettings.store(ts[0], best_n=1)
    fresh = list(Tournament.objects.filter(pk__in=[t.pk for t in ts]).order_by("pk"))
    with django_assert_num_queries(1):
        fmts = formats.of_many(fresh)
        assert [fmts[t.pk].best_n for t in fresh] == [1, 2, 2, 2]


# ------------------------------------------------------------------ one owner per field
FORMAT_FIELDS = {"format", "method", "preset", "best_n", "tiebreaks", "club_changes", "ruleset", "ruleset_overrides",
                 "event_type", "scoring_system", "games_count", "chain", "knockout"}
# the same word on another model, meaning something else
OTHER_MEANINGS = {
    ("tournaments", "Season"): {"preset", "best_n", "tiebreaks"},  # a season's own standings, its evenings' preset
    ("scoring", "NationalRankingEvent"): {"event_type"},  # the type a year's ranking counted the event as
    ("clubstats", "RankingRule"): {"best_n"},  # a club's own ranking: its best N events, not games
    ("fees", "Payment"): {"method"},  # how an entry fee was paid (cash, card), not which games count
}


def test_each_field_of_the_format_has_one_owner() -> None:
    owners: dict[str, list[str]] = {}
    for model in apps.get_models():
        mine = {fd.name for fd in model._meta.get_fields() if fd.concrete} & FORMAT_FIELDS
        mine -= OTHER_MEANINGS.get((model._meta.app_label, model.__name__), set())
        for name in mine:
            owners.setdefault(name, []).append(f"{model.__module__}.{model.__name__}")
    assert {k: v for k, v in owners.items() if len(v) > 1} == {}, "a field of the format is stored twice"
    assert {m for v in owners.values() for m in v} == {"tournaments.models.Tournament",
                                                       "tournaments.models.ScoringSettings"}
    assert "method" not in owners  # which games count is Tournament.format


def _reads_of_the_settings_row(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"line {n.lineno}" for n in ast.walk(tree)
            if (isinstance(n, ast.Attribute) and n.attr == "scoring_settings")
            or (isinstance(n, ast.Name) and n.id in ("settings_for", "method_of"))]


WRITERS = {"scoring/services.py"}  # apply_preset / update_settings lock and write the row


@pytest.mark.parametrize("app", ["tables", "scoring", "clubs", "ranking", "workbook", "history", "seasons",
                                 "publishing", "ratings", "config"])
def test_no_app_reads_the_stored_format_past_the_accessor(app: str) -> None:
    bad = {p.relative_to(ROOT).as_posix(): found for p in sorted((ROOT / app).rglob("*.py"))
           if "migrations" not in p.parts and p.relative_to(ROOT).as_posix() not in WRITERS
           and (found := _reads_of_the_settings_row(p))}
    assert bad == {}


def test_tables_asks_no_app_above_it_for_the_format() -> None:
    assert not hasattr(hooks.Results, "preset")


# ------------------------------------------------------------------ the migration
BEFORE = [("scoring", "0005_scores_exact_decimals"), ("tournaments", "0016_idempotent_writes")]
AFTER = [("scoring", "0006_one_owner_of_the_method")]


@pytest.mark.django_db(transaction=True)
def test_the_settings_method_moves_onto_the_tournament_and_back() -> None:
    try:
        old = migrate_to(BEFORE)
        OldTournament = old.get_model("tournaments", "Tournament")
        OldSettings = old.get_model("scoring", "ScoringSettings")

        def made(slug: str, fmt: str, method: str | None) -> int:
            t = OldTournament.objects.create(name=slug, slug=slug, date=dt.date(2026, 1, 1), format=fmt)
            if method is not None:
                OldSettings.objects.create(tournament=t, method=method, best_n=2, preset="open")
            return int(t.pk)

        # the settings' method won when set: what the standings counted is what stays
        chose = made("italiana-chosen", "rtu", "italiana")
        empty = made("from-the-tournament", "knockout", "")
        none = made("no-settings", "italiana", None)
        same = made("same", "rtu", "rtu")

        new = migrate_to(AFTER)
        formats_now = dict(new.get_model("tournaments", "Tournament").objects.values_list("pk", "format"))
        assert formats_now == {chose: "italiana", empty: "knockout", none: "italiana", same: "rtu"}
        kept = new.get_model("scoring", "ScoringSettings").objects.get(tournament_id=chose)
        assert (kept.preset, kept.best_n) == ("open", 2)  # the rest of the row untouched

        back = migrate_to(BEFORE)
        methods = dict(back.get_model("scoring", "ScoringSettings").objects.values_list("tournament_id", "method"))
        assert methods == {chose: "", empty: "", same: ""}  # empty: "the tournament's", which now says it
    finally:
        migrate_to_latest()
