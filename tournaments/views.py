"""Server-rendered pages (thin: every write goes through ``services``)."""

from __future__ import annotations

import base64
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Max
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common.errors import DomainError
from common.htmx import refusal_from
from common.refusals import add_to_form, refuse, shown

from . import audit_text, hooks, labels, selectors, services, spreadsheets
from .access import find_link, holds, linked_player, replaced, use_access_link
from .forms import (
    CsvImportForm,
    InvitationForm,
    NationalIdForm,
    OrganizerRegistrationForm,
    RegistrationForm,
    RoleForm,
    TournamentCreateForm,
    TournamentForm,
)
from .models import AccessLink, Club, Registration, Tournament, TournamentRole
from .permissions import is_organizer, staff_required


def _public_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not selectors.can_see(request.user, tournament):
        raise Http404
    return tournament


# --- public --------------------------------------------------------------------------------
@require_GET
def tournament_list(request: HttpRequest) -> HttpResponse:
    from .invitations import setup_needed

    tournaments = selectors.visible_tournaments(request.user)
    # a fresh install: the first visitor is asked to create the first organizer
    return render(request, "tournaments/list.html", {"tournaments": tournaments,
                                                     "setup_needed": setup_needed()})


@require_GET
def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _public_tournament(request, slug)
    return render(request, "tournaments/detail.html", {
        "tournament": tournament,
        "registered": selectors.registered_players(tournament),
        "waitlist": selectors.waitlist(tournament),
        "can": selectors.user_capabilities(request.user, tournament),
        "me": linked_player(request, tournament),
        "format_words": labels.tournament_format(tournament),
    })


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _public_tournament(request, slug)
    organizer = is_organizer(request.user, tournament)
    if not tournament.is_registration_open and not organizer:
        messages.warning(request, _("Registration for this tournament is closed."))
        return redirect("tournaments:detail", slug=slug)
    form_class = OrganizerRegistrationForm if organizer else RegistrationForm
    form = form_class(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                reg = services.register(
                    tournament, services.PlayerData(**form.cleaned_data), actor=request.user
                )
            except DomainError as exc:
                add_to_form(form, exc)
            else:
                if reg.status == Registration.Status.WAITLISTED:
                    messages.warning(request, _(
                        "The tournament is full: %(name)s is on the waiting list, position "
                        "%(position)s. You move up automatically if a place frees."
                    ) % {"name": reg.player.full_name,
                         "position": services.waitlist_position(reg)})
                else:
                    messages.success(request, _("%(name)s is registered.")
                                     % {"name": reg.player.full_name})
                if organizer and request.POST.get("next") == "registrations":
                    return redirect("tournaments:registrations", slug=slug)
                return redirect("tournaments:detail", slug=slug)
        status = 400
        if organizer and request.POST.get("next") == "registrations":
            return render(request, "tournaments/registrations.html",
                          _registrations_context(tournament, form=form), status=status)
    return render(request, "tournaments/register.html", {
        "tournament": tournament, "form": form, "clubs": Club.objects.all(), "organizer": organizer,
        "full": tournament.capacity is not None
        and selectors.registered_players(tournament).count() >= tournament.capacity,
    }, status=status)


@never_cache  # names who the link is for
@require_http_methods(["GET", "POST"])
def open_link(request: HttpRequest, token: str) -> HttpResponse:
    """A private link: its landing page (who this browser will be, for which tournament, whom
    that replaces) and its button, which alone uses the link (``access``)."""
    try:
        link = find_link(token)
    except DomainError as exc:
        return render(request, "tournaments/link_invalid.html", {"message": exc.message},
                      status=403)
    if holds(request, link):  # nothing would change: straight on (a slip's QR scanned again)
        return _link_target(request, link)
    replacing = replaced(request, link)
    if request.method == "POST" and request.POST.get("replacing", "") == replacing:
        use_access_link(request, link)
        if link.kind == AccessLink.Kind.REFEREE:
            messages.success(request, _("You are signed in as a referee of %(t)s.")
                             % {"t": link.tournament.name})
        else:
            messages.success(request, _("Welcome, %(name)s: this browser now holds your personal link.")
                             % {"name": link.player.full_name if link.player else ""})
        return _link_target(request, link)
    # a GET, or a button pressed on a page that named someone else than who is here now: ask
    return render(request, "tournaments/link_open.html", {
        "link": link, "replacing": replacing, "changed": request.method == "POST",
        "who": (link.user.get_full_name() or link.user.get_username()) if link.user else "",
    }, status=409 if request.method == "POST" else 200)


def _link_target(request: HttpRequest, link: AccessLink) -> HttpResponse:
    """Where an opened link leads: the referee's page; a player's card of the slip's game, their
    seat, or the tournament."""
    if link.kind == AccessLink.Kind.REFEREE:
        return redirect("tournaments:manage", slug=link.tournament.slug)
    game = request.GET.get("game", "")
    latest = link.player.seats.filter(game__tournament=link.tournament).aggregate(
        latest=Max("game__number"))["latest"] if link.player is not None else None
    if (game.isdigit() and len(game) <= 2 and 1 <= int(game) <= link.tournament.event_format().games_count
            and (latest is None or int(game) >= latest)):
        # an objective slip of the game being played: straight to the player's own card
        return redirect(reverse("tables:objective", args=[link.tournament.slug, int(game)]))
    # the player's own page, always (nothing to scan again between games): the current game's
    # table, seat, card and clock, their standing, check-in and the referee's call
    return redirect(reverse("tables:player_home", args=[link.tournament.slug]))


# --- organizers and referees ---------------------------------------------------------------
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = TournamentCreateForm(request.POST or None, user=request.user)
    if request.method == "POST":
        if form.is_valid():
            try:
                tournament = services.create_tournament(actor=request.user, **form.cleaned_data)
            except DomainError as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, _("Tournament created. Open registration when ready."))
                return redirect("tournaments:manage", slug=tournament.slug)
        return render(request, "tournaments/form.html", {"form": form}, status=400)
    return render(request, "tournaments/form.html", {"form": form})


@require_GET
@staff_required("referee")
def manage(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournaments/manage.html", {
        "tournament": tournament,
        "can": selectors.user_capabilities(request.user, tournament),
        "counts": selectors.checkin_counts(tournament),
        "registered_count": selectors.registered_players(tournament).count(),
        "waitlist_count": selectors.waitlist(tournament).count(),
        "transitions": _transitions(tournament),
    })


def _transitions(tournament: Tournament) -> list[tuple[str, str, bool]]:
    """The status buttons, what comes next first: (status, label, forward). While registrations
    are open "Running" comes before going back to "Draft"."""
    order = list(Tournament.Status.values)
    here = order.index(tournament.status)
    allowed = Tournament.TRANSITIONS.get(tournament.status, set())
    moves = [(value, label, order.index(value) > here) for value, label in Tournament.Status.choices
             if value in allowed]
    return sorted(moves, key=lambda move: not move[2])


@require_http_methods(["GET", "POST"])
@staff_required("organizer")
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST or None, initial=TournamentForm.initial_for(tournament))
    if request.method == "POST":
        if form.is_valid():
            try:
                services.update_tournament(tournament, actor=request.user, **form.cleaned_data)
            except DomainError as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, _("Tournament saved."))
                return redirect("tournaments:manage", slug=tournament.slug)
        return render(request, "tournaments/form.html", {"form": form, "tournament": tournament},
                      status=400)
    return render(request, "tournaments/form.html", {"form": form, "tournament": tournament})


@require_POST
@staff_required("organizer")
def tournament_status(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        services.change_status(tournament, request.POST.get("status", ""), actor=request.user)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, _("Status: %(status)s.")
                         % {"status": tournament.get_status_display()})
    return redirect("tournaments:manage", slug=tournament.slug)


def _registrations_context(tournament: Tournament, query: str = "", **forms: object) -> dict[str, object]:
    return {
        "tournament": tournament, "query": query,
        "registrations": selectors.matching(selectors.registrations(tournament), query),
        "form": forms.get("form") or OrganizerRegistrationForm(),
        "import_form": forms.get("import_form") or CsvImportForm(),
        "clubs": Club.objects.all(),
        "national_id_error": forms.get("national_id_error"),
        "import_problems": forms.get("import_problems", ()),
        "importable": forms.get("importable", 0),
    }


@require_GET
@staff_required("organizer")
def registrations(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Everyone registered (withdrawn included), searched like the check-in (``?q=``)."""
    context = _registrations_context(tournament, request.GET.get("q", "").strip())
    if request.htmx:  # type: ignore[attr-defined]
        return render(request, "tournaments/_registration_rows.html", context)
    return render(request, "tournaments/registrations.html", context)


@require_POST
@staff_required("organizer")
def registration_national_id(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """Enter, correct or clear a registered player's national id (one small form per row)."""
    reg = get_object_or_404(Registration.objects.select_related("player"), pk=pk,
                            tournament=tournament)
    form = NationalIdForm(request.POST)
    error, rule = None, ""
    if form.is_valid():
        try:
            services.set_national_id(reg, form.cleaned_data["national_id"], actor=request.user)
        except DomainError as exc:
            refused = shown(exc)
            error, rule = refused.message, refused.rule
        else:
            messages.success(request, _("National id of %(name)s saved.")
                             % {"name": reg.player.full_name})
            return redirect("tournaments:registrations", slug=tournament.slug)
    else:
        error = " ".join(str(e) for e in form.errors.get("national_id", []))
    return render(request, "tournaments/registrations.html", _registrations_context(
        tournament, national_id_error={"registration": reg.pk, "message": error, "rule": rule,
                                       "typed": request.POST.get("national_id", "")},
    ), status=400)


@require_POST
@staff_required("organizer")
def registration_withdraw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    reg = get_object_or_404(Registration, pk=pk, tournament=tournament)
    try:
        promoted = services.withdraw(reg, actor=request.user, reason=request.POST.get("reason", ""))
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, _("%(name)s withdrawn.") % {"name": reg.player.full_name})
        if promoted is not None:
            messages.success(request, _("%(name)s moves up from the waiting list.")
                             % {"name": promoted.player.full_name})
    return redirect("tournaments:registrations", slug=tournament.slug)


@require_POST
@staff_required("organizer")
def registration_promote(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    reg = get_object_or_404(Registration, pk=pk, tournament=tournament)
    try:
        services.promote(reg, actor=request.user)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, _("%(name)s is registered.") % {"name": reg.player.full_name})
    return redirect("tournaments:registrations", slug=tournament.slug)


def _pending_import_key(tournament: Tournament) -> str:
    return f"csv-import-{tournament.pk}"


@require_POST
@staff_required("organizer")
def registrations_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Import a CSV file. A file with problem rows imports nothing and lists every one of
    them; the file is kept (in the session) so that "import the other rows" needs no new upload,
    and a corrected file can be chosen instead."""
    key = _pending_import_key(tournament)
    form = CsvImportForm(request.POST, request.FILES)
    if request.POST.get("action") == "rest" and key in request.session:
        content = base64.b64decode(request.session[key])
        form = CsvImportForm()
    elif form.is_valid():
        content = form.cleaned_data["file"].read()
    else:
        return render(request, "tournaments/registrations.html",
                      _registrations_context(tournament, import_form=form), status=400)
    try:
        outcome = services.import_csv_rows(tournament, content, actor=request.user,
                                           leave_out_bad_rows=request.POST.get("action") == "rest")
    except services.CsvImportError as exc:
        request.session[key] = base64.b64encode(content).decode("ascii")
        return render(request, "tournaments/registrations.html", _registrations_context(
            tournament, import_form=form, import_problems=exc.problems,
            importable=exc.importable,
        ), status=400)
    except DomainError as exc:
        add_to_form(form, exc)
        return render(request, "tournaments/registrations.html",
                      _registrations_context(tournament, import_form=form), status=400)
    request.session.pop(key, None)
    messages.success(request, _("%(n)s registrations imported.") % {"n": len(outcome.created)})
    if outcome.left_out:
        messages.warning(request, ngettext(
            "Line %(lines)s was left out: add that player by hand, or correct the file and import it.",
            "Lines %(lines)s were left out: add those players by hand, or correct the file and import it.",
            len(outcome.left_out)) % {"lines": ", ".join(str(p.line) for p in outcome.left_out)})
    return redirect("tournaments:registrations", slug=tournament.slug)


@require_GET
@staff_required("organizer")
def registrations_export(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    rows = services.export_rows(tournament, actor=request.user, words=True)
    return spreadsheets.csv_download(request, rows, f"{tournament.slug}-iscritti.csv")


@require_GET
@staff_required("referee")
def checkin(request: HttpRequest, tournament: Tournament, game: int) -> HttpResponse:
    if not 1 <= game <= tournament.event_format().games_count:
        raise Http404
    query = request.GET.get("q", "").strip()
    counts = selectors.checkin_counts(tournament)
    context = {
        "tournament": tournament, "game_number": game, "query": query,
        "rows": selectors.checkin_rows(tournament, game, query),
        "count": counts.get(game, 0),
        "previous_count": counts.get(game - 1, 0) if game > 1 else 0,
        "games": range(1, tournament.event_format().games_count + 1),
    }
    template = ("tournaments/_checkin_rows.html" if request.htmx  # type: ignore[attr-defined]
                else "tournaments/checkin.html")
    response = render(request, template, context)
    # several devices check players in at once: a reload (or going back) shows the state now
    add_never_cache_headers(response)
    return response


@require_POST
@staff_required("referee")
def checkin_toggle(request: HttpRequest, tournament: Tournament, game: int, pk: int) -> HttpResponse:
    reg = get_object_or_404(Registration, pk=pk, tournament=tournament)
    wanted = request.POST.get("present")
    try:
        if wanted in ("0", "1"):
            # the state the tapping device asked for: a tap on a stale row (another device
            # changed it meanwhile) never flips it the wrong way
            present = services.set_checked_in(reg, game, wanted == "1",
                                              actor=request.user) is not None
        else:
            present = services.toggle_checkin(reg, game, actor=request.user)
    except DomainError as exc:
        if request.htmx:  # type: ignore[attr-defined]
            return refusal_from(request, exc)
        refuse(request, exc)
        return redirect("tournaments:checkin", slug=tournament.slug, game=game)
    if request.htmx:  # type: ignore[attr-defined]
        response = render(request, "tournaments/_checkin_row.html", {
            "tournament": tournament, "game_number": game,
            "row": {"registration": reg, "present": present},
        })
        response["HX-Trigger"] = "checkin-changed"
        return response
    return redirect(reverse("tournaments:checkin", args=[tournament.slug, game])
                    + (f"?q={request.POST.get('q')}" if request.POST.get("q") else ""))


@require_POST
@staff_required("referee")
def checkin_bulk(request: HttpRequest, tournament: Tournament, game: int) -> HttpResponse:
    """Several players at once: the selected rows, or everyone the search shows
    (``everyone``), or who was present for the previous game (``carry``)."""
    if not 1 <= game <= tournament.event_format().games_count:
        raise Http404
    query = request.POST.get("q", "").strip()
    try:
        if request.POST.get("action") == "carry":
            added = services.carry_over_checkins(tournament, game, actor=request.user)
        else:
            if request.POST.get("action") == "everyone":  # not who said they skip this game
                skipping = {pk for said in hooks.skipping for pk in said(tournament, game)}
                regs = [row["registration"] for row in selectors.checkin_rows(tournament, game, query)
                        if row["registration"].pk not in skipping]
            else:
                ids = [int(v) for v in request.POST.getlist("registration")
                       if v.isdigit() and len(v) <= 18]  # an id, never a database overflow
                regs = list(selectors.registered_players(tournament).filter(pk__in=ids[:2000]))
            added = services.bulk_checkin(regs, game, actor=request.user)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, ngettext("%(n)s player checked in.",
                                           "%(n)s players checked in.", added) % {"n": added})
    return redirect(reverse("tournaments:checkin", args=[tournament.slug, game])
                    + (f"?{urlencode({'q': query})}" if query else ""))


@require_GET
@staff_required("referee")
def checkin_count(request: HttpRequest, tournament: Tournament, game: int) -> HttpResponse:
    count = selectors.checkin_counts(tournament).get(game, 0)
    response = HttpResponse(str(count))
    add_never_cache_headers(response)
    return response


@never_cache  # the private links of the staff, to copy
@require_http_methods(["GET", "POST"])
@staff_required("organizer")
def staff(request: HttpRequest, tournament: Tournament, invite_form: object = None) -> HttpResponse:
    form = RoleForm(request.POST or None) if invite_form is None else RoleForm()
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.add_role(tournament, form.cleaned_data["username"],
                                  form.cleaned_data["role"], actor=request.user)
            except DomainError as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, _("Role saved."))
                return redirect("tournaments:staff", slug=tournament.slug)
        status = 400
    return render(request, "tournaments/staff.html", {
        "tournament": tournament, "form": form,
        "roles": tournament.roles.select_related("user").order_by("role", "user__username"),
        "links": selectors.links(tournament),
        "registered": selectors.registered_players(tournament),
        "base": request.build_absolute_uri("/")[:-1],
        "invite_form": invite_form or InvitationForm(),
        "invitations": tournament.invitations.select_related("accepted_by")[:50],
    }, status=status)


@require_POST
@staff_required("organizer")
def role_remove(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    role = get_object_or_404(TournamentRole, pk=pk, tournament=tournament)
    try:
        services.remove_role(role, actor=request.user)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, _("Role removed."))
    return redirect("tournaments:staff", slug=tournament.slug)


@require_POST
@staff_required("organizer")
def link_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        if request.POST.get("kind") == AccessLink.Kind.REFEREE:
            role = get_object_or_404(TournamentRole, pk=request.POST.get("role"),
                                     tournament=tournament)
            services.create_link(tournament, actor=request.user, user=role.user)
        else:
            reg = get_object_or_404(Registration, pk=request.POST.get("registration"),
                                    tournament=tournament)
            services.create_link(tournament, actor=request.user, player=reg.player)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, _("Private link created."))
    return redirect("tournaments:staff", slug=tournament.slug)


@require_POST
@staff_required("organizer")
def link_revoke(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    link = get_object_or_404(AccessLink, pk=pk, tournament=tournament)
    services.revoke_link(link, actor=request.user)
    messages.success(request, _("Private link revoked: it no longer opens anything."))
    return redirect("tournaments:staff", slug=tournament.slug)


@require_GET
@staff_required("organizer")
def audit_log(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    entries = audit_text.sentences(selectors.audit_log(tournament)[:500])
    return render(request, "tournaments/audit.html", {"tournament": tournament,
                                                       "entries": entries})
