"""The shared page check (``Browser.fits``, run by ``Browser.check`` on every page of the journeys
at 360 px) catches a clipped control and lets a whole one pass: shown on small pages made here,
styled by the app's own stylesheet."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

PAGE = """<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="{}/static/css/app.css"></head>
<body><main>{}</main></body></html>"""


def _page(browser: Any, body: str) -> Any:
    page = browser.person(PHONE, phone=True)
    page.set_content(PAGE.format(browser.base_url, body))  # a blank page: inline styles allowed
    page.wait_for_load_state("load")
    return page


WIDE_ROW = "<tr>" + "<td>colonna</td>" * 12 + "<td><button>Salva</button></td></tr>"


@pytest.mark.parametrize("body", [
    # a label that cannot wrap, cut by its own box
    '<button style="width:6rem; white-space:nowrap; overflow:hidden">Conferma la versione 12 del risultato</button>',
    # a button pushed out of a box that hides its overflow
    '<div style="width:10rem; overflow:hidden"><div style="width:30rem"><a class="button" style="margin-left:12rem">'
    "Ritira</a></div></div>",
    # a field running past the screen's edge (fixed: the page itself does not grow wider)
    '<input name="national_id" style="position:fixed; left:300px; width:10rem">',
    # a button at the end of a wide table that scrolls sideways: found only by scrolling
    '<div class="scroll"><table class="data">' + WIDE_ROW + "</table></div>",
    # a column header past the screen's edge, in the same kind of table
    '<div class="scroll"><table class="data"><thead><tr>' + "<th>Colonna</th>" * 12
    + "<th>Presente</th></tr></thead></table></div>",
])
def test_a_clipped_control_fails_the_check(browser: Any, body: str) -> None:
    page = _page(browser, body)
    with pytest.raises(pytest.fail.Exception, match="clipped controls"):
        browser.fits(page, "clipped")


def test_whole_controls_pass_and_a_wide_table_passes_as_cards(browser: Any) -> None:
    page = _page(browser, (
        '<div class="toolbar"><button>Conferma la versione 12 del risultato, con un testo lungo che va a capo</button>'
        '<a class="button" href="#">Ritira la correzione (versione 2)</a></div>'
        '<div class="scroll"><table class="data stacked"><thead><tr>' + "<th>Colonna</th>" * 12
        + "<th>Presente</th></tr></thead><tbody><tr>"
        + '<td data-label="Colonna">valore</td>' * 12 + '<td class="actions"><button>Salva</button></td></tr>'
        + "</tbody></table></div>"
    ))
    browser.fits(page, "whole")
    browser.assert_clean()
