"""Careful reads of a season's final phase: who qualified and why (from the season's standings
and the absences), its semifinal and final tables with their results, and the season's final
ranking (the final's outcome on top)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import decimal, number
from tables import selectors as table_selectors
from tables.models import Game
from tournaments.models import Registration, Season, Tournament

from .. import selectors as season_selectors
from ..models import SeasonFinals
from . import qualifiers as q


def games_of(finals: SeasonFinals) -> tuple[int | None, int]:
    """(the semifinals' game number or None, the final's) in the final-phase event."""
    return (1, 2) if finals.semifinals else (None, 1)


def candidates(rows: list[dict[str, Any]]) -> list[q.Candidate]:
    return [q.Candidate(player=r["player"], position=i, rank=r["rank"], total=decimal(r["total"]),
                        evenings=r["evenings_played"], best_game=decimal(r["best_game"]),
                        tiebreak=r.get("tiebreak") or "")
            for i, r in enumerate(rows, start=1)]


def absent(finals: SeasonFinals) -> set[int]:
    """Players withdrawn from the final-phase event: the next in line takes their place."""
    if finals.phase_id is None:
        return set()
    return set(Registration.objects.withdrawn().filter(tournament_id=finals.phase_id)
               .values_list("player_id", flat=True))


def qualification(season: Season, finals: SeasonFinals, standings: dict[str, Any] | None = None
                  ) -> tuple[q.Qualification, dict[str, Any]]:
    standings = standings or season_selectors.standings(season)
    options = q.Options(finals.direct, finals.semifinal_places, finals.ripescati, finals.min_evenings,
                        finals.consolation)
    return q.qualify(candidates(standings["rows"]), options, absent(finals)), standings


WHY = {
    q.BY_STANDING: lambda: _("by the standings"),
    q.NEXT_IN_LINE: lambda: _("next in line, for an absent player"),
    q.BY_BEST_GAME: lambda: _("ripescato: best single game"),
    q.NO_CANDIDATE: lambda: _("by the standings: nobody else has enough evenings for the ripescaggio"),
    q.THE_OTHERS: lambda: _("not qualified"),
    q.WITHDRAWN: lambda: _("absent (withdrawn from the final phase)"),
}
ROLE = {
    q.DIRECT: lambda: _("Final"), q.SEMIFINAL: lambda: _("Semifinal"), q.RIPESCATO: lambda: _("Semifinal"),
    q.CONSOLATION: lambda: _("Torneo degli esclusi"), q.OUT: lambda: "—", q.ABSENT: lambda: _("Absent"),
}


def tie_text(tie: q.Tie, names: dict[int, str]) -> str:
    """A tie met at a cut, and what decided it, in one sentence."""
    who = ", ".join(names.get(p, "?") for p in tie.players)
    cut = {"final": _("the cut for the final"), "semifinals": _("the cut for the semifinals"),
           "ripescaggio": _("the ripescaggio")}[tie.cut]
    how = {
        q.CHAIN: lambda: _("the season's tie-break decided (%(metric)s)") % {"metric": _metric(tie.metric)},
        q.BEST_GAME: lambda: _("level on every tie-break: the best single game decided"),
        q.EVENINGS: lambda: _("level on every tie-break and on the best game: more evenings played decided"),
        q.UNDECIDED: lambda: _("level on everything: the standings' order stands; the organizer may settle it "
                               "by marking a player absent"),
        q.BETTER_STANDING: lambda: _("same best game: the better place in the standings decided"),
    }[tie.decided_by]()
    return _("Tie at %(cut)s between %(who)s: %(how)s.") % {"cut": cut, "who": who, "how": how}


def _metric(key: str) -> str:
    from tournaments import labels

    return str(labels.metric(key))


def _rows(qual: q.Qualification, standings: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for i, r in enumerate(standings["rows"], start=1):
        place = qual.places.get(r["player"])
        role, why = (place.role, place.why) if place else (q.OUT, q.THE_OTHERS)
        out.append({"player": r["player"], "name": r["name"], "club": r.get("club", ""), "position": i,
                    "rank": r["rank"], "shared": r["shared"], "total": r["total"],
                    "evenings_played": r["evenings_played"], "best_game": r["best_game"],
                    "role": role, "role_label": ROLE[role](), "why": why, "why_label": WHY[why](),
                    "reserve": r["player"] in (qual.reserve, qual.reserve_ripescaggio)})
    return out


def overview(season: Season, standings: dict[str, Any] | None = None) -> dict[str, Any] | None:
    """Everything the season's final-phase page and API show, or None without the option
    (``standings``: the season's, when the caller has them already)."""
    finals = SeasonFinals.objects.filter(season_id=season.pk).select_related("phase", "consolation_event").first()
    if finals is None:
        return None
    qual, standings = qualification(season, finals, standings)
    names = {r["player"]: r["name"] for r in standings["rows"]}
    rows = _rows(qual, standings)
    tables = _tables(finals, names)
    return {
        "options": finals.options(), "final_size": finals.final_size, "semifinals": finals.semifinals,
        "explained": explain(finals), "phase": _event(finals.phase), "consolation": _event(finals.consolation_event),
        "qualifiers": [r for r in rows if r["role"] in (q.DIRECT, q.SEMIFINAL, q.RIPESCATO)],
        "rows": rows, "ties": [tie_text(t, names) for t in qual.ties],
        "reserve": names.get(qual.reserve or 0), "reserve_ripescaggio": names.get(qual.reserve_ripescaggio or 0),
        **tables, "ranking": final_ranking(finals, tables, rows),
        "step": _step(finals, tables),
    }


def explain(finals: SeasonFinals) -> str:
    parts = [ngettext("The first of the standings goes straight to the final.",
                      "The first %(n)s of the standings go straight to the final.", finals.direct)
             % {"n": finals.direct}] if finals.direct else []
    if finals.semifinals:
        parts.append(ngettext("%(places)s players play %(n)s semifinal; its winner joins the final.",
                              "%(places)s players play %(n)s semifinals; each winner joins the final.",
                              finals.semifinals) % {"places": finals.semifinal_places, "n": finals.semifinals})
    if finals.ripescati:
        parts.append(ngettext(
            "%(n)s semifinal place goes to the best single game of the season among the others with at least "
            "%(m)s evenings (ripescaggio).",
            "%(n)s semifinal places go to the best single games of the season among the others with at least "
            "%(m)s evenings (ripescaggio).", finals.ripescati) % {"n": finals.ripescati, "m": finals.min_evenings})
    if finals.consolation:
        parts.append(_("Everyone else plays the torneo degli esclusi, with its own standings."))
    return " ".join(parts)


def _event(t: Tournament | None) -> dict[str, Any] | None:
    return {"id": t.pk, "slug": t.slug, "name": t.name, "date": t.date, "status": t.status} if t else None


def _tables(finals: SeasonFinals, names: dict[int, str]) -> dict[str, Any]:
    """The semifinal and final tables of the final-phase event, with each table's finishing
    order once its result counts."""
    out: dict[str, Any] = {"semifinal_tables": [], "final_table": None}
    if finals.phase_id is None:
        return out
    semi, final = games_of(finals)
    games = {g.number: g for g in Game.objects.filter(tournament_id=finals.phase_id)}
    seated_by_game = table_selectors.seated_tables(list(games.values()))
    for key, number_ in (("semifinal_tables", semi), ("final_table", final)):
        game = games.get(number_) if number_ else None
        if game is None or not (game.composition_options or {}).get("knockout"):
            continue
        orders = table_selectors.table_finishing_orders(game)
        described = [{"number": n, "players": [{"player": p, "name": names.get(p, "?")} for p in seated],
                      "order": [{"player": p, "name": names.get(p, "?")} for p in orders.get(n, [])],
                      "done": n in orders}
                     for n, seated in enumerate(seated_by_game.get(game.pk, []), start=1)]
        out[key] = described if key == "semifinal_tables" else (described[0] if described else None)
    return out


def _step(finals: SeasonFinals, tables: dict[str, Any]) -> str:
    """What the organizer does next."""
    if finals.phase_id is None:
        return "create"
    final = tables["final_table"]
    if final is not None:
        return "done" if final["done"] else "final_playing"
    semis = tables["semifinal_tables"]
    if finals.semifinals and not semis:
        return "draw_semifinals"
    if semis and not all(t["done"] for t in semis):
        return "semifinals_playing"
    return "draw_final"


def final_ranking(finals: SeasonFinals, tables: dict[str, Any], rows: list[dict[str, Any]]
                  ) -> list[dict[str, Any]]:
    """The season's final ranking once the final has its result: the finalists in their final's
    order, then the semifinals' other players (by their place at their table, then their
    standing), then everyone else in the season's standings order. Empty before."""
    final = tables["final_table"]
    if final is None or not final["done"]:
        return []
    position = {r["player"]: r["position"] for r in rows}
    ranked = [(p["player"], _("Final: place %(n)s") % {"n": i}) for i, p in enumerate(final["order"], start=1)]
    taken = {p for p, _how in ranked}
    losers = sorted(((i, position.get(p["player"], 10**6), p["player"], t["number"])
                     for t in tables["semifinal_tables"] for i, p in enumerate(t["order"], start=1)
                     if p["player"] not in taken))
    ranked += [(p, _("Semifinal %(t)s: place %(n)s") % {"t": table, "n": i}) for i, _pos, p, table in losers]
    taken |= {p for _i, _pos, p, _t in losers}
    ranked += [(r["player"], _("Season standings: %(rank)s") % {"rank": r["rank"]})
               for r in rows if r["player"] not in taken]
    by_player = {r["player"]: r for r in rows}
    return [{"position": i, "player": p, "name": by_player.get(p, {}).get("name", "?"),
             "club": by_player.get(p, {}).get("club", ""), "how": how,
             "season_total": number(decimal(by_player[p]["total"])) if p in by_player else None}
            for i, (p, how) in enumerate(ranked, start=1)]
