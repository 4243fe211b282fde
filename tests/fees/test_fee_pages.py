"""The fees pages and API as organizers, club admins and others see them: the check-in's fee
column and its taps, the fee form, the cash summary (page, print, CSV), a club's members; bad
input refused naming the field and the rule; everyone else refused with nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from fees import services
from fees.models import EventFee, Membership, Payment
from tests.factories.tournaments import PlayerFactory, UserFactory
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def client_for(user: Any = None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def checkin_url(ev: dict[str, Any]) -> str:
    return reverse("tournaments:checkin", args=[ev["t"].slug, 1])


def mark_url(ev: dict[str, Any], index: int) -> str:
    return reverse("fees:mark", args=[ev["t"].slug, ev["regs"][index].pk])


def test_the_checkin_page_shows_each_players_price_in_italian(evening: dict[str, Any]) -> None:
    html = client_for(evening["organizer"]).get(checkin_url(evening)).content.decode()
    assert "<th>Quota</th>" in html and 'href="/t/serata-1/cash/"' in html
    aldo = html.split(f'id="fee-{evening["regs"][0].pk}"')[1].split("</td>")[0]
    assert "6,00 €" in aldo and "Pagato" in aldo and ">contanti</option>" in aldo
    febo = html.split(f'id="fee-{evening["regs"][5].pk}"')[1].split("</td>")[0]
    assert "Socio 3,00 €" in febo
    ivo = html.split(f'id="fee-{evening["regs"][8].pk}"')[1].split("</td>")[0]
    assert "Tessera" in ivo and "Gratis (tessera)" in ivo and "Pagato" not in ivo


def test_the_checkin_reads_fees_in_a_fixed_number_of_queries(evening: dict[str, Any],
                                                             django_assert_max_num_queries: Any) -> None:
    c = client_for(evening["organizer"])
    c.get(checkin_url(evening))
    with django_assert_max_num_queries(40) as counted:
        c.get(checkin_url(evening), HTTP_HX_REQUEST="true")
    before = len(counted.captured_queries)
    for _n in range(10):  # ten more players: no more queries
        from tournaments.models import CheckIn, Registration
        reg = Registration.objects.create(tournament=evening["t"], player=PlayerFactory(club=evening["club"]))
        CheckIn.objects.create(registration=reg, game_number=1)
    with django_assert_max_num_queries(before) as counted:
        c.get(checkin_url(evening), HTTP_HX_REQUEST="true")


def test_no_fee_no_column(evening: dict[str, Any]) -> None:
    EventFee.objects.all().delete()
    html = client_for(evening["organizer"]).get(checkin_url(evening)).content.decode()
    assert "Quota" not in html and 'id="fee-' not in html


def test_a_tap_marks_paid_and_answers_the_cell(evening: dict[str, Any]) -> None:
    c = client_for(evening["organizer"])
    r = c.post(mark_url(evening, 7), {"status": "paid", "method": "card"}, HTTP_HX_REQUEST="true")
    cell = r.content.decode()
    assert r.status_code == 200 and cell.startswith(f'<td id="fee-{evening["regs"][7].pk}"')
    assert "✔ 3,00 € · carta" in cell and 'data-fee-status="paid"' in cell
    assert 'name="csrfmiddlewaretoken"' in cell  # its undo works without htmx too
    p = Payment.objects.get(registration=evening["regs"][7])
    assert (p.status, p.method, p.amount_cents, p.recorded_by) == ("paid", "card", 300, evening["organizer"])
    r = c.post(mark_url(evening, 7), {"status": "unpaid"}, HTTP_HX_REQUEST="true")
    assert 'data-fee-status="unpaid"' in r.content.decode()


def test_free_without_a_card_is_refused_in_the_pages_refusal_area(evening: dict[str, Any]) -> None:
    r = client_for(evening["organizer"]).post(mark_url(evening, 0), {"status": "free"}, HTTP_HX_REQUEST="true")
    assert r["HX-Retarget"] == "#refusal" and r["X-Refusal-Status"] == "400"
    assert "tessera annuale" in r.content.decode() and not Payment.objects.exists()


def test_a_referee_sees_the_column_without_buttons_and_may_not_mark(evening: dict[str, Any]) -> None:
    c = client_for(evening["referee"])
    html = c.get(checkin_url(evening)).content.decode()
    assert 'id="fee-' in html and "Pagato" not in html and "/cash/" not in html
    r = c.post(mark_url(evening, 0), {"status": "paid", "method": "cash"})
    assert r.status_code == 403 and not Payment.objects.exists()
    assert c.get(reverse("fees:cash", args=[evening["t"].slug])).status_code == 403
    assert client_for().post(mark_url(evening, 0), {"status": "paid", "method": "cash"}).status_code == 302


def test_the_fee_form_keeps_what_was_typed(evening: dict[str, Any]) -> None:
    c = client_for(evening["organizer"])
    url = reverse("fees:settings", args=[evening["t"].slug])
    r = c.post(url, {"fee": "5", "member_price": "7,50", "card_free": "on"})
    html = r.content.decode()
    assert r.status_code == 400 and 'value="7,50"' in html and "non può superare la quota" in html
    r = c.post(url, {"fee": "7,50", "member_price": "4", "card_free": ""})
    fee = EventFee.objects.get(tournament=evening["t"])
    assert r.status_code == 302 and (fee.fee_cents, fee.member_cents, fee.card_free) == (750, 400, False)
    assert AuditEntry.objects.filter(action="fee.set", tournament=evening["t"]).count() == 2
    assert client_for(evening["referee"]).post(url, {"fee": "1"}).status_code == 403


def test_the_cash_summary_page_and_csv(evening: dict[str, Any]) -> None:
    o, regs = evening["organizer"], evening["regs"]
    services.mark_payment(regs[0], actor=o, status="paid", method="cash")
    services.mark_payment(regs[5], actor=o, status="paid", method="card")
    services.mark_payment(regs[8], actor=o, status="free")
    c = client_for(o)
    html = c.get(reverse("fees:cash", args=[evening["t"].slug])).content.decode()
    # expected 39 € (5 × 6 + 3 × 3); collected 6 (Aldo) + 3 (Febo) = 9 €; unpaid: Bice, Ciro, Dina, Elio
    # 4 × 6 + Gina, Ugo 2 × 3 = 30 €, 6 players; free: Ivo (marked) and Lia (card, owes nothing)
    assert '<td id="cash-expected">39,00 €</td>' in html
    assert "<strong>9,00 €</strong>" in html and "30,00 € <span class=\"muted\">(6 giocatori)" in html
    assert '<td id="cash-free">2 giocatori</td>' in html
    assert "data-print" in html and "Riepilogo cassa" in html
    csv = c.get(reverse("fees:cash_csv", args=[evening["t"].slug])).content.decode("utf-8-sig")
    lines = csv.splitlines()
    assert lines[0].split(";")[:4] == ["Giocatore", "Club", "Categoria", "Prezzo (€)"]
    assert "Aldo Rossi;Circolo Tre Armate;quota;6,00;pagato;contanti;6,00" in lines
    # under the players, the totals: expected 39, collected 9 (cash 6, card 3), unpaid 30 € by 6
    assert lines[-7:] == ["Atteso;;;39,00", "Incassato;;;;;;9,00", "contanti;;;;;;6,00", "carta;;;;;;3,00",
                          "altro;;;;;;0,00", "Non pagato;;;30,00;6", "Gratis (tessera annuale);;;;2"]


def test_the_api_sets_the_fee_and_refuses_bad_money(evening: dict[str, Any]) -> None:
    c = client_for(evening["organizer"])
    url = reverse("api-fee", args=[evening["t"].slug])
    assert client_for().get(url).json() == {"fee": 6.0, "member_price": 3.0, "card_free": True}
    r = c.put(url, json.dumps({"fee": "sei"}), content_type="application/json")
    assert r.status_code == 400 and r.json()["rule"] == "FORMAT" and "fee" in r.json()
    r = c.put(url, json.dumps({"fee": "6.505"}), content_type="application/json")
    assert r.status_code == 400 and r.json()["rule"] == "FORMAT" and "fee" in r.json()
    r = c.put(url, json.dumps({"fee": 5, "member_price": 6}), content_type="application/json")
    assert r.status_code == 400 and r.json()["rule"] == "FEE" and "member_price" in r.json()
    r = c.put(url, json.dumps({"fee": "4.50", "member_price": None}), content_type="application/json")
    assert r.status_code == 200 and r.json() == {"fee": 4.5, "member_price": None, "card_free": True}
    r = client_for(evening["referee"]).put(url, json.dumps({"fee": 1}), content_type="application/json")
    assert r.status_code == 403 and r.json()["rule"] == "ROLE"


def test_the_api_marks_payments_and_sums_the_cash(evening: dict[str, Any]) -> None:
    c = client_for(evening["organizer"])
    reg = evening["regs"][5]
    url = reverse("api-registration-payment", args=[evening["t"].slug, reg.pk])
    r = c.put(url, json.dumps({"status": "paid"}), content_type="application/json")
    assert r.status_code == 400 and r.json()["rule"] == "REQUIRED" and "method" in r.json()
    r = c.put(url, json.dumps({"status": "free"}), content_type="application/json")
    assert r.status_code == 400 and r.json()["rule"] == "CARD" and "status" in r.json()
    r = c.put(url, json.dumps({"status": "paid", "method": "cash"}), content_type="application/json")
    assert r.status_code == 200 and r.json()["amount"] == 3.0 and r.json()["category"] == "member"
    cash = c.get(reverse("api-cash", args=[evening["t"].slug])).json()
    # expected 39 €; collected 3 € (Febo); unpaid: the 5 others × 6 € + Gina, Ugo 2 × 3 € = 30 + 6 = 36 €
    # (7 players; 39 − 3 = 36: the 2 card holders owe nothing)
    assert (cash["expected"], cash["collected"], cash["unpaid"], cash["unpaid_players"]) == (39.0, 3.0, 36.0, 7)
    assert len(c.get(reverse("api-payments", args=[evening["t"].slug])).json()) == 10
    for who in (evening["referee"], None):
        assert client_for(who).get(reverse("api-cash", args=[evening["t"].slug])).status_code in (401, 403)
        assert client_for(who).get(reverse("api-payments", args=[evening["t"].slug])).status_code in (401, 403)


def test_a_club_admin_keeps_the_members_and_cards(evening: dict[str, Any]) -> None:
    c = client_for(evening["admin"])
    url = reverse("fees:members", args=[evening["club"].pk])
    html = c.get(url + "?year=2026").content.decode()
    assert "Soci e tessere" in html and "5 soci per il 2026" in html and "2 tessere annuali pagate" in html
    aldo = evening["players"][0]
    r = c.post(url + "?year=2026", {"player": aldo.pk, "year": "2026", "card": "on", "card_amount": "50",
                                    "card_paid_on": "10/01/2026"})
    assert r.status_code == 302
    m = Membership.objects.get(player=aldo, year=2026)
    assert (m.card, m.card_cents, str(m.card_paid_on)) == (True, 5000, "2026-01-10")
    # Aldo now enters the 2026 evening free
    html = client_for(evening["organizer"]).get(checkin_url(evening)).content.decode()
    assert "Gratis (tessera)" in html.split(f'id="fee-{evening["regs"][0].pk}"')[1].split("</td>")[0]
    r = c.post(url + "?year=2026", {"player": aldo.pk, "year": "2026"})  # no longer in the list
    assert r.status_code == 400 and Membership.objects.filter(player=aldo).count() == 1
    r = c.post(url + "?year=2027", {"player": aldo.pk, "year": "2027", "card_amount": "50"})
    assert r.status_code == 400 and "Importo e data valgono per una tessera pagata" in r.content.decode()
    assert 'value="50"' in r.content.decode()  # the form keeps what was typed
    r = c.post(reverse("fees:member_change", args=[evening["club"].pk, m.pk]), {f"m{m.pk}-card": ""})
    m.refresh_from_db()
    assert r.status_code == 302 and not m.card and m.card_cents is None
    r = c.post(reverse("fees:member_remove", args=[evening["club"].pk, m.pk]))
    assert r.status_code == 302 and not Membership.objects.filter(pk=m.pk).exists()
    actions = list(AuditEntry.objects.filter(action__startswith="membership.").values_list("action", flat=True))
    assert actions.count("membership.add") == 6 and "membership.change" in actions and "membership.remove" in actions


def test_only_club_admins_keep_members(evening: dict[str, Any]) -> None:
    url = reverse("fees:members", args=[evening["club"].pk])
    member = Membership.objects.first()
    assert member is not None
    for who in (evening["organizer"], UserFactory()):
        c = client_for(who)
        assert c.get(url).status_code == 403
        assert c.post(url, {"player": evening["players"][0].pk, "year": "2026"}).status_code == 403
        assert c.post(reverse("fees:member_remove", args=[evening["club"].pk, member.pk])).status_code == 403
        api = c.get(reverse("api-club-members", args=[evening["club"].pk]))
        assert api.status_code == 403 and api.json()["rule"] == "ROLE"
    assert client_for().get(url).status_code == 302
    assert Membership.objects.count() == 5


def test_the_members_api(evening: dict[str, Any]) -> None:
    c = client_for(evening["admin"])
    url = reverse("api-club-members", args=[evening["club"].pk])
    rows = c.get(url + "?year=2026").json()
    assert [r["player_name"] for r in rows] == ["Febo Rossi", "Gina Rossi", "Ivo Rossi", "Lia Rossi", "Ugo Rossi"]
    assert [r["card_amount"] for r in rows] == [None, None, 50.0, 50.0, None]
    aldo = evening["players"][0]
    r = c.post(url, json.dumps({"player": aldo.pk, "year": 1990}), content_type="application/json")
    assert r.status_code == 400 and r.json()["rule"] == "FORMAT" and "year" in r.json()
    r = c.post(url, json.dumps({"player": aldo.pk, "year": 2026, "card_amount": 50}), content_type="application/json")
    assert r.status_code == 400 and r.json()["rule"] == "REQUIRED" and "card" in r.json()
    r = c.post(url, json.dumps({"player": aldo.pk, "year": 2026, "card": True, "card_amount": "50.00"}),
               content_type="application/json")
    assert r.status_code == 201 and r.json()["card"] is True
    one = reverse("api-club-member", args=[evening["club"].pk, r.json()["id"]])
    r = c.put(one, json.dumps({"card": False}), content_type="application/json")
    assert r.status_code == 200 and r.json()["card"] is False
    assert c.delete(one).status_code == 204


def test_the_audit_log_says_who_marked_whose_fee_in_italian(evening: dict[str, Any]) -> None:
    c = client_for(evening["organizer"])
    c.post(mark_url(evening, 0), {"status": "paid", "method": "cash"}, HTTP_HX_REQUEST="true")
    html = c.get(reverse("tournaments:audit", args=[evening["t"].slug])).content.decode()
    assert "organizzatore ha segnato la quota di Aldo Rossi" in html
    assert "organizzatore ha impostato la quota d&#x27;iscrizione" in html
    assert "contanti" in html and "non pagato" in html  # before and after, in words
