"""B-MAP: the world and Napoli maps as the engine loads them."""

from collections import deque

import pytest

from engine.board import load_board
from engine.violations import EngineError


@pytest.fixture(scope="module")
def world():
    return load_board("world")


def test_world_has_42_territories_and_82_symmetric_borders(world):
    assert len(world.names) == 42
    assert len(set(world.names)) == 42
    edges = {frozenset((a, b)) for a, ns in world.borders.items() for b in ns}
    assert len(edges) == 82
    for a, ns in world.borders.items():
        assert a not in ns
        for b in ns:
            assert a in world.borders[b]


def test_continent_sizes_and_bonuses(world):
    sizes = {c.name: len(c.territories) for c in world.continents.values()}
    assert sizes == {"Nord America": 9, "Sud America": 4, "Europa": 7, "Africa": 6, "Asia": 12, "Oceania": 4}
    bonuses = {c.name: c.bonus for c in world.continents.values()}
    assert bonuses == {"Asia": 7, "Nord America": 5, "Europa": 5, "Africa": 3, "Sud America": 2, "Oceania": 2}
    for c in world.continents.values():
        for t in c.territories:
            assert world.territories[t].continent == c.name


def test_every_value_is_the_number_of_borders_and_they_add_to_164(world):
    for name, t in world.territories.items():
        assert t.value == len(world.borders[name]), name
    assert world.total_value == 164


def test_seed_000_values_spot_check(world):
    # the classic rulebook's alphabetical table, a few from each continent
    expected = {"Cina": 7, "India": 3, "Afghanistan": 4, "Medio Oriente": 6, "Africa Orientale": 5,
                "Egitto": 4, "Ontario": 6, "Argentina": 2, "Ucraina": 6, "Australia Orientale": 2}
    assert {n: world.territories[n].value for n in expected} == expected


def test_world_is_connected(world):
    seen = {world.names[0]}
    queue = deque(seen)
    while queue:
        for n in world.borders[queue.popleft()]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    assert seen == set(world.names)


def test_italian_board_differs_from_us_board_in_three_borders(world):
    assert world.adjacent("Cina", "Medio Oriente")
    assert not world.adjacent("Afghanistan", "India")
    assert not world.adjacent("Africa Orientale", "Medio Oriente")
    # the familiar ones are still there
    assert world.adjacent("Egitto", "Medio Oriente")
    assert world.adjacent("Alaska", "Kamchatka")
    assert world.adjacent("Brasile", "Africa del Nord")


def test_card_symbols_are_14_of_each(world):
    symbols = [t.symbol for t in world.territories.values()]
    assert {s: symbols.count(s) for s in set(symbols)} == {"fanti": 14, "cannoni": 14, "cavalieri": 14}


def test_canonical_accepts_variants_and_case(world):
    assert world.canonical("Čita") == "Cita"
    assert world.canonical("cita") == "Cita"
    assert world.canonical("Afganistan") == "Afghanistan"
    assert world.canonical("territori del nord-ovest") == "Territori del Nord Ovest"
    assert world.canonical("Peru") == "Perù"
    assert world.canonical("Atlantide") is None
    assert world.canonical_continent("America del Nord") == "Nord America"


def test_unknown_map_is_a_format_error():
    with pytest.raises(EngineError) as err:
        load_board("marte")
    assert err.value.rule == "FORMAT"


def test_napoli_map_is_scoring_only():
    napoli = load_board("napoli")
    assert len(napoli.names) == 42
    assert not napoli.has_borders()
    assert napoli.territories["San Lorenzo"].value == 6
    assert napoli.territories["San Ferdinando"].value == 2
    assert napoli.territories["Vomero Est"].value == 5
    municipalities = {t.region for t in napoli.territories.values()}
    assert len(municipalities) == 10
    # the colour groups named by the Napoli objective cards are the map's "continents"
    assert sorted(len(c.territories) for c in napoli.continents.values()) == [5, 5, 7, 7, 8, 10]
    assert napoli.canonical("stella") == "Stella (Rione Sanità)"
    with pytest.raises(EngineError) as err:
        napoli.adjacent("Porto", "Pendino")
    assert err.value.rule == "B-MAP"
