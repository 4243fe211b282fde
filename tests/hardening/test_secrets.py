"""Secret objective cards (O-RTU): nothing public lets anyone compute them.

The deal (D-DEAL, D-50) stays re-derivable from its published seed; the objective cards come from
a separate secret seed drawn by the server. While the game runs only the seed's SHA-256
commitment is public and a player sees their own card through their private link; once the game
is finished the seed and every card are published (commit-reveal).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common import live
from engine.rng import derive_seed
from tables import services
from tables.models import Game, Seat, Table
from tests.factories.tournaments import open_private_link
from tests.tables.conftest import add_players, make_tournament, make_user, player_link

TOKEN = re.compile(r"[A-Za-z0-9_.:-]{4,64}")


def _cards(game: Game) -> dict[int, list[str]]:
    return {t.number: [s.objective for s in t.seats.order_by("number")]
            for t in Table.objects.filter(game=game).prefetch_related("seats")}


def _public_text(client: Client, slug: str, game: Game) -> str:
    """Everything an anonymous visitor can read about a running game: API, pages, sheets."""
    n = game.number
    urls = [
        f"/api/tournaments/{slug}/games/{n}/", f"/api/tournaments/{slug}/games/{n}/objectives/",
        reverse("tables:game_tables", kwargs={"slug": slug, "number": n}),
        reverse("tables:objective", kwargs={"slug": slug, "number": n}),
        reverse("tables:where", kwargs={"slug": slug, "number": n}) + "?q=a",
        reverse("tables_referee:projector", kwargs={"slug": slug, "number": n}),
        reverse("tournaments:detail", kwargs={"slug": slug}),
        reverse("scoring:standings", kwargs={"slug": slug}),
        "/static/js/behaviours.js", "/static/js/clock.js",
    ]
    for table in Table.objects.filter(game=game):
        urls += [
            f"/api/tournaments/{slug}/games/{n}/tables/{table.number}/",
            reverse("tables:table", kwargs={"slug": slug, "number": n, "table": table.number}),
            reverse("tables:sheet", kwargs={"slug": slug, "number": n, "table": table.number}),
        ]
    texts = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        body = b"".join(response.streaming_content) if response.streaming else response.content
        texts.append(body.decode())
    return "\n".join(texts)


def _derivable(text: str, cards: dict[int, list[str]]) -> list[str]:
    """The public strings from which some table's cards follow (as they are, or as the base of
    ``derive_seed(base, "objectives")``, the way the cards' seed used to be made)."""
    # A leak gives every table's cards; one table's few cards also follow, by chance, from about
    # one word in 40,000, and a page holds thousands of words, so a single table proves nothing.
    found = []
    for token in set(TOKEN.findall(text)):
        for candidate in (token, derive_seed(token, "objectives")):
            if all(services.objective_cards(candidate, number, len(dealt)) == dealt
                   for number, dealt in cards.items()):
                found.append(token)
    return found


@pytest.mark.django_db
def test_nothing_public_derives_the_objective_cards_of_a_running_game(demo_tournament: Any) -> None:
    game = Game.objects.get(tournament=demo_tournament, number=2)
    assert game.status == Game.Status.RUNNING and game.deal_objectives
    cards = _cards(game)
    assert all(all(c for c in dealt) for dealt in cards.values())
    text = _public_text(Client(), demo_tournament.slug, game)
    assert "python -m engine deal" in text  # the deal stays verifiable
    assert _derivable(text, cards) == []
    assert game.secret_seed not in text
    for dealt in cards.values():
        assert not any(card in text for card in dealt)


@pytest.mark.django_db
def test_a_typed_or_public_seed_does_not_decide_the_objective_cards() -> None:
    """The same typed seed gives the same deals (reproducible) but never the same secret."""
    dealt = []
    for _ in range(2):
        organizer = make_user()
        tournament = make_tournament(organizer)
        add_players(tournament, 10)
        game = services.ensure_game(tournament, 1, actor=organizer)
        game = services.compose_game(game, actor=organizer, seed="club-night", prefer="fives")
        services.set_deal_objectives(game, True, actor=organizer)
        game = services.start_game(game, actor=organizer, seed="club-night")
        tables = Table.objects.filter(game=game).order_by("number")
        dealt.append(([t.deal_seed for t in tables], [t.deal for t in tables], game.secret_seed,
                      _cards(game)))
    (seeds_a, deals_a, secret_a, cards_a), (seeds_b, deals_b, secret_b, _cards_b) = dealt
    assert seeds_a == seeds_b and deals_a == deals_b
    assert secret_a != secret_b and len(secret_a) == 64
    for seed in seeds_a:  # a deal seed is never the cards' seed, nor the base it came from
        assert _derivable(seed, cards_a) == []


@pytest.mark.django_db
def test_commitment_while_running_then_the_seed_and_every_card_once_finished(
    demo_tournament: Any,
) -> None:
    slug = demo_tournament.slug
    game = Game.objects.get(tournament=demo_tournament, number=2)
    anonymous = Client()
    body = anonymous.get(f"/api/tournaments/{slug}/games/2/").json()
    assert body["secret_seed"] is None
    assert body["secret_commitment"] == hashlib.sha256(game.secret_seed.encode()).hexdigest()
    assert anonymous.get(f"/api/tournaments/{slug}/games/2/objectives/").json() == []

    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    live.bump(slug)  # a bare update skips the signals that tell public pages the game changed
    body = anonymous.get(f"/api/tournaments/{slug}/games/2/").json()
    seed = body["secret_seed"]
    assert hashlib.sha256(seed.encode()).hexdigest() == body["secret_commitment"]
    for number, dealt in _cards(game).items():  # anyone can now check every card
        assert services.objective_cards(seed, number, len(dealt)) == dealt
    shown = anonymous.get(f"/api/tournaments/{slug}/games/2/objectives/").json()
    assert len(shown) == Seat.objects.filter(game=game, player__isnull=False).count()
    page = anonymous.get(reverse("tables:objective", kwargs={"slug": slug, "number": 2}))
    assert seed in page.content.decode()


@pytest.mark.django_db
def test_while_running_a_card_is_shown_to_its_owner_only(demo_tournament: Any,
                                                          organizer_client: Client) -> None:
    slug = demo_tournament.slug
    game = Game.objects.get(tournament=demo_tournament, number=2)
    seat = Seat.objects.filter(game=game, player__isnull=False).select_related("player").first()
    assert seat is not None
    url = f"/api/tournaments/{slug}/games/2/objectives/"
    assert organizer_client.get(url).json() == []  # not even the organizer
    player = Client()
    link = player_link(demo_tournament, seat.player)
    open_private_link(player, link.token)
    mine = player.get(url).json()
    assert [(c["player"], c["objective"]) for c in mine] == [(seat.player_id, seat.objective)]
    page = player.get(reverse("tables:objective", kwargs={"slug": slug, "number": 2}))
    assert seat.objective in page.content.decode()


@pytest.mark.django_db
def test_the_audit_log_records_the_commitment_not_the_secret(demo_tournament: Any) -> None:
    from tournaments.models import AuditEntry

    game = Game.objects.get(tournament=demo_tournament, number=2)
    entry = AuditEntry.objects.get(action="game.start", object_id=str(game.pk))
    assert game.secret_seed not in str(entry.after)
    assert entry.after["secret_commitment"] == game.secret_commitment


@pytest.mark.django_db
def test_the_referees_entry_form_does_not_show_a_playing_tables_cards(demo_tournament: Any) -> None:
    from django.contrib.auth import get_user_model

    from tournaments import demo as demo_data

    game = Game.objects.get(tournament=demo_tournament, number=2)
    table = Table.objects.filter(game=game).order_by("number").first()
    assert table is not None and table.status != Table.Status.FINISHED
    referee = Client()
    referee.force_login(get_user_model().objects.get(username=demo_data.REFEREE[0]))
    url = reverse("scoring:enter", kwargs={"slug": demo_tournament.slug, "pk": table.pk})
    page = referee.get(url).content.decode()
    for seat in table.seats.exclude(objective=""):
        assert f'value="{seat.objective}" selected' not in page
    Table.objects.filter(pk=table.pk).update(status=Table.Status.FINISHED)
    page = referee.get(url).content.decode()
    assert any(f'value="{s.objective}" selected' in page for s in table.seats.exclude(objective=""))
