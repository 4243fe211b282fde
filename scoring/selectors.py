"""Careful reads of results and standings. A fixed number of queries per call, whatever the
number of players or tables (tests check this with ``django_assert_max_num_queries``)."""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Max, Prefetch, TextField
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext as _

from common.jsonexact import ExactJSONDecoder
from engine import decimal
from tables.models import Game, Seat, Table
from tournaments import formats, labels
from tournaments.models import AuditEntry, Player, Registration, Tournament, display_name

from . import hooks, stored
from . import standings as st
from .models import Confirmation, ResultSubmission

_SCORES_JSON = ExactJSONDecoder()

MISSING, TO_CONFIRM, CONFIRMED, DISPUTED = "missing", "to_confirm", "confirmed", "disputed"
CACHE_TTL = 300


def is_confirmed(sub: ResultSubmission) -> bool:
    return bool(sub.confirmations.all())


@dataclass
class TableState:
    table: Table
    submissions: list[ResultSubmission] = field(default_factory=list)  # oldest first

    @property
    def latest(self) -> ResultSubmission | None:
        return self.submissions[-1] if self.submissions else None

    @property
    def version(self) -> int:
        return self.latest.number if self.latest else 0

    @property
    def confirmed(self) -> ResultSubmission | None:
        """The latest confirmed submission: what counts (a pending correction does not yet)."""
        return next((s for s in reversed(self.submissions) if is_confirmed(s)), None)

    @property
    def pending(self) -> list[ResultSubmission]:
        """Submissions after the last confirmed one."""
        out: list[ResultSubmission] = []
        for s in reversed(self.submissions):
            if is_confirmed(s):
                break
            out.append(s)
        return out[::-1]

    @property
    def disputed_pair(self) -> tuple[ResultSubmission, ResultSubmission] | None:
        """Double entry that disagrees: the latest pending entry against the latest earlier pending
        entry by someone else with a different result (shown side by side)."""
        pending = self.pending
        if len(pending) < 2:
            return None
        last = pending[-1]
        for other in reversed(pending[:-1]):
            if other.entered_by_id != last.entered_by_id and not other.same_result(last):
                return other, last
        return None

    @property
    def status(self) -> str:
        if not self.submissions:
            return MISSING
        if is_confirmed(self.submissions[-1]):
            return CONFIRMED
        return DISPUTED if self.disputed_pair else TO_CONFIRM

    def counting(self, publish_unconfirmed: bool) -> ResultSubmission | None:
        return self.latest if publish_unconfirmed else self.confirmed

    @property
    def pending_correction(self) -> bool:
        """A confirmed result has a newer version nobody has confirmed yet: the confirmed one
        still counts until the correction is confirmed."""
        return self.status != CONFIRMED and self.confirmed is not None


def _submissions() -> Any:
    return ResultSubmission.objects.select_related("entered_by").prefetch_related(
        Prefetch("confirmations", queryset=Confirmation.objects.select_related("user", "player"))
    )


def table_states(tournament: Tournament, game: Game | None = None) -> list[TableState]:
    tables = Table.objects.filter(game__tournament=tournament).select_related("game")
    subs = _submissions().filter(tournament=tournament)
    if game is not None:
        tables = tables.filter(game=game)
        subs = subs.filter(table__game=game)
    states = {t.pk: TableState(t) for t in tables.order_by("game__number", "number")}
    for s in subs.order_by("table_id", "number"):
        if s.table_id in states:
            states[s.table_id].submissions.append(s)
    return list(states.values())


def table_state(table: Table) -> TableState:
    return TableState(table, list(_submissions().filter(table=table).order_by("number")))


def seats_of(table: Table) -> list[Seat]:
    return list(table.seats.select_related("player").order_by("number"))


# ------------------------------------------------------------------ standings
def tasks_in_process() -> bool:
    """No worker: Celery runs tasks in the caller's process (the embedded default)."""
    from celery import current_app as app

    return bool(app.conf.task_always_eager)


# What a reader found, told to the write side (``scoring.recompute``, registered by
# scoring/apps.py): a selector never writes or schedules. ``stale_standings``: the standings
# served are older than CACHE_TTL, or a reader computed its own with a worker about (the worker
# stores them anew); ``lost_heads``: a stored head names a row that is gone (evicted).
stale_standings: list[Callable[[int], None]] = []
lost_heads: list[Callable[[int], None]] = []


def tell(hook: list[Callable[[int], None]], tournament_id: int) -> None:
    """Call every listener of ``hook`` (stale or lost standings) for the tournament: the write
    side (scoring/recompute.py) answers, so this read module never writes (the full API's
    assembly, scoring/assembled.py, tells the same)."""
    for answer in hook:
        answer(tournament_id)


WATCH_WINDOW = 24 * 3600  # the watchdog looks at tournaments with a write this recent


def behind(*, older_than: float = 0.0) -> list[int]:
    """Tournaments whose stored standings miss a change (the watchdog's and ``/healthz``'s
    question; reads only): a write audited after the last finished recomputation began, or a
    generation asked for (``recompute.schedule``) past the last one computed, with no recomputation
    queued. A recomputation lost in a killed worker, or never queued because Redis was away,
    shows here until one finishes. ``older_than``: only changes at least that many seconds old
    (a run that is merely under way is not stale)."""
    now = time.time()
    since = timezone.now() - dt.timedelta(seconds=WATCH_WINDOW)
    last = dict(AuditEntry.objects.filter(at__gte=since, tournament__isnull=False)
                .values_list("tournament").annotate(last=Max("at")).values_list("tournament", "last"))
    if not last:
        return []
    keys = [k for t in last for k in (stored.checked_key(t), stored.generation_key(t), stored.queued_key(t))]
    found = cache.get_many(keys)
    out = []
    for t, changed in sorted(last.items()):
        if stored.queued_key(t) in found:
            continue
        checked = found.get(stored.checked_key(t)) or {"at": 0.0, "generation": 0}
        generation = int(found.get(stored.generation_key(t)) or 0)
        missed_write = checked["at"] < changed.timestamp() <= now - older_than
        missed_generation = checked["generation"] < generation and checked["at"] <= now - older_than
        if missed_write or missed_generation:
            out.append(t)
    return out


def round_numbers(tournament: Tournament) -> dict[int, int]:
    """{game number: round number} of the games that count, 1, 2, 3… in order: a rehearsal game
    is no round, so the games after it move up (the clubs' workbook and the national ranking
    count rounds without gaps)."""
    rehearsals = set(Game.objects.filter(tournament=tournament, rehearsal=True).values_list("number", flat=True))
    counted = [n for n in range(1, tournament.event_format().games_count + 1) if n not in rehearsals]
    return {n: k for k, n in enumerate(counted, start=1)}


def counted_results(tournament: Tournament,
                    states: Sequence[TableState] | None = None) -> list[tuple[TableState, ResultSubmission]]:
    """The result that counts of every table, rehearsal games left out (they never count)."""
    unconfirmed = tournament.event_format().publish_unconfirmed
    out = []
    for state in table_states(tournament) if states is None else states:
        if state.table.game.rehearsal:
            continue
        sub = state.counting(unconfirmed)
        if sub is not None:
            out.append((state, sub))
    return out


def game_results(pairs: Iterable[tuple[TableState, ResultSubmission]]) -> list[st.GameResult]:
    return results_of((state.table.game.number, state.table.number, sub.scores) for state, sub in pairs)


def results_of(tables: Iterable[tuple[int, int, list[dict[str, Any]]]]) -> list[st.GameResult]:
    """Game results from (game number, table number, the counting submission's scores)."""
    out = []
    for game, table, scores in tables:
        for r in scores:
            if r.get("player") is None:
                continue  # a ghost seat
            out.append(st.GameResult(  # points and game score made exact by GameResult itself
                player=int(r["player"]), game=game, points=r["tournament_points"],
                extra=int(r["extra_objective"]), armies=int(r["armies"]), place=int(decimal(r["place"])),
                table=table, game_score=r["game_score"],
                eliminated=r.get("eliminated") is not None,
            ))
    return out


def imported_standings(tournament_ids: Iterable[int]) -> dict[int, list[dict[str, Any]]]:
    """{tournament: its workbook's Classifica Ridotta} of those imported from the clubs' workbook."""
    from .models import WorkbookEvent

    return dict(WorkbookEvent.objects.filter(tournament__in=list(tournament_ids), imported_at__isnull=False)
                .exclude(standings=[]).values_list("tournament_id", "standings"))


def imported_rows(tournament: Tournament, results: Sequence[st.GameResult],
                  stored: list[dict[str, Any]] | None = None) -> list[st.Row] | None:
    """An event imported from the clubs' workbook: its standings as the workbook wrote them
    (positions, ties and points of ``Classifica Ridotta``), with each player's games; None for
    any other tournament. ``stored``: the Classifica already read (``imported_standings``)."""
    if stored is None:
        stored = imported_standings([tournament.pk]).get(tournament.pk)
    if not stored:
        return None
    games: dict[int, list[st.GameResult]] = defaultdict(list)
    for r in results:
        games[r.player].append(r)
    shared = Counter(int(s["position"]) for s in stored)
    rows = []
    for s in stored:
        if "games" in s:  # a tournament published from a hall laptop: its row as the laptop showed it
            rows.append(_published_row(s))
            continue
        mine = sorted(games.get(int(s["player"]), []), key=lambda g: g.game)
        rows.append(st.Row(
            player=int(s["player"]), rank=int(s["position"]), shared=shared[int(s["position"])] > 1,
            total=decimal(s["points"]), played=len(mine), wins=sum(1 for g in mine if g.place == 1),
            cells=[st.Cell(g.game, g.points, True, g.place, g.table, g.extra, g.armies, g.game_score) for g in mine],
        ))
    return rows


def _published_row(s: dict[str, Any]) -> st.Row:
    """A standings row stored by ``publishing.copies``: every column the laptop computed."""
    def number(cell: dict[str, Any], key: str) -> Any:
        return decimal(cell.get(key) or 0)  # a column an older laptop did not send: 0

    cells = [st.Cell(int(c["game"]), number(c, "points"), bool(c.get("counted")), int(number(c, "place")),
                     int(number(c, "table")), int(number(c, "extra")), int(number(c, "armies")),
                     number(c, "game_score"))
             for c in s.get("games") or [] if c.get("game") is not None]
    tiebreak = s.get("tiebreak")
    return st.Row(player=int(s["player"]), rank=int(s["position"]), shared=bool(s.get("shared")),
                  total=decimal(s["points"]), extra=int(s.get("extra") or 0), armies=int(s.get("armies") or 0),
                  played=int(s.get("played") or 0), reached=int(s.get("reached") or 0),
                  advanced=bool(s.get("advanced")), cells=cells, wins=int(s.get("wins") or 0),
                  finalist=bool(s.get("finalist")), tiebreak=str(tiebreak) if tiebreak else None)


def counted_game_results(tournament: Tournament) -> tuple[list[st.GameResult], dict[int, list[int]]]:
    """``game_results(counted_results(...))`` from plain rows: two queries and no model objects
    (5,000 players: 3,750 results and their confirmations as objects took 2 s); rehearsal games
    left out. Also {player: [games]} whose confirmed result has a correction pending."""
    unconfirmed = tournament.event_format().publish_unconfirmed
    confirmed = set(Confirmation.objects.filter(submission__tournament=tournament)
                    .values_list("submission_id", flat=True))
    counting: dict[int, tuple[int, int, Any]] = {}  # table → (game, table number, scores)
    last_confirmed: dict[int, tuple[int, Any, bool]] = {}  # table → (game, scores, corrected since)
    rows = (ResultSubmission.objects.filter(tournament=tournament, table__game__rehearsal=False)
            .order_by("table_id", "number")
            .values_list("id", "table_id", "scores", "table__number", "table__game__number"))
    for sub_id, table_id, scores, table_no, game_no in rows:  # oldest first: the last one wins
        if unconfirmed or sub_id in confirmed:
            counting[table_id] = (game_no, table_no, scores)
        if sub_id in confirmed:
            last_confirmed[table_id] = (game_no, scores, False)
        elif table_id in last_confirmed:
            last_confirmed[table_id] = (*last_confirmed[table_id][:2], True)
    corrections = _corrections((game, scores) for game, scores, corrected in last_confirmed.values() if corrected)
    return results_of(sorted(counting.values(), key=lambda c: (c[0], c[1]))), corrections


def standings(tournament: Tournament) -> dict[str, Any]:
    """{"rows": [...], "games": [1, 2, 3], "method", "best_n", "publish_unconfirmed"}; cached
    until the next write to a result or a confirmation (services invalidate it). The cached data
    holds codes; the labels are added in the language of the request (tournaments.labels)."""
    return _with_labels(_standings(tournament))


def first_hidden_game(tournament: Tournament) -> int | None:
    """The first game whose results the public may not see yet (``hooks.hidden_from``)."""
    said = [n for hidden in hooks.hidden_from if (n := hidden(tournament)) is not None]
    return min(said) if said else None


def standings_before(tournament: Tournament, game: int) -> dict[str, Any]:
    """The standings as they were before ``game``: only the results of earlier games count (what
    the public sees while the last games' standings are hidden). Kept for the next reader under
    the stamp of the standings they come from (every player's own page asks while polling), so
    a new result makes them afresh; without a stamp yet, computed each time."""
    head = stored.read(tournament.pk)
    whole = head.meta if head is not None else cache.get(stored.standings_key(tournament.pk))
    stamp = (whole or {}).get("stamp")
    key = f"scoring:standings-before:{tournament.pk}:{game}:{stamp}"
    cached = cache.get(key) if stamp else None
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    data = _before(tournament, game)
    if stamp:
        cache.set(key, data, CACHE_TTL)
    return data


def _before(tournament: Tournament, game: int) -> dict[str, Any]:
    results, corrections = counted_game_results(tournament)
    results = [r for r in results if r.game < game]
    corrections = {p: [g for g in gs if g < game] for p, gs in corrections.items()}
    rehearsals = list(Game.objects.filter(tournament=tournament, rehearsal=True).order_by("number")
                      .values_list("number", flat=True))
    player_ids = set(Registration.objects.active().filter(tournament=tournament).values_list("player_id", flat=True))
    player_ids |= {r.player for r in results}
    names: dict[int, str] = {}
    clubs: dict[int, str] = {}
    for pk, first, last, nickname, club in (Player.objects.filter(pk__in=player_ids)
                                            .values_list("pk", "first_name", "last_name", "nickname", "club__name")):
        names[pk], clubs[pk] = display_name(first, last, nickname), club or ""
    data = _standings_data(tournament, results, player_ids, names, clubs, corrections, rehearsals)
    data["games"] = [g for g in data["games"] if g < game]
    return data | {"hidden_from": game}


def public_standings(tournament: Tournament) -> dict[str, Any]:
    """The standings the public sees: all of them, or those before the hidden games."""
    hidden = first_hidden_game(tournament)
    return standings(tournament) if hidden is None else _with_labels(standings_before(tournament, hidden))


def standings_slice(tournament: Tournament, *, offset: int = 0, limit: int = 100, player: int | None = None,
                    q: str = "", clamp: bool = False, public: bool = False) -> dict[str, Any]:
    """One page of the standings without reading the others (5,000 players: the hundred rows a
    phone shows): the labelled standings' data with ``rows`` from ``offset`` (``player``: the page
    that holds them; ``q``: only players whose name or club contains it), ``count`` (rows
    matching), ``offset`` (as used), ``at`` (the player's index among them, or None) and ``total``.
    ``clamp``: an offset past the end answers the last page."""
    needle = q.replace("\n", " ").strip().casefold()
    hidden = first_hidden_game(tournament) if public else None
    head = stored.read(tournament.pk) if hidden is None else None
    texts = head.texts() if head is not None and needle else None
    compact = head is not None and (texts is not None or not needle)
    if head is not None and compact:
        ids: Sequence[int] = head.ids
        meta = head.meta
        fetch = head.rows
    else:
        data = _standings(tournament) if hidden is None else standings_before(tournament, hidden)
        ids = [r["player"] for r in data["rows"]]
        texts = {r["player"]: stored.search_text(r["name"], r.get("club", "")) for r in data["rows"]} if needle else None
        meta = {k: v for k, v in data.items() if k != "rows"}

        def fetch(positions: Iterable[int], rows: list[dict[str, Any]] = data["rows"]) -> list[dict[str, Any]]:
            return [rows[i] for i in positions]
    positions: Sequence[int] = range(len(ids))
    if needle and texts is not None:
        positions = [i for i, p in enumerate(ids) if needle in texts.get(p, "")]
    at = None
    if player is not None:
        where = head.position(player) if head is not None and compact else (
            ids.index(player) if player in ids else None)
        if where is not None and where in positions:
            at = where if not needle else positions.index(where)  # type: ignore[union-attr]
            offset = at // limit * limit
    if clamp:
        offset = min(max(offset, 0), max(0, (len(positions) - 1) // limit * limit))
    rows = fetch(positions[offset:offset + limit])
    if rows is None:  # a row of this head is gone: read everything once, and store afresh
        tell(lost_heads, tournament.pk)
        return standings_slice(tournament, offset=offset, limit=limit, player=player, q=q, clamp=clamp,
                               public=public)
    return {**label_meta(meta), "rows": [_label_row(r) for r in rows], "count": len(positions), "offset": offset,
            "at": at, "total": len(ids)}


def standings_row(tournament: Tournament, player: int, *, public: bool = False) -> dict[str, Any] | None:
    """One player's labelled standings row (None: not in the standings); ``public``: as the
    public sees it (before the hidden games, if any)."""
    page = standings_slice(tournament, player=player, limit=1, public=public)
    return page["rows"][0] if page["at"] is not None else None


def _with_labels(data: dict[str, Any]) -> dict[str, Any]:
    return {**label_meta(data), "rows": [_label_row(r) for r in data["rows"]]}


def label_meta(data: dict[str, Any]) -> dict[str, Any]:
    """The standings' data with the tie-break chain said in words, in the request's language."""
    return {**data, "chain_explained": {m: labels.metric(m) for m in data["chain"]}}


def _label_row(r: dict[str, Any]) -> dict[str, Any]:
    return {**r, "tiebreak_label": labels.metric(r["tiebreak"]),
            "pending_correction_note": correction_note(r.get("pending_corrections") or [])}


def correction_note(games: Sequence[int]) -> str:
    """Why a standings row is marked: a confirmed result of the player's has a correction
    waiting for confirmation (the confirmed one still counts)."""
    if not games:
        return ""
    return _("A correction of the result of game %(games)s is waiting for confirmation: the "
             "confirmed result counts until then.") % {"games": ", ".join(str(g) for g in games)}


def _corrections(tables: Iterable[tuple[int, list[dict[str, Any]]]]) -> dict[int, list[int]]:
    """{player: [game numbers]} from (game number, confirmed scores) of the tables whose
    confirmed result has a pending correction."""
    out: dict[int, set[int]] = defaultdict(set)
    for game, scores in tables:
        for r in scores:
            if r.get("player") is not None:
                out[int(r["player"])].add(game)
    return {p: sorted(gs) for p, gs in out.items()}


def _standings(tournament: Tournament) -> dict[str, Any]:
    head = stored.read(tournament.pk)
    if head is not None:  # the worker's
        rows = head.rows(range(len(head)))
        if rows is not None:
            if time.time() - head.data.get("computed_at", 0) > CACHE_TTL:
                tell(stale_standings, tournament.pk)  # names and clubs may have changed meanwhile: refresh, serve these
            return {**head.meta, "rows": rows}
        tell(lost_heads, tournament.pk)
    key = stored.standings_key(tournament.pk)
    cached = cache.get(key)
    if cached is not None:
        if not tasks_in_process() and time.time() - cached.get("computed_at", 0) > CACHE_TTL:
            tell(stale_standings, tournament.pk)  # names and clubs may have changed meanwhile: refresh, serve these
        return cached  # type: ignore[no-any-return]
    # Nothing stored at all (first reader, or the cache was emptied): computed here, once.
    data = full_standings(tournament)
    cache.set(key, data, CACHE_TTL if tasks_in_process() else None)
    if not tasks_in_process():
        tell(stale_standings, tournament.pk)  # the worker stores them in its form (scoring.stored)
    return data


def full_standings(tournament: Tournament) -> dict[str, Any]:
    results, corrections = counted_game_results(tournament)
    rehearsals = list(Game.objects.filter(tournament=tournament, rehearsal=True).order_by("number")
                      .values_list("number", flat=True))
    player_ids = set(
        Registration.objects.active().filter(tournament=tournament)
        .values_list("player_id", flat=True)
    )
    player_ids |= {r.player for r in results}
    names: dict[int, str] = {}
    clubs: dict[int, str] = {}
    for pk, first, last, nickname, club in (Player.objects.filter(pk__in=player_ids)
                                            .values_list("pk", "first_name", "last_name", "nickname", "club__name")):
        # Player.display_name from plain rows (5,000 model objects took 0.9 s)
        names[pk] = display_name(first, last, nickname)
        clubs[pk] = club or ""
    return _standings_data(tournament, results, player_ids, names, clubs, corrections, rehearsals)


def standings_many(tournaments: Sequence[Tournament], *, labelled: bool = True) -> dict[int, dict[str, Any]]:
    """``standings`` of many tournaments at once (the national ranking reads a whole year): the
    cached ones from the cache, the others computed the same way from a fixed number of queries,
    and cached; labelled like ``standings`` (``labelled=False``: the codes alone, for computations)."""
    label = _with_labels if labelled else (lambda data: data)
    found = _cached_many(tournaments)
    todo = [t for t in tournaments if t.pk not in found]
    if not todo:
        return {pk: label(d) for pk, d in found.items()}
    ids = [t.pk for t in todo]
    by_tournament, pending = _counting_scores(ids, formats.of_many(todo))
    rehearsals: dict[int, list[int]] = defaultdict(list)
    for tid, number in (Game.objects.filter(tournament__in=ids, rehearsal=True).order_by("number")
                        .values_list("tournament_id", "number")):
        rehearsals[tid].append(number)
    imported = imported_standings(ids)  # one query for every imported event
    registered: dict[int, set[int]] = defaultdict(set)
    for tid, pid in Registration.objects.active().filter(tournament__in=ids).values_list(
            "tournament_id", "player_id"):
        registered[tid].add(pid)
    results = {tid: results_of(sorted(tables.values())) for tid, tables in by_tournament.items()}
    everyone = set().union(*registered.values(), *({r.player for r in rs} for rs in results.values()))
    players = {p.pk: p for p in Player.objects.filter(pk__in=everyone).select_related("club")}
    names = {pk: p.display_name for pk, p in players.items()}
    clubs = {pk: p.club.name if p.club else "" for pk, p in players.items()}
    for t in todo:
        rs = results.get(t.pk, [])
        player_ids = registered[t.pk] | {r.player for r in rs}
        found[t.pk] = _standings_data(t, rs, player_ids, names, clubs, _corrections(pending[t.pk]),
                                      rehearsals[t.pk], imported.get(t.pk, []))
    cache.set_many({stored.standings_key(t.pk): found[t.pk] for t in todo}, CACHE_TTL)
    return {pk: label(d) for pk, d in found.items()}


def _cached_many(tournaments: Sequence[Tournament]) -> dict[int, dict[str, Any]]:
    """The standings already computed, by tournament: the cache's, else the worker's."""
    cached = cache.get_many([stored.standings_key(t.pk) for t in tournaments])
    for pk, head in stored.read_many(t.pk for t in tournaments).items():  # the worker's
        rows = head.rows(range(len(head)))
        if rows is not None:
            cached[stored.standings_key(pk)] = {**head.meta, "rows": rows}
    return {t.pk: hit for t in tournaments if (hit := cached.get(stored.standings_key(t.pk))) is not None}


def _counting_scores(ids: list[int], fmts: dict[int, formats.EventFormat]) -> tuple[
        dict[int, dict[int, tuple[int, int, list[dict[str, Any]]]]], dict[int, list[tuple[int, list[dict[str, Any]]]]]]:
    """For tournaments ``ids``: {tournament: {table: (game, table number, scores)}} of the result
    that counts at every table (rehearsal games left out), and {tournament: [(game, confirmed
    scores)]} of the tables whose confirmed result has a newer version waiting."""
    confirmed = set(Confirmation.objects.filter(submission__tournament__in=ids).values_list("submission_id", flat=True))
    # The scores as their JSON text, read by one decoder: the field's reading builds a decoder
    # for every value (a year's 10,000 of them); same text, same exact numbers.
    subs = (ResultSubmission.objects.filter(tournament__in=ids, table__game__rehearsal=False)
            .order_by("table_id", "number").annotate(scores_json=Cast("scores", TextField()))
            .values_list("id", "tournament_id", "table_id", "table__game__number", "table__number", "scores_json"))
    by_tournament: dict[int, dict[int, tuple[int, int, list[dict[str, Any]]]]] = defaultdict(dict)
    # table → (tournament, game, confirmed scores, whether a newer version is unconfirmed)
    last_confirmed: dict[int, tuple[int, int, list[dict[str, Any]], bool]] = {}
    for sub_id, tid, table, game, number, scores_json in subs:
        scores = _SCORES_JSON.decode(scores_json)
        fmt = fmts.get(tid)
        if sub_id in confirmed or (fmt is not None and fmt.publish_unconfirmed):
            by_tournament[tid][table] = (game, number, scores)  # the latest that counts wins
        if sub_id in confirmed:
            last_confirmed[table] = (tid, game, scores, False)
        elif table in last_confirmed:
            last_confirmed[table] = (*last_confirmed[table][:3], True)
    pending: dict[int, list[tuple[int, list[dict[str, Any]]]]] = defaultdict(list)
    for tid, game, scores, corrected in last_confirmed.values():
        if corrected:
            pending[tid].append((game, scores))
    return by_tournament, pending


def places_many(tournaments: Sequence[Tournament]) -> dict[int, list[tuple[int, int, int]]]:
    """Each tournament's standings reduced to (player, rank, games played), in standings order:
    what the national ranking reads of a year's events. The standings already computed when
    there are; an imported event's as ``imported_rows`` makes them (its workbook's positions,
    the games its players sat at in the results that count) without building every row, cell
    and exact total of its standings; any other event's through ``standings_many``."""
    found = _cached_many(tournaments)
    rest = [t for t in tournaments if t.pk not in found]
    imported = imported_standings(t.pk for t in rest) if rest else {}
    if rest:
        found |= standings_many([t for t in rest if t.pk not in imported], labelled=False)
    out = {pk: [(r["player"], int(r["rank"]), r["played"]) for r in data["rows"]] for pk, data in found.items()}
    if imported:
        ids = list(imported)
        by_tournament, _pending = _counting_scores(ids, formats.of_many([t for t in rest if t.pk in imported]))
        for pk, classifica in imported.items():
            games = Counter(int(r["player"]) for _game, _table, scores in by_tournament[pk].values()
                            for r in scores if r.get("player") is not None)  # a ghost seat is no one's
            out[pk] = [(int(s["player"]), int(s["position"]), games[int(s["player"])]) for s in classifica]
    return out


def _standings_data(tournament: Tournament, results: list[st.GameResult],
                    player_ids: set[int], names: dict[int, str], clubs: dict[int, str],
                    corrections: dict[int, list[int]] | None = None,
                    rehearsals: Sequence[int] = (),
                    imported: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    corrections = corrections or {}
    fmt = tournament.event_format()
    rows = imported_rows(tournament, results, imported)
    if rows is None:
        rows = st.compute(results, method=fmt.method, best_n=fmt.best_n, players=player_ids, names=names,
                          chain=fmt.chain, final_games=fmt.final_games)
    return {
        "method": fmt.method,
        "preset": fmt.preset,
        "chain": list(fmt.chain),
        "best_n": fmt.best_n,
        "publish_unconfirmed": fmt.publish_unconfirmed,
        # Rehearsal games never count: no column of their own.
        "games": [g for g in range(1, fmt.games_count + 1) if g not in rehearsals],
        "rehearsal_games": list(rehearsals),
        "pending_correction_games": sorted({g for gs in corrections.values() for g in gs}),
        # Names this computation: pages cache their rendering of it under this stamp, so a
        # leaderboard polled by every phone in the hall is rendered once per change.
        "stamp": uuid.uuid4().hex,
        "computed_at": time.time(),
        "rows": [
            {**row.as_dict(), "name": names.get(row.player, "?"),
             "club": clubs.get(row.player, ""),
             # Games whose confirmed result has a correction waiting for confirmation.
             "pending_corrections": corrections.get(row.player, [])}
            for row in rows
        ],
    }


def player_games(tournament: Tournament, player: Player) -> list[dict[str, Any]]:
    """A player's games: table, seat, opponents and the counting result's scores."""
    unconfirmed = tournament.event_format().publish_unconfirmed
    seats = list(
        Seat.objects.filter(game__tournament=tournament, player=player).select_related("table", "game")
        .order_by("game__number")
    )
    table_ids = [s.table_id for s in seats]
    everyone: dict[int, list[Seat]] = defaultdict(list)
    for s in Seat.objects.filter(table_id__in=table_ids).select_related("player").order_by("number"):
        everyone[s.table_id].append(s)
    subs: dict[int, list[ResultSubmission]] = defaultdict(list)
    for sub in _submissions().filter(table_id__in=table_ids).order_by("number"):
        subs[sub.table_id].append(sub)
    out = []
    for seat in seats:
        state = TableState(seat.table, subs[seat.table_id])
        counted = state.counting(unconfirmed)
        scores = {r["seat"]: r for r in (counted.scores if counted else [])}
        out.append({
            "game": seat.game, "table": seat.table, "seat": seat, "status": state.status,
            "score": scores.get(seat.number),
            "opponents": [
                {"seat": o, "score": scores.get(o.number)} for o in everyone[seat.table_id] if o.pk != seat.pk
            ],
        })
    return out


def submission_rows(sub: ResultSubmission, seats: Sequence[Seat]) -> list[dict[str, Any]]:
    """A submission's scores joined with the seats (player names), in seat order."""
    by_no = {s.number: s for s in seats}
    entered = {int(p["seat"]): p for p in sub.data.get("players", [])}
    return [
        {**r, "seat_obj": by_no.get(r["seat"]), "entered": entered.get(r["seat"], {}),
         "tiebreak_label": labels.seat_tiebreak(r.get("tiebreak"))}
        for r in sorted(sub.scores, key=lambda r: r["seat"])
    ]
