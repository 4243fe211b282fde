"""Entry fees on a 360 px phone, in Italian: the organizer sets the evening's fee, takes the
money at check-in (a tap: paid in cash; a card holder free; one undone), reads the cash summary
and its CSV; the club's admin adds a member with the annual card. Alive, accessible (axe-core),
no control cut off or running off the screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.e2e.conftest import PHONE
from tests.e2e.test_event_day import login

pytestmark = [
    pytest.mark.browser,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def _evening() -> dict[str, Any]:
    from fees import services
    from tests.factories.tournaments import (
        ClubFactory,
        PlayerFactory,
        SeasonFactory,
        TournamentFactory,
        TournamentRoleFactory,
        UserFactory,
    )
    from tournaments.models import CheckIn, ClubRole, Registration

    club = ClubFactory(name="Circolo RisiKo Tre Armate di Castelnuovo")
    admin = UserFactory(username="presidente")
    ClubRole.objects.create(club=club, user=admin)  # a club admin organises the club's events
    season = SeasonFactory(club=club, name="Campionato 2026", year=2026)
    t = TournamentFactory(club=club, season=season, name="Serata del giovedì", slug="serata-giovedi")
    TournamentRoleFactory(tournament=t, user=admin)
    names = [("Anna", "Bartolomeo Di Castelnuovo"), ("Bruno", "Rossi"), ("Carla", "Verdi"), ("Dario", "Neri")]
    players = [PlayerFactory(first_name=f, last_name=s, club=club) for f, s in names]
    for p in players:
        CheckIn.objects.create(registration=Registration.objects.create(tournament=t, player=p), game_number=1)
    services.add_member(club, players[2], 2026, actor=admin)  # Carla: member, 3 €
    services.add_member(club, players[3], 2026, actor=admin, card=services.Card(True, "50", None))  # Dario: card
    return {"club": club, "t": t, "players": players}


def test_entry_fees_on_a_phone(browser: Any) -> None:
    from fees.models import Payment

    ev = _evening()
    t, b = ev["t"], browser
    phone = b.person(PHONE, phone=True)
    settings_url = reverse("fees:settings", args=[t.slug])
    login(phone, "presidente", "secret-pass-123", settings_url)
    phone.fill("#id_fee", "6")
    phone.fill("#id_member_price", "3,00")
    b.check(phone, "fees-settings-phone")
    phone.click("main form button[type=submit]")
    phone.wait_for_selector("text=Quota salvata.")

    checkin = reverse("tournaments:checkin", args=[t.slug, 1])
    phone.goto(checkin)
    anna, carla, dario = (ev["players"][i] for i in (0, 2, 3))
    reg = {p.pk: p.registrations.get().pk for p in ev["players"]}
    assert "6,00 €" in phone.locator(f"#fee-{reg[anna.pk]}").inner_text()
    assert "Socio 3,00 €" in phone.locator(f"#fee-{reg[carla.pk]}").inner_text()
    b.check(phone, "fees-checkin-phone")
    phone.click(f"#fee-{reg[anna.pk]} button")  # paid, in cash (the list's first choice)
    phone.wait_for_selector(f"#fee-{reg[anna.pk]}[data-fee-status=paid]")
    assert "✔ 6,00 € · contanti" in phone.locator(f"#fee-{reg[anna.pk]}").inner_text()
    phone.select_option(f"#fee-{reg[carla.pk]} select", "card")
    phone.click(f"#fee-{reg[carla.pk]} button")
    phone.wait_for_selector(f"#fee-{reg[carla.pk]}[data-fee-status=paid]")
    phone.click(f"#fee-{reg[dario.pk]} button:has-text('Gratis (tessera)')")
    phone.wait_for_selector(f"#fee-{reg[dario.pk]}[data-fee-status=free]")
    phone.click(f"#fee-{reg[carla.pk]} button")  # undone: Carla has not paid after all
    phone.wait_for_selector(f"#fee-{reg[carla.pk]}[data-fee-status=unpaid]")
    b.check(phone, "fees-checkin-marked-phone")
    assert Payment.objects.filter(status="paid").count() == 1

    phone.click(f'a[href="{reverse("fees:cash", args=[t.slug])}"]')  # above the list
    phone.wait_for_selector("#cash-totals")
    # expected: Anna 6 + Bruno 6 + Carla 3 + Dario 0 = 15 €; collected 6 € (Anna, cash);
    # unpaid: Bruno 6 + Carla 3 = 9 € (2 players); free: Dario
    assert phone.locator("#cash-expected").inner_text() == "15,00 €"
    assert phone.locator("#cash-collected").inner_text() == "6,00 €"
    assert phone.locator("#cash-unpaid").inner_text().startswith("9,00 €")
    b.check(phone, "fees-cash-phone")
    with phone.expect_download() as download:
        phone.click("text=Scarica il CSV")
    assert "Anna Bartolomeo Di Castelnuovo" in download.value.path().read_text(encoding="utf-8-sig")

    members = reverse("fees:members", args=[ev["club"].pk])
    phone.goto(reverse("clubs:detail", args=[ev["club"].pk]))
    phone.click(f'a[href="{members}"]')
    phone.wait_for_selector("#members")
    phone.select_option("#id_player", label="Bruno Rossi")
    phone.check("#id_card")
    phone.fill("#id_card_amount", "50")
    b.check(phone, "fees-members-phone")
    phone.click("section.card button[type=submit]")
    phone.wait_for_selector("text=Bruno Rossi è socio per il 2026.")
    assert ev["club"].memberships.filter(player__first_name="Bruno", card=True, card_cents=5000).exists()
    b.assert_clean()
