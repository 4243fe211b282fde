"""E-TIME / E-SUPP / E-SDADATA / E-BAR step by step (engine/closure.py)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.closure import ClosureState
from engine.rulesets import get_ruleset
from engine.violations import EngineError


def rtu(**overrides: object):  # type: ignore[no-untyped-def]
    return dataclasses.replace(get_ruleset("RTU"), **overrides)


def play_round(state: ClosureState, seats: list[int], conquered: int = 0) -> ClosureState:
    for seat in seats:
        assert state.seat == seat
        state = state.end_turn(seat, conquered)
    return state


def test_four_players_full_sequence_threshold_rises_to_seven_and_stays() -> None:
    state = ClosureState.start(rtu(), 4)
    state = play_round(state, [1, 2, 3, 4])
    assert state.round == 2 and state.next_action().kind == "play"
    # time expires during seat 2's turn in round 2: seats 2, 3, 4 finish round 2
    state = state.end_turn(1, 0).time_expired()
    action = state.next_action()
    assert (action.kind, action.seat, action.message) == ("finish_round", 2, "seat 2 finishes the round")
    with pytest.raises(EngineError) as err:
        state.end_turn(2, 0, (1, 1))
    assert err.value.rule == "E-SUPP"
    state = play_round(state, [2, 3, 4])
    # round 3 is the supplementary round; only its last seat rolls, ends on ≤ 4
    assert state.round == 3
    assert state.next_action().kind == "supplementary"
    state = play_round(state, [1, 2, 3])
    action = state.next_action()
    assert (action.kind, action.seat, action.threshold) == ("roll", 4, 4)
    assert action.message == "seat 4 rolls: ends on ≤ 4"
    with pytest.raises(EngineError) as err:
        state.end_turn(4, 0)
    assert err.value.rule == "E-SDADATA"
    state = state.end_turn(4, 0, (3, 2))  # 5 > 4: play on
    assert not state.ended
    # round 4: every player rolls, ≤ 5; round 5: ≤ 6; then ≤ 7 for ever
    for expected in (5, 6, 7, 7, 7):
        for seat in (1, 2, 3, 4):
            action = state.next_action()
            assert (action.kind, action.seat, action.threshold) == ("roll", seat, expected)
            state = state.end_turn(seat, 0, (6, 6))
    assert not state.ended and state.threshold == 7
    state = state.end_turn(1, 0, (4, 3))  # 7 ≤ 7 ends
    assert state.ended and state.ended_by == "sdadata"
    assert state.next_action().kind == "ended"
    with pytest.raises(EngineError):
        state.end_turn(2, 0)


def test_five_players_time_expires_in_last_seats_turn() -> None:
    state = ClosureState.start(rtu(), 5)
    state = play_round(state, [1, 2, 3, 4]).time_expired()
    assert state.next_action().kind == "finish_round"
    state = state.end_turn(5, 0)  # round 1 complete, round 2 is supplementary
    assert state.round == 2
    state = play_round(state, [1, 2, 3, 4])
    assert state.next_action().threshold == 4
    state = state.end_turn(5, 0, (2, 2))  # 4 ≤ 4 ends at once
    assert state.ended and state.round == 2


def test_bar_more_than_two_conquests_no_roll() -> None:
    state = ClosureState.start(rtu(), 4)
    state = state.time_expired()
    state = play_round(state, [1, 2, 3, 4, 1, 2, 3])
    assert state.with_conquests(2).next_action().kind == "roll"  # exactly 2 still rolls
    barred = state.with_conquests(3).next_action()
    assert barred.kind == "may_not_roll" and barred.rule == "E-BAR"
    assert barred.message == "seat 4 may not roll (conquered 3)"
    with pytest.raises(EngineError) as err:
        state.end_turn(4, 3, (1, 1))
    assert err.value.rule == "E-BAR"
    state = state.end_turn(4, 3)  # no roll; the threshold still rises
    assert state.next_action().threshold == 5
    state = state.end_turn(1, 5)
    state = state.end_turn(2, 0, (6, 5))
    assert state.seat == 3 and not state.ended


def test_out_of_order_and_bad_roll_refused() -> None:
    state = ClosureState.start(rtu(), 4)
    with pytest.raises(EngineError) as err:
        state.end_turn(1, 0, (1, 1))
    assert err.value.rule == "E-TIME"  # no roll while the clock runs
    with pytest.raises(EngineError) as err:
        state.end_turn(2, 0)
    assert err.value.rule == "T-ORDER"
    state = play_round(state.time_expired(), [1, 2, 3, 4, 1, 2, 3])
    for bad in [(1,), (1, 2, 3), (0, 4), (7, 1)]:
        with pytest.raises(EngineError):
            state.end_turn(4, 0, bad)
    with pytest.raises(EngineError) as err:
        state.time_expired()
    assert err.value.rule == "E-TIME"


def test_settings_change_every_number() -> None:
    rs = rtu(sdadata_first_threshold=3, sdadata_threshold_step=2, sdadata_max_threshold=8,
             sdadata_dice=3, sdadata_bar_conquests=0)
    state = play_round(ClosureState.start(rs, 3).time_expired(), [1, 2, 3, 1, 2])
    assert state.next_action().threshold == 3
    with pytest.raises(EngineError):
        state.end_turn(3, 0, (6, 6))  # three dice under this setting
    with pytest.raises(EngineError):
        state.end_turn(3, 1, (6, 6, 6))  # one conquest bars with bar 0
    state = state.end_turn(3, 0, (2, 2, 2))
    assert [state.next_action().threshold] == [5]
    state = play_round(state, [1, 2], 1)
    state = state.end_turn(3, 0, (6, 6, 6))
    assert state.next_action().threshold == 7
    state = play_round(state, [1, 2], 1).end_turn(3, 0, (6, 6, 6))
    assert state.next_action().threshold == 8  # capped


def test_turns_setting_counts_from_the_seat_whose_turn_it_was() -> None:
    state = ClosureState.start(rtu(supplementary="turns"), 4)
    state = state.end_turn(1, 0).time_expired()  # during seat 2's turn
    assert state.next_action().message == "seat 2 finishes the turn"
    state = state.end_turn(2, 0)
    state = play_round(state, [3, 4, 1])
    action = state.next_action()
    assert (action.kind, action.seat, action.threshold) == ("roll", 2, 4)
    state = state.end_turn(2, 0, (6, 6))
    for seat in (3, 4, 1, 2):
        assert state.next_action().threshold == 5
        state = state.end_turn(seat, 0, (6, 6))
    assert state.next_action().threshold == 6


def test_eliminated_seats_are_skipped_and_anchor_moves() -> None:
    state = ClosureState.start(rtu(), 5).time_expired()
    state = state.end_turn(1, 0).eliminate(5)  # the last seat leaves: seat 4 closes rounds
    state = play_round(state, [2, 3, 4])
    assert state.round == 2
    state = play_round(state, [1, 2, 3])
    assert state.next_action().seat == 4 and state.next_action().kind == "roll"


def test_time_attack_ends_with_the_round_and_none_has_no_clock() -> None:
    state = ClosureState.start(rtu(closure="time_attack"), 4).end_turn(1, 0).time_expired()
    state = play_round(state, [2, 3])
    assert not state.ended
    state = state.end_turn(4, 0)
    assert state.ended and state.ended_by == "time"
    with pytest.raises(EngineError) as err:
        ClosureState.start(rtu(closure="none"), 4).time_expired()
    assert err.value.rule == "E-TIME"


def test_storage_round_trip_keeps_behaviour() -> None:
    state = play_round(ClosureState.start(rtu(), 4).time_expired(), [1, 2, 3, 4, 1])
    restored = ClosureState.from_dict(state.as_dict())
    assert restored == state
    assert restored.next_action() == state.next_action()
    with pytest.raises(EngineError) as err:
        ClosureState.from_dict({"seats": "x"})
    assert err.value.rule == "FORMAT"
