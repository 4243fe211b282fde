"""K-KO-RCU knock-out phases in the app: after the two qualifying games, the semifinal game
(game 3) is built from the standings, then the final(s) (game 4) from the semifinal results.

The planning is pure (:mod:`tables.knockout`); this module reads the qualifying standings and the
semifinal results, previews each phase for the organizer and writes real ``Game``/``Table``/``Seat``
rows, so the usual start / deal / clock / result flow runs on them. Every write is organizer-only,
in one transaction, audited (``knockout.semifinals`` / ``knockout.final``), and refused while the
previous phase has tables without a counted result. The final standings (finalists first, by their
final; then everyone else by the preset's chain) come from ``scoring.selectors.standings``.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from engine import SeededRng, derive_seed
from tables import hooks, selectors, services
from tables.knockout import rcu_finalists, rcu_semifinals
from tables.models import Game, Seat, Table
from tables.seating import SeatingError
from tables.seating_text import seating_error_text
from tournaments import audit
from tournaments.models import Player, Registration, Tournament
from tournaments.permissions import require_organizer

QUALIFIERS = 2  # K-KO-RCU: two qualifying games
SEMIFINAL_GAME = 3
FINAL_GAME = 4
FINAL_SIZE = 4


def _knockout_kind(tournament: Tournament) -> str:
    fmt = tournament.event_format()
    if not fmt.knockout:
        raise DomainError(
            _("This tournament's format has no knock-out phase: choose a Raduno or Master format first."),
            field="preset", rule="K-KO-RCU")
    if fmt.games_count < FINAL_GAME:
        raise DomainError(_("A knock-out phase needs %(n)s games (two qualifiers, semifinals, final).")
                          % {"n": FINAL_GAME}, field="games_count", rule="K-KO-RCU")
    return fmt.knockout


def open_tables(tournament: Tournament, numbers: Sequence[int]) -> list[str]:
    """"game N table T" for every table of those games whose result does not count yet."""
    out = []
    games = Game.objects.filter(tournament=tournament, number__in=list(numbers)).order_by("number")
    for game in games:
        done = selectors.table_finishing_orders(game)
        out += [_("game %(g)s table %(t)s") % {"g": game.number, "t": t.number}
                for t in Table.objects.filter(game=game).order_by("number") if t.number not in done]
    found = set(games.values_list("number", flat=True))
    out += [_("game %(g)s has no tables") % {"g": n} for n in numbers if n not in found]
    return out


def _withdrawn(tournament: Tournament, game_number: int) -> set[int]:
    holding = Registration.objects.active().filter(tournament=tournament)
    gone = set(Registration.objects.filter(tournament=tournament).exclude(pk__in=holding.values("pk"))
               .values_list("player_id", flat=True))
    game = selectors.game_of(tournament, game_number)
    if game is not None:
        gone |= {int(p) for p in (game.composition_options or {}).get("withdrawn", [])}
    return gone


def qualifier_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """The standings after the two qualifiers (the preset's chain), of the players who played
    both of them (as the clubs' desktop tool does): rows with player, rank, total, wins."""
    return hooks.results.qualifier_standings(tournament, QUALIFIERS)


def _people(ids: Sequence[int]) -> dict[int, Player]:
    return {p.pk: p for p in Player.objects.filter(pk__in=list(ids)).select_related("club")}


def _describe(pid: int, people: dict[int, Player], positions: dict[int, int]) -> dict[str, Any]:
    p = people.get(pid)
    return {"player": pid, "name": p.display_name if p else "?",
            "club": p.club.name if p and p.club_id else "", "position": positions.get(pid)}


def _seating_error(exc: SeatingError) -> DomainError:
    return DomainError(seating_error_text(exc), field="players", rule=exc.rule)


# ------------------------------------------------------------------------------ previews


def semifinal_plan(tournament: Tournament) -> dict[str, Any]:
    """Who plays which semifinal (and who goes straight to the final), without writing."""
    kind = _knockout_kind(tournament)
    missing = open_tables(tournament, range(1, QUALIFIERS + 1))
    if missing:
        raise DomainError(_("The qualifiers are not over: no counted result for %(t)s.")
                          % {"t": ", ".join(missing)}, field="results", rule="K-KO-RCU")
    rows = qualifier_standings(tournament)
    order = [r["player"] for r in rows]
    people = _people(order)
    try:
        phase = rcu_semifinals(
            order, kind, clubs={pid: (p.club.name if p.club_id else None) for pid, p in people.items()},
            wins={r["player"]: r["wins"] for r in rows}, points={r["player"]: r["total"] for r in rows},
            withdrawn=_withdrawn(tournament, SEMIFINAL_GAME) & set(order),
        )
    except SeatingError as exc:
        raise _seating_error(exc) from exc
    positions = {r["player"]: r["rank"] for r in rows}
    classes, number = [], 0
    for c, (tables, direct) in enumerate(zip(phase.tables, phase.direct, strict=True), start=1):
        described = []
        for members in tables:
            number += 1
            described.append({"number": number, "players": [_describe(p, people, positions) for p in members]})
        classes.append({"class": c, "tables": described,
                        "direct": [_describe(p, people, positions) for p in direct]})
    return {"phase": "semifinals", "game": SEMIFINAL_GAME, "kind": kind, "entrants": phase.plan.entrants,
            "small": phase.plan.small, "semifinals": phase.semifinals, "finals": phase.plan.finals,
            "club_clashes": phase.club_clashes, "standings": order, "classes": classes}


def _semifinal_layout(tournament: Tournament) -> tuple[Game, dict[str, Any]]:
    game = selectors.game_of(tournament, SEMIFINAL_GAME)
    layout = (game.composition_options or {}).get("knockout") if game is not None else None
    if game is None or not layout or layout.get("phase") != "semifinals":
        raise DomainError(_("Create the semifinals first."), field="game", rule="K-KO-RCU")
    return game, layout


def final_plan(tournament: Tournament) -> dict[str, Any]:
    """Who sits in each final: direct qualifiers, each semifinal's best-placed player still in,
    and the best semifinal losers for any empty seat (K-KO-RCU ripescaggio)."""
    _knockout_kind(tournament)
    game, layout = _semifinal_layout(tournament)
    missing = open_tables(tournament, [SEMIFINAL_GAME])
    if missing:
        raise DomainError(_("The semifinals are not over: no counted result for %(t)s.")
                          % {"t": ", ".join(missing)}, field="results", rule="K-KO-RCU")
    orders = selectors.table_finishing_orders(game)
    standings = [int(p) for p in layout.get("standings", [])]
    withdrawn = _withdrawn(tournament, FINAL_GAME)
    finals = []
    for c, cls in enumerate(layout["classes"], start=1):
        results = [orders.get(int(n), []) for n in cls["tables"]]
        chosen = rcu_finalists(results, [int(p) for p in cls.get("direct", [])], standings=standings,
                               withdrawn=withdrawn, final_size=FINAL_SIZE)
        if len(chosen) < FINAL_SIZE:
            raise DomainError(_("Final %(c)s has only %(n)s players left.") % {"c": c, "n": len(chosen)},
                              field="players", rule="K-KO-RCU")
        # each semifinal's best-placed player still in ("winner"), else a best loser (ripescaggio)
        best_of = {next((p for p in t if p not in withdrawn), None) for t in results}
        finals.append({"class": c, "table": c, "players": chosen,
                       "how": ["direct" if p in cls.get("direct", []) else "winner" if p in best_of
                               else "best_loser" for p in chosen]})
    people = _people([p for f in finals for p in f["players"]])
    positions = {p: i for i, p in enumerate(standings, start=1)}
    for f in finals:
        f["players"] = [_describe(p, people, positions) | {"how": how}
                        for p, how in zip(f["players"], f.pop("how"), strict=True)]
    return {"phase": "final", "game": FINAL_GAME, "finals": finals}


def phases_overview(tournament: Tournament) -> dict[str, Any]:
    """Both previews for the organizer's page and the API: each is a plan or the reason why not yet."""
    out: dict[str, Any] = {}
    for name, fn in (("semifinals", semifinal_plan), ("final", final_plan)):
        try:
            out[name] = {"plan": fn(tournament), "error": "", "rule": ""}
        except DomainError as exc:
            out[name] = {"plan": None, "error": exc.message, "rule": exc.rule or ""}
        game = selectors.game_of(tournament, SEMIFINAL_GAME if name == "semifinals" else FINAL_GAME)
        out[name]["created"] = bool(game and (game.composition_options or {}).get("knockout"))
        out[name]["status"] = game.status if game else ""
    return out


# ------------------------------------------------------------------------------ writes


def write_phase(tournament: Tournament, number: int, tables: list[list[int]], layout: dict[str, Any],
                *, actor: Any, seed: str | None, action: str) -> Game:
    """Replace the tables of planned game ``number`` with ``tables`` (turn order drawn from the
    seed, T-ORDER) and remember the phase's layout in ``composition_options["knockout"]``."""
    game = services.ensure_game(tournament, number, actor=actor)
    seed = (seed or "").strip() or secrets.token_hex(16)
    if len(seed) > 64:
        raise DomainError(_("A seed has at most 64 characters."), field="seed", rule="K-TABLES")
    round_tables = tournament.event_format().tables_for(number)
    with transaction.atomic():
        game = Game.objects.select_for_update().select_related("tournament").get(pk=game.pk)
        if game.status != Game.Status.PLANNED:
            raise ConflictError(_("Game %(n)s has already started: its tables can no longer change.")
                                % {"n": number}, field="status", rule="K-TABLES")
        before = {"seed": game.seed, "tables": selectors.seated_tables([game]).get(game.pk, [])}
        Seat.objects.filter(game=game).delete()
        Table.objects.filter(game=game).delete()
        for t, members in enumerate(tables, start=1):
            ids = list(members)
            SeededRng(derive_seed(seed, "order", t), stream="knockout").shuffle(ids)
            table = Table.objects.create(game=game, number=t)
            Seat.objects.bulk_create([Seat(table=table, game=game, number=n, player_id=pid)
                                      for n, pid in enumerate(ids, start=1)])
        opts = dict(game.composition_options or {})
        game.seed = seed
        game.composition_options = {
            "prefer": "fives", "priorities": list(round_tables.priorities), "seeding": "random",
            "odd_count": None, "by_region": False, "withdrawn": opts.get("withdrawn", []), "knockout": layout,
        }
        game.composition_report = {}
        game.save(update_fields=["seed", "composition_options", "composition_report"])
        services.refresh_report(game)
        audit.record(actor=actor, action=action, obj=game, tournament=tournament, before=before,
                     after={"seed": seed, "tables": selectors.seated_tables([game]).get(game.pk, []),
                            "knockout": layout})
    return game


def create_semifinals(tournament: Tournament, *, actor: Any, seed: str | None = None) -> Game:
    """Write game 3's semifinal tables from :func:`semifinal_plan` (re-creating them is allowed
    until the game starts)."""
    require_organizer(actor, tournament, services.TABLES_REFUSAL)
    plan = semifinal_plan(tournament)
    tables = [[p["player"] for p in t["players"]] for c in plan["classes"] for t in c["tables"]]
    layout = {"phase": "semifinals", "kind": plan["kind"], "standings": plan["standings"],
              "classes": [{"tables": [t["number"] for t in c["tables"]],
                           "direct": [p["player"] for p in c["direct"]]} for c in plan["classes"]]}
    return write_phase(tournament, SEMIFINAL_GAME, tables, layout, actor=actor, seed=seed,
                  action="knockout.semifinals")


def create_finals(tournament: Tournament, *, actor: Any, seed: str | None = None) -> Game:
    """Write game 4's final table(s), one per class, from :func:`final_plan`."""
    require_organizer(actor, tournament, services.TABLES_REFUSAL)
    plan = final_plan(tournament)
    tables = [[p["player"] for p in f["players"]] for f in plan["finals"]]
    layout = {"phase": "final", "finals": [{"class": f["class"], "table": f["table"],
                                            "players": [p["player"] for p in f["players"]],
                                            "how": [p["how"] for p in f["players"]]} for f in plan["finals"]]}
    return write_phase(tournament, FINAL_GAME, tables, layout, actor=actor, seed=seed, action="knockout.final")
