"""The migrations of the secret seed and of per-registration personal data keep existing
databases working: running games keep their cards and get a commitment; each registration gets
the personal data its own organizers entered, and nobody else's."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest

from tests.migrating import migrate_to, migrate_to_latest

BEFORE = [("tables", "0002_clocks_turns_objectives"), ("tournaments", "0004_tournament_club")]
AFTER = [("tables", "0003_game_secret_seed_commitment"),
         ("tournaments", "0005_registration_personal_data")]


@pytest.mark.django_db(transaction=True)
def test_old_games_and_players_survive_the_migrations() -> None:
    try:
        old = migrate_to(BEFORE)
        User = old.get_model("auth", "User")
        Tournament = old.get_model("tournaments", "Tournament")
        Role = old.get_model("tournaments", "TournamentRole")
        Player = old.get_model("tournaments", "Player")
        Registration = old.get_model("tournaments", "Registration")
        Game = old.get_model("tables", "Game")
        alice, bob = User.objects.create(username="alice"), User.objects.create(username="bob")
        mine = Tournament.objects.create(name="A", slug="a", date=dt.date(2026, 1, 1))
        mine_too = Tournament.objects.create(name="A2", slug="a2", date=dt.date(2026, 2, 1))
        theirs = Tournament.objects.create(name="B", slug="b", date=dt.date(2026, 3, 1))
        for t, u in ((mine, alice), (mine_too, alice), (theirs, bob)):
            Role.objects.create(tournament=t, user=u, role="organizer")
        mario = Player.objects.create(first_name="Mario", last_name="Rossi", normalised_name="mario rossi",
                                      email="m@a.example", birth_date=dt.date(1980, 1, 2),
                                      national_id="RCU-1")
        regs = [Registration.objects.create(tournament=t, player=mario, created_at=dt.datetime(
            2026, 1, n + 1, tzinfo=dt.UTC)) for n, t in enumerate((mine, mine_too, theirs))]
        game = Game.objects.create(tournament=mine, number=1, status="running", deal_objectives=True,
                                   objectives_seed="old-seed")

        new = migrate_to(AFTER)
        Game = new.get_model("tables", "Game")
        Registration = new.get_model("tournaments", "Registration")
        migrated = Game.objects.get(pk=game.pk)
        assert migrated.secret_seed == "old-seed"
        assert migrated.secret_commitment == hashlib.sha256(b"old-seed").hexdigest()
        got = {r.pk: (r.email, r.national_id) for r in Registration.objects.all()}
        assert got[regs[0].pk] == got[regs[1].pk] == ("m@a.example", "RCU-1")
        assert got[regs[2].pk] == ("", "")  # Bob's tournament reused Alice's player: nothing
    finally:
        migrate_to_latest()
