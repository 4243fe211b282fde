"""O-RTU / O-CLASSIC: the built-in decks and the checks an organizer's deck goes through."""

from collections import deque

from engine.board import load_board
from engine.objectives import default_deck, load_deck, objective_held

WORLD = load_board("world")


def _connected(names):
    start = next(iter(names))
    seen, queue = {start}, deque([start])
    while queue:
        for n in WORLD.borders[queue.popleft()]:
            if n in names and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen == set(names)


def test_sixteen_rtu_cards_each_86_and_connected():
    deck = default_deck("rtu")
    assert list(deck) == [f"RTU-{i:02d}" for i in range(1, 17)]
    assert deck["RTU-01"].name == "Letto"
    for card in deck.values():
        assert sum(WORLD.territories[t].value for t in card.territories) == 86, card.id
        assert _connected(card.territories), card.id
        # metarisiko: every card holds at least two whole continents
        whole = [c for c in WORLD.continents.values() if set(c.territories) <= card.territories]
        assert len(whole) >= 2, card.id


def test_classic_deck_has_14_cards_of_the_documented_kinds():
    deck = default_deck("classic")
    assert len(deck) == 14
    kinds = [c.kind for c in deck.values()]
    assert kinds.count("destroy_colour") == 6
    assert kinds.count("continents") == 6
    assert {c.count for c in deck.values() if c.kind in ("conquer_n", "n_with_2")} == {18, 24}


def test_a_bad_deck_reports_every_problem_with_its_card_id():
    good = sorted(default_deck("rtu")["RTU-02"].territories)
    deck, problems = load_deck(
        {
            "X-1": ["Atlantide", *good[1:]],  # unknown territory
            "X-2": ["Alaska", "Argentina"],  # not connected, not 86
            "X-3": good[:-1],  # connected? maybe; not 86 for sure
            "X-4": good,  # fine
        }
    )
    assert set(deck) == {"X-1", "X-2", "X-3", "X-4"}
    messages = [(p.rule, p.message) for p in problems]
    assert all(rule == "O-RTU" for rule, _ in messages)
    assert any("X-1" in m and "Atlantide" in m for _, m in messages)
    assert any("X-2" in m and "not connected" in m for _, m in messages)
    assert any("X-2" in m and "not 86" in m for _, m in messages)
    assert any("X-3" in m and "not 86" in m for _, m in messages)
    assert not any("X-4" in m for _, m in messages)


def test_loading_accepts_name_variants():
    names = ["čita" if t == "Cita" else t.upper() for t in default_deck("rtu")["RTU-11"].territories]
    deck, problems = load_deck({"Lupo": names})
    assert problems == []
    assert deck["Lupo"].territories == default_deck("rtu")["RTU-11"].territories


def test_a_malformed_deck_is_a_violation_not_a_crash():
    deck, problems = load_deck(42)
    assert deck == {} and problems[0].rule == "FORMAT"
    deck, problems = load_deck([{"name": "no id"}, {"id": "Y", "territories": "Cina"}])
    assert [p.rule for p in problems] == ["FORMAT", "FORMAT"]


def test_objective_held_needs_every_territory():
    card = default_deck("rtu")["RTU-05"]
    owners = dict.fromkeys(WORLD.names, 2)
    for t in card.territories:
        owners[t] = 1
    assert objective_held(card, owners, 1)
    owners[next(iter(card.territories))] = 3
    assert not objective_held(card, owners, 1)


def test_classic_objectives():
    deck = default_deck("classic")
    by_kind = {c.kind: c for c in deck.values()}
    owners = {t: (1 if i < 24 else 2) for i, t in enumerate(WORLD.names)}
    assert objective_held(by_kind["conquer_n"], owners, 1)
    assert not objective_held(by_kind["conquer_n"], owners, 2)
    armies = {t: 1 for t in WORLD.names}
    assert not objective_held(by_kind["n_with_2"], owners, 1, armies=armies)
    armies = {t: 2 for t in WORLD.names}
    assert objective_held(by_kind["n_with_2"], owners, 1, armies=armies)
    europe_oceania_third = next(c for c in deck.values() if c.any_third and "Oceania" in c.continents)
    owners = dict.fromkeys(WORLD.names, 2)
    for c in ("Europa", "Oceania"):
        for t in WORLD.continents[c].territories:
            owners[t] = 1
    assert not objective_held(europe_oceania_third, owners, 1)
    for t in WORLD.continents["Sud America"].territories:
        owners[t] = 1
    assert objective_held(europe_oceania_third, owners, 1)



def test_napoli_deck_names_the_map_s_municipality_groups():
    napoli = load_board("napoli")
    deck = default_deck("napoli")
    assert len(deck) == 14
    two_groups = next(c for c in deck.values() if c.continents == ("Municipalità 5 e 9", "Municipalità 1 e 10"))
    owners = dict.fromkeys(napoli.names, 2)
    for t in two_groups.territories:
        owners[t] = 1
    assert len(two_groups.territories) == 14
    assert objective_held(two_groups, owners, 1, board=napoli)
