"""Services of accounts made from the pages: invitations to a tournament's staff and the first
organizer of a fresh install.

An organizer invites a referee or a co-organizer (``create_invitation``): a private link to copy,
show as a QR code or send by e-mail when mail is configured (``EMAIL_HOST``). Whoever opens it
sets a password for a new account, or links the account they are signed in with
(``accept_invitation``); either way they get the role in that tournament only. An invitation is
used once, expires after ``INVITATION_DAYS`` days and can be revoked; every step is audited.
Refusals: ``ROLE`` (not an organizer of this tournament), ``INVITATION`` (unknown, used, expired,
revoked; a session a private link signed in, which may not be its holder's: ``access``).
"""

from __future__ import annotations

import re
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError

from . import audit
from .access import opened_by_link
from .models import Invitation, Tournament, TournamentRole
from .services import require_organizer

_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,64}")


def _snapshot(inv: Invitation) -> dict[str, Any]:
    return {"role": inv.role, "email": inv.email, "note": inv.note,
            "expires_at": inv.expires_at.isoformat(), "state": inv.state()}


def mail_configured() -> bool:
    """EMAIL_HOST is set (or a test's in-memory mailbox is)."""
    backend = str(getattr(settings, "EMAIL_BACKEND", ""))
    return bool(getattr(settings, "EMAIL_HOST", "")) or backend.endswith("locmem.EmailBackend")


@transaction.atomic
def create_invitation(tournament: Tournament, role: str, *, actor: Any, email: str = "",
                      note: str = "") -> Invitation:
    require_organizer(actor, tournament)
    if role not in TournamentRole.Role.values:
        raise DomainError(_("Unknown role."), field="role", rule="ROLE")
    inv = Invitation.objects.create(tournament=tournament, role=role, email=(email or "").strip(),
                                    note=(note or "").strip()[:120], created_by=actor)
    audit.record(actor=actor, action="invitation.create", obj=inv, tournament=tournament,
                 after=_snapshot(inv))
    return inv


def send_invitation(inv: Invitation, url: str, *, actor: Any) -> bool:
    """E-mail the invitation's link to its address, when mail is configured. Returns whether
    it was sent (a mail server that fails is reported, never a 500)."""
    require_organizer(actor, inv.tournament)
    if not inv.email or not mail_configured():
        return False
    role = inv.get_role_display().lower()
    subject = _("Invitation: %(role)s of %(t)s") % {"role": role, "t": inv.tournament.name}
    body = _(
        "%(who)s invites you to be %(role)s of the tournament %(t)s.\n\n"
        "Open this link to accept (set a password, or sign in with your account):\n%(url)s\n\n"
        "The link works once and until %(until)s."
    ) % {"who": actor.get_username(), "role": role, "t": inv.tournament.name, "url": url,
         "until": timezone.localtime(inv.expires_at).strftime("%d/%m/%Y %H:%M")}
    try:
        send_mail(subject, body, None, [inv.email])
    except Exception:  # noqa: BLE001 - a mail server refusing is the organizer's to know
        return False
    audit.record(actor=actor, action="invitation.send", obj=inv, tournament=inv.tournament,
                 after={"email": inv.email})
    return True


@transaction.atomic
def revoke_invitation(inv: Invitation, *, actor: Any) -> Invitation:
    require_organizer(actor, inv.tournament)
    if inv.state() == "open":
        before = _snapshot(inv)
        inv.revoked_at = timezone.now()
        inv.save(update_fields=["revoked_at"])
        audit.record(actor=actor, action="invitation.revoke", obj=inv, tournament=inv.tournament,
                     before=before, after=_snapshot(inv))
    return inv


def _refusal(state: str) -> DomainError:
    messages = {
        "accepted": _("This invitation has already been used."),
        "revoked": _("This invitation has been revoked by the organizer."),
        "expired": _("This invitation has expired."),
    }
    return DomainError(
        messages.get(state, _("This invitation is unknown.")) + " "
        + _("Ask the organizer for a new one."), field="token", rule="INVITATION")


def open_invitation(token: str) -> Invitation:
    """The invitation of ``token`` if it can still be accepted; DomainError (INVITATION) if not.
    A malformed token is refused without asking the database."""
    if not _TOKEN.fullmatch(token or ""):
        raise _refusal("unknown")
    inv = Invitation.objects.select_related("tournament", "created_by").filter(token=token).first()
    if inv is None:
        raise _refusal("unknown")
    state = inv.state()
    if state != "open":
        raise _refusal(state)
    return inv


def refuse_link_session(user: Any) -> None:
    """A session a private link signed in may have been planted by someone else (login CSRF):
    a role goes only to an account its owner signed in to with a password, or creates here."""
    if opened_by_link(user):
        raise PermissionDeniedError(_(
            "This browser is signed in through a private link, which cannot accept invitations: "
            "sign out, then sign in with your username and password (or create an account) and "
            "open the invitation again."), field="user", rule="INVITATION")


@transaction.atomic
def accept_invitation(token: str, *, user: Any = None, username: str = "",
                      password: str = "") -> tuple[Invitation, Any]:
    """Accept with the signed-in ``user`` (links an existing account) or with a new account
    (``username`` + ``password``, checked by the password validators). Returns (invitation,
    user). An organizer invited as referee stays organizer."""
    open_invitation(token)
    refuse_link_session(user)
    inv = Invitation.objects.select_for_update().select_related("tournament").get(token=token)
    if inv.state() != "open":  # accepted or revoked meanwhile
        raise _refusal(inv.state())
    User = get_user_model()
    created = False
    if user is None or not getattr(user, "is_authenticated", False):
        # as account creation stores it (Unicode NFKC: "ｍａｒｉｏ" and "ﬁnta" are "mario" and
        # "finta"), so a look-alike of a taken name is "taken", not a clash in the database
        username = User.normalize_username((username or "").strip())
        if not username or len(username) > 150 or not re.fullmatch(r"[\w.@+-]+", username):
            raise DomainError(_("Choose a username: letters, digits and @ . + - _ only."),
                              field="username", rule="REQUIRED")
        if User.objects.filter(username__iexact=username).exists():
            raise DomainError(_("This username is taken. If it is yours, sign in first and open "
                                "the invitation again."), field="username", rule="DUPLICATE")
        candidate = User(username=username)
        try:
            password_validation.validate_password(password or "", candidate)
        except ValidationError as exc:
            raise DomainError(" ".join(exc.messages), field="password", rule="REQUIRED") from None
        user = User.objects.create_user(username=username, password=password)
        created = True
    tournament = inv.tournament
    existing = TournamentRole.objects.filter(tournament=tournament, user=user).first()
    before = {"user": user.get_username(), "role": existing.role} if existing else None
    role = inv.role
    if existing is None:
        TournamentRole.objects.create(tournament=tournament, user=user, role=role)
    elif existing.role != TournamentRole.Role.ORGANIZER and role == TournamentRole.Role.ORGANIZER:
        existing.role = role
        existing.save(update_fields=["role"])
    else:
        role = existing.role
    getattr(user, "_tournament_roles", {}).pop(tournament.pk, None)
    inv.accepted_at = timezone.now()
    inv.accepted_by = user
    inv.save(update_fields=["accepted_at", "accepted_by"])
    audit.record(actor=user, action="invitation.accept", obj=inv, tournament=tournament,
                 before=before, after={"user": user.get_username(), "role": role,
                                       "new_account": created})
    return inv, user


# --- the first organizer of a fresh install ------------------------------------------------
def setup_needed() -> bool:
    """True only while the install has no user at all."""
    return not get_user_model().objects.exists()


@transaction.atomic
def create_first_organizer(username: str, password: str) -> Any:
    """The first account of a fresh install (may create tournaments and use every page); refused
    once any user exists (two at once: the second waits for the first, then is refused)."""
    User = get_user_model()
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {User._meta.db_table} IN SHARE ROW EXCLUSIVE MODE")
    if not setup_needed():
        raise PermissionDeniedError(_("This install already has its first organizer."),
                                    rule="ROLE")
    username = (username or "").strip()
    if not username or not re.fullmatch(r"[\w.@+-]{1,150}", username):
        raise DomainError(_("Choose a username: letters, digits and @ . + - _ only."),
                          field="username", rule="REQUIRED")
    try:
        password_validation.validate_password(password or "", User(username=username))
    except ValidationError as exc:
        raise DomainError(" ".join(exc.messages), field="password", rule="REQUIRED") from None
    user = User.objects.create_superuser(username=username, email="", password=password)
    audit.record(actor=user, action="setup.first_organizer", obj=user, tournament=None,
                 after={"user": username})
    return user
