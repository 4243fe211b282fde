"""The team standings among the event's spreadsheets (``scoring.exports.TABLES``: "teams") and in
its workbook as the clubs' "Classifica a Squadre" sheet (``workbook.export.SHEETS``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournaments.models import Tournament

from . import selectors

SHEET = "Classifica a Squadre"


def team_sheet(tournament: Tournament) -> list[list[Any]]:
    """The clubs' sheet: Pos., Club o Famiglia, pt1…ptN (every result of the team, best first),
    v_tot (wins), pt_tot (every result) and pt_class (the best 9). N is the most results any
    team has (the clubs' tool takes the first team's count and cuts the others)."""
    if not selectors.mode(tournament):
        return []
    rows = selectors.standings(tournament)["rows"]
    if not rows:
        return []
    width = max((len(r["results"]) for r in rows), default=0)
    out: list[list[Any]] = [["Pos.", "Club o Famiglia", *(f"pt{k}" for k in range(1, width + 1)),
                             "v_tot", "pt_tot", "pt_class"]]
    for r in rows:
        scores = [x["score"] for x in r["results"]]
        out.append([r["position"], r["team"]["name"], *scores, *([""] * (width - len(scores))),
                    r["wins"], r["total_all"], r["total"]])
    return out


def teams_table(tournament: Tournament, national_ids: bool = False) -> tuple[list[str], list[list[Any]]]:
    """The team standings as a spreadsheet in the reader's language."""
    head = [_("Position"), _("Team"), _("Best 9"), _("Every result"), _("Wins"), _("Counted results")]
    rows = [[r["position"], r["team"]["name"], r["total"], r["total_all"], r["wins"],
             "; ".join(f"{c['player_name']} G{c['game']} T{c['table']} {c['score']}" for c in r["counted"])]
            for r in selectors.standings(tournament)["rows"]]
    return head, rows


def register() -> None:
    from scoring import exports
    from workbook import export

    exports.TABLES["teams"] = teams_table
    export.SHEETS[SHEET] = team_sheet
