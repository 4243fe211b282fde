"""``python -m engine``: the engine's stable command line (docs/engine.md).

Exit codes: 0 success / valid, 1 rule violations (with rule ids), 2 unusable input (with a
one-line reason on stderr). ``--json`` prints exactly the contract's objects; without it the
output is meant for people.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import exact
from engine.violations import EngineError

if TYPE_CHECKING:  # the command line loads what a command needs when it runs
    from engine.board import Board
    from engine.endings import FinalPlayer

OK, VIOLATIONS, UNUSABLE = 0, 1, 2


class _UsageError(Exception):
    """argparse refusals, turned into exit 2 without printing a traceback."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:
        raise _UsageError(message)


def _dump(obj: object) -> str:
    return exact.dumps(obj, ensure_ascii=False)  # scores as exact decimal numbers


def _fail(reason: str) -> int:
    print(reason.replace("\n", " "), file=sys.stderr)
    return UNUSABLE


# ---------------------------------------------------------------------- adjudicate
def cmd_adjudicate(args: argparse.Namespace) -> int:
    from engine.record import parse_record
    from engine.replay import adjudicate_parsed
    from engine.verdict import Verdict, format_verdict

    try:
        text = Path(args.record).read_bytes()
    except OSError as exc:
        verdict = Verdict.format_error(f"cannot read {args.record}: {exc.strerror or exc}")
    else:
        verdict = adjudicate_parsed(parse_record(text))
    print(_dump(verdict.as_dict()) if args.json else format_verdict(verdict))
    if verdict.unusable:
        print(f"unusable record: {verdict.violations[0].message}", file=sys.stderr)
        return UNUSABLE
    return OK if verdict.valid else VIOLATIONS


# ---------------------------------------------------------------------- deal
def cmd_deal(args: argparse.Namespace) -> int:
    from engine.board import load_board
    from engine.deal import deal
    from engine.rng import derive_seed
    from engine.rulesets import get_ruleset

    board = load_board(args.map)
    rs = get_ruleset(_ruleset_arg(args.ruleset))
    seeds = [args.seed] if args.count is None else [derive_seed(args.seed, k) for k in range(args.count)]
    for seed in seeds:
        owners = deal(board, args.players, seed, rs)
        result = {"seed": seed, "players": args.players, "owners": dict(owners)}
        if args.json:
            print(_dump(result))
        else:
            print(f"deal of seed {seed} ({args.players} players, map {board.id}):")
            for seat in range(1, args.players + 1):
                mine = [t for t in board.territories if owners[t] == seat]
                print(f"  seat {seat} ({len(mine)}): {', '.join(mine)}")
    return OK


# ---------------------------------------------------------------------- simulate
def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.replay import adjudicate
    from engine.simulate import simulate

    record = simulate(args.players, args.seed, _ruleset_arg(args.ruleset))
    if args.json:
        print(_dump(record))
        return OK
    verdict = adjudicate(record)
    print(f"simulated {args.players}-player game, seed {args.seed}, rule set {args.ruleset}: "
          f"{len(record['events'])} events, {verdict['rounds']} rounds, ended by {verdict['ended_by']}")
    for s in sorted(verdict["scores"], key=lambda s: s["place"]):
        print(f"  place {s['place']}: seat {s['seat']} score {s['game_score']} points {s['tournament_points']}")
    print("(use --json for the record)")
    return OK


def _ruleset_arg(value: str) -> str | dict[str, Any]:
    """A rule set name, or a JSON object {"base": ..., "overrides": {...}}."""
    if value.lstrip().startswith("{"):
        try:
            spec = json.loads(value)
        except json.JSONDecodeError as exc:
            raise EngineError("FORMAT", f"--ruleset is not valid JSON: {exc}") from exc
        if not isinstance(spec, dict):
            raise EngineError("FORMAT", "--ruleset must be a name or a JSON object")
        return spec
    return value


# ---------------------------------------------------------------------- odds
def cmd_odds(args: argparse.Namespace) -> int:
    from engine import odds as odds_module
    from engine.rulesets import get_ruleset

    rs = get_ruleset(_ruleset_arg(args.ruleset))
    result = odds_module.odds(args.attackers, args.defenders, rs)
    data: dict[str, Any] = result.as_dict()
    if args.json:
        print(_dump(data))
    else:
        print(f"{args.attackers} against {args.defenders}: conquers with p = {data['p_conquer']:.4f}")
        print("  attacker left: " + ", ".join(f"{k}: {v:.4f}" for k, v in data["attacker_remaining"].items()))
        print("  defender left: " + ", ".join(f"{k}: {v:.4f}" for k, v in data["defender_remaining"].items()))
    return OK


# ---------------------------------------------------------------------- score
class _Pairs(dict):  # type: ignore[type-arg]
    """A JSON object that remembers every key/value pair, repeated keys included."""

    pairs: list[tuple[str, Any]]


def _object_pairs(pairs: list[tuple[str, Any]]) -> _Pairs:
    obj = _Pairs(pairs)
    obj.pairs = pairs
    return obj


def cmd_score(args: argparse.Namespace) -> int:
    from engine.board import load_board
    from engine.endings import BOARD_ENDINGS, Ending, FinalBoard
    from engine.objectives import deck_for, load_deck
    from engine.rulesets import get_ruleset
    from engine.scoring import check_board, score_game

    try:
        data = json.loads(Path(args.board).read_bytes(), object_pairs_hook=_object_pairs)
    except OSError as exc:
        return _fail(f"cannot read {args.board}: {exc.strerror or exc}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        return _fail(f"{args.board} is not JSON: {exc}")
    if not isinstance(data, dict):
        return _fail("the board must be a JSON object")
    board = load_board(str(data.get("map", "world")))
    rs = get_ruleset(data.get("ruleset", "RTU"))
    problems: list[tuple[str, str]] = []
    bad_ending: list[tuple[str, str]] = []  # reported with the board's own problems
    try:
        ended_by = Ending.parse(data.get("ended_by", "sdadata"), BOARD_ENDINGS)
    except EngineError as err:
        bad_ending.append((err.rule, err.message))
        ended_by = Ending.INCOMPLETE  # checked like any ending but the objective
    try:
        players, owners, armies, twice = _final_positions(board, data)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        return _fail(f"the board needs players, owners and armies: {exc}")
    problems += twice
    objectives = dict(deck_for(rs.objectives, board))
    extra = data.get("objectives") or {}
    if extra:
        if not isinstance(extra, dict):
            return _fail("'objectives' must be an object of card id → territory names")
        cards = [{"id": cid, "name": cid, "territories": names} for cid, names in extra.items()]
        loaded, deck_problems = load_deck({"cards": cards}, board)
        problems += [(p.rule, p.message) for p in deck_problems]
        objectives.update(loaded)
    final = FinalBoard(ended_by, tuple(players), owners, armies)
    problems += bad_ending + [(v.rule, v.message) for v in check_board(board, rs, final, objectives)]
    if problems:
        return _report(args.json, problems)
    scores = score_game(board, rs, final, objectives, system=args.scoring or rs.default_scoring)
    _print_scores([_score_row(s) for s in scores], as_json=args.json)
    return OK


def _final_positions(
    board: Board, data: Mapping[str, Any],
) -> tuple[list[FinalPlayer], dict[str, int], dict[str, int], list[tuple[str, str]]]:
    """The players, owners and armies of a final board read from its JSON object, and every
    territory it gives two owners (B-MAP: one territory, one owner). Raises KeyError, TypeError,
    ValueError or AttributeError on a missing or malformed part."""
    from engine.endings import FinalPlayer

    players = [
        FinalPlayer(int(p["seat"]), str(p.get("objective") or ""), _order(p.get("eliminated")))
        for p in data["players"]
    ]
    owners: dict[str, int] = {}
    spelled: dict[str, str] = {}
    twice: list[tuple[str, str]] = []
    raw_owners = data["owners"]
    for name, seat in getattr(raw_owners, "pairs", None) or list(raw_owners.items()):
        territory = _name(board, name)
        if territory in spelled:
            twice.append(("B-MAP", f"{territory} is owned twice ({spelled[territory]!r} and {name!r})"))
        spelled[territory] = name
        owners[territory] = _int(seat, f"owner of {name}")
    armies = {_name(board, t): _int(a, f"armies on {t}") for t, a in data["armies"].items()}
    return players, owners, armies, twice


def _print_scores(rows: list[dict[str, Any]], *, as_json: bool) -> None:
    if as_json:
        print(_dump({"scores": rows}))
        return
    for r in sorted(rows, key=lambda r: (r["place"], r["seat"])):
        tie = f" (tie-break: {r['tiebreak']})" if r.get("tiebreak") else ""
        print(f"place {r['place']}: seat {r['seat']} score {r['game_score']} extra {r['extra_objective']} "
              f"armies {r['armies']} points {r['tournament_points']}{tie}")


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, not {json.dumps(value)}")
    return value


def _order(value: Any) -> int | None:
    return None if value is None else _int(value, "'eliminated'")


def _name(board: Any, name: str) -> str:
    canonical = board.canonical(name) if isinstance(name, str) else None
    if canonical is None:
        raise ValueError(f"unknown territory {name!r} on map {board.id!r}")
    return str(canonical)


def _score_row(score: Any) -> dict[str, Any]:
    from engine.replay import _score_dict

    row = _score_dict(score)
    row.setdefault("tiebreak", None)  # the contract: the tie-break used for each place (null: none needed)
    return row


def _report(as_json: bool, problems: Sequence[tuple[str, str]]) -> int:
    violations = [{"event": None, "rule": rule, "message": message} for rule, message in problems]
    if as_json:
        print(_dump({"valid": False, "violations": violations}))
    else:
        for v in violations:
            print(f"{v['rule']}: {v['message']}")
    return VIOLATIONS


# ---------------------------------------------------------------------- resolve
def cmd_resolve(args: argparse.Namespace) -> int:
    from engine.dice import check_roll, resolve
    from engine.rulesets import get_ruleset

    rs = get_ruleset(_ruleset_arg(args.ruleset))
    attacker, defender = list(args.attacker), list(args.defender)
    # the fewest armies that allow these dice: the roll is judged on its own
    problems = check_roll(rs, attacker, defender, len(attacker) + 1, len(defender))
    unusable = [message for rule, message in problems if rule == "FORMAT"]
    if unusable:
        return _fail("; ".join(unusable))
    if problems:
        return _report(args.json, problems)
    a_loss, d_loss = resolve(attacker, defender)
    result = {"attacker_losses": a_loss, "defender_losses": d_loss}
    if args.json:
        print(_dump(result))
    else:
        print(f"{'-'.join(map(str, attacker))} against {'-'.join(map(str, defender))}: "
              f"attacker loses {a_loss}, defender loses {d_loss}")
    return OK


# ---------------------------------------------------------------------- main
def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="RisiKo! rules engine (rule ids as in docs/rules.md)")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("adjudicate", help="replay a game record and print its verdict")
    p.add_argument("record")
    p.set_defaults(func=cmd_adjudicate)

    p = sub.add_parser("deal", help="a D-50 deal from a seed")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", required=True)
    p.add_argument("--map", default="world")
    p.add_argument("--ruleset", default="RTU")
    p.add_argument("--count", type=int)
    p.set_defaults(func=cmd_deal)

    p = sub.add_parser("simulate", help="a complete legal random game as a record")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--seed", required=True)
    p.add_argument("--ruleset", default="RTU")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("odds", help="odds of an attack carried on until it conquers or must stop")
    p.add_argument("attackers", type=int)
    p.add_argument("defenders", type=int)
    p.add_argument("--ruleset", default="RTU")
    p.set_defaults(func=cmd_odds)

    p = sub.add_parser("score", help="score a final board")
    p.add_argument("board")
    p.add_argument("--scoring")
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("resolve", help="the outcome of one roll")
    p.add_argument("--attacker", type=int, nargs="+", required=True)
    p.add_argument("--defender", type=int, nargs="+", required=True)
    p.add_argument("--ruleset", default="RTU")
    p.set_defaults(func=cmd_resolve)

    for action in sub.choices.values():
        action.add_argument("--json", action="store_true", help="print the contract's JSON object")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except _UsageError as exc:
        return _fail(f"usage: {exc}")
    except SystemExit as exc:  # --help
        return int(exc.code or 0) if isinstance(exc.code, int) else 0
    if getattr(args, "count", None) is not None and args.count < 1:
        return _fail("--count must be at least 1")
    try:
        result: int = args.func(args)
    except EngineError as exc:
        return _fail(f"{exc.rule}: {exc.message}")
    except BrokenPipeError:  # e.g. `deal --count 1000 | head`: the reader has what it wanted
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return OK
    except (ValueError, KeyError, TypeError) as exc:
        return _fail(f"unusable input: {exc}")
    return result


