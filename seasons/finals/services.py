"""Writes of a season's final phase: the final-phase event (semifinals, then the final) and the
consolation event made from the season's standings, absences (the next in line comes in), and
the semifinal and final tables drawn with the knock-out machinery (``tables.knockout``: one
player of each band per semifinal, clubs apart; each semifinal's winner to the final, the best
loser for an empty seat; ``tables.phases.write_phase``: real tables, then results as usual).

Only the club's admins and federation admins (``seasons.evenings.require_manager``). Audited:
``season.final_phase`` (the events and who qualified, and why), ``registration.season_finals``
(each player registered), ``registration.withdraw`` (an absence, a player called up from the
consolation event), ``knockout.semifinals`` / ``knockout.final`` (the tables).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from common.errors import ConflictError, DomainError
from scoring.services import apply_preset
from tables import phases
from tables import selectors as table_selectors
from tables.knockout import band_tables, rcu_finalists
from tables.models import Game
from tables.seating import SeatingError
from tables.seating_text import seating_error_text
from tournaments import audit, formats
from tournaments import services as tournament_services
from tournaments.dates import parse_date
from tournaments.models import Player, Registration, Season, Tournament

from .. import evenings as club_seasons
from ..models import SeasonFinals
from . import qualifiers as q
from . import selectors

RULE = "K-KO-RCU"


def _finals(season: Season, *, lock: bool = False) -> SeasonFinals:
    rows = SeasonFinals.objects.select_for_update(of=("self",)) if lock else SeasonFinals.objects
    finals = rows.filter(season_id=season.pk).select_related("phase", "consolation_event").first()
    if finals is None:
        raise DomainError(_("This season has no final phase: turn it on in the season's settings."),
                          field="finals", rule=RULE)
    return finals


def _named(season: Season, what: str) -> str:
    with translation.override(settings.LANGUAGE_CODE):  # stored data: the instance's language
        label = _("final phase") if what == "phase" else _("torneo degli esclusi")
    return f"{season.name} – {label}"[:150]


def _event(season: Season, name: str, date: dt.date, games: int | None, *, actor: Any) -> Tournament:
    """A tournament of the club with the season's format (not an evening: no season)."""
    event = tournament_services.create_tournament(actor=actor, name=name, date=date, club=season.club)
    preset = formats.preset_or_refuse(season.preset)
    changes = {"games_count": games} if games and "games_count" in preset.editable else {}
    if games and not changes and preset.games_count < games:
        raise DomainError(_("The format %(p)s does not let you change: %(fields)s.")
                          % {"p": preset.name, "fields": "games_count"}, field="preset", rule="FORMAT")
    apply_preset(actor=actor, tournament=event, preset_id=season.preset, changes=changes)
    event.refresh_from_db()
    return event


def _register(event: Tournament, players: list[int], *, actor: Any, why: str) -> None:
    taken = set(event.registrations.values_list("player_id", flat=True))
    for player in Player.objects.filter(pk__in=[p for p in players if p not in taken]):
        reg = Registration.objects.create(tournament=event, player=player, status=Registration.Status.REGISTERED)
        audit.record(actor=actor, action="registration.season_finals", obj=reg, tournament=event,
                     after={**tournament_services.registration_snapshot(reg), "why": why})


@transaction.atomic
def create_phase(season: Season, *, actor: Any, date: Any = None) -> SeasonFinals:
    """The final-phase event (semifinals and final, its qualifiers registered) and, when the
    season has one, the consolation event (everyone else with an evening), both on ``date``
    (default: the next weekly date after the last evening). Once: a second time is refused."""
    club_seasons.require_manager(actor, season.club)
    finals = _finals(season, lock=True)
    if finals.phase_id is not None:
        raise ConflictError(_("The final phase of this season already exists."), field="finals", rule="DUPLICATE")
    qual, standings = selectors.qualification(season, finals)
    if len(qual.direct) + len(qual.semifinal) < finals.direct + finals.semifinal_places:
        raise DomainError(_("The standings have %(n)s players: the final phase needs %(need)s.")
                          % {"n": len(standings["rows"]), "need": finals.direct + finals.semifinal_places},
                          field="finals", rule=RULE)
    when = _date(date) or club_seasons.next_date(season, timezone.localdate())
    games = 2 if finals.semifinals else 1
    finals.phase = _event(season, _named(season, "phase"), when, games, actor=actor)
    _register(finals.phase, [*qual.direct, *qual.semifinal], actor=actor, why="qualified")
    if finals.consolation and qual.consolation:
        finals.consolation_event = _event(season, _named(season, "consolation"), when, season.evening_games,
                                          actor=actor)
        _register(finals.consolation_event, list(qual.consolation), actor=actor, why="consolation")
    finals.save(update_fields=["phase", "consolation_event"])
    audit.record(actor=actor, action="season.final_phase", obj=season, tournament=finals.phase,
                 after={"phase": finals.phase.slug, "date": when.isoformat(), "options": finals.options(),
                        "consolation": finals.consolation_event.slug if finals.consolation_event else None,
                        **_who(qual)})
    return finals


def _who(qual: q.Qualification) -> dict[str, Any]:
    return {"direct": list(qual.direct), "semifinal": list(qual.semifinal), "ripescati": list(qual.ripescati),
            "consolation": list(qual.consolation)}


def _date(value: Any) -> dt.date | None:
    if value in (None, "") or isinstance(value, dt.date):
        return value or None
    parsed = parse_date(str(value))
    if parsed is None:
        raise DomainError(_("Not a date: write it as dd/mm/yyyy."), field="date", rule="FORMAT")
    return parsed


def _sync(season: Season, finals: SeasonFinals, *, actor: Any) -> q.Qualification:
    """Register whoever now qualifies (the next in line for an absent player) in the final phase,
    withdrawing them from the consolation event (they play the final phase instead)."""
    qual, _standings = selectors.qualification(season, finals)
    assert finals.phase is not None
    wanted = [*qual.direct, *qual.semifinal]
    _register(finals.phase, wanted, actor=actor, why="next_in_line")
    if finals.consolation_event is not None:
        called = Registration.objects.active().filter(tournament=finals.consolation_event, player_id__in=wanted)
        for reg in called:
            tournament_services.withdraw(reg, actor=actor, reason=_("Called up to the final phase."))
    return qual


@transaction.atomic
def mark_absent(season: Season, player: int, *, actor: Any, reason: str = "") -> q.Qualification:
    """A qualifier will not play: withdrawn from the final-phase event; the next in line is
    registered in their place (until the tables of the phase they would play are drawn; after
    the semifinals, an absent finalist's seat goes to the best semifinal loser)."""
    club_seasons.require_manager(actor, season.club)
    finals = _finals(season, lock=True)
    if finals.phase is None:
        raise DomainError(_("Create the final phase first."), field="finals", rule=RULE)
    reg = Registration.objects.active().filter(tournament=finals.phase, player_id=player).first()
    if reg is None:
        raise DomainError(_("This player is not in the final phase."), field="player", rule="REQUIRED")
    tournament_services.withdraw(reg, actor=actor, reason=reason or _("Absent from the final phase."))
    if _drawn(finals) is None:
        return _sync(season, finals, actor=actor)
    return selectors.qualification(season, finals)[0]


def _drawn(finals: SeasonFinals) -> Game | None:
    """The first game of the final-phase event already drawn (its tables made), if any."""
    return (Game.objects.filter(tournament_id=finals.phase_id, composition_options__has_key="knockout")
            .order_by("number").first())


def _seating(exc: SeatingError) -> DomainError:
    return DomainError(seating_error_text(exc), field="players", rule=exc.rule)


@transaction.atomic
def draw_semifinals(season: Season, *, actor: Any, seed: str | None = None) -> Game:
    """The semifinal tables: the semifinalists in the standings' order in bands, one of each band
    per table, clubs apart first (K-KO-RCU); drawn again until the game starts."""
    club_seasons.require_manager(actor, season.club)
    finals = _finals(season, lock=True)
    semi, _final = selectors.games_of(finals)
    if finals.phase is None or semi is None:
        raise DomainError(_("Create the final phase first.") if finals.phase is None
                          else _("This final phase has no semifinals."), field="finals", rule=RULE)
    qual = _sync(season, finals, actor=actor)
    clubs = {p.pk: (p.club.name if p.club_id else None)
             for p in Player.objects.filter(pk__in=qual.semifinal).select_related("club")}
    try:
        tables = band_tables(list(qual.semifinal), finals.semifinals, clubs)
    except SeatingError as exc:
        raise _seating(exc) from exc
    layout = {"phase": "semifinals", "kind": "season", "standings": list(qual.semifinal),
              "classes": [{"tables": list(range(1, finals.semifinals + 1)), "direct": list(qual.direct)}],
              "ripescati": list(qual.ripescati)}
    return phases.write_phase(finals.phase, semi, tables, layout, actor=actor, seed=seed,
                              action="knockout.semifinals")


@transaction.atomic
def draw_final(season: Season, *, actor: Any, seed: str | None = None) -> Game:
    """The final table: the direct finalists still in, each semifinal's best-placed player still
    in, and the best semifinal losers for any empty seat (ripescaggio by place at the table,
    then the standings)."""
    club_seasons.require_manager(actor, season.club)
    finals = _finals(season, lock=True)
    if finals.phase is None:
        raise DomainError(_("Create the final phase first."), field="finals", rule=RULE)
    semi, final = selectors.games_of(finals)
    withdrawn = selectors.absent(finals)
    if semi is None:
        qual = _sync(season, finals, actor=actor)
        players, how = list(qual.direct), ["direct"] * len(qual.direct)
    else:
        players, how = _finalists(finals, semi, withdrawn)
    layout = {"phase": "final", "finals": [{"class": 1, "table": 1, "players": players, "how": how}]}
    return phases.write_phase(finals.phase, final, [players], layout, actor=actor, seed=seed,
                              action="knockout.final")


def _finalists(finals: SeasonFinals, semi: int, withdrawn: set[int]) -> tuple[list[int], list[str]]:
    assert finals.phase is not None
    game = Game.objects.filter(tournament=finals.phase, number=semi).first()
    layout = (game.composition_options or {}).get("knockout") if game is not None else None
    if game is None or not layout:
        raise DomainError(_("Draw the semifinals first."), field="game", rule=RULE)
    missing = phases.open_tables(finals.phase, [semi])
    if missing:
        raise DomainError(_("The semifinals are not over: no counted result for %(t)s.")
                          % {"t": ", ".join(missing)}, field="results", rule=RULE)
    orders = table_selectors.table_finishing_orders(game)
    results = [orders[n] for n in sorted(orders)]
    direct = [int(p) for p in layout["classes"][0]["direct"]]
    chosen = rcu_finalists(results, direct, standings=[int(p) for p in layout["standings"]],
                           withdrawn=withdrawn, final_size=finals.final_size)
    if len(chosen) < 3:
        raise DomainError(_("Final %(c)s has only %(n)s players left.") % {"c": 1, "n": len(chosen)},
                          field="players", rule=RULE)
    winners = {next((p for p in t if p not in withdrawn), None) for t in results}
    return chosen, ["direct" if p in direct else "winner" if p in winners else "best_loser" for p in chosen]
