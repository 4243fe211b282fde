"""Bots that play complete, legal, random games and write them as records (docs/engine.md).

For tests, demos and benchmarks: every choice comes from ``SeededRng(seed)``, so the same
(players, seed, rule set) always gives the same record. The bots are simple but not aimless:
they reinforce and attack next to their objective, so games end by objective, elimination or
the closure (sdadata / time) in a realistic number of rounds.

The clock is simulated: the time expires during a seeded turn between round 3 and round 8.

Rule sets whose table size excludes the player count (RTU plays 4–5) are widened with an
override written into the record, ``{"base": "RTU", "overrides": {"min_players": 2}}``, so the
record still adjudicates under its own stated rules. With 2 players D-50 cannot hold (two
players × 4 < Nord America's 9), so a 2-player RTU game also overrides
``deal_max_continent_share`` to null.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.board import Board, load_board
from engine.closure import ClosureState
from engine.deal import deal
from engine.dice import resolve
from engine.endings import Ending
from engine.objectives import Objective, default_deck
from engine.record import FORMAT_VERSION, JOLLY
from engine.replay import objective_reached
from engine.rng import SeededRng, derive_seed
from engine.rulesets import RuleSet, get_ruleset
from engine.violations import EngineError

COLOURS = ("blu", "rosse", "gialle", "verdi", "nere", "viola")
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Fabio")
MAX_TURNS = 1500  # a safety net; simulated games end long before
MAX_ROLLS_PER_TURN = 60


def table_spec(players: int, ruleset: str | Mapping[str, Any] = "RTU") -> str | dict[str, Any]:
    """The rule set as written in the record, widened to ``players`` if its table size excludes it."""
    rs = get_ruleset(ruleset)
    if rs.min_players <= players <= rs.max_players:
        return ruleset if isinstance(ruleset, str) else dict(ruleset)
    if isinstance(ruleset, str):
        spec: dict[str, Any] = {"base": rs.id, "overrides": {}}
    else:
        spec = {"base": ruleset.get("base", "RTU"), "overrides": dict(ruleset.get("overrides") or {})}
    spec["overrides"]["min_players"] = min(players, rs.min_players)
    spec["overrides"]["max_players"] = max(players, rs.max_players)
    return spec


class _Bot:
    def __init__(self, players: int, seed: str, spec: str | Mapping[str, Any]) -> None:
        self.n = players
        self.spec = spec
        self.rs: RuleSet = get_ruleset(spec)
        self.board: Board = load_board("world")
        self.rng = SeededRng(seed, stream="simulate")
        self.deal_seed = derive_seed(seed, "deal")
        borders = self.board.borders or {}
        self.adj = {t: tuple(sorted(borders[t])) for t in self.board.territories}
        self.names = tuple(self.board.territories)
        self.continents = [(tuple(c.territories), c.bonus) for c in self.board.continents.values()]
        self.events: list[dict[str, Any]] = []
        self.owner: dict[str, int] = dict(deal(self.board, players, self.deal_seed, self.rs))
        self.deal_owner = dict(self.owner)
        self.armies = dict.fromkeys(self.names, 1)
        self.closure = ClosureState.start(self.rs, players)
        self.hands: dict[int, list[str]] = {s: [] for s in range(1, players + 1)}
        self.deck: list[str] = [*self.names, JOLLY, JOLLY]
        self.rng.shuffle(self.deck)
        self.discards: list[str] = []
        self.reshuffles = 0
        self.exhaustions = 0
        self.eliminated: list[int] = []
        self.eliminated_by: dict[int, int] = {}
        self.ended_by: Ending | None = None
        deck = default_deck(self.rs.objectives)
        ids = sorted(deck)
        self.rng.shuffle(ids)
        self.objective_ids = ids[:players]
        self.objectives: dict[int, Objective] = {s: deck[ids[s - 1]] for s in range(1, players + 1)}
        self.colours = COLOURS[:players]

    # ------------------------------------------------------------------ helpers
    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def own(self, seat: int) -> list[str]:
        return [t for t in self.names if self.owner[t] == seat]

    def total(self, seat: int) -> int:
        return sum(self.armies[t] for t in self.names if self.owner[t] == seat)

    def enemy_near(self, t: str, seat: int) -> bool:
        return any(self.owner[n] != seat for n in self.adj[t])

    def held(self, seat: int) -> bool:
        colours = {s: self.colours[s - 1] for s in range(1, self.n + 1)}
        return objective_reached(self.objectives[seat], seat, self.owner, self.armies, self.board, colours, self.eliminated_by)

    def wanted(self, seat: int) -> frozenset[str]:
        return self.objectives[seat].territories

    # ------------------------------------------------------------------ set-up
    def setup(self) -> None:
        start = self.rs.starting_armies[self.n]
        left = {s: start - len(self.own(s)) for s in range(1, self.n + 1)}
        seat = 1
        while any(left.values()):
            if left[seat] > 0:
                chunk = min(self.rs.setup_armies_per_placement, left[seat])
                left[seat] -= chunk
                while chunk:
                    part = chunk if self.rng.random() < 0.7 else self.rng.randint(1, chunk)
                    territory = self.pick_front(seat)
                    self.armies[territory] += part
                    self.emit({"type": "place", "territory": territory, "armies": part})
                    chunk -= part
            seat = seat % self.n + 1

    def pick_front(self, seat: int) -> str:
        """A territory to strengthen: on the front, next to the objective when possible."""
        mine = self.own(seat)
        front = [t for t in mine if self.enemy_near(t, seat)] or mine
        wanted = self.wanted(seat)
        keen = [t for t in front if any(n in wanted and self.owner[n] != seat for n in self.adj[t])]
        return self.rng.choice(keen or front)

    # ------------------------------------------------------------------ a turn
    def allowance(self, seat: int) -> int:
        amount = len(self.own(seat)) // 3
        for territories, bonus in self.continents:
            if all(self.owner[t] == seat for t in territories):
                amount += bonus
        return amount + (1 if self.rs.reinforcement_plus_one else 0)

    def best_tris(self, seat: int) -> tuple[list[str], int] | None:
        hand = self.hands[seat]
        by_symbol: dict[str, list[str]] = {}
        jollies = [c for c in hand if c == JOLLY]
        for c in hand:
            if c != JOLLY:
                symbol = self.board.territories[c].symbol or ""
                by_symbol.setdefault(symbol, []).append(c)
        values = self.rs.tris_values
        options: list[tuple[int, list[str]]] = []
        for symbol, cards in by_symbol.items():
            if len(cards) >= 3:
                options.append((values[f"three_{symbol}"], cards[:3]))
            if len(cards) >= 2 and jollies:
                options.append((values["jolly_two_alike"], [*cards[:2], JOLLY]))
        if len(by_symbol) == 3:
            options.append((values["one_each"], [cards[0] for cards in by_symbol.values()]))
        if not options:
            return None
        value, cards = max(options, key=lambda o: o[0])
        return cards, value

    def play_tris(self, seat: int) -> int:
        found = self.best_tris(seat)
        if found is None or (len(self.hands[seat]) < 5 and self.rng.random() < 0.4):
            return 0
        cards, value = found
        for c in cards:
            self.hands[seat].remove(c)
            self.discards.append(c)
        bonus = sum(self.rs.tris_owned_territory_bonus for c in cards if c != JOLLY and self.owner[c] == seat)
        self.emit({"type": "tris", "cards": cards})
        return value + bonus

    def reinforce(self, seat: int, amount: int) -> bool:
        cap = self.rs.army_cap
        if cap is not None:
            amount = min(amount, max(0, cap - self.total(seat)))
        while amount > 0:
            part = self.rng.randint(1, amount) if self.rng.random() < 0.5 else amount
            territory = self.pick_front(seat)
            self.armies[territory] += part
            self.emit({"type": "place", "territory": territory, "armies": part})
            amount -= part
            if self.ends_by_objective(seat):
                return True
        return False

    def ends_by_objective(self, seat: int) -> bool:
        if self.held(seat):
            self.ended_by = Ending.OBJECTIVE
            return True
        return False

    def targets(self, seat: int, round_: int) -> list[tuple[float, str, str]]:
        rs = self.rs
        wanted = self.wanted(seat)
        out: list[tuple[float, str, str]] = []
        for src in self.names:
            if self.owner[src] != seat or self.armies[src] < 2:
                continue
            a = min(rs.max_attack_dice, self.armies[src] - 1)
            for dst in self.adj[src]:
                victim = self.owner[dst]
                if victim == seat:
                    continue
                d = self.armies[dst]
                if rs.attacker_dice_at_least_defender and a < min(rs.max_defence_dice, d) and rs.defender_must_roll_max:
                    continue
                last = sum(1 for t in self.names if self.owner[t] == victim) == 1
                if last and (round_ < rs.elimination_from_round or self.hand_too_full(seat, victim)):
                    continue
                score = (self.armies[src] - d) + (3 if dst in wanted else 0) + self.rng.random()
                out.append((score, src, dst))
        out.sort(reverse=True)
        return out

    def hand_too_full(self, seat: int, victim: int) -> bool:
        limit = self.rs.hand_limit
        return limit is not None and len(self.hands[seat]) + len(self.hands[victim]) + 1 > limit

    def attacks(self, seat: int, round_: int) -> tuple[int, bool]:
        """Attack until the bot stops; (conquests, whether the game ended)."""
        rs = self.rs
        conquered = 0
        rolls = 0
        appetite = self.rng.randint(0, 4) + 2
        while rolls < MAX_ROLLS_PER_TURN:
            options = self.targets(seat, round_)
            if not options:
                break
            score, src, dst = options[0]
            if score < 1 and conquered >= 1:
                break
            if conquered >= appetite and self.rng.random() < 0.6:
                break
            a_n = min(rs.max_attack_dice, self.armies[src] - 1)
            most = min(rs.max_defence_dice, self.armies[dst])
            d_n = most if rs.defender_must_roll_max else self.rng.randint(1, most)
            if rs.attacker_dice_at_least_defender:
                d_n = min(d_n, a_n)
            a_dice = [self.rng.randint(1, 6) for _ in range(a_n)]
            d_dice = [self.rng.randint(1, 6) for _ in range(d_n)]
            a_loss, d_loss = resolve(a_dice, d_dice)
            self.armies[src] -= a_loss
            self.armies[dst] -= d_loss
            rolls += 1
            self.emit({"type": "attack", "from": src, "to": dst, "attacker": a_dice, "defender": d_dice})
            if self.armies[dst] > 0:
                continue
            victim = self.owner[dst]
            self.owner[dst] = seat
            conquered += 1
            self.advance(seat, src, dst, a_n)
            if victim not in self.eliminated and all(self.owner[t] != victim for t in self.names):
                self.eliminated.append(victim)
                self.eliminated_by[victim] = seat
                self.hands[seat].extend(self.hands[victim])
                self.hands[victim] = []
                self.closure = self.closure.eliminate(victim)
                if len(self.eliminated) >= self.n - 1 or (rs.closure == "time_attack" and self.reshuffles):
                    self.ended_by = Ending.ELIMINATION
                    return conquered, True
            if self.ends_by_objective(seat):
                return conquered, True
        return conquered, False

    def advance(self, seat: int, src: str, dst: str, dice_n: int) -> None:
        most = self.armies[src] - 1
        garrison = self.rs.garrison_min_on_border
        if garrison > 1 and self.enemy_near(src, seat):
            most = max(dice_n, min(most, self.armies[src] - garrison))
        amount = most if self.rng.random() < 0.7 else self.rng.randint(dice_n, max(dice_n, most))
        self.armies[src] -= amount
        self.armies[dst] += amount
        self.emit({"type": "advance", "armies": amount})

    def strategic_move(self, seat: int) -> bool:
        if self.rng.random() < 0.25:
            return False
        garrison = max(1, self.rs.garrison_min_on_border)
        moves: list[tuple[int, str, str, int]] = []
        for src in self.names:
            if self.owner[src] != seat or self.armies[src] < 2:
                continue
            keep = garrison if self.enemy_near(src, seat) else 1
            amount = self.armies[src] - keep
            if amount < 1:
                continue
            for dst in self.adj[src]:
                if self.owner[dst] == seat and self.enemy_near(dst, seat):
                    moves.append((amount, src, dst, keep))
        if not moves:
            return False
        amount, src, dst, _ = max(moves, key=lambda m: (m[0], self.rng.random()))
        self.armies[src] -= amount
        self.armies[dst] += amount
        self.emit({"type": "move", "from": src, "to": dst, "armies": amount})
        return self.ends_by_objective(seat)

    def draw(self) -> str | None:
        if not self.deck and self.discards:
            self.deck = self.discards
            self.discards = []
            self.rng.shuffle(self.deck)
            self.reshuffles += 1
        if not self.deck:
            return None
        card = self.deck.pop()
        if not self.deck:
            self.exhaustions += 1
        return card

    # ------------------------------------------------------------------ the game
    def play(self) -> None:
        self.setup()
        rs = self.rs
        clock = rs.closure != "none"
        expire_turn = self.rng.randint(3 * self.n, 8 * self.n) if clock else -1
        for turn in range(MAX_TURNS):
            seat, round_ = self.closure.seat, self.closure.round
            late_notice = self.rng.random() < 0.5
            if turn == expire_turn and not late_notice:
                self.emit({"type": "time_expired"})
                self.closure = self.closure.time_expired()
            if self.reinforce(seat, self.allowance(seat) + self.play_tris(seat)):
                return
            conquered, ended = self.attacks(seat, round_)
            if ended or self.strategic_move(seat):
                return
            if turn == expire_turn and late_notice:
                self.emit({"type": "time_expired"})
                self.closure = self.closure.time_expired()
            roll: tuple[int, ...] | None = None
            if self.closure.roll_due() and not self.closure.barred(conquered):
                roll = tuple(self.rng.randint(1, 6) for _ in range(rs.sdadata_dice))
                self.emit({"type": "sdadata", "dice": list(roll)})
            end: dict[str, Any] = {"type": "end_turn"}
            if conquered:
                card = self.draw()
                if card is not None:
                    self.hands[seat].append(card)
                    end["draw"] = card
            self.emit(end)
            self.closure = self.closure.end_turn(seat, conquered, roll)
            if self.closure.ended:
                self.ended_by = self.closure.ended_by
                return
            if rs.deck_exhaustions_to_end and self.exhaustions >= rs.deck_exhaustions_to_end:
                self.ended_by = Ending.DECK
                return

    def record(self) -> dict[str, Any]:
        players = [
            {"seat": s, "name": NAMES[s - 1], "colour": self.colours[s - 1], "objective": self.objective_ids[s - 1]}
            for s in range(1, self.n + 1)
        ]
        cards = {
            obj.id: sorted(obj.territories) for obj in self.objectives.values() if obj.kind == "territories"
        }
        out: dict[str, Any] = {
            "format": FORMAT_VERSION,
            "ruleset": self.spec,
            "map": "world",
            "players": players,
        }
        if cards:
            out["objectives"] = cards
        out["deal"] = {"seed": self.deal_seed, "owners": {t: self.deal_owner[t] for t in self.names}}
        out["events"] = self.events
        return out


def simulate(players: int, seed: str, ruleset: str | Mapping[str, Any] = "RTU") -> dict[str, Any]:
    """A complete legal random game as a record; the same arguments give the same record."""
    armies = get_ruleset(ruleset).starting_armies
    if players not in armies:
        raise EngineError("T-SIZE", f"the simulator plays tables of {min(armies)} to {max(armies)} players "
                          f"(the rule set's D-ARMIES), not {players}")
    spec = table_spec(players, ruleset)
    try:
        bot = _Bot(players, seed, spec)
    except EngineError as exc:
        if exc.rule != "D-50":
            raise
        # D-50 cannot hold with so few players (2 × 4 < Nord America's 9): deal without it
        wide: dict[str, Any] = dict(spec) if isinstance(spec, Mapping) else {"base": spec, "overrides": {}}
        wide["overrides"] = {**dict(wide.get("overrides") or {}), "deal_max_continent_share": None}
        bot = _Bot(players, seed, wide)
    bot.play()
    return bot.record()
