"""Property: any event written to a workbook (.xls or .xlsx) reads back as the same event."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workbook.event import Registrant, RoundEntry, SeatEntry, TableEntry, to_book
from workbook.files import open_book, write
from workbook.validate import check

from .helpers import event

NAMES = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzàèéìòùÀÈŁß’' "), min_size=1, max_size=30).map(
    lambda s: " ".join(s.split())).filter(bool)
SCORES = st.integers(min_value=-50, max_value=1640).map(lambda n: n / 10)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(names=st.lists(st.tuples(NAMES, NAMES), min_size=8, max_size=8,
                     unique_by=lambda n: (n[0].casefold(), n[1].casefold())),
       births=st.lists(st.one_of(st.none(), st.dates(dt.date(1930, 1, 1), dt.date(2015, 12, 31))),
                       min_size=8, max_size=8),
       scores=st.lists(SCORES, min_size=16, max_size=16), fmt=st.sampled_from(["xls", "xlsx"]))
def test_written_events_read_back_unchanged(names: list[tuple[str, str]], births: list[dt.date | None],
                                            scores: list[float], fmt: str) -> None:
    ev = event(8, 2)
    regs = [Registrant(k + 1, first, last, birth_date=born, national_id=None if born else 1000 + k)
            for k, ((first, last), born) in enumerate(zip(names, births, strict=True))]
    rounds = [RoundEntry(r.number, tuple(TableEntry(t.number, tuple(
        SeatEntry(s.seat, s.id, scores[(r.number - 1) * 8 + (t.number - 1) * 4 + s.seat - 1]) for s in t.seats))
        for t in r.tables)) for r in ev.rounds]
    ev = replace(ev, registrants=regs, rounds=rounds)
    back = check(open_book(write(to_book(ev), fmt), f"x.{fmt}")).event
    assert back is not None
    assert back.registrants == ev.registrants and back.rounds == ev.rounds and back.standings == ev.standings
