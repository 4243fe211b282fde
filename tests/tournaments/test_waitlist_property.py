"""Whatever the order of registrations and withdrawals: never more registered players than
the capacity, nobody waits while a place is free, and the waiting list is first come first
served."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories.tournaments import TournamentFactory, TournamentRoleFactory, UserFactory
from tournaments import services
from tournaments.models import Registration

ops = st.lists(
    st.one_of(st.tuples(st.just("register"), st.integers(0, 11)),
              st.tuples(st.just("withdraw"), st.integers(0, 11))),
    min_size=1, max_size=25,
)


@pytest.mark.django_db
@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(capacity=st.integers(1, 5), steps=ops)
def test_capacity_and_waitlist_invariants(capacity: int, steps: list[tuple[str, int]]) -> None:
    tournament = TournamentFactory(capacity=capacity)
    organizer = UserFactory(username="prop-org", password="!")  # unusable, no hashing
    TournamentRoleFactory(tournament=tournament, user=organizer)
    order: list[int] = []  # expected waiting-list order (registration ids)
    for op, who in steps:
        reg = Registration.objects.filter(tournament=tournament, player__last_name=f"P{who}").first()
        if op == "register" and (reg is None or reg.is_withdrawn):
            reg = services.register(tournament, services.PlayerData(f"N{who}", f"P{who}"))
        elif op == "withdraw" and reg is not None and not reg.is_withdrawn:
            services.withdraw(reg, actor=organizer)
        registered = Registration.objects.active().filter(tournament=tournament)
        waiting = list(Registration.objects.waitlisted().filter(tournament=tournament)
                       .order_by("created_at", "id").values_list("id", flat=True))
        assert registered.count() <= capacity
        assert not waiting or registered.count() == capacity
        order = [i for i in order if i in waiting] + [i for i in waiting if i not in order]
        assert waiting == order
