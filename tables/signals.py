"""What happens to a game's tables that others may tell people about (push notifications,
e-mail: "tables published"). Sent after the commit, so a receiver that queues a task finds the
rows; ``sender`` is ``Game``, ``game`` the game. Nothing in tables listens: an app above connects
its receivers in its own ``AppConfig.ready`` (tables never imports it)."""

from __future__ import annotations

from django.dispatch import Signal

# game: its tables were composed (or composed again): where each player sits is out
tables_composed = Signal()
# game: it started (deals made, clocks running)
game_started = Signal()
