"""What the feature apps above scoring add to its public pages.

Scoring never imports a feature app (docs/architecture.md); one that changes what the public
sees of the standings registers here in its ``AppConfig.ready``. An empty list changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tournaments.models import Tournament

# The first game whose results the public may not see yet (None: every game shown). The
# self-service app: the organizer hid the standings of the last games until the end. The public
# standings (page, print, API) are then those before that game; a player's public page and the
# tables of those games show no result to others.
hidden_from: list[Callable[[Tournament], int | None]] = []
