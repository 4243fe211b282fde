"""Referee table page (phone sized: clock, what happens next, ends of turn and sdadata rolls)
and the hall projector page (every table of a game). Thin: the work is in ``tables.clocks`` and
``tables.closure``; refusals carry the rule id and keep what was typed."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from common.errors import DomainError
from common.htmx import keep_target
from common.refusals import shown
from tournaments import idempotency
from tournaments.models import Tournament
from tournaments.permissions import is_referee

from . import clocks, closure
from .models import Game, Table


def _game(slug: str, number: int) -> Game:
    return get_object_or_404(Game.objects.select_related("tournament"), tournament__slug=slug,
                             number=number)


def _table(game: Game, number: int) -> Table:
    table = (
        Table.objects.filter(game=game, number=number)
        .select_related("game__tournament")
        .prefetch_related("seats__player")
        .first()
    )
    if table is None:
        raise Http404
    return table


def _int(value: Any, field: str, *, required: bool = True) -> int | None:
    if value in (None, "") and not required:
        return None
    try:
        return int(value)
    except (TypeError, ValueError):
        raise DomainError(_("Enter a whole number."), field=field) from None


def _dice(request: HttpRequest) -> list[int] | None:
    values = [v for v in (request.POST.get("die1"), request.POST.get("die2"), request.POST.get("die3"))
              if v not in (None, "")]
    if not values:
        return None
    dice = []
    for v in values:
        d = _int(v, "dice")
        assert d is not None
        dice.append(d)
    return dice


def referee_context(table: Table, *, now: Any = None) -> dict[str, Any]:
    clocks.ensure_marked(table, now)
    state = closure.current_state(table)
    action = closure.next_action(table, now)
    seats = list(table.seats.all())
    return {
        "table": table,
        "game": table.game,
        "tournament": table.game.tournament,
        "clock": clocks.clock_state(table, now),
        "state": state,
        "action": action,
        "action_text": closure.describe(action),
        "seats": seats,
        "active_seats": [s for s in seats if s.number in state.active()],
        "steps": closure.steps(table),
        "dice_count": range(1, state.dice + 1),
        "can_set_expiry_seat": bool(table.expired_marked_at) and _last_is_expiry(table),
        "version_key": cache.get(clocks.version_key(table_id=table.pk), 0),
    }


def deal_seats(table: Table) -> list[dict[str, Any]]:
    """What the referee checks before the first turn: each seat's colour, territories by
    continent (D-DEAL) and starting armies (D-ARMIES for the table's size)."""
    from . import selectors

    seats = list(table.seats.all())
    try:
        armies: int | None = table.game.tournament.event_format().rules().armies_for(len(seats))
    except Exception:  # noqa: BLE001 - a size the rule set has no figure for: shown as "–"
        armies = None
    by_seat = selectors.deal_by_continent(table)
    return [{"seat": s, "armies": armies, "continents": by_seat.get(s.number, []),
             "count": sum(len(t) for _c, t in by_seat.get(s.number, []))} for s in seats]


def _last_is_expiry(table: Table) -> bool:
    last = table.turn_events.order_by("-index").first()
    return last is not None and last.kind == "time_expired"


def _perform(request: HttpRequest, table: Table, action: str) -> str:
    user = request.user
    post = request.POST
    version = _int(post.get("version"), "version", required=False)
    if action == "end_turn":
        seat = _int(post.get("seat"), "seat")
        conquered = _int(post.get("conquered") or "0", "conquered")
        assert seat is not None and conquered is not None
        before = closure.current_state(table)
        barred = before.seat == seat and before.roll_due() and before.barred(conquered)
        event = closure.record_end_of_turn(
            table, actor=user, seat=seat, conquered=conquered, dice=_dice(request),
            server_roll=post.get("server_roll") == "1", expected_version=version,
        )
        if event.dice:
            return _("Seat %(seat)s rolled %(dice)s (total %(total)s).") % {
                "seat": seat, "dice": " + ".join(str(d) for d in event.dice), "total": sum(event.dice)}
        if barred:
            said = closure.describe(before.with_conquests(conquered).next_action(), conquered)
            return _("%(rule)s: %(said)s End of turn recorded.") % {"rule": "E-BAR", "said": said}
        return _("End of turn of seat %(seat)s recorded.") % {"seat": seat}
    if action == "eliminate":
        seat = _int(post.get("seat"), "seat")
        assert seat is not None
        closure.record_elimination(table, actor=user, seat=seat, expected_version=version)
        return _("Seat %(seat)s eliminated.") % {"seat": seat}
    if action == "expiry_seat":
        seat = _int(post.get("seat"), "seat")
        assert seat is not None
        closure.set_expiry_seat(table, actor=user, seat=seat, expected_version=version)
        return _("Time expired during the turn of seat %(seat)s.") % {"seat": seat}
    if action == "undo":
        closure.undo_last(table, actor=user, expected_version=version)
        return _("The last step was taken back.")
    if action == "pause":
        clocks.pause_clock(table, actor=user, reason=post.get("reason", ""), expected_version=version)
        return _("Clock paused.")
    if action == "resume":
        clocks.resume_clock(table, actor=user, reason=post.get("reason", ""), expected_version=version)
        return _("Clock resumed.")
    if action == "extend":
        minutes = _int(post.get("minutes"), "minutes")
        clocks.extend_clock(table, actor=user, minutes=minutes, reason=post.get("reason", ""),
                            expected_version=version)
        return _("Clock extended by %(minutes)s minutes.") % {"minutes": minutes}
    raise DomainError(_("Unknown action."), field="action")


@require_http_methods(["GET", "POST"])
def referee_table(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    game = _game(slug, number)
    tournament: Tournament = game.tournament
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not is_referee(request.user, tournament):
        response = render(request, "tables/referee_forbidden.html", {"tournament": tournament},
                          status=403)
        # an htmx tap says it in the page's refusal area (common/htmx.py)
        response.refusal_message = _(  # type: ignore[attr-defined]
            "Only a referee or an organizer of this tournament may do this.")
        return response
    tbl = _table(game, table)
    error: DomainError | None = None
    done = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        def write() -> idempotency.Answer:
            return 200, {"done": _perform(request, tbl, action)}

        try:  # tapped again (the answer was lost): the step is recorded once, its message again
            done = idempotency.once(request, write)[1]["done"]
        except DomainError as exc:
            error = shown(exc)
        if error is None and not request.htmx:
            from django.contrib import messages

            messages.success(request, done)
            return redirect(request.path)
        tbl = _table(game, table)
    context = referee_context(tbl)
    context.update({"error": error, "done": done, "typed": request.POST if error else {},
                    "idempotency_key": uuid.uuid4().hex})  # each form adds its action: one key a form
    if not request.htmx:
        context["deal_seats"] = deal_seats(tbl)
    status = error.status_code if error else 200
    template = "tables/referee_panel.html" if request.htmx else "tables/referee_table.html"
    response = render(request, template, context, status=status)
    if error is not None and request.htmx:
        # the panel shows the refusal itself and keeps what was typed (common/htmx.py)
        return keep_target(response, status=status)
    return response


def referee_status(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """htmx poll: the clock, the next action and the log (no form, so typing is never lost)."""
    game = _game(slug, number)
    if not request.user.is_authenticated or not is_referee(request.user, game.tournament):
        return HttpResponse(status=403)
    return render(request, "tables/referee_status.html", referee_context(_table(game, table)))


def _projector_context(game: Game) -> dict[str, Any]:
    now = timezone.now()
    rows = []
    tables = (
        Table.objects.filter(game=game).order_by("number").select_related("game__tournament")
        .prefetch_related("seats__player")
    )
    for t in tables:
        clocks.ensure_marked(t, now)
        try:
            text = closure.describe(closure.next_action(t, now)) if t.deadline else ""
        except DomainError:
            text = ""
        rows.append({"table": t, "seats": list(t.seats.all()), "next": text,
                     "clock": clocks.clock_state(t, now)})
    return {"game": game, "tournament": game.tournament, "rows": rows,
            "version_key": cache.get(clocks.version_key(game_id=game.pk), 0)}


def projector(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table of a game at once, for the hall (public; refreshes itself with htmx)."""
    game = _game(slug, number)
    template = "tables/projector_tables.html" if request.htmx else "tables/projector.html"
    return render(request, template, _projector_context(game))

