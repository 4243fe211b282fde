"""Careful reads of results and standings. A fixed number of queries per call, whatever the
number of players or tables (tests check this with ``django_assert_max_num_queries``)."""

from __future__ import annotations

import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.db.models import Prefetch
from django.utils.translation import gettext as _

from engine.exact import decimal
from tables.models import Game, Seat, Table
from tournaments.models import Player, Registration, Tournament

from . import labels
from . import standings as st
from .models import Confirmation, ResultSubmission, ScoringSettings

MISSING, TO_CONFIRM, CONFIRMED, DISPUTED = "missing", "to_confirm", "confirmed", "disputed"
CACHE_TTL = 300


def settings_for(tournament: Tournament) -> ScoringSettings:
    """The tournament's scoring settings (defaults, unsaved, when never changed)."""
    found = ScoringSettings.objects.filter(tournament=tournament).first()
    return found or ScoringSettings(tournament=tournament)


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
def _cache_key(tournament_id: int) -> str:
    return f"scoring:standings:{tournament_id}"


def invalidate(tournament_id: int) -> None:
    cache.delete(_cache_key(tournament_id))


def method_of(tournament: Tournament, conf: ScoringSettings | None = None) -> str:
    if conf is not None and conf.method:
        return conf.method
    return {"italiana": "italiana", "knockout": "knockout"}.get(tournament.format, "rtu")


def final_games(tournament: Tournament, conf: ScoringSettings) -> set[int]:
    """K-KO-RCU: the last game of a preset with a knock-out phase is the final."""
    from . import presets

    preset = presets.get(conf.preset)
    return {tournament.games_count} if preset is not None and preset.knockout else set()


def counted_results(tournament: Tournament, conf: ScoringSettings) -> list[tuple[TableState, ResultSubmission]]:
    out = []
    for state in table_states(tournament):
        sub = state.counting(conf.publish_unconfirmed)
        if sub is not None:
            out.append((state, sub))
    return out


def game_results(pairs: Iterable[tuple[TableState, ResultSubmission]]) -> list[st.GameResult]:
    return _results((state.table.game.number, state.table.number, sub.scores) for state, sub in pairs)


def _results(tables: Iterable[tuple[int, int, list[dict[str, Any]]]]) -> list[st.GameResult]:
    """Game results from (game number, table number, the counting submission's scores)."""
    out = []
    for game, table, scores in tables:
        for r in scores:
            if r.get("player") is None:
                continue  # a ghost seat
            out.append(st.GameResult(
                player=int(r["player"]), game=game, points=decimal(r["tournament_points"]),
                extra=int(r["extra_objective"]), armies=int(r["armies"]), place=int(decimal(r["place"])),
                table=table, game_score=decimal(r["game_score"]),
                eliminated=r.get("eliminated") is not None,
            ))
    return out


def imported_rows(tournament: Tournament, results: Sequence[st.GameResult]) -> list[st.Row] | None:
    """An event imported from the clubs' workbook: its standings as the workbook wrote them
    (positions, ties and points of ``Classifica Ridotta``), with each player's games; None for
    any other tournament."""
    from .models import WorkbookEvent

    stored = (WorkbookEvent.objects.filter(tournament=tournament, imported_at__isnull=False)
              .values_list("standings", flat=True).first())
    if not stored:
        return None
    games: dict[int, list[st.GameResult]] = defaultdict(list)
    for r in results:
        games[r.player].append(r)
    shared = Counter(int(s["position"]) for s in stored)
    rows = []
    for s in stored:
        mine = sorted(games.get(int(s["player"]), []), key=lambda g: g.game)
        rows.append(st.Row(
            player=int(s["player"]), rank=int(s["position"]), shared=shared[int(s["position"])] > 1,
            total=decimal(s["points"]), played=len(mine), wins=sum(1 for g in mine if g.place == 1),
            cells=[st.Cell(g.game, g.points, True, g.place, g.table, g.extra, g.armies, g.game_score) for g in mine],
        ))
    return rows


def standings(tournament: Tournament) -> dict[str, Any]:
    """{"rows": [...], "games": [1, 2, 3], "method", "best_n", "publish_unconfirmed"}; cached
    until the next write to a result or a confirmation (services invalidate it). The cached data
    holds codes; the labels are added in the language of the request (scoring.labels)."""
    return _with_labels(_standings(tournament))


def _with_labels(data: dict[str, Any]) -> dict[str, Any]:
    return {
        **data,
        "chain_explained": {m: labels.metric(m) for m in data["chain"]},
        "rows": [{**r, "tiebreak_label": labels.metric(r["tiebreak"])} for r in data["rows"]],
    }


def _standings(tournament: Tournament) -> dict[str, Any]:
    key = _cache_key(tournament.pk)
    cached = cache.get(key)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    conf = settings_for(tournament)
    results = game_results(counted_results(tournament, conf))
    player_ids = set(
        Registration.objects.filter(tournament=tournament, status=Registration.Status.REGISTERED)
        .values_list("player_id", flat=True)
    )
    player_ids |= {r.player for r in results}
    players = {p.pk: p for p in Player.objects.filter(pk__in=player_ids).select_related("club")}
    data = _standings_data(tournament, conf, results, player_ids, players)
    cache.set(key, data, CACHE_TTL)
    return data


def standings_many(tournaments: Sequence[Tournament]) -> dict[int, dict[str, Any]]:
    """``standings`` of many tournaments at once (the national ranking reads a whole year): the
    cached ones from the cache, the others computed the same way from a fixed number of queries,
    and cached."""
    found: dict[int, dict[str, Any]] = {}
    cached = cache.get_many([_cache_key(t.pk) for t in tournaments])
    todo = []
    for t in tournaments:
        hit = cached.get(_cache_key(t.pk))
        if hit is not None:
            found[t.pk] = hit
        else:
            todo.append(t)
    if not todo:
        return found
    ids = [t.pk for t in todo]
    confs = {c.tournament_id: c for c in ScoringSettings.objects.filter(tournament__in=ids)}
    confirmed = set(Confirmation.objects.filter(submission__tournament__in=ids).values_list("submission_id", flat=True))
    subs = (ResultSubmission.objects.filter(tournament__in=ids).order_by("table_id", "number")
            .values_list("id", "tournament_id", "table_id", "table__game__number", "table__number", "scores"))
    # table → (game, table number, scores) of its counting version
    by_tournament: dict[int, dict[int, tuple[int, int, list[dict[str, Any]]]]] = defaultdict(dict)
    for sub_id, tid, table, game, number, scores in subs:
        conf = confs.get(tid)
        if sub_id in confirmed or (conf is not None and conf.publish_unconfirmed):
            by_tournament[tid][table] = (game, number, scores)  # the latest that counts wins
    registered: dict[int, set[int]] = defaultdict(set)
    for tid, pid in Registration.objects.filter(tournament__in=ids, status=Registration.Status.REGISTERED).values_list(
            "tournament_id", "player_id"):
        registered[tid].add(pid)
    results = {tid: _results(sorted(tables.values())) for tid, tables in by_tournament.items()}
    everyone = set().union(*registered.values(), *({r.player for r in rs} for rs in results.values()))
    players = {p.pk: p for p in Player.objects.filter(pk__in=everyone).select_related("club")}
    for t in todo:
        conf = confs.get(t.pk) or ScoringSettings(tournament=t)
        rs = results.get(t.pk, [])
        player_ids = registered[t.pk] | {r.player for r in rs}
        found[t.pk] = _standings_data(t, conf, rs, player_ids, players)
    cache.set_many({_cache_key(t.pk): found[t.pk] for t in todo}, CACHE_TTL)
    return found


def _standings_data(tournament: Tournament, conf: ScoringSettings, results: list[st.GameResult],
                    player_ids: set[int], players: dict[int, Player]) -> dict[str, Any]:
    names = {pk: players[pk].display_name for pk in player_ids if pk in players}
    method = method_of(tournament, conf)
    chain = [m for m in (conf.tiebreaks or []) if m in st.METRICS] or list(st.DEFAULT_CHAIN)
    rows = imported_rows(tournament, results)
    if rows is None:
        rows = st.compute(results, method=method, best_n=conf.best_n, players=player_ids, names=names,
                          chain=chain, final_games=final_games(tournament, conf) if method != "knockout" else ())
    return {
        "method": method,
        "preset": conf.preset,
        "chain": chain,
        "best_n": conf.best_n,
        "publish_unconfirmed": conf.publish_unconfirmed,
        "games": list(range(1, tournament.games_count + 1)),
        # Names this computation: pages cache their rendering of it under this stamp, so a
        # leaderboard polled by every phone in the hall is rendered once per change.
        "stamp": uuid.uuid4().hex,
        "rows": [
            {**row.as_dict(), "name": names.get(row.player, "?"),
             "club": players[row.player].club.name if row.player in players and players[row.player].club else ""}
            for row in rows
        ],
    }


def player_games(tournament: Tournament, player: Player) -> list[dict[str, Any]]:
    """A player's games: table, seat, opponents and the counting result's scores."""
    conf = settings_for(tournament)
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
        counted = state.counting(conf.publish_unconfirmed)
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


# ------------------------------------------------------------------ national ranking (K-RANKING)
def event_ranking(tournament: Tournament, *, national_ids: bool = False) -> dict[str, Any]:
    """The event's K-RANKING contribution of every player and its rows in the ranking's formats
    (events, games, standings). Players' national ids fill the standing rows only with
    ``national_ids`` (an organizer of the tournament asking: never on public pages or the public API). The event type is the tournament's own, else the format preset's (no preset:
    "AMC", which the ranking does not count); T is every table-game with a counted result."""
    from . import national, presets
    from . import ranking as rk

    conf = settings_for(tournament)
    event_type = national.event_type(tournament, conf.preset)
    preset = presets.get(conf.preset)
    source = "tournament" if tournament.event_type else ("preset" if preset is not None and preset.ranking_class
                                                          else "default")
    data = standings(tournament)
    pairs = counted_results(tournament, conf)
    table_games = len(pairs)
    rounds = tournament.games_count  # the declared rounds (a periodic championship's class)
    dates = list(national.event_dates(tournament))
    organizer = national.event_organizer(tournament)
    event = national.event_id(tournament)  # the same id as the event's workbook (K-RANKING)
    rows = [r for r in data["rows"] if r["played"]]
    stand = [rk.Standing(player=r["player"], position=r["rank"], points=r["total"], wins=r.get("wins", 0),
                         played=r["played"], club=r.get("club", "")) for r in rows]
    vt = rk.event_contributions(stand, table_games=table_games, event_type=event_type, rounds=rounds,
                                year=dates[-1].year)
    game_list = []
    for state, sub in sorted(pairs, key=lambda p: (p[0].table.game.number, p[0].table.number)):
        seats = sorted(sub.scores, key=lambda r: r["seat"])
        winner = next((r.get("player") for r in seats if r["place"] == 1), "")
        game_list.append({"round": state.table.game.number, "table": state.table.number,
                          "seats": [(r.get("player") or -1, r["tournament_points"]) for r in seats],
                          "winner": winner or ""})
    klass = rk.event_class(event_type, rounds)
    notice = ""
    if source == "default":
        notice = _("This tournament has no event type (Tipologia) and no format preset, so it is ranked as "
                   "%(type)s, class %(cls)s: the national ranking does not count it. Set the tournament's event "
                   "type, or choose its format, to rank it (K-RANKING).") % {"type": event_type, "cls": klass}
    return {
        "event_type": event_type, "event_type_source": source, "notice": notice,
        "class": klass, "table_games": table_games,
        "counts": rk.counts(table_games, dates[-1].year), "year": dates[-1].year,
        "contributions": [{"player": s.player, "name": r["name"], "club": r.get("club", ""), "position": s.position,
                           "vt": vt.get(s.player, 0.0)} for s, r in zip(stand, rows, strict=True)],
        "events": [rk.event_row(event=event, name=tournament.name, organizer=organizer, venue=tournament.venue,
                                start=dates[0], end=dates[-1], event_type=event_type, rounds=rounds,
                                participants=len(stand), table_games=table_games)],
        "games": rk.game_rows(event, game_list),
        # National ids as entered for this tournament's registrations (never another's).
        "standings": rk.standing_rows(event, stand, vt, dict(
            Registration.objects.filter(tournament=tournament, player_id__in=[s.player for s in stand])
            .exclude(national_id="").values_list("player_id", "national_id")) if national_ids else {}),
    }
