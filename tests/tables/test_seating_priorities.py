"""The registry of seating priorities (K-TABLES): every priority is one class, and the search,
the bounds, the report and its explanations all read it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import SeededRng
from tables.seating import (
    PRIORITIES,
    PRIORITY_BY_KEY,
    PRIORITY_CLASSES,
    TEXTS,
    History,
    Options,
    SeatingPlayer,
    _Problem,
    _Search,
    compose,
    evaluate,
    explain,
    render_reason,
    table_sizes,
)


def test_every_priority_is_one_registered_class_with_its_words() -> None:
    assert PRIORITIES == ("repeat_five", "winners_apart", "club_apart", "region_apart",
                          "repeat_opponents", "team_apart", "teams_meet_evenly")
    assert [c.key for c in PRIORITY_CLASSES] == list(PRIORITIES)
    details = [PRIORITY_BY_KEY[k].detail for k in PRIORITIES]
    assert len(set(details)) == len(details)
    for cls in PRIORITY_CLASSES:
        assert cls.label and cls.unit and cls.label != cls.unit
        assert set(cls.texts) <= set(TEXTS)
    # every text takes named parameters, so a translation may reorder them
    assert all("%s" not in text and "%d" not in text for text in TEXTS.values())


def _random_problem(seed: int, count: int) -> tuple[_Problem, list[list[int]]]:
    rng = SeededRng(f"p{seed}", stream="test")
    clubs = [None, "Lario", "Etna", "lario "]
    players = [SeatingPlayer(i, club=clubs[rng.randbelow(4)], region=["N", None][rng.randbelow(2)],
                             team=["t1", "t2", None, "t3"][rng.randbelow(4)])
               for i in range(1, count + 1)]
    history = History(teams={p.id: p.team for p in players if p.team})
    for _game in range(rng.randbelow(3)):
        order = list(range(1, count + 1))
        rng.shuffle(order)
        sizes = table_sizes(count)
        tables, pos = [], 0
        for size in sizes:
            tables.append(order[pos:pos + size])
            pos += size
        history = history.after_game(tables)
    sizes = table_sizes(count)
    problem = _Problem(players, history, sizes)
    order = list(range(count))
    rng.shuffle(order)
    tables, pos = [], 0
    for size in sizes:
        tables.append(order[pos:pos + size])
        pos += size
    return problem, tables


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([8, 9, 13, 17, 22]), st.permutations(PRIORITIES))
def test_the_searchs_swap_delta_is_the_change_of_each_priority_cost(seed, count, order) -> None:  # type: ignore[no-untyped-def]
    problem, tables = _random_problem(seed, count)
    search = _Search(problem, order, SeededRng("s", stream="test"))
    state = search.state([list(t) for t in tables])
    rng = SeededRng(f"swap{seed}", stream="test")
    for _ in range(10):
        a = rng.randbelow(count)
        b = search.pick_partner(state, a)
        before = problem.costs(state.tables)
        delta = search.swap_delta(state, a, b)
        search.apply(state, a, b, delta)
        after = problem.costs(state.tables)
        assert delta == [after[k] - before[k] for k in order]
        assert state.cost == [after[k] for k in order]


def test_explanations_are_codes_that_render_in_english_and_in_any_language() -> None:
    players = [SeatingPlayer(i, club="Lario" if i <= 8 else f"other-{i}") for i in range(1, 13)]
    history = History(five_seaters={1: 1, 2: 1})
    report = evaluate(compose(players, history, Options(), "crowded").tables, players, history)
    (unmet,) = report["unmet"]
    reason = unmet["reasons"][0]
    assert reason["code"] == "club_unavoidable"
    assert reason["params"]["items"][0] == {
        "code": "club_crowded", "params": {"name": "Lario", "n": 8, "tables": 3}}
    assert explain(unmet["reasons"]) == unmet["explanation"]
    other = {TEXTS["club_crowded"]: "%(tables)s tavoli, %(n)s del club %(name)s",
             TEXTS["club_unavoidable"]: "%(items)s → almeno %(bound)s"}
    assert render_reason(reason, lambda text: other.get(text, text)) == "3 tavoli, 8 del club Lario → almeno 7"


def test_a_priority_above_its_bound_names_the_higher_ones_in_their_labels() -> None:
    players = [SeatingPlayer(i, club="Eagles" if i >= 5 else None) for i in range(1, 10)]
    history = History(five_seaters={1: 1, 2: 1, 3: 1, 4: 1})
    options = Options(priorities=("repeat_five", "club_apart"))
    (unmet,) = compose(players, history, options, "o").report["unmet"]
    last = unmet["reasons"][-1]
    assert last["code"] == "above_bound_higher_first"
    assert last["params"]["labels"] == ["repeat_five"] and last["params"]["unit"] == "club_apart"
    assert unmet["explanation"].endswith(
        "same-club pairs here; 4 is the least possible for this priority alone, but higher "
        "priorities come first (fewest repeat seats at 5- (or 3-) player tables).")
