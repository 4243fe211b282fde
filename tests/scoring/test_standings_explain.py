"""The tie-break explanation (scoring.standings.tiebreaks) compares each row with its neighbours
in the order only; it must name the same metric as comparing it with every level row."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import standings as sd


def _every_pair(rows: list[sd.Row], chain: list[str], values: dict[int, list[sd.Value]]) -> dict[int, str | None]:
    out = {}
    for row in rows:
        found = [d for other in rows if other.player != row.player
                 if (d := sd.relation(values[row.player], values[other.player])) not in (None, sd.SAME)]
        out[row.player] = chain[max(found)] if found else None
    return out


results = st.lists(st.tuples(st.integers(1, 30), st.integers(1, 4), st.sampled_from([0, 10, 20, 30]),
                             st.integers(0, 2), st.integers(0, 3), st.sampled_from([1, 2, 3, 4])),
                   min_size=1, max_size=120)
chains = st.sampled_from([list(sd.DEFAULT_CHAIN), ["total", "wins", "best_game", "second_best", "armies"],
                          ["total", "rounds_in_order", "extra"], ["total", "previous_round", "raw_points_all"]])


@settings(max_examples=150, deadline=None)
@given(results, chains)
def test_neighbours_name_the_same_tiebreak_as_every_pair(data, chain) -> None:  # type: ignore[no-untyped-def]
    games = {(p, g): sd.GameResult(player=p, game=g, points=pts, extra=e, armies=a, place=pl, game_score=pts)
             for p, g, pts, e, a, pl in data}
    rows = sd.compute(games.values(), chain=chain, best_n=2)
    values = {}
    for row in rows:
        mine = tuple(sorted((r for r in games.values() if r.player == row.player), key=lambda r: r.game))
        counted = frozenset(c.game for c in row.cells if c.counted)
        values[row.player] = [sd.METRICS[m][0](sd.PlayerGames(mine, counted)) for m in chain]
    expected = {}
    level: dict[sd.Value, list[sd.Row]] = {}
    for row in rows:
        level.setdefault(values[row.player][0], []).append(row)
    for members in level.values():
        expected.update(_every_pair(members, chain, values))
    assert {r.player: r.tiebreak for r in rows} == expected
