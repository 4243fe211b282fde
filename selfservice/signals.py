"""What happens here that others may want to tell people about (push notifications, e-mail).

Each signal is sent after the write is committed (``transaction.on_commit``), so a receiver
that queues a task finds the rows in the database. ``sender`` is the model class; the keyword
arguments are named below. Nothing in this app listens to them: a notifications app connects
its receivers in its own ``AppConfig.ready``.
"""

from __future__ import annotations

from django.dispatch import Signal

# call: the new RefereeCall (its table, who called)
referee_called = Signal()
# call: the RefereeCall just taken ("the referee is coming"), call.taken_by the referee
referee_coming = Signal()
# registration, game_number: a player checked themselves in
checked_in_self = Signal()
# registration, game_number: a player said they skip that game
game_skipped = Signal()
# registration: a player withdrew from their personal link
player_withdrew = Signal()
# tournament, from_game: the organizer hid the standings from that game on
standings_hidden = Signal()
# tournament: the organizer showed the standings again (the final standings are out)
standings_shown = Signal()
