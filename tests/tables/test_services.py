"""Composing, changing and starting a game through tables/services.py (K-TABLES, T-SIZE,
T-ORDER, D-DEAL, D-50, O-RTU, E-TIME)."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from common.errors import ConflictError, DomainError, PermissionDeniedError
from engine.board import load_board
from engine.deal import check_deal, deal
from engine.objectives import default_deck
from engine.rulesets import get_ruleset
from tables import selectors, services
from tables.models import Game, Seat, Table
from tables.seating import UNCOVERABLE
from tests.factories.scoring import ConfirmationFactory, ResultSubmissionFactory
from tests.factories.tournaments import make_user as new_user
from tests.tables.conftest import add_players, add_role, make_tournament, make_user
from tournaments.models import AuditEntry, TournamentRole


def seated(game: Game) -> list[list[int]]:
    return selectors.seated_tables([game]).get(game.pk, [])


def compose(tournament, organizer, number=1, **kw):  # type: ignore[no-untyped-def]
    game = services.ensure_game(tournament, number, actor=organizer)
    kw.setdefault("effort", 0.3)
    return services.compose_game(game, actor=organizer, **kw)


# ------------------------------------------------------------------ composition, properties

_tournaments = itertools.count()


@pytest.mark.django_db
@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(
    count=st.integers(min_value=4, max_value=70).filter(lambda n: n not in UNCOVERABLE),
    clubs=st.integers(min_value=0, max_value=6),
    prefer=st.sampled_from(["fives", "fours"]),
    seed=st.text(alphabet="abcdef0123456789", min_size=1, max_size=12),
)
def test_every_checked_in_player_is_seated_once_at_tables_of_4_or_5_and_seed_repeats(
    organizer, count, clubs, prefer, seed  # type: ignore[no-untyped-def]
) -> None:
    t = make_tournament(organizer)
    players = add_players(t, count, clubs=clubs)
    add_players(t, 2, games=(2,))  # checked in for another game only: not seated
    game = compose(t, organizer, prefer=prefer, seed=seed)
    tables = seated(game)
    ids = [p for table in tables for p in table]
    assert sorted(ids) == sorted(p.pk for p in players)
    assert {len(table) for table in tables} <= {4, 5}
    assert game.seed == seed
    assert game.composition_report["players"] == count

    again = compose(t, organizer, prefer=prefer, seed=seed)
    assert seated(again) == tables  # same tables and same seat order


@pytest.mark.django_db
def test_counts_no_mix_covers_are_refused_with_the_options_spelled_out(tournament, organizer):
    add_players(tournament, 11)
    with pytest.raises(DomainError) as err:
        compose(tournament, organizer)
    assert err.value.rule == "K-TABLES"
    text = err.value.message  # Italian, the default language, in words
    for option in ("ritardatario", "sostituto", "posto fantasma", "1 tavolo da 6", "lasciare fuori un giocatore"):
        assert option in text
    assert "odd_count" not in text and "table" not in text
    assert err.value.field == "odd_count"
    with translation.override("en"), pytest.raises(DomainError) as err:
        compose(tournament, organizer)
    for option in ("late player", "stand-in", "ghost", "1 table of 6", "leave one player out"):
        assert option in err.value.message
    assert not Table.objects.exists()  # nothing silent: no tables were made


@pytest.mark.django_db
def test_seven_players_with_a_ghost_seat_make_a_table_of_4_and_one_of_3_plus_ghost(
    tournament, organizer
):
    add_players(tournament, 7)
    game = compose(tournament, organizer, odd_count="ghost", seed="g")
    seats = list(Seat.objects.filter(game=game).order_by("table__number", "number"))
    sizes = Counter(s.table.number for s in seats)
    assert sorted(sizes.values()) == [4, 4]
    ghosts = [s for s in seats if s.player_id is None]
    assert len(ghosts) == 1
    assert Seat.objects.filter(game=game, player__isnull=False).count() == 7
    assert game.composition_report["size_problems"] == []


@pytest.mark.django_db
def test_six_players_as_one_table_of_6_when_the_organizer_chooses_it(tournament, organizer):
    add_players(tournament, 6)
    game = compose(tournament, organizer, odd_count="six")
    assert [len(t) for t in seated(game)] == [6]


@pytest.mark.django_db
def test_organizer_preference_for_more_fours_or_more_fives(tournament, organizer):
    add_players(tournament, 40)
    assert [len(t) for t in seated(compose(tournament, organizer, prefer="fives"))] == [5] * 8
    assert [len(t) for t in seated(compose(tournament, organizer, prefer="fours"))] == [4] * 10


# ------------------------------------------------------------------ quality on known cases


@pytest.mark.django_db
def test_clubs_are_kept_apart_when_possible_and_at_the_minimum_otherwise(tournament, organizer):
    # 20 players, 5 clubs of 4, 5 tables of 4: every table can have one of each club.
    add_players(tournament, 20, clubs=5)
    game = compose(tournament, organizer, seed="clubs")
    assert game.composition_report["same_club_pairs"] == 0
    # 12 players, 2 clubs of 6, 3 tables: each club has 2 per table at best → 3 + 3 pairs.
    t2 = make_tournament(organizer)
    add_players(t2, 12, clubs=2)
    game2 = compose(t2, organizer, seed="crowded")
    report = game2.composition_report
    assert report["same_club_pairs"] == 6
    unmet = {u["priority"]: u for u in report["unmet"]}
    assert unmet["club_apart"]["unavoidable"] is True
    assert "6 players for 3 tables" in unmet["club_apart"]["explanation"]


@pytest.mark.django_db
def test_game_2_avoids_the_opponents_of_game_1(tournament, organizer):
    add_players(tournament, 16, games=(1, 2))
    game1 = compose(tournament, organizer, 1, seed="one")
    game2 = compose(tournament, organizer, 2, seed="two")
    met = {frozenset(pair) for table in seated(game1) for pair in itertools.combinations(table, 2)}
    again = [pair for table in seated(game2) for pair in itertools.combinations(table, 2)
             if frozenset(pair) in met]
    assert again == []  # 4×4: the second game can be the "columns" of the first
    assert game2.composition_report["repeated_pairs"] == 0


@pytest.mark.django_db
def test_previous_winners_are_kept_apart_once_results_exist(tournament, organizer):
    add_players(tournament, 16, games=(1, 2))
    game1 = compose(tournament, organizer, 1, seed="w1")
    winners = []
    for table in Table.objects.filter(game=game1):
        seats = list(table.seats.order_by("number"))
        winners.append(seats[0].player_id)
        submission = ResultSubmissionFactory(
            table=table, tournament=tournament, number=1, kind="short", ended_by="sdadata",
            scores=[{"seat": s.number, "player": s.player_id, "place": s.number}
                    for s in seats],
        )
        ConfirmationFactory(submission=submission, user=organizer, by_organizer=True)
    history = selectors.history_before(services.ensure_game(tournament, 2, actor=organizer))
    assert history.winners == frozenset(winners)
    game2 = compose(tournament, organizer, 2, seed="w2")
    assert game2.composition_report["winners_together"] == 0
    for table in seated(game2):
        assert len(set(table) & set(winners)) == 1


@pytest.mark.django_db
def test_an_unconfirmed_result_does_not_make_a_winner(tournament, organizer):
    """History uses the result that counts in the standings: not an entry nobody confirmed."""
    add_players(tournament, 8, games=(1, 2))
    game1 = compose(tournament, organizer, 1, seed="u1")
    table = Table.objects.filter(game=game1).first()
    seats = list(table.seats.order_by("number"))
    ResultSubmissionFactory(
        table=table, tournament=tournament, number=1, kind="short", ended_by="sdadata",
        scores=[{"seat": s.number, "player": s.player_id, "place": s.number} for s in seats],
    )
    history = selectors.history_before(services.ensure_game(tournament, 2, actor=organizer))
    assert history.winners == frozenset()


# ------------------------------------------------------------------ changes before the start


@pytest.mark.django_db
def test_swap_warns_of_the_club_clash_it_creates(tournament, organizer):
    add_players(tournament, 8, clubs=4)  # 2 tables of 4, clubs apart: one of each per table
    game = compose(tournament, organizer, seed="swap")
    assert game.composition_report["same_club_pairs"] == 0
    t1, t2 = seated(game)
    club = {p: Seat.objects.get(game=game, player_id=p).player.club_id for p in t1 + t2}
    a = t1[0]
    b = next(p for p in t2 if club[p] != club[a])  # a's club-mate at t2 stays; b leaves
    with translation.override("en"):
        change = services.swap_players(game, a, b, actor=organizer)
    assert any("same club" in w for w in change.warnings)
    game.refresh_from_db()
    assert game.composition_report["same_club_pairs"] == 2
    assert Seat.objects.get(game=game, player_id=a).table.number == 2
    assert AuditEntry.objects.filter(action="tables.swap").exists()


@pytest.mark.django_db
def test_moves_that_break_table_sizes_are_refused(tournament, organizer):
    add_players(tournament, 8)  # two tables of 4: a move would make a 3 and a 5
    game = compose(tournament, organizer, seed="m")
    first, second = seated(game)
    with pytest.raises(DomainError) as err:
        services.move_player(game, first[0], 2, actor=organizer)
    assert err.value.rule == "T-SIZE" and err.value.field == "table"
    assert "T-SIZE" not in err.value.message  # cited once, by the rule (DomainError.text, the badge)
    assert seated(game) == [first, second]


@pytest.mark.django_db
def test_move_to_a_table_of_4_from_a_table_of_5(tournament, organizer):
    add_players(tournament, 9)  # one table of 4, one of 5
    game = compose(tournament, organizer, seed="mv")
    four, five = sorted(seated(game), key=len)
    mover = five[0]
    number_of_four = 1 + seated(game).index(four)
    services.move_player(game, mover, number_of_four, actor=organizer)
    assert sorted(len(t) for t in seated(game)) == [4, 5]
    seat = Seat.objects.get(game=game, player_id=mover)
    assert seat.table.number == number_of_four and seat.number == 5
    assert sorted(s.number for s in Seat.objects.filter(table__number=3 - number_of_four,
                                                        game=game)) == [1, 2, 3, 4]


@pytest.mark.django_db
def test_withdrawn_no_show_is_left_out_of_the_new_composition(tournament, organizer):
    players = add_players(tournament, 9)
    game = compose(tournament, organizer, seed="w")
    no_show = players[3].pk
    services.withdraw_player(game, no_show, actor=organizer)
    assert not Seat.objects.filter(game=game, player_id=no_show).exists()
    game = compose(tournament, organizer, seed="w2")
    ids = [p for t in seated(game) for p in t]
    assert no_show not in ids and len(ids) == 8
    assert [len(t) for t in seated(game)] == [4, 4]


# ------------------------------------------------------------------ start


@pytest.mark.django_db
def test_start_deals_every_table_reproducibly_with_colours_objectives_and_clocks(
    tournament, organizer
):
    add_players(tournament, 9)
    game = compose(tournament, organizer, seed="s")
    services.set_deal_objectives(game, True, actor=organizer)
    game = services.start_game(game, actor=organizer, seed="deal-seed")
    assert game.status == Game.Status.RUNNING and game.secret_seed and game.secret_commitment
    board = load_board("world")
    deck = default_deck("rtu")
    for table in Table.objects.filter(game=game).prefetch_related("seats"):
        seats = list(table.seats.order_by("number"))
        n = len(seats)
        # Anyone can re-derive the deal from the stored seed (the CLI does exactly this).
        assert table.deal == deal(board, n, table.deal_seed, get_ruleset("RTU"))
        assert check_deal(board, table.deal, n) == []  # D-DEAL counts and D-50
        assert [s.colour for s in seats] == services.COLOURS[:n]
        cards = [s.objective for s in seats]
        assert len(set(cards)) == n and set(cards) <= set(deck)
        assert table.deadline is not None and table.status == Table.Status.RUNNING
        assert f"--players {n} --seed {table.deal_seed}" in services.deal_command(table)
    with pytest.raises(ConflictError):
        services.compose_game(game, actor=organizer)


@pytest.mark.django_db
def test_start_without_objectives_leaves_cards_to_the_players(tournament, organizer):
    add_players(tournament, 8)
    game = services.set_deal_objectives(compose(tournament, organizer), False, actor=organizer)
    game = services.start_game(game, actor=organizer)
    assert not Seat.objects.filter(game=game).exclude(objective="").exists()
    assert game.secret_seed == "" and game.secret_commitment == ""


@pytest.mark.django_db
def test_an_rtu_game_deals_the_objective_cards_unless_the_organizer_unticks_it(tournament, organizer):
    """The guide says to tick "Distribuisci anche le carte obiettivo" in RTU: it starts ticked."""
    assert tournament.ruleset == "RTU"
    add_players(tournament, 8)
    game = compose(tournament, organizer)
    assert game.deal_objectives
    game = services.start_game(game, actor=organizer)
    assert not Seat.objects.filter(game=game, player__isnull=False, objective="").exists()
    classic = make_tournament(organizer, ruleset="CLASSIC")
    assert not services.ensure_game(classic, 1, actor=organizer).deal_objectives


@pytest.mark.django_db
def test_start_refuses_a_table_left_with_3_players(tournament, organizer):
    players = add_players(tournament, 8)
    game = compose(tournament, organizer)
    with translation.override("en"):
        change = services.withdraw_player(game, players[0].pk, actor=organizer)
    assert any("3 players" in w for w in change.warnings)  # the organizer is told at once
    with pytest.raises(DomainError) as err:
        services.start_game(game, actor=organizer)
    assert err.value.rule == "T-SIZE"
    assert err.value.text.count("T-SIZE") == 1  # the sentence does not repeat its rule
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLANNED


# ------------------------------------------------------------------ only organizers write


@pytest.mark.django_db
def test_only_the_organizer_of_this_tournament_may_compose_change_or_start(
    tournament, organizer
):
    from django.contrib.auth.models import AnonymousUser

    players = add_players(tournament, 8)
    game = compose(tournament, organizer, seed="p")
    before = seated(game)
    referee_here, other_org = make_user(), make_user()
    add_role(tournament, referee_here, TournamentRole.Role.REFEREE)
    make_tournament(other_org)
    for actor in (AnonymousUser(), referee_here, other_org):
        for call in (
            lambda a: services.compose_game(game, actor=a),
            lambda a: services.swap_players(game, players[0].pk, players[1].pk, actor=a),
            lambda a: services.withdraw_player(game, players[0].pk, actor=a),
            lambda a: services.start_game(game, actor=a),
            lambda a: services.ensure_game(tournament, 2, actor=a),
        ):
            with pytest.raises(PermissionDeniedError):
                call(actor)
    assert seated(game) == before
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLANNED


@pytest.mark.django_db
def test_swiss_seeding_puts_the_leaders_together_at_table_1(tournament, organizer, monkeypatch):
    players = add_players(tournament, 16, games=(1, 2))
    ranks = {p.pk: i + 1 for i, p in enumerate(reversed(players))}  # last registered leads
    monkeypatch.setattr(selectors, "standings_positions", lambda t: ranks)
    game = compose(tournament, organizer, 1, seeding="swiss", seed="sw")
    leaders = {pid for pid, rank in ranks.items() if rank <= 4}
    assert set(seated(game)[0]) == leaders
    assert game.composition_report["seeding"] == "swiss"


@pytest.mark.django_db
def test_admin_lists_games_and_tables(tournament, organizer, client):
    add_players(tournament, 8)
    game = compose(tournament, organizer)
    admin_user = new_user("root", password="pw", email="r@example.org", is_staff=True, is_superuser=True)
    client.force_login(admin_user)
    assert client.get("/admin/tables/game/").status_code == 200
    # by its real key: PostgreSQL does not restart sequences between tests
    table = Table.objects.filter(game=game).first()
    assert client.get(f"/admin/tables/table/{table.pk}/change/").status_code == 200
