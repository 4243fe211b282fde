"""The stored figures as tables of headers and rows: what a page shows and what its CSV file
holds are the same rows (a rate in percent with one decimal; the 95 % interval as two columns).
Pure of requests: the views and the API hand in the sheets read by ``clubstats.selectors``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from common.engine_messages import ending as ending_label

from .models import ALL_YEARS, Sheet


@dataclass
class Section:
    title: str
    headers: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    # where a rate's three columns (rate, 95 % low, high) start, and the one column's name on a page
    triples: dict[int, str] = field(default_factory=dict)

    def on_page(self) -> dict[str, list[Any]]:
        """The headers and rows a page shows: each rate and its interval in one cell
        ("50,0 % (9,5–90,6)"), so a phone lists a third fewer lines than the CSV has columns."""
        headers: list[str] = []
        keep: list[tuple[int, bool]] = []
        i = 0
        while i < len(self.headers):
            triple = i in self.triples
            headers.append(self.triples[i] if triple else self.headers[i])
            keep.append((i, triple))
            i += 3 if triple else 1
        rows = [[_interval(row[i:i + 3]) if triple else row[i] for i, triple in keep] for row in self.rows]
        return {"headers": headers, "rows": rows}


def _interval(values: Sequence[Any]) -> str | None:
    rate, low, high = values
    if rate is None:
        return None
    return f"{number_format(rate, 1)} % ({number_format(low, 1)}–{number_format(high, 1)})"


def pct(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 1)


def _rate(p: Mapping[str, Any] | None) -> list[Any]:
    """Rate, low and high of the 95 % interval, in percent (empty without a figure)."""
    if not p or not p.get("of"):
        return [None, None, None]
    return [pct(p["rate"]), pct(p["low"]), pct(p["high"])]


def _rate_headers(prefix: str = "") -> list[str]:
    if prefix:
        return [_("%(who)s: rate %%") % {"who": prefix}, _("%(who)s: 95%% low") % {"who": prefix},
                _("%(who)s: 95%% high") % {"who": prefix}]
    return [_("Rate %"), _("95% low"), _("95% high")]


def year_label(year: int) -> str:
    return _("All years") if year == ALL_YEARS else str(year)


# ------------------------------------------------------------------ a club's years

def club_years(sheets: Sequence[Sheet]) -> Section:
    seats = sorted({w["seat"] for s in sheets for w in s.data.get("wins_by_seat", [])})
    headers = [_("Year"), _("Events"), _("Players"), _("Games"), _("New players"), _("Average table size")]
    for seat in seats:
        headers += [_("Wins from seat %(seat)s") % {"seat": seat}, _("Games from seat %(seat)s") % {"seat": seat},
                    _("Seat %(seat)s win rate %%") % {"seat": seat}]
    section = Section(_("Year by year"), headers)
    for sheet in sheets:
        d = sheet.data
        row = [year_label(sheet.year), d["events"], d["players"], d["games"], d["new_players"], d["average_table"]]
        wins = {w["seat"]: w for w in d.get("wins_by_seat", [])}
        for seat in seats:
            w = wins.get(seat)
            row += [w["n"], w["of"], pct(w["rate"])] if w else [0, 0, None]
        section.rows.append(row)
    return section


# ------------------------------------------------------------------ players

def player_rows(sheets: Sequence[Sheet], clubs: Mapping[int, str]) -> Section:
    headers = [_("Player"), _("Club"), _("Events"), _("Games"), _("Wins"), _("Average place"), _("Best results"),
               _("Clubs met")]
    section = Section(_("Players"), headers)
    for sheet in sheets:
        d, player = sheet.data, sheet.player
        section.rows.append([
            player.display_name if player else "", player.club.name if player and player.club else "",
            d["events"], d["games"], d["wins"], d["average_place"], best_text(d.get("best", [])),
            len(d.get("clubs_met", [])),
        ])
    return section


def best_text(best: Sequence[Mapping[str, Any]]) -> str:
    return "; ".join(_("%(position)sº of %(field)s, %(event)s") % {
        "position": b["position"], "field": b["field"], "event": b["name"]} for b in best)


def player_years(sheets: Sequence[Sheet], clubs: Mapping[int, str]) -> Section:
    headers = [_("Year"), _("Events"), _("Games"), _("Wins"), _("Average place"), _("Best results"), _("Clubs met")]
    section = Section(_("Year by year"), headers)
    for sheet in sheets:
        d = sheet.data
        met = ", ".join(sorted((clubs.get(c, "") for c in d.get("clubs_met", [])), key=str.casefold))
        section.rows.append([year_label(sheet.year), d["events"], d["games"], d["wins"], d["average_place"],
                             best_text(d.get("best", [])), met])
    return section


# ------------------------------------------------------------------ a club's own ranking

def ranking(sheet: Sheet | None, names: Mapping[int, str]) -> Section:
    headers = [_("Position"), _("Player"), _("Points"), _("Events counted"), _("Events played")]
    section = Section(_("Club ranking"), headers)
    if sheet is not None:
        section.rows = [[r["position"], names.get(r["player"], ""), r["points"], r["counted"], r["events"]]
                        for r in sheet.data.get("rows", [])]
    return section


# ------------------------------------------------------------------ recorded games beside the simulator

def _beside(title: str, key: str, label: str, here: Sequence[Mapping[str, Any]],
            simulated: Sequence[Mapping[str, Any]], name: Any = str) -> Section:
    sim = {r[key]: r for r in simulated}
    mine = {r[key]: r for r in here}
    section = Section(title, [label, _("Games"), _("Wins"), *_rate_headers(), *_rate_headers(_("Simulator"))],
                      triples={3: _("Rate (95% interval)"), 6: _("Simulator (95% interval)")})
    for k in sorted(set(mine) | set(sim), key=lambda x: (str(type(x)), x)):
        r = mine.get(k)
        section.rows.append([name(k), r["of"] if r else 0, r["n"] if r else 0, *_rate(r), *_rate(sim.get(k))])
    return section


def _sizes(here: Sequence[Mapping[str, Any]], simulated: Sequence[Mapping[str, Any]]) -> Section:
    section = Section(_("Win rate by table size"),
                      [_("Players at the table"), _("Seat"), _("Games"), _("Wins"), *_rate_headers(),
                       _("Expected %"), *_rate_headers(_("Simulator"))],
                      triples={4: _("Rate (95% interval)"), 8: _("Simulator (95% interval)")})
    sim = {(s["size"], w["seat"]): w for s in simulated for w in s["seats"]}
    for size in here:
        for w in size["seats"]:
            section.rows.append([size["size"], w["seat"], w["of"], w["n"], *_rate(w), pct(size["expected"]),
                                 *_rate(sim.get((size["size"], w["seat"])))])
    return section


def _sdadata(here: Mapping[str, Any], simulated: Mapping[str, Any]) -> Section:
    section = Section(_("Sdadata rolls"), [_("Figure"), _("Here"), _("Simulator")])
    rows = [(_("Rolls"), "rolls"), (_("Games with a roll"), "games"), (_("Rolls per game with a roll"), "per_game")]
    for label, key in rows:
        section.rows.append([label, here.get(key), simulated.get(key)])
    for label, pick in ((_("Rolls that ended the game %"), "rate"), (_("95% low"), "low"), (_("95% high"), "high")):
        section.rows.append([label, pct(here["ending"][pick]) if here.get("ending", {}).get("of") else None,
                             pct(simulated["ending"][pick]) if simulated.get("ending", {}).get("of") else None])
    return section


def recorded(play: Sheet | None, simulator: Sheet | None) -> list[Section]:
    """The recorded games' figures beside the simulator's, question by question."""
    here = play.data if play else {}
    sim = simulator.data if simulator else {}
    endings = _beside(_("How games end"), "ending", _("Ending"), here.get("endings", []), sim.get("endings", []),
                      name=ending_label)
    endings.headers[1:3] = [_("Recorded games"), _("Ended so")]
    return [
        _beside(_("Win rate by seat order"), "seat", _("Seat"), here.get("by_seat", []), sim.get("by_seat", [])),
        _sizes(here.get("by_size", []), sim.get("by_size", [])),
        _beside(_("Win rate by objective card"), "objective", _("Objective card"), here.get("by_objective", []),
                sim.get("by_objective", [])),
        endings,
        _sdadata(here.get("sdadata", {}), sim.get("sdadata", {})),
    ]


def csv_rows(sections: Sequence[Section]) -> list[list[Any]]:
    """Sections one after the other: a title line, the headers, the rows, an empty line."""
    out: list[list[Any]] = []
    for s in sections:
        out += [[s.title], s.headers, *s.rows, []]
    return out[:-1] if out else out
