"""The adjudicator: replay a game record event by event and list every rule it breaks.

The adjudicator never rolls a die: every outcome comes from the dice written in the record
(A-RESOLVE), so the same record always gives the same verdict. After a violation it carries on
where it can (it applies what the record says happened), so one verdict lists all violations.
The hot loop works on plain dicts of territory → int and precomputed adjacency sets; it reaches
well over 100,000 events per second (benchmarks/engine.py).

How to read it: ``Replay.run`` is the whole game in order. The deal (``setup_deal``, D-DEAL,
D-50) and the objective cards (``setup_objectives``), the set-up placement
(``_setup_placement``, D-ARMIES), then one loop over the events of the turns: the checks every
event shares (T-ORDER, a missed advance, the sdadata last, the end of the reinforcements), then
the handler of its type, ``_on_<type>`` (place, tris, attack, advance, move, sdadata,
time_expired, end_turn). The turn being played is a handful of fields on ``self`` (``seat``,
``phase``, ``to_place``, ``pending``…) that ``_begin_turn`` resets; ``_close`` settles what is
left after the last event.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from engine.board import Board
from engine.closure import ClosureState
from engine.deal import deal, deal_problems
from engine.dice import resolve
from engine.endings import Ending, FinalBoard, FinalPlayer, objective_rule
from engine.exact import Number, number
from engine.objectives import Objective, deck_for, load_deck, objective_held
from engine.record import JOLLY, Event, ParseResult, Record, parse_record
from engine.rulesets import RuleSet
from engine.verdict import Verdict, format_verdict
from engine.violations import EngineError, Violation

DIE_FACES = range(1, 7)
# every roll of 1 to 3 dice: a set lookup settles A-RESOLVE for almost every attack
_ROLLS = frozenset(itertools.chain.from_iterable(itertools.product(DIE_FACES, repeat=k) for k in (1, 2, 3)))
_resolve = functools.lru_cache(maxsize=1 << 16)(resolve)  # a pure function of two short rolls


class Replay:
    """The state of one game under replay; ``run()`` walks the events once."""

    closure: ClosureState  # the end of the game (E-SDADATA, E-TIME, S-TA), from the first turn on

    def __init__(self, record: Record) -> None:
        self.record = record
        self.rs: RuleSet = record.ruleset
        self.board: Board = record.board
        self.n = len(record.players)
        self.violations: list[Violation] = []
        borders = self.board.borders or {}
        self.adj: dict[str, frozenset[str]] = {t: frozenset(borders.get(t, ())) for t in self.board.territories}
        self.continents = [(frozenset(c.territories), c.bonus) for c in self.board.continents.values()]
        self.owner: dict[str, int] = {}
        self.armies: dict[str, int] = {}
        self.count: dict[int, int] = {}  # territories per seat
        self.total: dict[int, int] = {}  # armies per seat
        self.eliminated: list[int] = []  # in order of elimination
        self.eliminated_by: dict[int, int] = {}  # loser → the seat that took its last territory
        self.colours: dict[int, str | None] = {p.seat: p.colour for p in record.players}
        self.seat_objective: dict[int, Objective] = {}
        # O-RTU: how many territories of its card ("territories", "continents") a seat lacks
        self.card_missing: dict[int, int] = {}
        self.ended_by: Ending | None = None
        self.ended_at: int | None = None
        self.rounds = 0
        self.turn_starts: list[int] = []  # event index where each turn begins (the first: after set-up)
        self.turn_seats: list[int] = []  # who plays each of those turns
        self.objectives: dict[str, Objective] = {}
        # cards (C-DRAW, C-TRIS, C-HAND7) are followed only when the record names its draws
        self.track_cards = any(e.type == "end_turn" and e.draw is not None for e in record.events)
        self.hands: dict[int, list[str]] = {s: [] for s in range(1, self.n + 1)}
        self.deck: set[str] = set()
        self.discards: list[str] = []
        self.reshuffles = 0
        self.exhaustions = 0  # times the last card of the deck was drawn (S-TA)
        # the rule set's numbers the turns read at every event
        rs = self.rs
        self.garrison = rs.garrison_min_on_border or 0
        self.att_ge_def = rs.attacker_dice_at_least_defender
        self.def_max = rs.defender_must_roll_max
        self.elim_round = rs.elimination_from_round or 1
        self.max_att, self.max_def = rs.max_attack_dice, rs.max_defence_dice
        self.scoring_only = not self.board.has_borders()  # B-MAP: Napoli serves scoring only
        # the turn being played (set by _begin_turn)
        self.seat = 1
        self.phase = 0  # 0 cards, 1 reinforcements, 2 attacks, 3 after the strategic move
        self.tris_done = False
        self.base_left = 0  # R-BASE + R-CONT (+ tris) still to place, before D-CAP
        self.to_place = 0  # what of it still fits under D-CAP
        self.conquered = 0
        self.pending: tuple[int, str, str, int] | None = None  # advance due: (event, from, to, dice)
        self.ending: Ending | None = None  # the game ends once the pending advance is made (A-ELIM, S-TA)
        self.roll: tuple[int, ...] | None = None
        self.roll_at: int | None = None
        self.moved = False

    # ------------------------------------------------------------------ helpers
    def flag(self, event: int | None, rule: str, code: str, **params: Any) -> None:
        """A violation by its message code (engine.messages) and parameters."""
        self.violations.append(Violation.coded(event, rule, code, **params))

    def flag_error(self, event: int | None, exc: EngineError) -> None:
        self.violations.append(exc.violation(event))

    def set_owner(self, territory: str, seat: int) -> None:
        old = self.owner.get(territory)
        if old is not None:
            self.count[old] -= 1
        self.owner[territory] = seat
        self.count[seat] = self.count.get(seat, 0) + 1
        missing = self.card_missing
        if missing:
            if old in missing and territory in self.seat_objective[old].territories:
                missing[old] += 1
            if seat in missing and territory in self.seat_objective[seat].territories:
                missing[seat] -= 1

    def add_armies(self, territory: str, delta: int) -> None:
        self.armies[territory] += delta
        self.total[self.owner[territory]] += delta

    def allowance(self, seat: int) -> int:
        """R-BASE + R-CONT (+ R-PLUS1) before tris and before the D-CAP cap."""
        owner = self.owner
        amount = self.count.get(seat, 0) // 3
        for territories, bonus in self.continents:
            if all(owner[t] == seat for t in territories):
                amount += bonus
        if self.rs.reinforcement_plus_one:
            amount += 1
        return amount

    def room(self, seat: int) -> int | None:
        """D-CAP: how many more armies the seat may have on the board."""
        cap = self.rs.army_cap
        return None if cap is None else max(0, cap - self.total.get(seat, 0))

    def borders_enemy(self, territory: str, seat: int) -> bool:
        owner = self.owner
        return any(owner[t] != seat for t in self.adj[territory])

    # ------------------------------------------------------------------ set-up
    def setup_deal(self) -> bool:
        rec, rs, board = self.record, self.rs, self.board
        if not rs.min_players <= self.n <= rs.max_players:
            self.flag(None, "T-SIZE", "replay.players_out_of_range", n=self.n, ruleset=rs.id,
                      least=rs.min_players, most=rs.max_players)
        owners: dict[str, int] | None = dict(rec.deal_owners) if rec.deal_owners is not None else None
        if rec.deal_seed is not None:
            try:
                seeded = deal(board, self.n, rec.deal_seed, rs)
            except EngineError as exc:
                self.flag_error(None, exc)
                seeded = None
            if seeded is not None:
                if owners is None:
                    owners = dict(seeded)
                elif owners != dict(seeded):
                    wrong = sorted(t for t in board.territories if owners.get(t) != seeded.get(t))
                    self.flag(None, "D-DEAL", "replay.deal_disagrees", seed=rec.deal_seed, n=len(wrong),
                              examples=", ".join(wrong[:3]))
        if owners is None:
            return False
        missing = [t for t in board.territories if t not in owners]
        if missing:
            self.flag(None, "D-DEAL", "replay.not_dealt", n=len(missing), examples=", ".join(missing[:3]))
            return False
        if rec.deal_seed is None or rec.deal_owners is not None:
            self.violations.extend(deal_problems(board, owners, self.n, rs))
        for seat in range(1, self.n + 1):
            self.count[seat] = 0
            self.total[seat] = 0
        for territory in board.territories:
            self.set_owner(territory, owners[territory])
            self.armies[territory] = 1
            self.total[owners[territory]] += 1
        return True

    def setup_objectives(self) -> None:
        deck: dict[str, Objective] = dict(deck_for(self.rs.objectives, self.board))
        if self.record.objectives:
            cards = [{"id": cid, "name": cid, "territories": list(names)} for cid, names in self.record.objectives.items()]
            try:
                loaded, problems = load_deck({"cards": cards}, self.board)
            except EngineError as exc:
                loaded, problems = {}, [exc.violation()]
            self.violations.extend(problems)
            deck.update(loaded)
        for player in self.record.players:
            if player.objective is None:
                continue
            card = deck.get(player.objective)
            if card is None:
                self.flag(None, "FORMAT", "replay.unknown_objective", seat=player.seat, card=player.objective)
            else:
                self.objectives[player.objective] = card
                self.seat_objective[player.seat] = card
        owner = self.owner
        self.card_missing = {
            seat: sum(1 for t in card.territories if owner.get(t) != seat)
            for seat, card in self.seat_objective.items()
            if card.kind in ("territories", "continents") and card.territories
        }
        if self.track_cards:
            self.deck = set(self.board.territories) | {f"{JOLLY}#1", f"{JOLLY}#2"}

    # ------------------------------------------------------------------ cards
    def take_from_deck(self, card: str) -> str | None:
        """Remove a named card from the deck (reshuffling the discards when it is empty)."""
        if not self.deck and self.discards:
            self.deck = set(self.discards)
            self.discards = []
            self.reshuffles += 1
        if card == JOLLY:
            for j in (f"{JOLLY}#1", f"{JOLLY}#2"):
                if j in self.deck:
                    self.deck.discard(j)
                    return j
            return None
        if card in self.deck:
            self.deck.discard(card)
            return card
        return None

    def hand_card(self, seat: int, card: str) -> str | None:
        hand = self.hands[seat]
        for held in hand:
            if held == card or (card == JOLLY and held.startswith(JOLLY)):
                hand.remove(held)
                return held
        return None

    def tris_value(self, cards: tuple[str, ...]) -> int | None:
        symbols = []
        jollies = 0
        for c in cards:
            if c == JOLLY:
                jollies += 1
            else:
                symbols.append(self.board.territories[c].symbol)
        values = self.rs.tris_values
        if jollies == 0:
            if len(set(symbols)) == 1:
                return int(values.get(_THREE.get(symbols[0] or "", ""), 0)) or None
            if len(set(symbols)) == 3:
                return int(values["one_each"])
            return None
        if jollies == 1 and len(set(symbols)) == 1:
            return int(values["jolly_two_alike"])
        return None

    # ------------------------------------------------------------------ objectives
    def seat_objectives(self) -> dict[str, Objective]:
        return dict(self.objectives)

    def objective_met(self, seat: int) -> bool:
        """O-RTU / O-CLASSIC now. A card of territories is answered by ``card_missing`` (kept up
        to date by ``set_owner``); a "continents" card held whole still has its third continent
        checked."""
        missing = self.card_missing.get(seat)
        if missing:
            return False  # some territory of the card is not the seat's
        card = self.seat_objective.get(seat)
        if card is None:
            return False
        if missing == 0 and card.kind == "territories":
            return True
        if card.kind in ("conquer_n", "n_with_2") and self.count.get(seat, 0) < card.count:
            return False  # too few territories, whatever armies are on them
        return objective_reached(card, seat, self.owner, self.armies, self.board, self.colours, self.eliminated_by)

    # ------------------------------------------------------------------ the replay
    def run(self) -> None:
        """Walk the record once: the deal, the set-up placement, then every event of the turns.

        Each event first meets the checks every event shares (a missed advance, the game already
        over, T-ORDER, the sdadata roll last, the end of the reinforcements), then the handler of
        its type. A handler reads and updates the turn's state on ``self``.
        """
        if not self.setup_deal():
            self.ended_by = Ending.INCOMPLETE
            return
        self.setup_objectives()
        first, expired = self._setup_placement()
        self._start_turns(first, expired)
        events = self.record.events
        handlers = {
            "place": self._on_place, "tris": self._on_tris, "attack": self._on_attack,
            "advance": self._on_advance, "move": self._on_move, "sdadata": self._on_sdadata,
            "time_expired": self._on_time_expired, "end_turn": self._on_end_turn,
        }
        flag = self.flag
        for i in range(first, len(events)):
            ev = events[i]
            kind = ev.type
            if self.pending is not None and kind != "advance":
                self._missed_advance(i)
            if self.ended_by is not None:
                flag(i, self._end_rule(), "replay.after_end", at=self.ended_at, ended_by=self.ended_by)
                break
            if ev.seat is not None and ev.seat != self.seat:
                flag(i, "T-ORDER", "replay.out_of_turn", by=ev.seat, seat=self.seat)
            if self.roll_at is not None and kind != "end_turn":
                flag(i, "E-SDADATA", "replay.sdadata_not_last", at=self.roll_at)
            if self.phase < 2 and kind in _WHAT:
                if self.to_place > 0:
                    flag(i, "R-PLACE", f"replay.unplaced_before_{kind}", seat=self.seat, n=self.to_place)
                self.phase = 2
            handlers[kind](i, ev)
        self._close(len(events))

    # ------------------------------------------------------------------ set-up and turns
    def _setup_placement(self) -> tuple[int, list[int]]:
        """D-ARMIES: the starting armies, 3 at a time in turn order. Returns the first event of
        the first turn and the events where the clock ran out during the set-up (E-TIME)."""
        rs, n, events = self.rs, self.n, self.record.events
        owner, armies, flag = self.owner, self.armies, self.flag
        start = rs.starting_armies.get(n)
        left = {s: max(0, start - self.count[s]) if start is not None else 0 for s in range(1, n + 1)}
        if start is None:
            flag(None, "D-ARMIES", "replay.no_starting_armies", ruleset=rs.id, n=n)
        i = 0
        expired: list[int] = []
        setup_seat = 1
        per_placement = rs.setup_armies_per_placement
        chunk = min(per_placement, left[1]) if n else 0
        n_events = len(events)
        while sum(left.values()) > 0 and i < n_events:
            while left[setup_seat] == 0:
                setup_seat = setup_seat % n + 1
            chunk = chunk or min(per_placement, left[setup_seat])
            ev = events[i]
            if ev.type != "place":
                if ev.type == "time_expired":  # the clock runs from the deal (E-TIME)
                    expired.append(i)
                    i += 1
                    continue
                flag(i, "D-ARMIES", "replay.setup_unfinished", seat=setup_seat, n=left[setup_seat])
                break
            if ev.seat is not None and ev.seat != setup_seat:
                flag(i, "T-ORDER", "replay.setup_out_of_turn", by=ev.seat, seat=setup_seat)
            if owner[ev.territory] != setup_seat:
                flag(i, "D-ARMIES", "replay.place_foreign", seat=setup_seat, territory=ev.territory)
            placed = ev.armies
            if placed > chunk:
                flag(i, "D-ARMIES", "replay.setup_too_many", seat=setup_seat, n=placed, due=chunk, per=per_placement)
                placed = chunk
            armies[ev.territory] += placed
            self.total[owner[ev.territory]] += placed
            left[setup_seat] -= placed
            chunk -= placed
            if chunk == 0 and sum(left.values()) > 0:
                setup_seat = setup_seat % n + 1
            i += 1
        return i, expired

    def _start_turns(self, first: int, expired: list[int]) -> None:
        """The closure state machine starts with the clock as the set-up left it; seat 1 plays."""
        closure = ClosureState.start(self.rs, self.n)
        for k in expired:
            try:
                closure = closure.time_expired()
            except EngineError as exc:
                self.flag_error(k, exc)
        self.closure = closure
        self.rounds = 1
        self._begin_turn(first, 1)

    def _begin_turn(self, first: int, seat: int) -> None:
        """A turn's state: nothing played yet, its reinforcements (R-BASE, R-CONT) still to place."""
        self.turn_starts.append(first)
        self.turn_seats.append(seat)
        self.seat = seat
        self.tris_done = False
        self.phase = 0
        self.base_left = self.allowance(seat)
        room = self.room(seat)
        self.to_place = self.base_left if room is None else min(self.base_left, room)
        self.conquered = 0
        self.roll = None
        self.roll_at = None
        self.moved = False

    def _close(self, n_events: int) -> None:
        """After the last event: a conquest still waiting for its advance is made, then the end."""
        pending = self.pending
        if pending is not None and self.ended_by is None:
            self._advance(self.seat, pending[1], pending[2], pending[3])
            if self.ending is not None:
                self.ended_by, self.ended_at = self.ending, n_events - 1
        if self.ended_by is None:
            self.ended_by = Ending.INCOMPLETE

    def _missed_advance(self, i: int) -> None:
        """A-OCCUPY: a conquest not followed by its advance; the minimum advance is made for it."""
        assert self.pending is not None
        p_ev, p_from, p_to, p_dice = self.pending
        self.flag(i, "A-OCCUPY", "replay.missed_advance", territory=p_to, at=p_ev)
        self._advance(self.seat, p_from, p_to, p_dice)
        self.pending = None
        if self.ending is not None:
            self.ended_by, self.ended_at = self.ending, p_ev

    # ------------------------------------------------------------------ the events of a turn
    def _on_tris(self, i: int, ev: Event) -> None:
        """C-TRIS: three cards for armies, once, at the start of the turn (TURN-PHASES)."""
        seat = self.seat
        if self.phase > 0 or self.tris_done:
            self.flag(i, "TURN-PHASES", "replay.tris_late")
        self.tris_done = True
        cards = ev.cards
        if len(cards) != 3:
            self.flag(i, "C-TRIS", "replay.tris_size", n=len(cards))
            return
        value = self.tris_value(cards)
        if value is None:
            self.flag(i, "C-TRIS", "replay.not_a_tris", cards=", ".join(cards))
            return
        if self.track_cards:
            for card in cards:
                held = self.hand_card(seat, card)
                if held is None:
                    self.flag(i, "C-TRIS", "replay.card_not_held", seat=seat, card=card)
                else:
                    self.discards.append(held)
        owner = self.owner
        bonus = sum(self.rs.tris_owned_territory_bonus for c in cards if c != JOLLY and owner[c] == seat)
        self.base_left += value + bonus
        room = self.room(seat)
        self.to_place = self.base_left if room is None else min(self.base_left, room)

    def _on_place(self, i: int, ev: Event) -> None:
        """R-PLACE, R-BASE, D-CAP: reinforcements on the seat's own territories, before attacking."""
        seat = self.seat
        if self.phase >= 2:
            self.flag(i, "R-PLACE", "replay.place_after_attack")
        self.phase = 1
        territory = ev.territory
        placed = ev.armies
        if self.owner[territory] != seat:
            self.flag(i, "R-PLACE", "replay.place_foreign", seat=seat, territory=territory)
            return
        to_place, base_left = self.to_place, self.base_left
        if placed > to_place:
            if placed <= base_left:
                self.flag(i, "D-CAP", "replay.over_cap", seat=seat, n=placed, room=to_place, cap=self.rs.army_cap)
            else:
                self.flag(i, "R-BASE", "replay.over_allowance", seat=seat, n=placed, left=base_left)
        self.to_place = max(0, to_place - placed)
        self.base_left = max(0, base_left - placed)
        self.armies[territory] += placed
        self.total[seat] += placed
        if self.objective_met(seat):
            self.ended_by, self.ended_at = Ending.OBJECTIVE, i

    def _on_attack(self, i: int, ev: Event) -> None:
        """A-SRC, A-ADJ and the dice; the record's dice decide the losses (A-RESOLVE)."""
        seat, owner, armies, flag = self.seat, self.owner, self.armies, self.flag
        if self.phase > 2:
            flag(i, "TURN-PHASES", "replay.attack_after_move")
        src, dst = ev.src, ev.dst
        legal_source = owner[src] == seat
        if not legal_source:
            flag(i, "A-SRC", "replay.attack_from_foreign", seat=seat, territory=src)
        if owner[dst] == seat:
            flag(i, "A-ADJ", "replay.attack_own", territory=dst, seat=seat)
            return
        if self.scoring_only:
            flag(i, "B-MAP", "replay.no_borders", map=self.board.id)
        elif dst not in self.adj[src]:
            flag(i, "A-ADJ", "replay.not_bordering", src=src, dst=dst)
        a_dice, d_dice = ev.attacker, ev.defender
        on_src, on_dst = armies[src], armies[dst]
        if not self._dice_allowed(i, src, a_dice, d_dice, on_src, on_dst):
            return
        a_loss, d_loss = _resolve(a_dice, d_dice)
        a_loss = min(a_loss, max(0, on_src - 1)) if legal_source else min(a_loss, on_src)
        d_loss = min(d_loss, on_dst)
        total = self.total
        armies[src] -= a_loss
        total[owner[src]] -= a_loss
        armies[dst] -= d_loss
        total[owner[dst]] -= d_loss
        if armies[dst] == 0 and legal_source:
            self._conquer(i, src, dst, len(a_dice))

    def _dice_allowed(self, i: int, src: str, a_dice: tuple[int, ...], d_dice: tuple[int, ...],
                      on_src: int, on_dst: int) -> bool:
        """A-SRC, RTU-DEF-MAX, RTU-ATT-DICE; False when the roll cannot be resolved (A-RESOLVE)."""
        a_n, d_n = len(a_dice), len(d_dice)
        max_att, max_def = self.max_att, self.max_def
        if on_src < 2:
            self.flag(i, "A-SRC", "replay.attack_one_army", territory=src, armies=on_src)
        elif not 1 <= a_n <= min(max_att, on_src - 1):
            self.flag(i, "A-SRC", "replay.attacker_dice", n=a_n, armies=on_src, most=min(max_att, on_src - 1))
        if self.def_max:
            if d_n != min(max_def, on_dst):
                self.flag(i, "RTU-DEF-MAX", "replay.defender_must_roll", n=d_n, armies=on_dst, due=min(max_def, on_dst))
        elif not 1 <= d_n <= min(max_def, on_dst):
            self.flag(i, "RTU-DEF-MAX", "replay.defender_dice", n=d_n, armies=on_dst, most=min(max_def, on_dst))
        if self.att_ge_def and a_n < d_n:
            self.flag(i, "RTU-ATT-DICE", "replay.attacker_fewer", n=a_n, against=d_n)
        if (a_dice not in _ROLLS or d_dice not in _ROLLS) and (
                not a_n or not d_n or not all(d in DIE_FACES for d in a_dice + d_dice)):
            self.flag(i, "A-RESOLVE", "replay.bad_roll", attacker=list(a_dice), defender=list(d_dice))
            return False
        return True

    def _conquer(self, i: int, src: str, dst: str, dice_n: int) -> None:
        """The defender's last army fell: the territory changes hands and an advance is due."""
        seat = self.seat
        loser = self.owner[dst]
        self.set_owner(dst, seat)
        self.conquered += 1
        self.pending = (i, src, dst, dice_n)
        if self.count[loser] == 0:
            closure = self.closure
            self._eliminate(i, seat, loser, closure.round < self.elim_round)
            self.closure = closure.eliminate(loser)
            if len(self.eliminated) >= self.n - 1 or (self.rs.closure == "time_attack" and self.reshuffles > 0):
                self.ending = Ending.ELIMINATION  # S-TA: after the first reshuffle too; after the advance

    def _on_advance(self, i: int, ev: Event) -> None:
        """A-OCCUPY: at least as many armies as dice of the last roll, leaving one behind."""
        pending = self.pending
        if pending is None:
            self.flag(i, "A-OCCUPY", "replay.advance_without_conquest")
            return
        _, src, dst, dice_n = pending
        self.pending = None
        armies = self.armies
        amount = ev.armies
        most = armies[src] - 1
        if amount < dice_n:
            self.flag(i, "A-OCCUPY", "replay.advance_too_few", n=amount, territory=dst, dice=dice_n)
            amount = min(dice_n, most)
        if amount > most:
            self.flag(i, "A-OCCUPY", "replay.advance_too_many", n=amount, territory=src, armies=armies[src])
            amount = most
        if amount < 1:
            return
        armies[src] -= amount  # both territories are the seat's: its total does not change
        armies[dst] += amount
        seat = self.seat
        if (self.garrison and amount > dice_n and armies[src] < self.garrison
                and self.borders_enemy(src, seat)):
            self.flag(i, "RTU-GARRISON", "replay.advance_garrison", armies=armies[src], territory=src)
        if self.ending is not None:
            self.ended_by, self.ended_at = self.ending, i
        elif self.objective_met(seat):
            self.ended_by, self.ended_at = Ending.OBJECTIVE, i

    def _on_move(self, i: int, ev: Event) -> None:
        """M-MOVE: one strategic move per turn, between two bordering territories of the seat."""
        seat, armies = self.seat, self.armies
        if self.moved or self.phase > 2:
            self.flag(i, "M-MOVE", "replay.second_move")
        self.moved = True
        self.phase = 3
        src, dst, amount = ev.src, ev.dst, ev.armies
        if self.owner[src] != seat or self.owner[dst] != seat:
            self.flag(i, "M-MOVE", "replay.move_foreign", seat=seat, src=src, dst=dst)
            return
        if self.scoring_only:
            self.flag(i, "B-MAP", "replay.no_borders", map=self.board.id)
        elif dst not in self.adj[src]:
            self.flag(i, "M-MOVE", "replay.not_bordering", src=src, dst=dst)
        if amount >= armies[src]:
            self.flag(i, "M-MOVE", "replay.move_too_many", n=amount, armies=armies[src], territory=src)
            amount = armies[src] - 1
            if amount < 1:
                return
        armies[src] -= amount  # both territories are the seat's: its total does not change
        armies[dst] += amount
        if self.garrison and armies[src] < self.garrison and self.borders_enemy(src, seat):
            self.flag(i, "RTU-GARRISON", "replay.move_garrison", armies=armies[src], territory=src)
        if self.objectives and self.objective_met(seat):
            self.ended_by, self.ended_at = Ending.OBJECTIVE, i

    def _on_sdadata(self, i: int, ev: Event) -> None:
        """E-SDADATA: at most one roll per turn; its dice are judged at the end of the turn."""
        if self.roll is not None:
            self.flag(i, "E-SDADATA", "replay.second_sdadata")
        self.roll, self.roll_at = ev.dice, i
        self.phase = 3

    def _on_time_expired(self, i: int, ev: Event) -> None:
        """E-TIME: the clock ran out; the closure state machine takes the game to its end."""
        try:
            self.closure = self.closure.time_expired()
        except EngineError as exc:
            self.flag_error(i, exc)

    def _on_end_turn(self, i: int, ev: Event) -> None:
        """C-DRAW, then the closure (E-SDADATA, E-BAR, E-SUPP, S-TA) ends the game or the turn."""
        seat, roll, roll_at = self.seat, self.roll, self.roll_at
        if self.track_cards:
            self._draw(i, seat, self.conquered, ev.draw)
        try:
            closure = self.closure.end_turn(seat, self.conquered, roll)
        except EngineError as exc:
            self.flag_error(roll_at if roll is not None and roll_at is not None else i, exc)
            closure = self.closure.end_turn(seat, self.conquered, _fix_roll(self.closure, self.conquered, roll))
        self.closure = closure
        self.rounds = closure.round
        if closure.ended:
            self.ended_by, self.ended_at = closure.ended_by or Ending.SDADATA, i
            return  # any later event is flagged before its handler runs
        if self.rs.deck_exhaustions_to_end and self.exhaustions >= self.rs.deck_exhaustions_to_end:
            # S-TA: the last round ends with the player who drew the deck's last card
            self.ended_by, self.ended_at = Ending.DECK, i
            return
        self._begin_turn(i + 1, closure.seat)

    # ------------------------------------------------------------------ pieces of the loop
    def _end_rule(self) -> str:
        if self.ended_by is Ending.OBJECTIVE:
            return objective_rule(self.rs.objectives)
        return self.ended_by.rule if self.ended_by is not None else "TURN-PHASES"

    def _advance(self, seat: int, src: str, dst: str, dice_n: int) -> None:
        amount = max(1, min(dice_n, self.armies[src] - 1))
        if self.armies[src] - amount < 1:
            # nothing left to move: the territory keeps one army so replay can go on
            self.armies[dst] += 1
            self.total[seat] += 1
            return
        self.add_armies(src, -amount)
        self.add_armies(dst, amount)

    def _eliminate(self, i: int, seat: int, loser: int, too_early: bool) -> None:
        if too_early:
            self.flag(i, "A-ELIM", "replay.early_elimination", seat=loser, round=self.rs.elimination_from_round - 1)
        self.eliminated.append(loser)
        self.eliminated_by[loser] = seat
        if self.track_cards:
            self.hands[seat].extend(self.hands[loser])
            self.hands[loser] = []
            limit = self.rs.hand_limit
            if limit is not None and len(self.hands[seat]) > limit:
                self.flag(i, "C-HAND7", "replay.hand_after_elimination", seat=seat, loser=loser,
                          n=len(self.hands[seat]), limit=limit)

    def _draw(self, i: int, seat: int, conquered: int, draw: str | None) -> None:
        if conquered == 0:
            if draw is not None:
                self.flag(i, "C-DRAW", "replay.draw_without_conquest", seat=seat, card=draw)
            return
        if draw is None:
            self.flag(i, "C-DRAW", "replay.no_draw", seat=seat, n=conquered)
            return
        card = self.take_from_deck(draw)
        if card is None:
            self.flag(i, "C-DRAW", "replay.card_not_in_deck", card=draw)
            return
        self.hands[seat].append(card)
        if not self.deck:
            self.exhaustions += 1
        limit = self.rs.hand_limit
        if limit is not None and len(self.hands[seat]) > limit:
            self.flag(i, "C-HAND7", "replay.hand_limit", seat=seat, n=len(self.hands[seat]), limit=limit)

    # ------------------------------------------------------------------ result
    def verdict(self) -> Verdict:
        final = self.final_board()
        scores: list[dict[str, Any]] = []
        if final.ended_by.ended and self.owner:
            scores = self._scores(final)
        return Verdict(violations=tuple(self.violations), final=final, rounds=self.rounds, scores=tuple(scores))

    def final_board(self) -> FinalBoard:
        """The board the game ended on (or stopped at), with every seat's card and elimination order."""
        order = {seat: k + 1 for k, seat in enumerate(self.eliminated)}
        players = tuple(FinalPlayer(p.seat, p.objective or "", order.get(p.seat)) for p in self.record.players)
        return FinalBoard(self.ended_by or Ending.INCOMPLETE, players, dict(self.owner), dict(self.armies))

    def _scores(self, final: FinalBoard) -> list[dict[str, Any]]:
        from engine.scoring import score_game  # heavier: imported for ended games only

        try:
            result = score_game(  # the deck's end scores like the clock's (S-TA)
                self.board, self.rs, replace(final, ended_by=final.ended_by.scored_as), self.seat_objectives(),
                system=self.rs.default_scoring,
            )
        except EngineError as exc:
            self.flag_error(None, exc)
            return []
        return [_score_dict(s) for s in result]


def _number(x: object) -> Number:
    """Whole numbers print as integers (the contract shows ``"place": 1``, not ``1.0``); the
    others as exact Decimals (engine.exact)."""
    return number(x)


def _score_dict(score: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": score.seat,
        "game_score": _number(score.game_score),
        "extra_objective": score.extra_objective,
        "armies": score.armies,
        "place": _number(score.place),
        "tournament_points": _number(score.tournament_points),
    }
    if getattr(score, "tiebreak", None) is not None:
        out["tiebreak"] = score.tiebreak
    return out


def objective_reached(
    card: Objective,
    seat: int,
    owners: Mapping[str, int],
    armies: Mapping[str, int],
    board: Board,
    colours: Mapping[int, str | None],
    eliminated_by: Mapping[int, int],
) -> bool:
    """O-RTU / O-CLASSIC for ``seat`` now; ``destroy_colour`` needs who eliminated whom.

    Destroying a colour becomes ``count`` territories when that colour is absent, is the
    player's own, or was eliminated by someone else (O-CLASSIC).
    """
    if card.kind == "destroy_colour":
        target = next((s for s, c in colours.items() if c is not None and c == card.colour), None)
        if target is not None and target != seat and eliminated_by.get(target, seat) == seat:
            return eliminated_by.get(target) == seat
    return objective_held(card, owners, seat, armies=armies, board=board)


def _fix_roll(closure: ClosureState, conquered: int, roll: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """After a sdadata violation, carry on with what the rules allowed (no roll, or a non-ending one)."""
    threshold = closure.current_threshold()
    if threshold is None or closure.barred(conquered):
        return None
    if roll is not None and len(roll) == closure.dice and all(1 <= d <= 6 for d in roll):
        return roll
    return (6,) * closure.dice


_THREE = {"fanti": "three_fanti", "cannoni": "three_cannoni", "cavalieri": "three_cavalieri"}
_WHAT = frozenset({"attack", "move", "end_turn", "sdadata"})  # the events that end the reinforcements


def adjudicate(source: str | bytes | Mapping[str, Any] | object) -> dict[str, Any]:
    """The verdict of a record (JSON text or decoded object) as the contract's JSON object."""
    return adjudicate_parsed(parse_record(source)).as_dict()


def adjudicate_parsed(parsed: ParseResult) -> Verdict:
    if parsed.record is None or parsed.problems:
        return Verdict.format_error(parsed.summary())
    game = Replay(parsed.record)
    try:
        game.run()
    except Exception as exc:  # noqa: BLE001 - the contract: never a crash (tests assert this net stays unused)
        game.flag(None, "FORMAT", "replay.crashed", error=f"{type(exc).__name__}: {exc}")
        game.ended_by = Ending.INCOMPLETE
    return game.verdict()


__all__ = ["Replay", "adjudicate", "adjudicate_parsed", "format_verdict"]
