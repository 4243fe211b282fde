"""Careful reads of results and standings. A fixed number of queries per call, whatever the
number of players or tables (tests check this with ``django_assert_max_num_queries``)."""

from __future__ import annotations

import uuid
from collections import defaultdict
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
    out = []
    for state, sub in pairs:
        for r in sub.scores:
            if r.get("player") is None:
                continue  # a ghost seat
            out.append(st.GameResult(
                player=int(r["player"]), game=state.table.game.number, points=decimal(r["tournament_points"]),
                extra=int(r["extra_objective"]), armies=int(r["armies"]), place=int(decimal(r["place"])),
                table=state.table.number, game_score=decimal(r["game_score"]),
                eliminated=r.get("eliminated") is not None,
            ))
    return out


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
    names = {pk: p.display_name for pk, p in players.items()}
    method = method_of(tournament, conf)
    chain = [m for m in (conf.tiebreaks or []) if m in st.METRICS] or list(st.DEFAULT_CHAIN)
    rows = st.compute(results, method=method, best_n=conf.best_n, players=player_ids, names=names,
                      chain=chain, final_games=final_games(tournament, conf) if method != "knockout" else ())
    data = {
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
    cache.set(key, data, CACHE_TTL)
    return data


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
    from . import presets
    from . import ranking as rk

    conf = settings_for(tournament)
    preset = presets.get(conf.preset)
    event_type = tournament.event_type or (preset.ranking_class if preset is not None else "") or "AMC"
    source = "tournament" if tournament.event_type else ("preset" if preset is not None and preset.ranking_class
                                                          else "default")
    data = standings(tournament)
    pairs = counted_results(tournament, conf)
    table_games = len(pairs)
    rounds = max((state.table.game.number for state, _sub in pairs), default=0)
    games = Game.objects.filter(tournament=tournament)
    dates = sorted(g.finished_at.date() if g.finished_at else tournament.date for g in games) or [tournament.date]
    organizer = tournament.created_by.get_full_name() or tournament.created_by.username if tournament.created_by else ""
    event = rk.event_id(dates[-1], organizer or tournament.slug)
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
        "standings": rk.standing_rows(event, stand, vt, dict(
            Player.objects.filter(pk__in=[s.player for s in stand]).exclude(national_id="")
            .values_list("pk", "national_id")) if national_ids else {}),
    }
