"""Who may write: the organizer and referee checks every service starts with (one definition, in
:mod:`tournaments.permissions`)."""

from __future__ import annotations

from ..permissions import require_organizer, require_referee

__all__ = ["require_organizer", "require_referee"]
