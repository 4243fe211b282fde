"""The one place where scoring/ talks to the rules engine.

Every score is computed by ``engine.scoring`` (check_board + score_game); nothing here ranks or
adds points itself. Three ways in:

- a final board (owner and armies of every territory, objective cards, eliminations);
- a recorded game, adjudicated by ``engine.replay`` (the verdict's final board is then scored
  like an entered board, with the tournament's scoring system);
- the short form (per player: objective points, points outside the objective, armies,
  eliminated). The engine scores boards, so the short form is turned into an equivalent board:
  each player gets territories worth exactly their objective points (written as a one-off card)
  and their extra-objective points, and their armies. Game score, places, tie-breaks and
  bonuses then come from the engine exactly as for a full board.

Errors are ``DomainError`` with the rule id the engine cites, naming territory and player.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from common.engine_messages import ENDINGS, describe, record_problems
from common.errors import DomainError
from engine import (
    DECK_MAPS,
    ENTERED,
    SCORING_SYSTEMS,
    Board,
    Ending,
    EngineError,
    FinalBoard,
    FinalPlayer,
    Objective,
    Replay,
    RuleSet,
    Violation,
    check_board,
    default_deck,
    get_ruleset,
    load_board,
    load_deck,
    parse_record,
    score_game,
)

# the form field a violation belongs to, so a page can show it next to what was typed
RULE_FIELD = {
    "B-MAP": "owners", "A-OCCUPY": "armies", "D-CAP": "armies", "O-RTU": "objective",
    "O-CLASSIC": "objective", "A-ELIM": "eliminated", "S-PLACE": "owners", "FORMAT": "non_field_errors",
}


@dataclass(frozen=True)
class SeatInfo:
    """A seat of the table as the engine needs it (seat number = turn order)."""

    seat: int
    player_id: int | None
    name: str


@dataclass(frozen=True)
class Context:
    rs: RuleSet
    board: Board
    deck: Mapping[str, Objective]
    system: str
    club_changes: Mapping[str, Any] | None = None  # a preset's or organizer's club-format numbers


def context_for(ruleset: str, overrides: Mapping[str, Any] | None, system: str,
                club_changes: Mapping[str, Any] | None = None) -> Context:
    try:
        rs = get_ruleset({"base": ruleset, "overrides": dict(overrides or {})})
    except EngineError as err:
        raise DomainError(describe(err.code, err.params, err.message), field="ruleset", rule=err.rule) from None
    if system not in SCORING_SYSTEMS:
        raise DomainError(
            _("Unknown scoring system %(system)s.") % {"system": system}, field="scoring_system",
            rule="FORMAT",
        )
    board = load_board(DECK_MAPS.get(rs.objectives, "world"))
    return Context(rs, board, default_deck(rs.objectives), system, dict(club_changes or {}) or None)


def _name_seats(message: str, seats: Sequence[SeatInfo]) -> str:
    """"seat 3 has 104 armies" → "seat 3 (Carla Bianchi) has 104 armies"."""
    names = {s.seat: s.name for s in seats}
    return re.sub(
        r"\bseats? (\d+)\b",
        lambda m: f"{m.group(0)} ({names[int(m.group(1))]})" if int(m.group(1)) in names else m.group(0),
        message,
    )


SEAT_PARAMS = frozenset({"seat", "turn", "by", "loser"})  # parameters that are seat numbers (engine.messages)


def _named(v: Violation, seats: Sequence[SeatInfo], *, cited: str | None = None) -> str:
    """The violation in the page's language (common.engine_messages), seats with their players;
    a recorded game's violation says its event first. Its rule id comes first unless it is
    ``cited``, the refusal's own rule, which the page says once after the whole text."""
    if not v.code:
        text = _name_seats(v.message, seats)
    else:
        names = {s.seat: s.name for s in seats}
        params = {k: (f"{x} ({names[x]})" if k in SEAT_PARAMS and isinstance(x, int) and x in names else x)
                  for k, x in v.params.items()}
        text = describe(v.code, params, v.message)
    if v.rule != cited:
        text = f"{v.rule}: {text}"
    if v.event is None:
        return text
    return _("event %(event)s: %(violation)s") % {"event": v.event, "violation": text}


def _refuse(violations: Sequence[Violation], seats: Sequence[SeatInfo]) -> DomainError:
    first = violations[0]
    text = "; ".join(_named(v, seats, cited=first.rule) for v in violations)
    return DomainError(text, field=RULE_FIELD.get(first.rule, "non_field_errors"), rule=first.rule)


def _scores(ctx: Context, seats: Sequence[SeatInfo], final: FinalBoard,
            objectives: Mapping[str, Objective]) -> list[dict[str, Any]]:
    try:
        result = score_game(ctx.board, ctx.rs, final, objectives, ctx.system, club_changes=ctx.club_changes)
    except EngineError as err:
        raise DomainError(describe(err.code, err.params, err.message), rule=err.rule) from None
    by_seat = {s.seat: s for s in seats}
    elim = {p.seat: p.eliminated for p in final.players}
    out = []
    for s in result:
        row = s.as_dict()
        row["player"] = by_seat[s.seat].player_id if s.seat in by_seat else None
        row["eliminated"] = elim.get(s.seat)
        out.append(row)
    return out


def _check_players(ctx: Context, seats: Sequence[SeatInfo], players: Sequence[Mapping[str, Any]]) -> None:
    try:
        given = sorted(int(p.get("seat", 0)) for p in players)
    except (TypeError, ValueError):
        given = []
    if given and given == sorted(s.seat for s in seats):
        return
    raise DomainError(
        _("Give one entry for each seat of the table (seats %(seats)s).")
        % {"seats": ", ".join(str(s.seat) for s in seats)},
        field="players", rule="T-SIZE",
    )


def ending(ended_by: object) -> Ending:
    """What a referee entered as the game's ending (engine.endings.ENTERED)."""
    try:
        return Ending.parse(ended_by, ENTERED)
    except EngineError as err:
        raise DomainError(describe(err.code, err.params, err.message), field="ended_by", rule=err.rule) from None


def _elim(value: Any) -> int | None:
    if value in (None, "", 0, False):
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise DomainError(_("The elimination order must be a number."), field="eliminated", rule="FORMAT") from None


def final_board(ctx: Context, seats: Sequence[SeatInfo], data: Mapping[str, Any], ended_by: object) -> FinalBoard:
    """The final board a referee entered (the entry page and the API alike): ``data`` holds players
    (seat, objective, eliminated), owners (territory → seat) and armies (territory → count)."""
    ended = ending(ended_by)
    raw_players = list(data.get("players") or [])
    _check_players(ctx, seats, raw_players)
    players = sorted((FinalPlayer(int(p["seat"]), (p.get("objective") or None), _elim(p.get("eliminated")))
                      for p in raw_players), key=lambda p: p.seat)
    try:
        owners = {str(t): int(s) for t, s in (data.get("owners") or {}).items()}
        armies = {str(t): int(a) for t, a in (data.get("armies") or {}).items()}
    except (TypeError, ValueError):
        raise DomainError(_("Owners and armies must be numbers."), field="armies", rule="FORMAT") from None
    return FinalBoard(ended, tuple(players), owners, armies)


def score_board(ctx: Context, seats: Sequence[SeatInfo], final: FinalBoard,
                cards: Mapping[str, Objective] | None = None) -> list[dict[str, Any]]:
    """Check a final board with the engine and score it; ``cards``: objective cards written in an
    uploaded record, besides the rule set's deck."""
    objectives = {**ctx.deck, **(cards or {})}
    violations = check_board(ctx.board, ctx.rs, final, objectives)
    if violations:
        raise _refuse(violations, seats)
    return _scores(ctx, seats, final, objectives)


# ------------------------------------------------------------------ short form
def _subset(values: Sequence[tuple[str, int]], target: int) -> list[str] | None:
    """Territories (name, value) worth exactly ``target``, using as few as possible."""
    if target == 0:
        return []
    best: dict[int, list[str]] = {0: []}
    for name, value in values:
        for total, chosen in sorted(best.items(), reverse=True):
            new = total + value
            if new <= target and (new not in best or len(best[new]) > len(chosen) + 1):
                best[new] = [*chosen, name]
    return best.get(target)


def short_board(board: Board, rows: Sequence[Mapping[str, int]]) -> tuple[dict[str, int], dict[str, int], dict[int, frozenset[str]]] | None:
    """Owners, armies and one-off objective territories reproducing every row's points."""
    territories = sorted(((t.name, t.value) for t in board.territories.values()), key=lambda x: -x[1])
    alive = [r for r in rows if not r["eliminated"]]
    for order in itertools.islice(itertools.permutations(alive), 24):
        free = list(territories)
        owners: dict[str, int] = {}
        cards: dict[int, frozenset[str]] = {}
        ok = True
        for row in order:
            picked = []
            for target in (row["objective_points"], row["extra_points"]):
                chosen = _subset(free, target)
                if chosen is None:
                    ok = False
                    break
                free = [f for f in free if f[0] not in chosen]
                picked.append(chosen)
            if not ok:
                break
            cards[row["seat"]] = frozenset(picked[0])
            for t in picked[0] + picked[1]:
                owners[t] = row["seat"]
        if ok and not free:
            armies = dict.fromkeys(owners, 0)
            for row in alive:  # only each player's total matters to the engine
                mine = [t for t, s in owners.items() if s == row["seat"]]
                if mine:
                    armies[mine[0]] = row["armies"]
            return owners, armies, cards
    return None


def _int(row: Mapping[str, Any], key: str, field: str) -> int:
    try:
        value = int(row.get(key) or 0)
    except (TypeError, ValueError):
        raise DomainError(_("%(field)s must be a whole number.") % {"field": key}, field=field, rule="FORMAT") from None
    if value < 0:
        raise DomainError(_("%(field)s cannot be negative.") % {"field": key}, field=field, rule="FORMAT")
    return value


def _form_words() -> dict[str, str]:
    """The short form's own labels, so that a refusal names what to change where."""
    return {"points": _("Objective points"), "risiko": _("RisiKo!"), "how": _("How the game ended"),
            "objective": str(ENDINGS[Ending.OBJECTIVE])}


def _check_risiko(row: Mapping[str, int], who: str, card_value: int) -> None:
    """O-RTU: RisiKo! is holding the whole card, so its tick and the card's points agree; the
    refusal says what to type where (never only the fact)."""
    seat = row["seat"]
    words = {"seat": who, "max": card_value, **_form_words()}
    if row["risiko"] and row["objective_points"] != card_value:
        raise DomainError(_("Seat %(seat)s made RisiKo!, so they hold the whole card: type %(max)s in "
                            "“%(points)s” on their row, or untick their “%(risiko)s” if they did not make it.")
                          % words, field=f"objective_points_{seat}", rule="O-RTU")
    if not row["risiko"] and row["objective_points"] == card_value and not row["eliminated"]:
        raise DomainError(_("Seat %(seat)s holds the whole card (%(max)s points), so they made RisiKo!: tick "
                            "their “%(risiko)s” and choose “%(objective)s” in “%(how)s”; if they did not hold "
                            "it all, correct their “%(points)s”.")
                          % words, field=f"objective_points_{seat}", rule="O-RTU")


def _check_winner(ended: Ending, winners: Sequence[Mapping[str, int]], names: Mapping[int, str]) -> None:
    """O-RTU: a game ended by objective has exactly one player who made RisiKo!, any other
    ending none; the refusal says which tick or which ending to change."""
    words = _form_words()
    if len(winners) > 1:
        raise DomainError(_("Only one player makes RisiKo!: untick “%(risiko)s” on every row but the "
                            "winner's.") % words, field="ended_by", rule="O-RTU")
    if ended is Ending.OBJECTIVE and not winners:
        raise DomainError(_("The game ended by objective: tick “%(risiko)s” on the row of the player who "
                            "made it, or choose another ending in “%(how)s”.") % words,
                          field="ended_by", rule="O-RTU")
    if ended is not Ending.OBJECTIVE and winners:
        seat = winners[0]["seat"]
        raise DomainError(_("Seat %(seat)s made RisiKo!, so the game ended by objective: choose "
                            "“%(objective)s” in “%(how)s”, or untick their “%(risiko)s”.")
                          % {**words, "seat": f"{seat} ({names.get(seat, '')})"},
                          field="ended_by", rule="O-RTU")


def score_short(ctx: Context, seats: Sequence[SeatInfo], data: Mapping[str, Any],
                ended_by: object) -> list[dict[str, Any]]:
    """The short form: the same checks as a board where they can apply, then the engine's scores."""
    ended = ending(ended_by)
    raw = list(data.get("players") or [])
    _check_players(ctx, seats, raw)
    names = {s.seat: s.name for s in seats}
    rows = sorted((_short_row(ctx, p, names) for p in raw), key=lambda r: r["seat"])
    _check_short_table(ctx, ended, rows, names)
    final, objectives = _short_final_board(ctx, ended, rows)
    return _scores(ctx, seats, final, objectives)


def _short_row(ctx: Context, p: Mapping[str, Any], names: Mapping[int, str]) -> dict[str, int]:
    """One seat of the short form, read and checked on its own (A-ELIM, A-OCCUPY, D-CAP, O-RTU)."""
    card_value = ctx.rs.objective_total
    cap = ctx.rs.army_cap
    seat = int(p["seat"])
    who = f"{seat} ({names.get(seat, '')})"
    row = {
        "seat": seat,
        "objective_points": _int(p, "objective_points", f"objective_points_{seat}"),
        "extra_points": _int(p, "extra_points", f"extra_points_{seat}"),
        "armies": _int(p, "armies", f"armies_{seat}"),
        "eliminated": _elim(p.get("eliminated")) or 0,
        "risiko": 1 if p.get("risiko") else 0,
    }
    if row["eliminated"]:
        if row["objective_points"] or row["extra_points"] or row["armies"] or row["risiko"]:
            raise DomainError(_("Seat %(seat)s is eliminated: no points and no armies.") % {"seat": who},
                              field=f"armies_{seat}", rule="A-ELIM")
    else:
        if row["objective_points"] + row["extra_points"] == 0:
            raise DomainError(_("Seat %(seat)s holds no territory but is not marked eliminated.") % {"seat": who},
                              field=f"eliminated_{seat}", rule="A-ELIM")
        if row["armies"] < 1:
            raise DomainError(_("Seat %(seat)s: every territory holds at least 1 army.") % {"seat": who},
                              field=f"armies_{seat}", rule="A-OCCUPY")
        if cap is not None and row["armies"] > cap:
            raise DomainError(_("Seat %(seat)s has %(n)s armies on the board (at most %(cap)s).")
                              % {"seat": who, "n": row["armies"], "cap": cap}, field=f"armies_{seat}", rule="D-CAP")
    if row["objective_points"] > card_value:
        raise DomainError(_("Seat %(seat)s: an objective card is worth %(max)s points at most.")
                          % {"seat": who, "max": card_value}, field=f"objective_points_{seat}", rule="O-RTU")
    _check_risiko(row, who, card_value)
    return row


def _check_short_table(ctx: Context, ended: Ending, rows: Sequence[Mapping[str, int]],
                       names: Mapping[int, str]) -> None:
    """The seats of the short form together: the winner, the elimination orders (A-ELIM), and
    every point of the map given to exactly one seat (S-PLACE)."""
    _check_winner(ended, [r for r in rows if r["risiko"]], names)
    orders = sorted(r["eliminated"] for r in rows if r["eliminated"])
    if orders != list(range(1, len(orders) + 1)):
        raise DomainError(_("Elimination orders must be 1, 2, … in the order players were eliminated."),
                          field="eliminated", rule="A-ELIM")
    total = sum(r["objective_points"] + r["extra_points"] for r in rows)
    if total != ctx.board.total_value:
        raise DomainError(_("Objective and extra-objective points add up to %(total)s, not %(expected)s.")
                          % {"total": total, "expected": ctx.board.total_value}, field="players", rule="S-PLACE")


def _short_final_board(ctx: Context, ended: Ending, rows: Sequence[Mapping[str, int]],
                       ) -> tuple[FinalBoard, dict[str, Objective]]:
    """A final board of the map that gives every seat its points, with a card per seat that
    the seat holds wholly exactly when it made RisiKo!, so the engine scores it as entered."""
    built = short_board(ctx.board, rows)
    if built is None:
        raise DomainError(_("No board of this map gives these points; check the points of each player."),
                          field="players", rule="S-PLACE")
    owners, armies, cards = built
    objectives: dict[str, Objective] = {}
    players = []
    any_foreign = {s: next((t for t, o in owners.items() if o != s), None) for s in cards}
    for r in rows:
        card_id = f"SHORT-{r['seat']}"
        territories = set(cards.get(r["seat"], frozenset()))
        foreign = any_foreign.get(r["seat"])
        if not r["risiko"] and foreign is not None:
            territories.add(foreign)  # a card not wholly held: the player did not make RisiKo!
        objectives[card_id] = Objective(card_id, card_id, frozenset(territories))
        players.append(FinalPlayer(r["seat"], card_id, r["eliminated"] or None))
    return FinalBoard(ended, tuple(players), owners, armies), objectives


# ------------------------------------------------------------------ recorded game
def board_from_record(ctx: Context, seats: Sequence[SeatInfo], record: Any) -> tuple[dict[str, Any], FinalBoard]:
    """Adjudicate an uploaded record (engine.replay); a valid, ended game gives its final board
    (scored under its ending: S-TA's deck as time) and the data to store."""
    parsed = parse_record(record)
    if parsed.record is None or parsed.problems:
        raise DomainError(record_problems(parsed), field="record", rule="FORMAT")
    game = Replay(parsed.record)
    try:
        game.run()
    except Exception as exc:  # noqa: BLE001 - the engine's own net: never a 500
        crashed = Violation.coded(None, "FORMAT", "replay.crashed", error=f"{type(exc).__name__}: {exc}")
        raise DomainError(_named(crashed, seats), field="record", rule="FORMAT") from None
    verdict = game.verdict()
    if verdict.violations:
        v = verdict.violations[0]
        text = "; ".join(_named(x, seats) for x in verdict.violations[:5])
        raise DomainError(text, field="record", rule=v.rule)
    if not verdict.ended_by.ended:
        raise DomainError(_("The record stops before the end of the game."), field="record", rule="E-SDADATA")
    if len(parsed.record.players) != len(seats):
        raise DomainError(_("The record has %(n)s players; the table has %(m)s seats.")
                          % {"n": len(parsed.record.players), "m": len(seats)}, field="record", rule="T-SIZE")
    final = replace(verdict.final, ended_by=verdict.ended_by.scored_as)
    data = {key: value for key, value in final.as_dict().items() if key != "ended_by"}
    data["written_cards"] = {k: list(v) for k, v in parsed.record.objectives.items()}
    return data, final


def written_cards(ctx: Context, data: Mapping[str, Any]) -> dict[str, Objective]:
    cards = data.get("written_cards") or {}
    if not cards:
        return {}
    deck, _problems = load_deck({"cards": [{"id": k, "territories": v} for k, v in cards.items()]}, ctx.board)
    return deck
