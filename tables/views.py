"""Pages of tables/: the public tables of a game, a table, "where do I sit", the printable table
sheet, a player's own objective card, the organizer's composition page and the knock-out plan.
Thin: every write is a ``tables.services`` call."""

from __future__ import annotations

import hashlib
import io
import re
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode, urlsplit

import segno
from django import forms
from django.contrib import messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils import dateformat, timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_safe

from common import live
from common.errors import DomainError
from common.refusals import refuse
from tables import api, selectors, services
from tables.models import Game
from tables.seating import PRIORITIES, arrange_priorities
from tables.seating_text import localized_report, priority_choices, priority_label
from tournaments.formats import FIXED_SEMIFINALS
from tournaments.models import Player, Tournament
from tournaments.permissions import is_organizer, staff_required

# ------------------------------------------------------------------------------ helpers


def qr_svg(request: HttpRequest, path: str) -> str:
    """An inline SVG QR code of the absolute URL of ``path`` (no external service): the printed
    sheet keeps it inline, so the code is on paper even if the image were never fetched."""
    return _qr_of(request.build_absolute_uri(path))


@lru_cache(maxsize=4096)
def _qr_code(url: str) -> segno.QRCode:
    # Encoding is costly (~7 ms: segno tries every mask) and a URL's code never changes: a game
    # page of 125 tables spent 90% of its time here before this cache.
    return segno.make(url, error="m")


@lru_cache(maxsize=4096)
def _qr_of(url: str) -> str:
    return mark_safe(_qr_code(url).svg_inline(scale=3, dark="#000"))  # noqa: S308


@lru_cache(maxsize=4096)
def _qr_file_of(url: str) -> bytes:
    out = io.BytesIO()
    _qr_code(url).save(out, kind="svg", scale=3, dark="#000", xmldecl=False)
    return out.getvalue()


# The pages a QR code may point at: the public pages of a game's tables, and a player's "where do
# I sit" (``?player=<id>``). Anything else, another host above all, is a 404: the endpoint is
# never a way to make codes for someone else's URL.
QR_ROUTES = frozenset({"tables:game_tables", "tables:table", "tables:where"})
QR_PATH_MAX = 300
_QR_QUERY = re.compile(r"player=[0-9]{1,12}")


def qr_target(path: str) -> str | None:
    """``path`` if it is one of this site's pages a QR code may point at (``QR_ROUTES``), else
    None."""
    if (not path.startswith("/") or path.startswith("//") or len(path) > QR_PATH_MAX
            or not path.isascii() or not path.isprintable() or "\\" in path):
        return None
    parts = urlsplit(path)
    if parts.scheme or parts.netloc or parts.fragment or "#" in path:
        return None
    try:
        match = resolve(parts.path)
    except Resolver404:
        return None
    if match.view_name not in QR_ROUTES:
        return None
    if parts.query and not (match.view_name == "tables:where"
                            and _QR_QUERY.fullmatch(parts.query)):
        return None
    return path


def qr_src(path: str) -> str:
    """The image URL of the QR code of this site's ``path`` (see :func:`qr_image`)."""
    return f"{_qr_endpoint()}?{urlencode({'path': path}, safe='/')}"


@lru_cache(maxsize=1)
def _qr_endpoint() -> str:
    return reverse("tables:qr")


@require_safe
def qr_image(request: HttpRequest) -> HttpResponse:
    """The QR code of one of this site's pages (``?path=``) as an SVG image. Pages reference it
    with ``<img loading="lazy">`` instead of inlining ~2.5 KB of SVG per code (a 125-table
    page weighed 360 KB). A path's code never changes, so browsers may keep it."""
    target = qr_target(request.GET.get("path", ""))
    if target is None:
        raise Http404
    response = HttpResponse(_qr_file_of(request.build_absolute_uri(target)),
                            content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


def _game(slug: str, number: int) -> tuple[Tournament, Game]:
    tournament = get_object_or_404(Tournament, slug=slug)
    game = selectors.game_of(tournament, number)
    if game is None:
        raise Http404
    return tournament, game


organizer_required = staff_required("organizer")


# ------------------------------------------------------------------------------ public pages


# Stands for the server's time in the cached tables (the view puts the time of each request in):
# a ``<`` can never come out of autoescaped data.
_SERVER_NOW = "<server-now>"
TABLES_CACHE_SECONDS = 600


@live.public(bucket=30)  # without a worker nobody records an expiry: the page says it at most 30 s late
@require_GET
def game_tables(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A game's tables, a page of them (a 1,250-table game is not sent to a phone whole):
    ``?q=`` shows the tables of the players whose name matches, ``?player=<id>`` (a player's
    link) the page that holds their table, marked; else ``?page=<n>``."""
    tournament, game = _game(slug, number)
    window = _tables_window(request, game)
    tables = window.pop("tables")
    return render(request, "tables/game_tables.html", {
        "tournament": tournament, "game": game, "tables": tables,
        "cards": _table_cards(slug, number, tables, stopped=game.status == Game.Status.FINISHED
                              or tournament.status == Tournament.Status.FINISHED),
        "can_organize": is_organizer(request.user, tournament), **window,
    })


TABLES_PAGE = 50  # tables per page: 200 players


def _tables_window(request: HttpRequest, game: Game) -> dict[str, Any]:
    q = request.GET.get("q", "").strip()[:60]
    count = selectors.tables_count(game)
    pages = max(1, -(-count // TABLES_PAGE))
    if q:
        seats = selectors.find_seats(game, q)
        found = sorted({s.table.number for s in seats})[:TABLES_PAGE]
        return {"tables": selectors.public_tables(game, numbers=found) if found else [], "q": q, "seats": seats,
                "page": 0, "pages": pages, "mine": None}
    player = request.GET.get("player", "")
    seat = selectors.seat_of(game, int(player)) if player.isdigit() and len(player) <= 12 else None
    page_asked = request.GET.get("page", "")
    page = int(page_asked) if page_asked.isdigit() and len(page_asked) <= 6 else 1
    if seat is not None:
        page = selectors.table_index(game, seat.table.number) // TABLES_PAGE + 1
    page = min(max(page, 1), pages)
    tables = selectors.public_tables(game, offset=(page - 1) * TABLES_PAGE, limit=TABLES_PAGE)
    return {"tables": tables, "q": "", "page": page, "pages": pages, "mine": seat,
            "previous": page - 1 if page > 1 else None, "next": page + 1 if page < pages else None}


def _table_cards(slug: str, number: int, tables: list[Any], *, stopped: bool = False) -> str:
    """The rendered tables, cached under a digest of everything they show (seats, names, clubs,
    colours, clocks, language, time zone): any change gives a new key, so nothing needs to be
    invalidated and an erased or renamed player is never shown from the cache. Phones in the hall
    reload this page all day; it changes a few times per game. ``stopped``: the game is closed,
    its clocks stand still (``Table.clock_stopped``)."""
    for t in tables:  # run out by the deadline, even before any process recorded it (E-TIME)
        t.expired = t.expired_marked_at is not None or (not stopped and t.time_expired())
    content = repr((slug, number, stopped, get_language(), timezone.get_current_timezone_name(), [
        (t.pk, t.number, t.deadline, t.paused_at, t.expired_marked_at, t.expired,
         [(s.number, s.colour, s.player and (s.player.pk, s.player.display_name,
                                             s.player.club and s.player.club.name))
          for s in t.public_seats])
        for t in tables]))
    key = "tables:cards:" + hashlib.sha256(content.encode()).hexdigest()
    cards = cache.get(key)
    if cards is None:
        # Links are built once from this page's own URL (…/tables/ + n/), not reversed per
        # table, and each text is translated once, filled in per table (the same msgids).
        base = reverse("tables:game_tables", args=[slug, number])
        label, qr_alt = _("Table %(t)s"), _("QR code of table %(t)s")
        for table in tables:
            table.url = f"{base}{table.number}/"
            table.sheet_url = f"{table.url}sheet/"
            table.qr_src = qr_src(table.url)
            table.label = label % {"t": table.number}
            table.qr_alt = qr_alt % {"t": table.number}
        cards = render_to_string("tables/_table_cards.html", {
            "tables": tables, "stopped": stopped, "server_now": mark_safe(_SERVER_NOW)})  # noqa: S308
        cache.set(key, cards, TABLES_CACHE_SECONDS)
    return mark_safe(cards.replace(_SERVER_NOW, dateformat.format(timezone.now(), "U.u")))  # noqa: S308


@live.public(bucket=30)  # as game_tables: a clock's expiry shown at most 30 s late without a worker
@require_GET
def table_page(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    tournament, game = _game(slug, number)
    found = selectors.table_of(game, table)
    if found is None:
        raise Http404
    seats = list(found.seats.all())
    for seat in seats:
        if seat.player_id:
            seat.qr_src = qr_src(_player_path(slug, number, seat.player_id))
    return render(request, "tables/table.html", {
        "tournament": tournament, "game": game, "table": found, "seats": seats,
        "qr_src": qr_src(reverse("tables:table", args=[slug, number, table])),
        "deal_command": services.deal_command(found) if found.deal_seed else "",
    })


def _player_path(slug: str, number: int, player_id: int) -> str:
    return reverse("tables:where", args=[slug, number]) + f"?player={player_id}"


@require_GET
def where(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Where do I sit: search by name (or ``?player=`` from a player's QR code)."""
    tournament, game = _game(slug, number)
    query = request.GET.get("q", "").strip()
    player_id = request.GET.get("player", "")
    if player_id.isdigit():
        seat = selectors.seat_of(game, int(player_id))
        seats = [seat] if seat else []
    else:
        seats = selectors.find_seats(game, query) if query else []
    template = "tables/_where_results.html" if request.htmx else "tables/where.html"
    return render(request, template, {
        "tournament": tournament, "game": game, "q": query, "seats": seats,
        "searched": bool(query or player_id),
    })


@require_GET
def sheet(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The printable table sheet (A4): seats in turn order, colours, territories by continent."""
    tournament, game = _game(slug, number)
    found = selectors.table_of(game, table)
    if found is None:
        raise Http404
    by_seat = selectors.deal_by_continent(found)
    seats = list(found.seats.all())
    for seat in seats:
        seat.continents = by_seat.get(seat.number, [])
        seat.territory_count = sum(len(t) for _c, t in seat.continents)
    public = reverse("tables:table", args=[slug, number, table])
    return render(request, "tables/sheet.html", {
        "tournament": tournament, "game": game, "table": found, "seats": seats,
        "qr": qr_svg(request, public), "public_url": request.build_absolute_uri(public),
        "deal_command": services.deal_command(found) if found.deal_seed else "",
    })


@never_cache  # a player's secret card: never kept by a browser or a proxy
@require_GET
def objective(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A player's own objective card (private link); every card, and the secret seed they come
    from, for everyone once the game is over."""
    tournament, game = _game(slug, number)
    cards = api.visible_objectives(request, game)
    names = {p.pk: p.display_name for p in Player.objects.filter(
        pk__in=[c["player"] for c in cards])}
    for card in cards:
        card["player_name"] = names.get(card["player"], "")
    return render(request, "tables/objective.html", {
        "tournament": tournament, "game": game, "cards": cards,
    })


@require_GET
def knockout_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    plan, error = None, None
    try:
        plan = api.knockout_plan(tournament, request.GET)
    except DomainError as exc:
        error = exc
    return render(request, "tables/knockout.html", {
        "tournament": tournament, "plan": plan, "error": error,
        "entrants": request.GET.get("entrants", ""), "final_size": request.GET.get(
            "final_size", "5"),
    }, status=400 if error else 200)


# ------------------------------------------------------------------------------ organizer


def _priority_field(position: int, initial: str | None) -> forms.ChoiceField:
    return forms.ChoiceField(
        label=gettext_lazy("Priority %(n)s") % {"n": position},
        choices=[("", "—"), *priority_choices()],
        required=False, initial=initial,
    )


class ComposeForm(forms.Form):
    prefer = forms.ChoiceField(
        label=gettext_lazy("Table sizes"),
        choices=[("fives", gettext_lazy("more tables of 5")),
                 ("fours", gettext_lazy("more tables of 4"))],
        initial="fives",
    )
    seeding = forms.ChoiceField(
        label=gettext_lazy("Seeding"),
        choices=[("random", gettext_lazy("random")),
                 ("swiss", gettext_lazy("by standing: Swiss blocks")),
                 ("greca", gettext_lazy("by standing: alla greca"))],
        initial="random",
    )
    odd_count = forms.ChoiceField(
        label=gettext_lazy("When tables of 4 and 5 cannot seat everyone (6, 7, 11 players)"),
        choices=[("", gettext_lazy("refuse and show me the options")),
                 ("ghost", gettext_lazy("a table of 3 with a ghost seat")),
                 ("six", gettext_lazy("a table of 6"))],
        required=False,
    )
    by_region = forms.BooleanField(label=gettext_lazy("National event: same region apart"),
                                   required=False)
    seed = forms.CharField(label=gettext_lazy("Seed (empty: a new random one)"), max_length=64,
                           required=False)

    # The order the slots showed (comma-separated keys): a slot whose choice differs from it
    # was changed, and its priority moves there (seating.arrange_priorities).
    priorities_before = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, number: int = 1, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shown = list(self.initial.get("priorities") or services.default_priorities(number))
        for i in range(len(PRIORITIES)):
            self.fields[f"priority_{i + 1}"] = _priority_field(i + 1, shown[i] if i < len(shown) else "")
        self.fields["priorities_before"].initial = ",".join(shown)

    def priorities(self) -> list[str]:
        """The order chosen: a priority picked for a slot moves there, the others shift."""
        chosen = [self.cleaned_data.get(f"priority_{i + 1}") or "" for i in range(len(PRIORITIES))]
        before = (self.cleaned_data.get("priorities_before") or "").split(",")
        return arrange_priorities(chosen, before if any(before) else ())


def _organize_context(tournament: Tournament, game: Game, form: ComposeForm) -> dict[str, Any]:
    tables = list(selectors.tables_of(game))
    seated = [(s.player_id, f"{s.player.display_name} — {_('table')} {t.number}")
              for t in tables for s in t.seats.all() if s.player_id]
    seated.sort(key=lambda x: x[1])
    withdrawn_ids = (game.composition_options or {}).get("withdrawn", [])
    checked_in = selectors.checked_in_players(tournament, game.number)
    names = {s.player_id: s.player.display_name for t in tables for s in t.seats.all() if s.player_id}
    # K-SWISS: who sits away from their standings block, and where (the plan's explanation)
    swiss_moves = [{"name": names.get(pid, pid), "block": block, "table": table}
                   for pid, block, table in (game.composition_report or {}).get("swiss_moves", [])]
    return {
        "swiss_moves": swiss_moves,
        "tournament": tournament, "game": game, "tables": tables, "form": form,
        "seated": seated, "report": localized_report(game.composition_report or {}),
        "withdrawn": Player.objects.filter(pk__in=withdrawn_ids),
        "checked_in_count": len(checked_in),
        "labels": {k: priority_label(k) for k in PRIORITIES},
    }


@organizer_required
@require_http_methods(["GET", "POST"])
def organize(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """The organizer's page: compose with options, see the quality report, swap/move/withdraw,
    re-compose, start."""
    try:
        game = services.ensure_game(tournament, number, actor=request.user)
    except DomainError as exc:
        raise Http404(exc.message) from exc
    # the choices last used for this game, else the format preset's for this round (K-TABLES)
    chosen = game.composition_options or services.preset_options(tournament, number) or {}
    form = ComposeForm(initial=_form_initial(chosen), number=number)
    if request.method == "POST":
        action = request.POST.get("action", "")
        status = 200
        try:
            if action in ("compose", "preview"):
                form = ComposeForm(request.POST, number=number)
                if not form.is_valid():
                    raise DomainError(_("Check the form."), field="form", rule="K-TABLES")
                data = form.cleaned_data
                choices = {"prefer": data["prefer"], "priorities": form.priorities(), "seeding": data["seeding"],
                           "odd_count": data["odd_count"] or None, "by_region": data["by_region"]}
                if action == "preview":
                    return _preview(request, tournament, game, choices, data["seed"])
                services.compose_game(game, actor=request.user, seed=data["seed"], **choices)
                messages.success(request, _("Tables composed."))
            elif action in ("swap", "move", "withdraw", "reinstate"):
                change = _change(request, game, action)
                for warning in change:
                    messages.warning(request, warning)
                messages.success(request, _("Tables changed."))
            elif action == "rehearsal":
                game = services.set_rehearsal(game, request.POST.get("rehearsal") == "1", actor=request.user)
                messages.success(request, _("This game is now a rehearsal: its results will not count.")
                                 if game.rehearsal else _("This game now counts."))
            elif action == "start":
                services.set_deal_objectives(game, request.POST.get("deal_objectives") == "on",
                                             actor=request.user)
                services.start_game(game, actor=request.user)
                messages.success(request, _("Game started: tables dealt and clocks running."))
            else:
                raise DomainError(_("Unknown action."), field="action")
        except DomainError as exc:
            refuse(request, exc)
            status = exc.status_code
        if status == 200:
            return redirect("tables:organize", tournament.slug, number)
        game.refresh_from_db()
        return render(request, "tables/organize.html", _organize_context(tournament, game, form),
                      status=status)
    return render(request, "tables/organize.html", _organize_context(tournament, game, form))


def _form_initial(chosen: dict[str, Any]) -> dict[str, Any]:
    """The compose form's initial values from stored or preset choices (priorities in slots)."""
    prios = list(chosen.get("priorities") or [])
    initial = {k: v for k, v in chosen.items() if k != "withdrawn"}
    if prios:
        initial.update({f"priority_{i + 1}": prios[i] if i < len(prios) else "" for i in range(len(PRIORITIES))})
    return initial


def _preview(request: HttpRequest, tournament: Tournament, game: Game, choices: dict[str, Any],
             seed: str) -> HttpResponse:
    """What composing would give with these choices, before composing: the counts for this
    order of priorities, the form kept as chosen (priorities in their new order) with the seed
    the preview used, so that "Compose" then gives exactly these tables."""
    preview = services.preview_composition(game, actor=request.user, seed=seed, **choices)
    form = ComposeForm(initial=_form_initial({**choices, "priorities": preview["priorities"],
                                              "seed": preview["seed"]}), number=game.number)
    context = _organize_context(tournament, game, form)
    context["preview"] = {**preview, "labels": [priority_label(k) for k in preview["priorities"]],
                          "unmet": localized_report({"unmet": preview["unmet"]}).get("unmet", [])}
    return render(request, "tables/organize.html", context)


def _int(request: HttpRequest, name: str) -> int:
    value = request.POST.get(name, "")
    if not value.isdigit():
        raise DomainError(_("Choose a value."), field=name, rule="FORMAT")
    return int(value)


def _change(request: HttpRequest, game: Game, action: str) -> list[str]:
    user = request.user
    if action == "swap":
        return services.swap_players(game, _int(request, "player_a"), _int(request, "player_b"),
                                     actor=user).warnings
    if action == "move":
        return services.move_player(game, _int(request, "player"), _int(request, "table"),
                                    actor=user).warnings
    if action == "withdraw":
        return services.withdraw_player(game, _int(request, "player"), actor=user).warnings
    services.reinstate_player(game, _int(request, "player"), actor=user)
    return []



@organizer_required
@require_http_methods(["GET", "POST"])
def phases_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """K-KO-RCU: preview the semifinals and the final(s), create each phase (organizer)."""
    from tables import phases

    status, seed = 200, ""
    if request.method == "POST":
        action = request.POST.get("action", "")
        seed = request.POST.get("seed", "")
        create = {"semifinals": phases.create_semifinals, "final": phases.create_finals}.get(action)
        try:
            if create is None:
                raise DomainError(_("Unknown action."), field="action")
            game = create(tournament, actor=request.user, seed=seed)
            messages.success(request, _("Game %(n)s created: check its tables, then start it.")
                             % {"n": game.number})
            return redirect("tables:organize", tournament.slug, game.number)
        except DomainError as exc:
            refuse(request, exc)
            status = exc.status_code
    fixed = tournament.event_format().knockout in FIXED_SEMIFINALS  # Sant'Eufemia: K-KO-SE
    return render(request, "tables/phases.html", {
        "tournament": tournament, "overview": phases.phases_overview(tournament), "seed": seed,
        "rule": "K-KO-SE" if fixed else "K-KO-RCU",
        "how_labels": {"direct": _("direct qualifier"), "winner": _("semifinal winner"),
                       "best_loser": _("best semifinal loser")},
    }, status=status)
