"""Every write to games, tables and seats: composition (K-TABLES), changes before the start,
and the start of a game (D-DEAL, D-50, objective cards, clocks).

Each function checks the organizer role (``tournaments.permissions``), refuses bad input with a
``DomainError`` naming the field and the rule id, and writes the audit log.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.engine_messages import describe
from common.errors import ConflictError, DomainError
from engine import SeededRng, derive_seed
from tables import hooks, selectors, signals
from tables.models import Colour, Game, Seat, Table
from tables.seating import (
    ODD_COUNTS,
    PREFERENCES,
    PRIORITIES,
    SEEDINGS,
    SHAPES,
    Composition,
    Options,
    SeatingError,
    compose,
    evaluate,
)
from tables.seating_text import priority_label, seating_error_text
from tournaments import audit, formats
from tournaments.models import Player, Tournament
from tournaments.permissions import require_organizer

TABLES_REFUSAL = gettext_lazy("Only an organizer of this tournament can change its tables.")

# The priorities when the format preset names none (K-TABLES): the format's defaults, written
# once in tournaments/formats/presets.py (DEFAULT_ROUNDS), by game 1 and from game 2 on.
DEFAULT_PRIORITIES = formats.default_tables(1).priorities
LATER_PRIORITIES = formats.default_tables(2).priorities


def default_priorities(number: int) -> tuple[str, ...]:
    """The default order of priorities for game ``number``."""
    return formats.default_tables(number).priorities
COLOURS = [c.value for c in Colour]  # seat 1 blue, seat 2 red, … (one colour per seat)


@dataclass
class Change:
    """What a change before the start did, with the warnings the organizer must see."""

    game: Game
    warnings: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------------------ helpers


def _locked_game(game: Game) -> Game:
    return Game.objects.select_for_update().select_related("tournament").get(pk=game.pk)


def _require_planned(game: Game) -> None:
    if game.status != Game.Status.PLANNED:
        raise ConflictError(
            _("Game %(n)s has already started: its tables can no longer change.")
            % {"n": game.number},
            field="status", rule="K-TABLES",
        )


def _seating_error(exc: SeatingError, field_name: str = "players") -> DomainError:
    return DomainError(seating_error_text(exc), field=field_name, rule=exc.rule)


def _options_from(data: dict[str, Any]) -> Options:
    priorities = tuple(data.get("priorities") or DEFAULT_PRIORITIES)
    return Options(
        prefer=data.get("prefer") or "fives",
        priorities=priorities,
        seeding=data.get("seeding") or "random",
        odd_count=data.get("odd_count") or None,
        shape=data.get("shape") or "fours",
        effort=float(data.get("effort") or 1.0),
    )


def clean_options(
    *,
    prefer: str = "fives",
    priorities: Sequence[str] | None = None,
    seeding: str = "random",
    odd_count: str | None = None,
    by_region: bool = False,
    shape: str = "fours",
) -> dict[str, Any]:
    """The organizer's choices, checked field by field (K-TABLES); ``shape`` (tables of 4/5,
    4/3, pairs) comes from the format preset."""
    if prefer not in PREFERENCES:
        raise DomainError(_("Choose more tables of 5 or more tables of 4."), field="prefer",
                          rule="K-TABLES")
    prios = list(priorities) if priorities else list(DEFAULT_PRIORITIES)
    _check_priorities(prios)
    if seeding not in SEEDINGS:
        raise DomainError(_("Unknown seeding %(s)s.") % {"s": seeding}, field="seeding",
                          rule="K-TABLES")
    odd = odd_count or None
    if odd not in ODD_COUNTS:
        raise DomainError(_("Unknown choice for player counts that tables of 4 and 5 cannot "
                            "seat: %(s)s.") % {"s": odd_count}, field="odd_count",
                          rule="K-TABLES")
    if by_region and "region_apart" not in prios:
        # National events: same region apart instead of (or besides) same club apart.
        at = prios.index("club_apart") + 1 if "club_apart" in prios else len(prios)
        prios.insert(at, "region_apart")
    if shape not in SHAPES:
        raise DomainError(_("Unknown table shape %(s)s.") % {"s": shape}, field="shape", rule="K-TABLES")
    return {"prefer": prefer, "priorities": prios, "seeding": seeding, "odd_count": odd,
            "by_region": bool(by_region), "shape": shape}


def _check_priorities(prios: Sequence[str]) -> None:
    """Known priorities, each once; refused in words, never in codes (the form moves a priority
    chosen twice, see ``seating.arrange_priorities``: only the API can send one twice)."""
    unknown = [p for p in prios if p not in PRIORITIES]
    if unknown:
        raise DomainError(
            _("Unknown priority: %(p)s. Choose among: %(known)s.")
            % {"p": ", ".join(unknown), "known": ", ".join(f"“{priority_label(k)}”" for k in PRIORITIES)},
            field="priorities", rule="K-TABLES")
    twice = [p for p in dict.fromkeys(prios) if prios.count(p) > 1]
    if twice:
        raise DomainError(
            _("Each priority is chosen once: %(p)s is chosen more than once.")
            % {"p": ", ".join(f"“{priority_label(k)}”" for k in twice)},
            field="priorities", rule="K-TABLES")


def preset_options(tournament: Tournament, number: int) -> dict[str, Any]:
    """The format preset's table choices for game ``number`` (K-TABLES): its priorities, seeding
    (e.g. CNI round 2 alla greca) and whether regions are kept apart; {} with no preset."""
    return tournament.event_format().preset_tables(number)


def _withdrawn(game: Game) -> set[int]:
    return {int(p) for p in (game.composition_options or {}).get("withdrawn", [])}


def _players_for(game: Game) -> list[Player]:
    gone = _withdrawn(game)
    present = [p for p in selectors.checked_in_players(game.tournament, game.number) if p.pk not in gone]
    return hooks.teams.players_for(game, present)  # a team event: its starters of this game


def _seated_ids(game: Game) -> list[list[int]]:
    return selectors.seated_tables([game]).get(game.pk, [])


def refresh_report(game: Game) -> dict[str, Any]:
    """Recompute the quality report of the game's current tables (after any change)."""
    opts = dict(game.composition_options or {})
    options = _options_from(opts)
    tables = [t for t in _seated_ids(game) if t]
    seated = {pid for t in tables for pid in t}
    players = {p.pk: p for p in _players_for(game)}
    for p in Player.objects.filter(pk__in=seated - set(players)).select_related("club"):
        players[p.pk] = p
    history = selectors.history_before(game)
    seating_players = selectors.seating_players(players.values(), by_region=opts.get("by_region"),
                                                teams=dict(history.teams))
    report = evaluate(tables, seating_players, history, options)
    previous = game.composition_report or {}
    for key in ("seeding", "search", "swiss_tables"):
        if key in previous:
            report[key] = previous[key]
    if "swiss_moves" in previous and _same_tables(previous.get("swiss_tables"), tables):
        report["swiss_moves"] = previous["swiss_moves"]  # K-SWISS: true until someone is moved by hand
    report["sizes_ok"] = _size_problems(game) == []
    report["size_problems"] = _size_problems(game)
    game.composition_report = report
    game.save(update_fields=["composition_report"])
    return report


# K-TABLES: the table sizes each shape seats (a "pairs_bye" table of 1 plays a ghost seat)
SHAPE_SIZES = {"fours": {4, 5}, "threes": {3, 4}, "pairs": {2, 3}, "pairs_bye": {2}}


def _same_tables(a: Any, b: Sequence[Sequence[int]]) -> bool:
    return a is not None and [sorted(t) for t in a] == [sorted(t) for t in b]


def _allowed_sizes(game: Game) -> set[int]:
    options = game.composition_options or {}
    return SHAPE_SIZES[options.get("shape") or "fours"] | ({6} if options.get("odd_count") == "six" else set())


def _ghost_allowed(options: dict[str, Any], seats: int, players: int) -> bool:
    """A ghost seat only where the organizer or the format chose one: a table of 3 with a ghost
    (K-TABLES), or the bye of a one-versus-one Swiss round (K-SWISS)."""
    if options.get("shape") == "pairs_bye":
        return seats == 2 and players == 1
    return options.get("odd_count") == "ghost" and seats == 4 and players == 3


def _size_problems(game: Game) -> list[str]:
    """Tables that cannot start as they are, in words (T-SIZE: the caller cites the rule once)."""
    allowed = _allowed_sizes(game)
    options = game.composition_options or {}
    out = []
    for table in Table.objects.filter(game=game).order_by("number").prefetch_related("seats"):
        seats = list(table.seats.all())
        players = sum(1 for s in seats if s.player_id)
        ghosts = len(seats) - players
        if ghosts and not _ghost_allowed(options, len(seats), players):
            out.append(_("Table %(t)s has a ghost seat the organizer did not choose.")
                       % {"t": table.number})
        elif len(seats) not in allowed:
            low, high = min(allowed), max(allowed)
            out.append(_("Table %(t)s has %(n)s players: tables have %(low)s to %(high)s.")
                       % {"t": table.number, "n": players, "low": low, "high": high})
    return out


def _new_pairs(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Warnings for repeats, club clashes and winners together that a change created."""
    def pairs(report: dict[str, Any], key: str) -> set[tuple[int, int]]:
        return {(row[1], row[2]) for row in report.get("details", {}).get(key, [])}

    names = {}
    out = []
    labels = {
        "repeated_pairs": _("%(a)s and %(b)s have already played together (table %(t)s)."),
        "same_club_pairs": _("%(a)s and %(b)s are from the same club (table %(t)s)."),
        "same_region_pairs": _("%(a)s and %(b)s are from the same region (table %(t)s)."),
        "winners_together": _("%(a)s and %(b)s both won a table before (table %(t)s)."),
    }
    for key, text in labels.items():
        new = pairs(after, key) - pairs(before, key)
        if not new:
            continue
        if not names:
            ids = {pid for rows in after["details"].values() for row in rows
                   for pid in row[1:3] if isinstance(pid, int)}
            names = {p.pk: p.display_name for p in Player.objects.filter(pk__in=ids)}
        for row in after["details"][key]:
            if (row[1], row[2]) in new:
                out.append(text % {"a": names.get(row[1], row[1]), "b": names.get(row[2], row[2]),
                                   "t": row[0]})
    return out


def _snapshot(game: Game) -> dict[str, Any]:
    return {"seed": game.seed, "tables": _seated_ids(game)}


# ------------------------------------------------------------------------------------ games


def deals_objectives(tournament: Tournament) -> bool:
    """Whether a new game deals the objective cards by default (O-RTU): yes where the rule set
    plays the tournament cards (RTU), as the organizer's guide says to; the organizer may still
    untick it before the start (cards dealt at the table)."""
    try:
        return tournament.event_format().rules().objectives == "rtu"
    except DomainError:
        return False


def ensure_game(tournament: Tournament, number: int, *, actor: Any) -> Game:
    """Game ``number`` of the tournament (created on first use; 1..games_count)."""
    require_organizer(actor, tournament, TABLES_REFUSAL)
    games = tournament.event_format().games_count
    if not 1 <= number <= games:
        raise DomainError(
            _("This tournament has games 1 to %(n)s.") % {"n": games},
            field="number", rule="K-BEST2",
        )
    game, created = Game.objects.get_or_create(
        tournament=tournament, number=number,
        defaults={"deal_objectives": deals_objectives(tournament)})
    if created:
        audit.record(actor=actor, action="game.create", obj=game, tournament=tournament,
                     after={"number": number})
    return game


# ------------------------------------------------------------------------------ composition


def _chosen_options(game: Game, choices: dict[str, Any]) -> dict[str, Any]:
    """The organizer's choices, completed by the format preset's for this round, then by the
    defaults for this game number, and checked."""
    given = {k: v for k, v in choices.items() if not (k == "priorities" and not v)}
    return clean_options(**{"priorities": list(default_priorities(game.number)),
                            **preset_options(game.tournament, game.number), **given})


def _seed(seed: str | None) -> str:
    seed = (seed or "").strip() or secrets.token_hex(16)
    if len(seed) > 64:
        raise DomainError(_("A seed has at most 64 characters."), field="seed", rule="K-TABLES")
    return seed


def _composition(game: Game, options_data: dict[str, Any], options: Options, seed: str) -> Composition:
    """The tables the seating gives this game's checked-in players with these options and seed
    (nothing stored)."""
    standings = (selectors.standings_positions(game.tournament)
                 if options_data["seeding"] == "swiss" else {})
    seating_players = selectors.seating_players(
        _players_for(game), by_region=options_data["by_region"], standings=standings,
        teams=hooks.teams.teams_of(game.tournament))
    try:
        return compose(seating_players, selectors.history_before(game), options, seed)
    except SeatingError as exc:
        odd = exc.reason is not None and exc.reason["code"] in ("sizes.no_mix", "sizes.no_six",
                                                                  "sizes.unknown_odd_choice")
        raise _seating_error(exc, "odd_count" if odd else "players") from exc


# What a preview counts, in the order the organizer's page shows them (the report's keys).
PREVIEW_COUNTS = ("repeated_pairs", "winners_together", "repeat_five_seats", "same_club_pairs",
                  "same_region_pairs")


def preview_composition(game: Game, *, actor: Any, seed: str | None = None,
                        **choices: Any) -> dict[str, Any]:
    """What composing with these choices would give, before composing (nothing is stored): the
    counts of the quality report (repeated pairs, previous winners together, repeated 5-seats,
    same-club pairs) for the order of priorities chosen, and the seed it used. Composing with
    the same choices and that seed gives exactly these tables (the seating is seeded)."""
    require_organizer(actor, game.tournament, TABLES_REFUSAL)
    _require_planned(game)
    options_data = _chosen_options(game, choices)
    seed = _seed(seed)
    report = _composition(game, options_data, _options_from(options_data), seed).report
    return {"seed": seed, "priorities": options_data["priorities"],
            "counts": {k: report.get(k, 0) for k in PREVIEW_COUNTS},
            "unmet": report.get("unmet", [])}


def compose_game(
    game: Game,
    *,
    actor: Any,
    seed: str | None = None,
    effort: float = 1.0,
    **choices: Any,
) -> Game:
    """(Re-)compose the tables of a planned game from the players checked in for it (K-TABLES,
    T-SIZE, T-ORDER). ``choices``: prefer, priorities, seeding, odd_count, by_region (see
    :func:`clean_options`). The seed is stored: the same players, history, choices and seed
    always give the same tables. A choice not given comes from the format preset's options for
    this round (:func:`preset_options`), then from the defaults."""
    require_organizer(actor, game.tournament, TABLES_REFUSAL)
    options_data = _chosen_options(game, choices)
    seed = _seed(seed)
    with transaction.atomic():
        game = _locked_game(game)
        _require_planned(game)
        withdrawn = sorted(_withdrawn(game))
        options = _options_from({**options_data, "effort": effort})
        composition = _composition(game, options_data, options, seed)
        before = _snapshot(game)
        Seat.objects.filter(game=game).delete()
        Table.objects.filter(game=game).delete()
        for t, members in enumerate(composition.tables, start=1):
            table = Table.objects.create(game=game, number=t)
            ids = list(members)
            ghost_at = 4 if len(ids) == 3 and options.odd_count == "ghost" else 0
            if len(ids) == 1 and options.shape == "pairs_bye":
                ghost_at = 2  # K-SWISS: the bye is a game against a ghost seat, its P typed by the referee
            if ghost_at:
                # The ghost seat's place in turn order is drawn too (T-ORDER), from the seed.
                at = SeededRng(derive_seed(seed, "ghost", t), stream="ghost").randbelow(ghost_at)
                ids.insert(at, None)  # type: ignore[arg-type]
            Seat.objects.bulk_create([
                Seat(table=table, game=game, number=n, player_id=pid)
                for n, pid in enumerate(ids, start=1)
            ])
        game.seed = seed
        game.composition_options = {**options_data, "withdrawn": withdrawn}
        game.composition_report = dict(composition.report) | (
            {"swiss_tables": [list(t) for t in composition.tables]} if "swiss_moves" in composition.report else {})
        game.save(update_fields=["seed", "composition_options", "composition_report"])
        refresh_report(game)
        audit.record(actor=actor, action="tables.compose", obj=game, tournament=game.tournament,
                     before=before, after=_snapshot(game) | {"options": options_data})
        transaction.on_commit(lambda: signals.tables_composed.send(sender=Game, game=game))
    return game


def swap_players(game: Game, player_a: int, player_b: int, *, actor: Any) -> Change:
    """Swap two seated players (each takes the other's seat); warns of any repeat, club clash
    or pair of winners the swap creates."""
    require_organizer(actor, game.tournament, TABLES_REFUSAL)
    with transaction.atomic():
        game = _locked_game(game)
        _require_planned(game)
        seat_a = _seat_for(game, player_a, "player_a")
        seat_b = _seat_for(game, player_b, "player_b")
        if seat_a.table_id == seat_b.table_id:
            raise DomainError(_("Both players sit at the same table: nothing would change."),
                              field="player_b", rule="K-TABLES")
        before_report = dict(game.composition_report or {})
        before = _snapshot(game)
        a, b = seat_a.player_id, seat_b.player_id
        Seat.objects.filter(pk=seat_a.pk).update(player=None)
        Seat.objects.filter(pk=seat_b.pk).update(player_id=a)
        Seat.objects.filter(pk=seat_a.pk).update(player_id=b)
        after_report = refresh_report(game)
        audit.record(actor=actor, action="tables.swap", obj=game, tournament=game.tournament,
                     before=before, after=_snapshot(game))
    return Change(game, _new_pairs(before_report, after_report))


def move_player(game: Game, player: int, table_number: int, *, actor: Any) -> Change:
    """Move a player to another table (last seat, or the ghost seat there). Both tables must
    still be playable sizes (T-SIZE) — otherwise swap players instead."""
    require_organizer(actor, game.tournament, TABLES_REFUSAL)
    with transaction.atomic():
        game = _locked_game(game)
        _require_planned(game)
        seat = _seat_for(game, player, "player")
        target = Table.objects.filter(game=game, number=table_number).first()
        if target is None:
            raise DomainError(_("There is no table %(t)s in this game.") % {"t": table_number},
                              field="table", rule="K-TABLES")
        if target.pk == seat.table_id:
            raise DomainError(_("The player already sits at table %(t)s.") % {"t": table_number},
                              field="table", rule="K-TABLES")
        source = seat.table
        allowed = _allowed_sizes(game)
        target_seats = list(target.seats.order_by("number"))
        ghost = next((s for s in target_seats if s.player_id is None), None)
        source_after = source.seats.count() - 1
        target_after = len(target_seats) + (0 if ghost else 1)
        if source_after not in allowed or target_after not in allowed:
            raise DomainError(
                _("Moving would leave table %(a)s with %(na)s seats and table %(b)s with "
                  "%(nb)s: tables have 4 or 5 players. Swap two players instead.")
                % {"a": source.number, "na": source_after, "b": target.number,
                   "nb": target_after},
                field="table", rule="T-SIZE",
            )
        before_report = dict(game.composition_report or {})
        before = _snapshot(game)
        _remove_seat(seat)
        if ghost:
            Seat.objects.filter(pk=ghost.pk).update(player_id=player)
        else:
            Seat.objects.create(table=target, game=game, number=len(target_seats) + 1,
                                player_id=player)
        after_report = refresh_report(game)
        audit.record(actor=actor, action="tables.move", obj=game, tournament=game.tournament,
                     before=before, after=_snapshot(game))
    return Change(game, _new_pairs(before_report, after_report))


def withdraw_player(game: Game, player: int, *, actor: Any) -> Change:
    """A no-show: take the player off this game (their seat goes; re-composing leaves them
    out). Warns when a table is left with a size that cannot start."""
    require_organizer(actor, game.tournament, TABLES_REFUSAL)
    with transaction.atomic():
        game = _locked_game(game)
        _require_planned(game)
        before = _snapshot(game)
        seat = Seat.objects.filter(game=game, player_id=player).select_related("table").first()
        checked_in = {p.pk for p in selectors.checked_in_players(game.tournament, game.number)}
        if seat is None and player not in checked_in:
            raise DomainError(_("This player is not in game %(n)s.") % {"n": game.number},
                              field="player", rule="K-TABLES")
        if seat is not None:
            _remove_seat(seat)
        opts = dict(game.composition_options or {})
        opts["withdrawn"] = sorted(_withdrawn(game) | {int(player)})
        game.composition_options = opts
        game.save(update_fields=["composition_options"])
        refresh_report(game)
        audit.record(actor=actor, action="tables.withdraw", obj=game,
                     tournament=game.tournament, before=before,
                     after=_snapshot(game) | {"withdrawn": player})
    return Change(game, _size_problems(game))


def reinstate_player(game: Game, player: int, *, actor: Any) -> Game:
    """Undo a withdrawal (the player is in the next composition again)."""
    require_organizer(actor, game.tournament, TABLES_REFUSAL)
    with transaction.atomic():
        game = _locked_game(game)
        _require_planned(game)
        opts = dict(game.composition_options or {})
        opts["withdrawn"] = sorted(_withdrawn(game) - {int(player)})
        game.composition_options = opts
        game.save(update_fields=["composition_options"])
        audit.record(actor=actor, action="tables.reinstate", obj=game,
                     tournament=game.tournament, after={"player": player})
    return game


def _seat_for(game: Game, player: int, field_name: str) -> Seat:
    seat = Seat.objects.filter(game=game, player_id=player).select_related("table").first()
    if seat is None:
        raise DomainError(_("This player has no seat in game %(n)s.") % {"n": game.number},
                          field=field_name, rule="K-TABLES")
    return seat


def _remove_seat(seat: Seat) -> None:
    """Delete a seat; the later seats of its table move up one (turn order kept)."""
    table_id, number = seat.table_id, seat.number
    seat.delete()
    for later in Seat.objects.filter(table_id=table_id, number__gt=number).order_by("number"):
        Seat.objects.filter(pk=later.pk).update(number=later.number - 1)


# ------------------------------------------------------------------------------------ start


def ruleset_spec(tournament: Tournament, players: int | None = None) -> dict[str, Any]:
    fmt = tournament.event_format()
    overrides = dict(fmt.ruleset_overrides)
    if players == 6:
        overrides.setdefault("max_players", 6)
    return {"base": fmt.ruleset, "overrides": overrides}


def deal_command(table: Table) -> str:
    """The command line that re-derives a table's deal (D-DEAL, D-50)."""
    players = table.seats.count()
    spec = ruleset_spec(table.game.tournament)
    cmd = f"python -m engine deal --players {players} --seed {table.deal_seed}"
    if spec["base"] != "RTU" or spec["overrides"]:
        import json

        cmd += f" --ruleset '{json.dumps(spec, separators=(',', ':'))}'"
    return cmd


def secret_commitment(secret_seed: str) -> str:
    """The public commitment to a game's secret seed: its SHA-256, hex. Published while the game
    runs; once it is finished the seed itself is published and anyone can check both."""
    return hashlib.sha256(secret_seed.encode()).hexdigest()


def objective_cards(seed: str, table_number: int, seats: int) -> list[str]:
    """Distinct RTU objective cards (O-RTU) for the seats of one table, from the game's secret
    seed (never the deal seed: that one is public)."""
    from engine import default_deck

    cards = list(default_deck("rtu"))
    SeededRng(derive_seed(seed, table_number), stream="objectives").shuffle(cards)
    return cards[:seats]


def start_game(game: Game, *, actor: Any, seed: str | None = None) -> Game:
    """Start a composed game: deal every table with the engine (D-DEAL, D-50; each table's seed
    stored), set colours, deal objective cards when the game asks (distinct at a table), and
    start each table's clock (E-TIME)."""
    from engine import EngineError, deal, get_ruleset, load_board

    require_organizer(actor, game.tournament, TABLES_REFUSAL)
    base = (seed or "").strip() or secrets.token_hex(16)
    with transaction.atomic():
        game = _locked_game(game)
        _require_planned(game)
        tables = list(Table.objects.filter(game=game).order_by("number").prefetch_related("seats"))
        if not tables:
            raise DomainError(_("Compose the tables before starting the game."),
                              field="tables", rule="K-TABLES")
        problems = _size_problems(game)
        if problems:
            raise DomainError(" ".join(problems), field="tables", rule="T-SIZE")
        board = load_board("world")
        if game.deal_objectives:
            # Secrets come from the server's own randomness, never from ``base`` (public through
            # the deal seeds, and possibly typed by the organizer).
            game.secret_seed = secrets.token_hex(32)
            game.secret_commitment = secret_commitment(game.secret_seed)
        for table in tables:
            seats = list(table.seats.all())
            table.deal_seed = derive_seed(base, "deal", table.number)
            try:
                rs = get_ruleset(ruleset_spec(game.tournament, len(seats)))
                table.deal = deal(board, len(seats), table.deal_seed, rs)
            except EngineError as exc:
                raise DomainError(describe(exc.code, exc.params, exc.message), field="tables",
                                  rule=exc.rule) from exc
            table.save(update_fields=["deal_seed", "deal"])
            cards = (objective_cards(game.secret_seed, table.number, len(seats))
                     if game.deal_objectives else [])
            for i, s in enumerate(seats):
                s.colour = COLOURS[i % len(COLOURS)]
                s.objective = cards[i] if cards and s.player_id else ""
            Seat.objects.bulk_update(seats, ["colour", "objective"])
        game.status = Game.Status.RUNNING
        game.started_at = timezone.now()
        game.save(update_fields=["status", "started_at", "secret_seed", "secret_commitment"])
        from tables import clocks

        for table in tables:
            clocks.start_clock(table, actor=actor)
        audit.record(
            actor=actor, action="game.start", obj=game, tournament=game.tournament,
            after={"deals": {t.number: t.deal_seed for t in tables},
                   "secret_commitment": game.secret_commitment},
        )
        transaction.on_commit(lambda: signals.game_started.send(sender=Game, game=game))
    return game


def set_deal_objectives(game: Game, value: bool, *, actor: Any) -> Game:
    """Whether starting the game also deals objective cards (O-RTU)."""
    require_organizer(actor, game.tournament, TABLES_REFUSAL)
    with transaction.atomic():
        game = _locked_game(game)
        _require_planned(game)
        game.deal_objectives = bool(value)
        game.save(update_fields=["deal_objectives"])
        audit.record(actor=actor, action="game.deal_objectives", obj=game,
                     tournament=game.tournament, after={"deal_objectives": bool(value)})
    return game


def set_rehearsal(game: Game, value: bool, *, actor: Any) -> Game:
    """Mark a game, before it starts, as a rehearsal ("partita di prova") or as a real game. A
    rehearsal is played as usual, but its results never count (standings, national ranking,
    workbook) and its tables are not history for seating the next games (K-TABLES)."""
    require_organizer(actor, game.tournament, TABLES_REFUSAL)
    with transaction.atomic():
        game = _locked_game(game)
        _require_planned(game)
        before = game.rehearsal
        game.rehearsal = bool(value)
        game.save(update_fields=["rehearsal"])
        audit.record(actor=actor, action="game.rehearsal", obj=game, tournament=game.tournament,
                     before={"rehearsal": before}, after={"rehearsal": game.rehearsal})
    hooks.results.invalidate(game.tournament_id)
    return game


def priority_choices() -> list[tuple[str, str]]:
    from tables.seating_text import priority_choices as translated

    return translated()
