"""Who plays a season's final phase, and why: worked examples computed by hand (the arithmetic in
the comments) over a season of 9 evenings with the worst 3 dropped (the best 6 count), and a
property test over random standings."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as hs

from seasons.finals import qualifiers as q

# name: (rank, total of the best 6 evenings, evenings played, best single game)
STANDINGS = {
    "Anna": (1, 900, 9, 150), "Bruno": (2, 850, 8, 140), "Carla": (3, 800, 9, 130), "Dario": (4, 780, 7, 120),
    "Elena": (5, 760, 9, 125), "Fabio": (6, 750, 6, 118), "Gina": (7, 740, 8, 110), "Ivo": (8, 700, 9, 135),
    # 690 = 690 on every tie-break of the season: a shared 9th place
    "Luca": (9, 690, 6, 128), "Marta": (9, 690, 5, 160),
    "Nino": (11, 650, 4, 170), "Olga": (12, 600, 7, 155), "Pia": (13, 500, 2, 100), "Rita": (14, 480, 6, 155),
}
IDS = {name: i for i, name in enumerate(STANDINGS, start=1)}
NAMES = {i: name for name, i in IDS.items()}
# 2 straight to the final, 8 semifinal places (2 tables of 4) of which 1 by ripescaggio among
# those with at least 5 evenings; the torneo degli esclusi for the others
CLUB = q.Options(direct=2, semifinal_places=8, ripescati=1, min_evenings=5, consolation=True)


def candidates(standings: dict[str, tuple[int, int, int, int]] = STANDINGS, tiebreaks: dict[str, str] | None = None
               ) -> list[q.Candidate]:
    return [q.Candidate(IDS[n], pos, rank, Decimal(total), ev, Decimal(best), (tiebreaks or {}).get(n, ""))
            for pos, (n, (rank, total, ev, best)) in enumerate(standings.items(), start=1)]


def names(ids: tuple[int, ...]) -> list[str]:
    return [NAMES[i] for i in ids]


def test_the_clubs_final_phase_worked_by_hand() -> None:
    result = q.qualify(candidates(), CLUB)
    # places 1-2 go straight to the final
    assert names(result.direct) == ["Anna", "Bruno"]
    # 8 - 1 ripescato = 7 semifinal places by standing: places 3 to 9. Luca and Marta share the 9th
    # place (690 each, level on every tie-break): the best single game decides, 160 > 128 → Marta
    # Ripescaggio among the rest with >= 5 evenings: Luca 128 (6 ev.), Olga 155 (7), Rita 155 (6);
    # Nino's 170 came in 4 evenings and Pia played 2: not eligible. Olga and Rita both 155: Olga
    # is better placed (12th against 14th) → Olga
    assert names(result.semifinal) == ["Carla", "Dario", "Elena", "Fabio", "Gina", "Ivo", "Marta", "Olga"]
    assert names(result.ripescati) == ["Olga"]
    assert result.places[IDS["Olga"]].why == q.BY_BEST_GAME
    assert result.places[IDS["Marta"]] == q.Place(IDS["Marta"], q.SEMIFINAL, q.BY_STANDING)
    # 14 - 2 - 8 = 4 players for the torneo degli esclusi
    assert names(result.consolation) == ["Luca", "Nino", "Pia", "Rita"]
    # next in line: Luca by the standings, Rita (155) for the ripescaggio
    assert NAMES[result.reserve or 0] == "Luca" and NAMES[result.reserve_ripescaggio or 0] == "Rita"
    assert [(t.cut, names(t.players), t.decided_by) for t in result.ties] == [
        ("semifinals", ["Marta", "Luca"], q.BEST_GAME),
        ("ripescaggio", ["Olga", "Rita"], q.BETTER_STANDING),
    ]


def test_an_absent_direct_finalist_moves_everyone_up_one_place() -> None:
    result = q.qualify(candidates(), CLUB, absent={IDS["Bruno"]})
    # Bruno out: Carla (3rd) goes straight to the final; the 7 places by standing are now
    # Dario … Marta, plus Luca (the next in line, 10th once Marta went first)
    assert names(result.direct) == ["Anna", "Carla"]
    assert result.places[IDS["Carla"]].why == q.NEXT_IN_LINE
    assert names(result.semifinal) == ["Dario", "Elena", "Fabio", "Gina", "Ivo", "Marta", "Luca", "Olga"]
    assert result.places[IDS["Luca"]] == q.Place(IDS["Luca"], q.SEMIFINAL, q.NEXT_IN_LINE)
    assert result.places[IDS["Bruno"]].role == q.ABSENT
    assert names(result.consolation) == ["Nino", "Pia", "Rita"]


def test_an_absent_ripescato_gives_the_place_to_the_next_best_game() -> None:
    result = q.qualify(candidates(), CLUB, absent={IDS["Olga"]})
    # Olga out: the best game left among those with >= 5 evenings is Rita's 155 (Luca 128)
    assert names(result.ripescati) == ["Rita"]
    assert names(result.consolation) == ["Luca", "Nino", "Pia"]
    assert result.ties == (q.Tie("semifinals", (IDS["Marta"], IDS["Luca"]), q.BEST_GAME),)


def test_without_enough_evenings_the_ripescaggio_place_goes_down_the_standings() -> None:
    # at least 10 evenings: nobody (9 at most) → the 8th semifinal place is the next by standing, Luca
    result = q.qualify(candidates(), q.Options(2, 8, 1, 10, True))
    assert result.ripescati == ()
    assert names(result.semifinal)[-1] == "Luca"
    assert result.places[IDS["Luca"]].why == q.NO_CANDIDATE


def test_a_tie_the_chain_decided_and_a_tie_nothing_decides() -> None:
    standings = dict(STANDINGS)
    # Bruno and Carla both 850; Carla has fewer games won: the chain ranks her 3rd
    standings["Carla"] = (3, 850, 9, 130)
    result = q.qualify(candidates(standings, {"Carla": "wins"}), CLUB)
    assert result.ties[0] == q.Tie("final", (IDS["Bruno"], IDS["Carla"]), q.CHAIN, "wins")
    # Luca like Marta in everything (690, 5 evenings, best game 160): the standings' order stands
    standings["Luca"] = (9, 690, 5, 160)
    result = q.qualify(candidates(standings), CLUB)
    assert names(result.semifinal)[-2] == "Luca"  # listed first in the standings (by name)
    assert q.Tie("semifinals", (IDS["Luca"], IDS["Marta"]), q.UNDECIDED) in result.ties


def test_no_consolation_leaves_the_others_out() -> None:
    result = q.qualify(candidates(), q.Options(2, 8, 1, 5, False))
    assert result.consolation == () and result.role(IDS["Nino"]) == q.OUT


@settings(max_examples=150, deadline=None)
@given(
    players=hs.integers(min_value=0, max_value=30),
    direct=hs.integers(min_value=0, max_value=4),
    tables=hs.integers(min_value=0, max_value=4),
    ripescati=hs.integers(min_value=0, max_value=16),
    min_evenings=hs.integers(min_value=0, max_value=9),
    data=hs.data(),
)
def test_every_place_is_filled_once_and_never_by_an_absent_player(
    players: int, direct: int, tables: int, ripescati: int, min_evenings: int, data: hs.DataObject,
) -> None:
    places = 4 * tables
    ripescati = min(ripescati, places)
    totals = sorted(data.draw(hs.lists(hs.integers(0, 20), min_size=players, max_size=players)), reverse=True)
    rows = []
    for pos, total in enumerate(totals, start=1):
        rank = next(i for i, t in enumerate(totals, start=1) if t == total)
        rows.append(q.Candidate(pos, pos, rank, Decimal(total), data.draw(hs.integers(1, 9)),
                                Decimal(data.draw(hs.integers(0, 5)))))
    absent = set(data.draw(hs.lists(hs.sampled_from(range(1, players + 1)), max_size=5))) if players else set()
    result = q.qualify(rows, q.Options(direct, places, ripescati, min_evenings, True), absent)
    chosen = [*result.direct, *result.semifinal, *result.consolation]
    assert len(chosen) == len(set(chosen)) == players - len(absent)  # everyone once, absent nobody
    present = players - len(absent)
    assert len(result.direct) == min(direct, present)
    assert len(result.semifinal) == min(places, max(present - direct, 0))
    assert all(next(r for r in rows if r.player == p).evenings >= min_evenings for p in result.ripescati)
    # a player by standing is never below one left for the consolation event, but for the ripescati
    order = [r.player for r in q.cut_order(rows) if r.player not in absent]
    by_standing = [p for p in [*result.direct, *result.semifinal] if p not in result.ripescati]
    assert by_standing == [p for p in order if p in by_standing]
    assert all(order.index(p) < order.index(c) for p in by_standing for c in result.consolation)
