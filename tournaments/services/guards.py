"""Who may write: the organizer and referee checks every service starts with."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from config.errors import PermissionDeniedError

from ..models import Tournament
from ..permissions import is_organizer, is_referee


def require_organizer(actor: Any, tournament: Tournament) -> None:
    if not is_organizer(actor, tournament):
        raise PermissionDeniedError(
            _("Only an organizer of this tournament may do this."), rule="ROLE"
        )


def require_referee(actor: Any, tournament: Tournament) -> None:
    if not is_referee(actor, tournament):
        raise PermissionDeniedError(
            _("Only a referee or an organizer of this tournament may do this."), rule="ROLE"
        )
