"""One event's contribution to the national ranking (K-RANKING): what each player's place is
worth, and the event's rows in the ranking's formats (events, games, standings), for its page,
its API and its spreadsheets."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from scoring import selectors
from tournaments.models import Registration, Tournament

from . import formula as rk
from . import national


def event_ranking(tournament: Tournament, *, national_ids: bool = False) -> dict[str, Any]:
    """The event's K-RANKING contribution of every player and its rows in the ranking's formats
    (events, games, standings). Players' national ids fill the standing rows only with
    ``national_ids`` (an organizer of the tournament asking: never on public pages or the public API). The event type is the tournament's own, else the format preset's (no preset:
    "AMC", which the ranking does not count); T is the event's non-empty tables over all rounds
    (``national.table_games``)."""
    fmt = tournament.event_format()
    event_type, source = fmt.event_type, fmt.event_type_source
    data = selectors.standings(tournament)
    pairs = selectors.counted_results(tournament)
    table_games = national.table_games([tournament.pk]).get(tournament.pk, 0)
    round_of = selectors.round_numbers(tournament)
    rounds = len(round_of)  # the declared rounds, rehearsals left out (a periodic championship's class)
    dates = list(national.event_dates(tournament))
    organizer = national.event_organizer(tournament)
    event = national.event_id(tournament)  # the same id as the event's workbook (K-RANKING)
    rows = [r for r in data["rows"] if r["played"]]
    stand = [rk.Standing(player=r["player"], position=r["rank"], points=r["total"], wins=r.get("wins", 0),
                         played=r["played"], club=r.get("club", "")) for r in rows]
    vt = rk.event_contributions(stand, table_games=table_games, event_type=event_type, rounds=rounds,
                                year=dates[-1].year)
    game_list = []
    for state, sub in sorted(pairs, key=lambda p: (p[0].table.game.number, p[0].table.number)):
        seats = sorted(sub.scores, key=lambda r: r["seat"])
        winner = next((r.get("player") for r in seats if r["place"] == 1), "")
        game_list.append({"round": round_of.get(state.table.game.number, state.table.game.number), "table": state.table.number,
                          "seats": [(r.get("player") or -1, r["tournament_points"]) for r in seats],
                          "winner": winner or ""})
    klass = rk.event_class(event_type, rounds)
    notice = ""
    if source == "default":
        notice = _("This tournament has no event type (Tipologia) and no format preset, so it is ranked as "
                   "%(type)s, class %(cls)s: the national ranking does not count it. Set the tournament's event "
                   "type, or choose its format, to rank it (K-RANKING).") % {"type": event_type, "cls": klass}
    return {
        "event_type": event_type, "event_type_source": source, "notice": notice,
        "class": klass, "table_games": table_games,
        "counts": rk.event_counts(table_games, event_type, rounds, dates[-1].year), "year": dates[-1].year,
        "contributions": [{"player": s.player, "name": r["name"], "club": r.get("club", ""), "position": s.position,
                           "vt": vt.get(s.player, 0.0)} for s, r in zip(stand, rows, strict=True)],
        "events": [rk.event_row(event=event, name=tournament.name, organizer=organizer, venue=tournament.venue,
                                start=dates[0], end=dates[-1], event_type=event_type, rounds=rounds,
                                participants=len(stand), table_games=table_games)],
        "games": rk.game_rows(event, game_list),
        # National ids as entered for this tournament's registrations (never another's).
        "standings": rk.standing_rows(event, stand, vt, dict(
            Registration.objects.filter(tournament=tournament, player_id__in=[s.player for s in stand])
            .exclude(national_id="").values_list("player_id", "national_id")) if national_ids else {}),
    }
