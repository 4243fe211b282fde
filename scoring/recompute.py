"""The write side of the standings: what drops them, queues their recomputation and stores them.

A result change calls :func:`invalidate` (through ``scoring.services``, ``scoring.for_tables``,
``scoring.for_tournaments``, ``publishing`` and ``workbook``). Without a worker (tasks run
in-process) the cached standings are dropped and the next reader computes them; with one, a task
(``scoring.tasks.recompute_standings``) runs :func:`recompute`, which computes them incrementally
and stores them (``scoring.stored``). ``scoring.selectors`` only reads them: when a reader finds
them old or broken it says so through its hooks (``stale_standings``, ``lost_heads``), which
``scoring/apps.py`` points at :func:`refresh` and :func:`lost` here.
"""

from __future__ import annotations

import secrets
import time
import uuid
from bisect import bisect_left, insort
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Exists, OuterRef

from tables.models import Game
from tournaments.formats import EventFormat
from tournaments.models import Player, Registration, Tournament, display_name

from . import selectors, stored
from . import standings as st
from .models import Confirmation, ResultSubmission


def invalidate(tournament_id: int) -> None:
    """The standings changed. Without a worker (tasks run in-process) the cached ones are dropped
    and the next reader computes them. With a worker, once the write commits, a task
    (``scoring.tasks.recompute_standings``) computes them under a new generation number and
    stores them; readers keep getting the previous ones until then (a few hundred ms at 5,000
    players), never a computation of their own."""
    if selectors.tasks_in_process():
        _drop(tournament_id)
        # and again at commit: a reader between the two may have cached the state before the write
        transaction.on_commit(lambda: _drop(tournament_id))
        return
    # once per write: one recomputation; robust: a broker away fails the queuing (logged, and the
    # watchdog queues it again), never the write that committed
    transaction.on_commit(lambda: schedule(tournament_id), robust=True)


def _drop(tournament_id: int) -> None:
    cache.delete(stored.standings_key(tournament_id))
    stored.drop(tournament_id)


def schedule(tournament_id: int) -> None:
    """Queue one recomputation (a write while one is queued joins it)."""
    from celery import current_app as app

    generation = next_generation(tournament_id)
    if cache.add(stored.queued_key(tournament_id), generation, 60):
        # the task by its name: scoring/tasks.py calls this module, which never imports it back
        app.tasks["scoring.tasks.recompute_standings"].delay(tournament_id)


def refresh(tournament_id: int) -> None:
    """A reader served standings older than ``selectors.CACHE_TTL`` (names and clubs may have
    changed meanwhile), or computed its own with a worker about: the worker stores them anew."""
    schedule(tournament_id)


def lost(tournament_id: int) -> None:
    """A stored head names a row that is gone (evicted): readers read the standings whole until
    the worker has stored them again."""
    stored.drop(tournament_id)
    if not selectors.tasks_in_process():
        schedule(tournament_id)


def next_generation(tournament_id: int) -> int:
    key = stored.generation_key(tournament_id)
    try:
        return int(cache.incr(key))
    except ValueError:
        cache.add(key, 1, None)
        return int(cache.incr(key))


def recompute(tournament_id: int) -> bool:
    """The task's work: compute the standings and store them unless a later generation is
    already stored (``scoring.stored``: the head and the rows that changed); then the
    tournament's public pages get a new validator (common/live.py)."""
    began = time.time()
    cache.delete(stored.queued_key(tournament_id))  # a write from now on queues another run
    generation = int(cache.get(stored.generation_key(tournament_id)) or 0)
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return False
    stored_now = _store(tournament, generation)
    # only once the standings are stored (a run killed before this is redone by the watchdog)
    cache.set(stored.checked_key(tournament_id), {"at": began, "generation": generation}, None)
    return stored_now


def _store(tournament: Tournament, generation: int) -> bool:
    from common import live

    tournament_id = tournament.pk
    step = _incremental(tournament)
    if step is None:  # an imported event: its workbook's standings, whole
        data = {**selectors.full_standings(tournament), "generation": generation}
        stored.drop(tournament_id)
        cache.set(stored.standings_key(tournament_id), data, None)
        live.bump(tournament.slug)
        return True
    kept = _KEPT[tournament_id]
    head = cache.get(stored.head_key(tournament_id))
    if head is not None and kept["unchanged"] and head.get("stamp") == step["meta"]["stamp"]:
        return False  # what is stored is still right: no new validator, no page rendered again
    if head is not None and head.get("generation", 0) > generation:
        return False
    if head is None:  # nothing stored (a new worker, an emptied cache): every row
        kept["unwritten"] = {(p, token): row for p, (token, row) in kept["rows"].items()}
        kept["texts_unwritten"] = True
    texts = (kept["names_token"], kept["texts"]) if kept.get("texts_unwritten") else None
    stored.write(tournament_id, stored.make_head(
        {**step["meta"], "generation": generation}, step["order"],
        [kept["rows"][p][0] for p in step["order"]], step["ranks"], step["shared"], step["ties"],
        step["pending"], kept["names_token"]), kept["unwritten"], texts)
    cache.delete(stored.standings_key(tournament_id))  # a reader's own computation, older than this
    kept["unwritten"], kept["texts_unwritten"] = {}, False
    # entries the previous head named: a reader may still hold it for a moment, so they go one
    # computation later
    stored.forget(tournament_id, kept.get("forget", []), kept.get("forget_names", []))
    kept["forget"], kept["replaced"] = kept["replaced"], []
    kept["forget_names"], kept["replaced_names"] = kept.get("replaced_names", []), []
    live.bump(tournament.slug)
    return True


# The worker's standings, kept between computations: tournament id → what the last one used.
_KEPT: dict[int, dict[str, Any]] = {}


def compute_incremental(tournament: Tournament) -> dict[str, Any]:
    """The same standings as ``selectors.full_standings``, from the worker's incremental step
    (:func:`_incremental`), every row assembled."""
    step = _incremental(tournament)
    if step is None:
        return selectors.full_standings(tournament)
    kept = _KEPT[tournament.pk]
    rows = []
    for i, p in enumerate(step["order"]):
        rows.append({**kept["rows"][p][1], "rank": step["ranks"][i], "shared": step["shared"][i],
                     "tiebreak": step["ties"][i], "pending_corrections": step["pending"].get(p, [])})
    return {**step["meta"], "rows": rows}


@dataclass(frozen=True)
class _Format:
    """What the standings are computed by: a change of any of it starts the kept ones afresh."""

    event: EventFormat
    method: str
    best_n: int
    chain: list[str]  # the tie-breaks chosen
    full: tuple[str, ...]  # the chain the engine applies (finals first, when there are)
    finals: frozenset[int]
    rehearsals: list[int]
    signature: tuple[Any, ...]


def _format_of(tournament: Tournament) -> _Format:
    event = tournament.event_format()
    full, finals_set = st.full_chain(event.chain, event.final_games)
    rehearsals = list(Game.objects.filter(tournament=tournament, rehearsal=True).order_by("number")
                      .values_list("number", flat=True))
    signature = (event.method, event.best_n, full, tuple(sorted(finals_set)), event.publish_unconfirmed,
                 event.games_count, event.preset, tuple(rehearsals))
    return _Format(event, event.method, event.best_n, list(event.chain), full, finals_set, rehearsals, signature)


def _kept_for(tournament_id: int, signature: tuple[Any, ...]) -> dict[str, Any]:
    """What the previous computation kept, or a fresh start when the format changed."""
    kept = _KEPT.get(tournament_id)
    if kept is None or kept["signature"] != signature:
        old = kept
        kept = {"signature": signature, "tables": {}, "by_player": defaultdict(dict), "entries": {}, "rows": {},
                "order": [], "order_key": {}, "unwritten": {}, "replaced": []}
        if old is not None:  # what the previous settings stored goes once the new head is written
            kept["replaced"] = [(p, token) for p, (token, _row) in old["rows"].items()] + old["replaced"]
        _KEPT[tournament_id] = kept
    return kept


def _counting_ids(tournament: Tournament, unconfirmed: bool) -> tuple[dict[int, int], dict[int, bool]]:
    """{table: id of the result that counts} (ids only), and {table with a confirmed result:
    whether a newer one is unconfirmed}."""
    counting: dict[int, int] = {}
    corrected: dict[int, bool] = {}
    for sub_id, table_id, ok in (ResultSubmission.objects.filter(tournament=tournament, table__game__rehearsal=False)
                                 .annotate(ok=Exists(Confirmation.objects.filter(submission=OuterRef("pk"))))
                                 .order_by("table_id", "number").values_list("id", "table_id", "ok")):
        if unconfirmed or ok:
            counting[table_id] = sub_id
        if ok:
            corrected[table_id] = False
        elif table_id in corrected:
            corrected[table_id] = True
    return counting, corrected


def _reread_changed_tables(kept: dict[str, Any], counting: dict[int, int]) -> tuple[set[int], set[int]]:
    """Read the scores again of the tables whose counting result changed: (those tables, the
    players whose games they touch)."""
    tables, by_player = kept["tables"], kept["by_player"]
    changed = {t for t in set(counting) | set(tables) if counting.get(t) != tables.get(t, (None,))[0]}
    dirty: set[int] = set()
    for table_id in changed:
        for r in tables.pop(table_id, (None, []))[1]:
            if by_player[r.player].get(r.game) is r:
                del by_player[r.player][r.game]
            dirty.add(r.player)
    fresh = (ResultSubmission.objects.filter(pk__in=[counting[t] for t in changed if t in counting])
             .values_list("id", "table_id", "scores", "table__number", "table__game__number"))
    for sub_id, table_id, scores, table_no, game_no in sorted(fresh, key=lambda f: (f[4], f[3])):
        results = selectors.results_of([(game_no, table_no, scores)])
        tables[table_id] = (sub_id, results)
        for r in results:
            by_player[r.player][r.game] = r
            dirty.add(r.player)
    return changed, dirty


def _pending_corrections(kept: dict[str, Any], corrected: dict[int, bool]) -> dict[int, list[int]]:
    """{player: [games]} whose confirmed result has a correction pending."""
    pending: dict[int, set[int]] = defaultdict(set)
    for table_id, waiting in corrected.items():
        for r in kept["tables"].get(table_id, (None, []))[1] if waiting else ():
            pending[r.player].add(r.game)
    return {p: sorted(games) for p, games in pending.items()}


def _incremental(tournament: Tournament) -> dict[str, Any] | None:
    """The standings' order, reusing the previous computation in this process: a result's scores
    are read again only for tables whose counting result changed, only the players of those tables
    are scored again (``standings.player_entry``) and moved in the kept order (a binary search
    each); then one pass gives the ranks and tie-breaks: n log n at worst. Returns the order (ids,
    ranks, shared marks, tie-breaks, pending corrections) and the meta data; each player's row is
    in ``_KEPT[id]["rows"]`` under a token that changes with the row (``scoring.stored``). Different
    settings start afresh; None for an event imported from the clubs' workbook (its standings are
    the workbook's, as written: ``selectors.full_standings``)."""
    from .models import WorkbookEvent

    if WorkbookEvent.objects.filter(tournament=tournament, imported_at__isnull=False).exists():
        _KEPT.pop(tournament.pk, None)
        return None
    fmt = _format_of(tournament)
    kept = _kept_for(tournament.pk, fmt.signature)
    counting, corrected = _counting_ids(tournament, fmt.event.publish_unconfirmed)
    changed, dirty = _reread_changed_tables(kept, counting)
    registered = set(Registration.objects.active().filter(tournament=tournament).values_list("player_id", flat=True))
    listed = set(Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    player_ids = registered | {p for p, games in kept["by_player"].items() if games}
    names, clubs = _names(tournament, kept, listed | player_ids)
    corrections = _pending_corrections(kept, corrected)
    same = (not changed and kept.get("player_ids") == player_ids and kept.get("names") == names
            and kept.get("clubs") == clubs and kept.get("corrections") == corrections and "step" in kept)
    kept["unchanged"] = same
    if same:  # e.g. a result entered but not yet confirmed: nothing a viewer sees has changed
        return kept["step"]  # type: ignore[no-any-return]
    old_names, old_clubs = kept.get("names", {}), kept.get("clubs", {})
    kept["player_ids"], kept["names"], kept["clubs"], kept["corrections"] = player_ids, names, clubs, corrections
    renamed = {p for p in player_ids if old_names.get(p) != names.get(p) or old_clubs.get(p) != clubs.get(p)}
    moved = _rescore(kept, fmt, player_ids, dirty, renamed)
    if old_names != names or old_clubs != clubs or "names_token" not in kept:
        _renew_search_texts(kept, player_ids)
    kept["step"] = {**_ranks_and_tiebreaks(kept, fmt, moved), "meta": _meta(fmt, corrections),
                    "pending": corrections}
    return kept["step"]  # type: ignore[no-any-return]


def _rescore(kept: dict[str, Any], fmt: _Format, player_ids: set[int], dirty: set[int],
             renamed: set[int]) -> set[int]:
    """Drop the players who left, score again those whose games changed (and new ones), and move
    them and the renamed (a name orders rows that share a place) in the kept order, each row under
    a new token. Returns the players moved."""
    entries, shown, order, order_key = kept["entries"], kept["rows"], kept["order"], kept["order_key"]
    names, clubs, by_player = kept["names"], kept["clubs"], kept["by_player"]
    moved: set[int] = set()
    for p in set(entries) - player_ids:
        entries.pop(p)
        del order[bisect_left(order, order_key.pop(p))]
        kept["replaced"].append((p, shown.pop(p)[0]))
    for p in player_ids:
        if p in dirty or p not in entries:
            entries[p] = st.player_entry(p, by_player.get(p, {}).values(), method=fmt.method, best_n=fmt.best_n,
                                         chain=fmt.full, finals=fmt.finals)
            moved.add(p)
        elif p in renamed:
            moved.add(p)
    for p in moved:
        row, values = entries[p]
        key = (st.order_key(row, values, fmt.method), names.get(p, ""), p)
        if p in order_key:
            del order[bisect_left(order, order_key[p])]
        insort(order, key)
        order_key[p] = key
        if p in shown:
            kept["replaced"].append((p, shown[p][0]))
        token = secrets.randbits(62)
        shown[p] = (token, {**{k: v for k, v in row.as_dict().items() if k not in stored.PER_POSITION},
                            "name": names.get(p, "?"), "club": clubs.get(p, "")})
        kept["unwritten"][(p, token)] = shown[p][1]
    return moved


def _renew_search_texts(kept: dict[str, Any], player_ids: set[int]) -> None:
    """A name or a club changed: the names' entry (find me by name or club) is written anew."""
    names, clubs = kept["names"], kept["clubs"]
    if "names_token" in kept:
        kept["replaced_names"] = [*kept.get("replaced_names", []), kept["names_token"]]
    kept["names_token"] = secrets.randbits(62)
    kept["texts"] = {p: stored.search_text(names.get(p, "?"), clubs.get(p, "")) for p in player_ids}
    kept["texts_unwritten"] = True


def _ranks_and_tiebreaks(kept: dict[str, Any], fmt: _Format, moved: set[int]) -> dict[str, Any]:
    """One pass over the kept order: the ids, ranks, shared marks and tie-breaks."""
    entries, order = kept["entries"], kept["order"]
    ids = [k[2] for k in order]
    ranks, shared_marks = st.places([k[0] for k in order])
    if fmt.method == "knockout":
        ties: list[str | None] = [None] * len(ids)
    else:  # how each row relates to the next: only those next to a moved row are compared again
        known = kept.get("relations", {})
        relations: dict[tuple[int, int], Any] = {}
        for a, b in zip(ids, ids[1:], strict=False):
            found = known.get((a, b), moved) if a not in moved and b not in moved else moved
            relations[a, b] = st.relation(entries[a][1], entries[b][1]) if found is moved else found
        kept["relations"] = relations
        ties = st.tiebreaks_of(list(relations.values()), fmt.full) if ids else []
    return {"order": ids, "ranks": ranks, "shared": shared_marks, "ties": ties}


def _meta(fmt: _Format, corrections: dict[int, list[int]]) -> dict[str, Any]:
    """The standings' data beside their rows (a new stamp: pages render them again)."""
    return {"method": fmt.method, "preset": fmt.event.preset, "chain": fmt.chain,
            "best_n": fmt.best_n, "publish_unconfirmed": fmt.event.publish_unconfirmed,
            "games": [g for g in range(1, fmt.event.games_count + 1) if g not in fmt.rehearsals],
            "rehearsal_games": fmt.rehearsals,
            "pending_correction_games": sorted({g for gs in corrections.values() for g in gs}),
            "stamp": uuid.uuid4().hex, "computed_at": time.time()}


def _names(tournament: Tournament, kept: dict[str, Any], players: set[int]) -> tuple[dict[int, str], dict[int, str]]:
    """{player: public name}, {player: club} of these players (the tournament's registrations and
    anyone who played): read again only when the site's version changed (a player or a club was
    saved: common/live.py) or for players not known yet."""
    from common import live

    site = cache.get(live.SITE_KEY) if live.enabled() else None  # read before the names
    names, clubs = dict(kept.get("names", {})), dict(kept.get("clubs", {}))
    fields = ("pk", "first_name", "last_name", "nickname", "club__name")
    if site is None or site != kept.get("site"):
        found = list(Registration.objects.filter(tournament=tournament).values_list(*(f"player__{f}" for f in fields)))
        todo = players - {row[0] for row in found}  # played without a registration (rare)
    else:
        found, todo = [], players - set(names)
    if todo:
        found += Player.objects.filter(pk__in=todo).values_list(*fields)
    for pk, first, last, nickname, club in found:
        names[pk] = display_name(first, last, nickname)
        clubs[pk] = club or ""
    kept["site"] = site
    return ({p: names[p] for p in players if p in names}, {p: clubs[p] for p in players if p in clubs})
