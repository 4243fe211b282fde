from __future__ import annotations

from typing import Any

import pytest

from tests.factories import scoring as f


@pytest.fixture
def setup(db: Any) -> dict[str, Any]:
    """A running tournament with an organizer, two referees and one 4-player table of game 1."""
    t = f.ScoringTournamentFactory()
    org = f.role(t, "organizer")
    ref1, ref2 = f.role(t), f.role(t)
    ps = f.players(t, 4)
    table = f.make_table(t, 1, ps)
    objectives = [s.objective for s in table.seats.order_by("number")]
    return {"t": t, "org": org, "ref1": ref1, "ref2": ref2, "players": ps, "table": table,
            "objectives": objectives}
