"""Pages of scoring/: leaderboard (polls itself with htmx), a player's games, a table's result,
result entry (final board, short form, recorded game), confirmation, the organizer's results
status, the download of exports (built in ``scoring.exports``) and the printable final ranking.
Thin: services do the work."""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from common import live
from common.edge import contains_nul, nul_message
from common.engine_messages import ENDING_CHOICES
from common.errors import DomainError, PermissionDeniedError
from common.refusals import refuse, shown
from engine import Board, Ending, decimal
from tables import clocks
from tables.models import Game, Table
from tables.seating_text import priority_label
from tournaments import idempotency, labels, spreadsheets
from tournaments.access import linked_player
from tournaments.models import Player, Tournament
from tournaments.permissions import is_organizer, is_referee, staff_required

from . import exports, selectors, services
from .models import ResultSubmission
from .standings import METRICS

STATUSES = (selectors.MISSING, selectors.TO_CONFIRM, selectors.DISPUTED, selectors.CONFIRMED)


# ------------------------------------------------------------------ public pages
@live.public
@require_GET
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    ctx = {"tournament": tournament, **_standings_window(request, tournament)}
    if getattr(request, "htmx", False):
        return render(request, "scoring/_standings_table.html", ctx)
    return render(request, "scoring/standings.html", ctx)


STANDINGS_PAGE = 100  # rows per page: a phone never downloads 5,000 rows


def _standings_window(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """The rows one page shows: ``?q=`` finds players by name or club (at most one page of them),
    ``?player=<id>`` opens the page that holds that player (marked), else ``?page=<n>``. Only
    those rows are read (selectors.standings_slice)."""
    q = request.GET.get("q", "").strip()[:60]
    me = _int(request.GET.get("player"))
    if q:
        found = _with_columns(selectors.standings_slice(tournament, q=q, limit=STANDINGS_PAGE, public=True))
        pages = max(1, -(-found["total"] // STANDINGS_PAGE))
        return {"s": found, "rows": found["rows"], "q": q, "found": found["count"], "page": 0, "pages": pages,
                "me": me, "poll_query": urlencode({"q": q})}
    asked = (_int(request.GET.get("page")) or 1) - 1
    window = _with_columns(selectors.standings_slice(tournament, offset=asked * STANDINGS_PAGE,
                                                     limit=STANDINGS_PAGE, player=me, clamp=True,
                                                     public=True))
    pages = max(1, -(-window["count"] // STANDINGS_PAGE))
    page = window["offset"] // STANDINGS_PAGE + 1
    mine = window["at"] is not None
    return {"s": window, "rows": window["rows"], "q": "", "page": page, "pages": pages,
            "me": me if mine else None,
            "previous": page - 1 if page > 1 else None, "next": page + 1 if page < pages else None,
            "poll_query": urlencode({"player": me} if mine else {"page": page} if page > 1 else {})}


def _with_columns(window: dict[str, Any]) -> dict[str, Any]:
    """Each row's cells under the game columns, in their order: laid out here once, not by a loop
    over every cell in every column of the template (the first render of a changed leaderboard
    is on the way from a confirmation to the phones)."""
    labels = {g: _("G%(g)s") % {"g": g} for g in window["games"]}  # a phone shows it by each value
    for row in window["rows"]:
        row["columns"] = [{"label": labels[g], "cells": [c for c in row["games"] if c["game"] == g]}
                          for g in window["games"]]
    return window


def _int(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and len(value) <= 12 else None


@live.public
@require_GET
def print_ranking(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "scoring/print.html", {"tournament": tournament, "s": selectors.public_standings(tournament)})


@live.public
@require_GET
def player_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    # Only a player of this tournament (registered or seated): any other id is a 404, so one
    # tournament's address does not list another's players.
    player = get_object_or_404(
        Player.objects.filter(Q(registrations__tournament=tournament)
                              | Q(seats__game__tournament=tournament)).distinct(), pk=pk)
    row = selectors.standings_row(tournament, player.pk, public=True)
    hidden = selectors.first_hidden_game(tournament)
    games = [g for g in selectors.player_games(tournament, player) if hidden is None or g["game"].number < hidden]
    for g in games:
        g["status_label"] = labels.result_status(g["status"])
    return render(request, "scoring/player.html", {"tournament": tournament, "player": player, "row": row,
                                                   "games": games, "hidden_from": hidden})


def _table(tournament: Tournament, pk: int) -> Table:
    return get_object_or_404(Table.objects.select_related("game"), pk=pk, game__tournament=tournament)


@live.public(personal=True)
@require_GET
def table_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    table = _table(tournament, pk)
    state = selectors.table_state(table)
    seats = selectors.seats_of(table)
    counted = state.counting(tournament.event_format().publish_unconfirmed)
    staff = is_referee(request.user, tournament)
    player = linked_player(request, tournament)
    seated = player is not None and any(s.player_id == player.pk for s in seats)
    latest = state.latest
    # the person who entered it may not confirm it (double check): the page says why
    own_entry = bool(latest and state.status != selectors.CONFIRMED and request.user.is_authenticated
                     and latest.entered_by_id == request.user.pk)
    can_confirm = bool(latest and state.status != selectors.CONFIRMED and (staff or seated) and not own_entry)
    pair = state.disputed_pair
    # a correction nobody confirmed yet: its author or an organizer may take it back
    can_withdraw = bool(
        latest and state.pending_correction and request.user.is_authenticated
        and (latest.entered_by_id == request.user.pk or is_organizer(request.user, tournament))
    )
    hidden = selectors.first_hidden_game(tournament)
    if hidden is not None and table.game.number >= hidden and not (staff or seated):
        # the organizer hid the last games' standings: only the table's players see its result
        return render(request, "scoring/table_hidden.html", {"tournament": tournament, "table": table,
                                                             "hidden_from": hidden})
    return render(request, "scoring/table.html", {
        "tournament": tournament, "table": table, "state": state, "status_label": labels.result_status(state.status),
        "rows": selectors.submission_rows(counted, seats) if counted else [],
        "counted": counted, "latest": latest, "staff": staff, "can_confirm": can_confirm, "can_withdraw": can_withdraw,
        "own_entry": own_entry,
        "latest_rows": selectors.submission_rows(latest, seats) if latest else [],
        "pair": [(s, selectors.submission_rows(s, seats)) for s in pair] if pair else None,
        "idempotency_key": uuid.uuid4().hex,  # names the confirmation: sent again, it is done once
    })


@require_POST
def confirm(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    sub = get_object_or_404(ResultSubmission.objects.select_related("table__game"), pk=pk, tournament=tournament)

    def write() -> idempotency.Answer:
        services.confirm_result(actor=request.user, submission=sub, player=linked_player(request, tournament))
        return 302, None

    try:
        idempotency.once(request, write)  # the button pressed again (the answer was lost): confirmed
        messages.success(request, _("Result confirmed."))
    except DomainError as exc:
        refuse(request, exc)
    return redirect("scoring:table", slug=tournament.slug, pk=sub.table_id)


@require_POST
def withdraw_correction(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    sub = get_object_or_404(ResultSubmission.objects.select_related("table__game"), pk=pk, tournament=tournament)
    try:
        services.withdraw_correction(actor=request.user, submission=sub)
        messages.success(request, _("Correction withdrawn: the confirmed result still counts."))
    except DomainError as exc:
        refuse(request, exc)
    return redirect("scoring:table", slug=tournament.slug, pk=sub.table_id)


# ------------------------------------------------------------------ entry
def _entry_initial(table: Table, state: selectors.TableState, seats: list[Any]) -> dict[str, Any]:
    latest = state.latest
    if latest is not None and latest.kind != ResultSubmission.Kind.RECORD:
        return {"kind": latest.kind, "ended_by": latest.ended_by, **latest.data}
    # The dealt cards are secret while the table plays: pre-filled only once it is over.
    over = table.status == Table.Status.FINISHED or table.game.status == Game.Status.FINISHED
    players = [{"seat": s.number, "objective": s.objective if over else "", "eliminated": None}
               for s in seats]
    return {"kind": "board", "ended_by": _possible_ending(table), "players": players,
            "owners": dict(table.deal or {}), "armies": {}}


def _sdadata_possible(table: Table) -> bool:
    """E-SDADATA after E-TIME, as ``services.check_sdadata_time`` decides it: the clock has
    expired, or it was never started here (a club's own clock, the referee's word)."""
    return table.deadline is None or clocks.is_expired(table)


def _possible_ending(table: Table) -> str:
    """The ending the form starts on: one the table can have now. While its clock runs only the
    objective (or an elimination) can have ended the game, so a board entered early is not
    refused for an ending nobody chose."""
    return Ending.SDADATA.value if _sdadata_possible(table) else Ending.OBJECTIVE.value


def _sdadata_hint(table: Table) -> str:
    """When the sdadata becomes possible, said under the ending (empty once it is)."""
    if _sdadata_possible(table):
        return ""
    if table.paused_at is not None:
        return _("Sdadata becomes possible once this table's time has expired: the clock is paused.")
    left = clocks.remaining(table)
    minutes = -(-int(left.total_seconds()) // 60) if left is not None else 0
    return ngettext(
        "Sdadata becomes possible once this table's time has expired, at %(time)s (in %(n)s minute).",
        "Sdadata becomes possible once this table's time has expired, at %(time)s (in %(n)s minutes).",
        minutes) % {"time": time_format(timezone.localtime(table.deadline), "H:i"), "n": minutes}


def _post_to_data(post: Any, board: Any, seats: list[Any], kind: str) -> dict[str, Any]:
    """The entry form's fields → the service's data (what was typed is kept for re-display)."""
    players = []
    for s in seats:
        n = s.number
        if kind == "short":
            players.append({
                "seat": n, "objective_points": post.get(f"objective_points_{n}", ""),
                "extra_points": post.get(f"extra_points_{n}", ""), "armies": post.get(f"armies_{n}", ""),
                "eliminated": post.get(f"eliminated_{n}") or None, "risiko": bool(post.get(f"risiko_{n}")),
            })
        else:
            players.append({"seat": n, "objective": post.get(f"objective_{n}", ""),
                            "eliminated": post.get(f"eliminated_{n}") or None})
    owners: dict[str, Any] = {}
    armies: dict[str, Any] = {}
    if kind == "board":
        for i, name in enumerate(board.names):
            o = post.get(f"owner_{i}")
            if o:
                owners[name] = o
            a = post.get(f"armies_t{i}")
            if a not in (None, ""):
                armies[name] = a
    return {"players": players, "owners": owners, "armies": armies}


def _clean_ints(data: dict[str, Any]) -> dict[str, Any]:
    def num(v: Any) -> Any:
        try:
            return int(v)
        except (TypeError, ValueError):
            return v
    return {**data, "owners": {k: num(v) for k, v in data["owners"].items()},
            "armies": {k: num(v) for k, v in data["armies"].items()}}


def _posted_record(request: HttpRequest) -> tuple[dict[str, Any], DomainError | None]:
    """The recorded game a referee uploaded or pasted, and the refusal to show if it is not one."""
    upload = request.FILES.get("record")
    data: dict[str, Any] = {"record": None}
    try:
        if upload is not None:
            spreadsheets.check_upload_size(upload.size)  # before reading it
        raw = upload.read() if upload else request.POST.get("record_text", "")
        data["record"] = json.loads(raw or "null")
        if contains_nul(data["record"]) is not None:  # PostgreSQL cannot store it
            raise DomainError(nul_message(), field="record", rule="FORMAT")
    except DomainError as exc:
        return data, DomainError(exc.message, field="record", rule=exc.rule)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deep
        return data, DomainError(_("The uploaded file is not a JSON record."), field="record", rule="FORMAT")
    return data, None


def _continents(board: Board, typed: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The board's territories by continent, each with the owner and armies typed so far."""
    owners = {str(k): str(v) for k, v in (typed.get("owners") or {}).items()}
    armies = {str(k): str(v) for k, v in (typed.get("armies") or {}).items()}
    index = {name: i for i, name in enumerate(board.names)}
    return [{"name": c.name, "territories": [
        {"i": index[t], "name": t, "value": board.territories[t].value,
         "owner": owners.get(t, ""), "armies": armies.get(t, "")} for t in c.territories]}
        for c in board.continents.values()]


@staff_required("referee")
def enter_result(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    table = _table(tournament, pk)
    state = selectors.table_state(table)
    seats = selectors.seats_of(table)
    ctx_engine = services.context_for(tournament)
    board = ctx_engine.board
    error: DomainError | None = None
    kind = request.GET.get("kind") or request.POST.get("kind") or ""
    version = state.version
    if request.method == "POST":
        kind = request.POST.get("kind", "board")
        try:
            version = int(request.POST.get("version", "0"))
        except ValueError:
            version = -1
        ended_by = request.POST.get("ended_by", "")
        if kind == "record":
            data, error = _posted_record(request)
            typed: dict[str, Any] = {"kind": kind}
        else:
            data = _post_to_data(request.POST, board, seats, kind)
            typed = {"kind": kind, "ended_by": ended_by, **data}
            data = _clean_ints(data)
        if error is None:
            try:
                def write() -> idempotency.Answer:
                    services.submit_result(actor=request.user, table=table, kind=kind, data=data,
                                           ended_by=ended_by, expected_version=version)
                    return 302, {"redirect": reverse("scoring:table", args=[tournament.slug, table.pk])}

                # the form sent again (the answer was lost): the saved result, not a 409
                _code, answer = idempotency.once(request, write)
                messages.success(request, _("Result saved. It counts once someone else confirms it."))
                return redirect(answer["redirect"])
            except DomainError as exc:
                error = shown(exc)
        status_code = error.status_code if error is not None else 400
    else:
        typed = _entry_initial(table, state, seats)
        if kind:
            typed["kind"] = kind
        status_code = 200
    by_seat = {int(p["seat"]): p for p in typed.get("players", []) if str(p.get("seat", "")).isdigit()}
    seat_rows = [{"seat": s, "typed": by_seat.get(s.number, {})} for s in seats]
    cards = {cid: sorted(o.territories) for cid, o in ctx_engine.deck.items()}
    return render(request, "scoring/enter.html", {
        "tournament": tournament, "table": table, "state": state, "seats": seats, "seat_rows": seat_rows,
        "kind": typed.get("kind", "board"), "ended_by": typed.get("ended_by", ""), "version": state.version,
        "idempotency_key": uuid.uuid4().hex,  # names this entry: sent again, it is saved once
        "continents": _continents(board, typed), "cards": cards, "error": error, "total_value": board.total_value,
        "endings": ENDING_CHOICES, "army_cap": ctx_engine.rs.army_cap, "sdadata_hint": _sdadata_hint(table),
        "card_value": ctx_engine.rs.objective_total,
        "values": {t.name: t.value for t in board.territories.values()},
    }, status=status_code)


# ------------------------------------------------------------------ organizer
def _whole(value: str, name: str) -> int:
    if not value.strip().isdigit() or len(value) > 9:
        raise DomainError(_("%(name)s must be a whole number.") % {"name": name}, field=name, rule="FORMAT")
    return int(value)


@staff_required("organizer")
def results_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    from django.contrib import messages

    if request.method == "POST":
        try:
            services.update_settings(
                actor=request.user, tournament=tournament,
                publish_unconfirmed=bool(request.POST.get("publish_unconfirmed")),
                best_n=_whole(request.POST.get("best_n") or "2", "best_n"),
            )
            messages.success(request, _("Scoring settings saved."))
            return redirect("scoring:status", slug=tournament.slug)
        except DomainError as exc:
            refuse(request, exc)
    states = selectors.table_states(tournament)
    games: dict[int, tuple[Any, list[dict[str, Any]]]] = {}
    counts: dict[str, int] = dict.fromkeys(STATUSES, 0)
    for st in states:
        counts[st.status] += 1
        game = st.table.game
        games.setdefault(game.number, (game, []))[1].append({"state": st, "label": labels.result_status(st.status)})
    return render(request, "scoring/status.html", {
        "tournament": tournament, "games": [games[n] for n in sorted(games)],
        "settings": tournament.event_format(),
        "counts": [(labels.result_status(k), v, k) for k, v in counts.items()],
    })


@require_POST
@staff_required("organizer")
def finish_game(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    from django.contrib import messages

    game = get_object_or_404(Game, tournament=tournament, number=number)
    try:
        services.finish_game(actor=request.user, game=game)
        messages.success(request, _("Game %(n)s finished.") % {"n": number})
    except DomainError as exc:
        refuse(request, exc)
    return redirect("scoring:status", slug=tournament.slug)


FORMAT_FIELDS = ("best_n", "games_count", "chain", "win_bonus", "shared_win_bonus")


@staff_required("organizer")
def format_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Pick a format preset, see every number, change what the format allows."""
    from tournaments import formats

    conf = tournament.event_format()
    chosen = request.POST.get("preset") or conf.preset or "rtu-one-day"
    typed = {k: request.POST.get(k, "") for k in FORMAT_FIELDS}
    error: DomainError | None = None
    if request.method == "POST":
        preset = formats.get(chosen)
        changes: dict[str, Any] = {}
        for key, value in typed.items():
            value = value.strip()
            if not value or preset is None or key not in preset.editable:
                continue
            changes[key] = [m.strip() for m in value.split(",") if m.strip()] if key == "chain" else value
            if key in ("win_bonus", "shared_win_bonus"):
                try:
                    changes[key] = decimal(value)  # exact: "12,5" is 12.5
                except (ValueError, ArithmeticError):
                    changes[key] = value
        try:
            services.apply_preset(actor=request.user, tournament=tournament, preset_id=chosen, changes=changes)
            return redirect("scoring:format", slug=tournament.slug)
        except DomainError as exc:
            error = shown(exc)
    rows = [p.as_dict(conf.club_changes if p.id == conf.preset else None) for p in formats.PRESETS.values()]
    for row in rows:  # codes said in words (tournaments.labels)
        row["numbers"] = labels.club_numbers(row["scoring_numbers"])
        row["editable_labels"] = [str(labels.EDITABLE.get(k, k)) for k in row["editable"]]
        row["seeding_labels"] = {n: str(labels.SEEDINGS.get(r["seeding"], r["seeding"])) for n, r in row["rounds"].items()}
        row["shape_label"] = str(labels.SHAPES.get(row["shape"], row["shape"]))
        for r in row["rounds"].values():  # the seating priorities of each round, in the reader's language
            r["priority_labels"] = [priority_label(k) for k in r["priorities"]]
    return render(request, "scoring/format.html", {
        "tournament": tournament, "presets": rows, "settings": conf, "chosen": chosen, "typed": typed,
        "error": error, "metrics": [(k, labels.metric(k)) for k in METRICS],
    }, status=400 if error else 200)


@require_GET
def export(request: HttpRequest, slug: str, what: str, fmt: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not exports.known(what) or fmt not in exports.FORMATS:
        raise PermissionDenied
    if selectors.first_hidden_game(tournament) is not None and not is_referee(request.user, tournament):
        raise PermissionDeniedError(_("The organizer has hidden the last games' standings until the end: the "
                                      "downloads come back with them."), rule="HIDDEN")
    return exports.response(request, tournament, what, fmt, national_ids=is_organizer(request.user, tournament))
