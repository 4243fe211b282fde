"""Browser tests: headless Debian Chromium (Playwright's ``executable_path``; never
``playwright install``) against the app served on 127.0.0.1 (``app_server``), on PostgreSQL and
Redis with a real Celery worker subprocess pointed at the test database.

Every page opened through :class:`Browser` is watched: a console error, an uncaught exception, a
failed request, an HTTP error answer, a request to any host other than the app's own or any
content security policy violation (the page's ``securitypolicyviolation`` events) fails the
test. :meth:`Browser.check` runs axe-core (``node_modules/axe-core``, installed by ``npm ci`` from
package.json: no network at test time) and fails on serious/critical violations; screenshots go to
``artifacts/screenshots/`` (git-ignored, kept by CI).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 900}
# The journeys' steps that the organizer's and referee's guides show (docs/img): with
# GUIDE_SCREENSHOTS=1 (scripts/guide_screenshots.sh) each screenshot is also copied there.
GUIDE_IMAGES = {
    "03-manage": "organizer-manage.png",
    "04-checkin": "organizer-checkin.png",
    "07-sheet-table-1": "table-sheet-print.png",
    "09-phone-where-do-i-sit": "phone-where-do-i-sit.png",
    "10-phone-my-table-verify": "phone-table-verify.png",
    "11-staff-private-link": "organizer-private-link.png",
    "11-phone-private-link-landing": "phone-private-link-landing.png",
    "12-referee-time-up": "referee-time-up.png",
    "13-referee-sdadata-roll": "referee-sdadata-roll.png",
    "16-result-to-confirm": "result-to-confirm.png",
    "18-phone-standings-cards": "phone-standings-cards.png",
    "21-final-ranking-print": "final-ranking-print.png",
    "people-02-invitation-link-and-qr": "organizer-invitation.png",
    "people-07-slips-printed": "objective-slips-print.png",
    "people-08-my-objective-card": "phone-objective-card.png",
    "scoresheets-game1-print": "scoresheets-print.png",
    "tables-01-draft-restored": "result-draft-restored.png",
    "tables-05-compose-preview": "organizer-compose-preview.png",
    "registrations-csv-problems": "organizer-csv-problems.png",
    "self-01-my-event": "phone-my-event.png",
    "self-04-referee-called": "phone-referee-called.png",
    "self-05-referee-sees-the-call": "referee-calls.png",
    "self-07-organizer-checkin": "organizer-self-checkin.png",
}



# Every visible control a person must press (button, link-button, field) and every column header
# of a table, that is not whole on the screen as the page opens: its content wider than its box
# (a label cut off), or its box past the viewport's edge, or out of a container that hides its
# overflow. A table that scrolls sideways does not excuse it: at 360 px the person would have to
# find the control by scrolling. A field's own text may scroll inside it, so fields are checked by
# their box only.
CLIPPED_CONTROLS = """() => {
    const vw = document.documentElement.clientWidth;
    const tag = e => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).trim()
        .replace(/\\s+/g, '.') : '');
    const name = e => tag(e) + ' "' + (e.innerText || e.value || e.name || '').trim().slice(0, 40) + '"';
    const out = [];
    const controls = document.querySelectorAll(
        'button, a.button, [role=button], input:not([type=hidden]):not([type=checkbox]):not([type=radio]), ' +
        'select, textarea, table th');
    for (const e of controls) {
        if (!e.checkVisibility({visibilityProperty: true})) continue;
        if (e.closest('.visually-hidden')) continue;  // for screen readers only
        if (e.tagName === 'TH' && !e.innerText.trim()) continue;  // nothing to read
        const r = e.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) continue;
        const why = [];
        const field = ['INPUT', 'SELECT', 'TEXTAREA'].includes(e.tagName);
        if (!field && e.scrollWidth > e.clientWidth + 1) why.push(`content ${e.scrollWidth}px in a ${e.clientWidth}px box`);
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
            const s = getComputedStyle(a);
            if (s.overflowX !== 'visible') {  // hidden, clip or a sideways scroll: cut there
                const ar = a.getBoundingClientRect();
                if (r.left < ar.left - 0.5 || r.right > ar.right + 0.5) why.push('cut by ' + tag(a));
                break;
            }
        }
        if (r.left < -0.5 || r.right > vw + 0.5) {
            why.push(`box ${Math.round(r.left)}..${Math.round(r.right)} beyond the viewport`);
        }
        const line = name(e) + ': ' + why.join('; ');
        if (why.length && !out.includes(line)) out.push(line);
    }
    return out.slice(0, 12);
}"""


# Counts the htmx swaps of each part of a page that a poll replaces (by the target's id), so a
# test waits for a refresh that really happened and has settled (behaviours.js restores the
# scroll on htmx:afterSettle) instead of sleeping past the poll interval and racing it.
# ``swaps.pending[id]`` is true from the swap until its settle; ``swaps.settled[id]`` counts them.
WATCH_SWAPS = """() => {
    if (window.swaps) return;
    const swaps = window.swaps = {pending: {}, settled: {}};
    const key = e => (e.detail && e.detail.target && e.detail.target.id) || '';
    document.addEventListener('htmx:beforeSwap', e => { swaps.pending[key(e)] = true; });
    document.addEventListener('htmx:afterSettle', e => {
        const k = key(e);
        if (swaps.pending[k]) { swaps.pending[k] = false; swaps.settled[k] = (swaps.settled[k] || 0) + 1; }
    });
}"""


# Every refusal by the content security policy, as the page itself hears it (an inline style
# htmx injects, an image from another host...), reported to Browser.csp through a binding.
WATCH_CSP = """document.addEventListener('securitypolicyviolation', e => {
    window.__cspViolation(`${e.effectiveDirective} refused ${e.blockedURI || 'inline'} at `
        + `${e.sourceFile || e.documentURI}:${e.lineNumber}${e.sample ? ' ' + e.sample : ''}`);
}, true);"""


def _missing() -> str:
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        return "needs DATABASE_URL (PostgreSQL) and REDIS_URL (a real Celery worker)"
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        return "needs Debian's chromium"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "needs playwright (pip install -e '.[test]')"
    if not AXE.exists():
        return "needs axe-core: run `npm ci` (package.json)"
    return ""


@pytest.fixture
def e2e_ready(settings: Any) -> None:
    reason = _missing()
    if reason:
        pytest.skip(reason)
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL")
    # the browser talks plain HTTP to 127.0.0.1: no HTTPS-only cookies or redirects
    settings.SECURE_SSL_REDIRECT = False
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_HSTS_SECONDS = 0


@pytest.fixture
def celery_worker_process(e2e_ready: None) -> Iterator[subprocess.Popen[bytes]]:
    """A real Celery worker on Redis, pointed at the test database (rows must be committed:
    the tests use ``transaction=True``). Same pattern as tests/tables/test_worker.py."""
    from django.conf import settings
    from django.db import connection

    from config.celery import app

    assert not app.conf.task_always_eager, "a real worker needs CELERY_TASK_ALWAYS_EAGER off"
    url = urlsplit(os.environ["DATABASE_URL"])
    test_db_url = urlunsplit(url._replace(path="/" + connection.settings_dict["NAME"]))
    env = {**os.environ, "DATABASE_URL": test_db_url, "CELERY_TASK_ALWAYS_EAGER": "false",
           "SECRET_KEY": settings.SECRET_KEY, "CONN_MAX_AGE": "0", "CI": ""}
    log = Path(tempfile.mkstemp(prefix="celery-e2e-", suffix=".log")[1])
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO",
         "-n", f"e2e-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while "ready." not in log.read_text():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the Celery worker did not start:\n" + log.read_text()[-3000:])
        time.sleep(0.2)
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.unlink(missing_ok=True)


class Browser:
    """One Chromium; contexts (people) whose every page is watched for errors."""

    def __init__(self, pw: Any, base_url: str) -> None:
        self.base_url = base_url.rstrip("/")
        self.host = urlsplit(self.base_url).netloc
        self.browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                          headless=True)
        self.problems: list[str] = []
        self.foreign: list[str] = []
        self.csp: list[str] = []
        self.allowed_status: set[tuple[str, int]] = set()
        self.axe_source = AXE.read_text()
        self.shot_count = 0
        self.checked: list[str] = []

    def person(self, viewport: dict[str, int] = DESKTOP, *, phone: bool = False,
               locale: str = "it-IT") -> Any:
        context = self.browser.new_context(
            base_url=self.base_url, viewport=viewport, locale=locale, accept_downloads=True,
            is_mobile=phone, has_touch=phone, device_scale_factor=1,
        )
        context.set_default_timeout(15_000)
        self._guard(context)
        page = context.new_page()
        self.watch(page)
        return page

    def _guard(self, context: Any) -> None:
        """No request leaves for another host; every CSP violation is recorded."""
        context.route("**/*", self._route)
        context.expose_binding(
            "__cspViolation", lambda source, text: self.csp.append(f"{source['page'].url}: {text}"))
        context.add_init_script(WATCH_CSP)

    def _route(self, route: Any) -> None:
        url = route.request.url
        parts = urlsplit(url)
        if parts.scheme in ("data", "blob") or parts.netloc == self.host:
            route.continue_()
            return
        self.foreign.append(url)
        route.abort()

    def watch(self, page: Any) -> None:
        def console(msg: Any) -> None:
            if msg.type == "error":
                self.problems.append(f"console error on {page.url}: {msg.text} at {msg.location}")

        def failed(request: Any) -> None:
            failure = request.failure or ""
            # ERR_ABORTED is the browser cancelling a request itself: an htmx poll, the clock's
            # server-time check or a script still loading when the page is left, a download
            # taking over its navigation. None is a failure of the app, whose failures show as
            # their HTTP status (below) or another net:: error
            if "ERR_ABORTED" in failure:
                return
            self.problems.append(f"request failed: {request.method} {request.url} {failure}")

        def response(resp: Any) -> None:
            path = urlsplit(resp.url).path
            if resp.status >= 400 and (path, resp.status) not in self.allowed_status:
                self.problems.append(f"HTTP {resp.status}: {resp.request.method} {resp.url}")

        page.on("console", console)
        page.on("pageerror", lambda exc: self.problems.append(f"page error on {page.url}: {exc}"))
        page.on("requestfailed", failed)
        page.on("response", response)

    def assert_clean(self) -> None:
        assert not self.foreign, f"requests to other hosts: {self.foreign}"
        assert not self.csp, "content security policy violations:\n" + "\n".join(self.csp)
        assert not self.problems, "\n".join(self.problems)

    def axe(self, page: Any, name: str) -> None:
        """axe-core on the current page: no serious or critical violation (WCAG 2 A/AA)."""
        if not page.evaluate("() => typeof window.axe !== 'undefined'"):
            page.evaluate(self.axe_source)  # evaluated by the devtools protocol: not blocked by CSP
        result = page.evaluate(
            """async () => {
                const r = await axe.run(document, {runOnly: {type: 'tag',
                    values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']},
                    resultTypes: ['violations']});
                return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                    .map(v => ({id: v.id, impact: v.impact, help: v.help,
                                nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ' :: '
                                    + (n.failureSummary || '').split('\\n').slice(0, 3).join(' '))}));
            }"""
        )
        self.checked.append(name)
        assert not result, f"axe-core on {name} ({page.url}):\n" + "\n".join(
            f"- {v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"])
            for v in result
        )

    def shot(self, page: Any, name: str, *, full_page: bool = True) -> Path:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.shot_count += 1
        path = SHOTS / f"{name}.png"
        # caret="initial": Playwright's caret hiding leaves style="" on inputs, which htmx then
        # copies while settling a swap, and the CSP (style-src 'self') rightly refuses that
        page.screenshot(path=str(path), full_page=full_page, caret="initial")
        if os.environ.get("GUIDE_SCREENSHOTS") and name in GUIDE_IMAGES:
            shutil.copyfile(path, ROOT / "docs" / "img" / GUIDE_IMAGES[name])
        return path

    def check(self, page: Any, name: str, *, full_page: bool = True) -> Path:
        """A step's page: no overflow and no clipped control at phone width (a page seen on a
        desktop is looked at once at 360 px too), axe-core clean, a screenshot."""
        # the stylesheet loaded: a layout forced before it is measured without it (a page one
        # click has just loaded, on a busy machine: a 360 px page measured 726 px wide)
        page.wait_for_load_state("load")
        width = page.viewport_size["width"]
        if width > PHONE["width"]:
            page.set_viewport_size(PHONE)
            try:
                self.fits(page, f"{name} at {PHONE['width']}px")
            finally:
                page.set_viewport_size({"width": width, "height": page.viewport_size["height"]})
        else:
            self.fits(page, name)
        self.axe(page, name)
        return self.shot(page, name, full_page=full_page)

    def fits(self, page: Any, name: str) -> None:
        """Nothing wider than the viewport, and every visible button, link-button and field whole."""
        width = page.viewport_size["width"]
        overflow = page.evaluate("() => document.documentElement.scrollWidth")
        if overflow > width:
            wide = page.evaluate(
                """w => [...document.querySelectorAll('body *')].filter(e => {
                    const r = e.getBoundingClientRect(); return r.right > w + 0.5 && r.width > 0;
                }).slice(-5).map(e => e.tagName.toLowerCase() + '.' + e.className + ' ' +
                    Math.round(e.getBoundingClientRect().right))""", width)
            pytest.fail(f"{name}: the page is {overflow}px wide in a {width}px viewport: {wide}")
        clipped = page.evaluate(CLIPPED_CONTROLS)
        if clipped:
            pytest.fail(f"{name}: clipped controls in a {width}px viewport:\n" + "\n".join(clipped))

    def printed(self, page: Any, name: str) -> str:
        """The page as printed: print media emulated, a PNG kept as the artifact, and the text
        the printout shows (hidden elements excluded) returned for checks."""
        page.emulate_media(media="print")
        try:
            self.shot(page, name)
            return str(page.evaluate("() => document.body.innerText"))
        finally:
            page.emulate_media(media="screen")

    def read(self, page: Any, name: str, *, printed: bool = False) -> str:
        """The words a person reads on the page (as printed, with ``printed``): the same page, in
        the same session, opened again at twice the pixels (small print is about 10 px high at
        1:1, too small for OCR), kept as ``<name>.png`` and read by :func:`read_png`."""
        context = self.browser.new_context(
            base_url=self.base_url, viewport=page.viewport_size, locale="it-IT", device_scale_factor=2,
            storage_state=page.context.storage_state(),
        )
        self._guard(context)
        try:
            sharp = context.new_page()
            self.watch(sharp)
            sharp.goto(page.url)
            if printed:
                sharp.emulate_media(media="print")
            return read_png(self.shot(sharp, name))
        finally:
            context.close()

    def close(self) -> None:
        self.browser.close()


def read_png(path: Path) -> str:
    """The words a person reads on a PNG, by OCR: Debian's tesseract (``tesseract-ocr`` and
    ``tesseract-ocr-ita``, installed by .ci/run), in Italian; whitespace collapsed to single
    spaces. Without tesseract the test is skipped, which CI counts as a failure."""
    tesseract = shutil.which("tesseract")
    if tesseract is None:
        pytest.skip("needs Debian's tesseract-ocr and tesseract-ocr-ita (apt-get install)")
    # one thread: on a busy machine tesseract's own threads make it about three times slower
    done = subprocess.run([tesseract, str(path), "stdout", "-l", "ita"], capture_output=True, text=True,
                          timeout=180, check=False, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())


def assert_read(text: str, *expected: str) -> None:
    """Each expected phrase is on the image, as OCR read it: its words in order, in any case,
    with any punctuation between them (OCR reads a middle dot as ":", "+" or "*")."""
    def loose(s: str) -> str:
        return " ".join(re.sub(r"[^\w]", " ", s).lower().split())

    seen = loose(text)
    missing = [e for e in expected if loose(e) not in seen]
    assert not missing, f"not read on the image: {missing}\nread: {text[:1500]}"


@pytest.fixture
def app_server(e2e_ready: None, transactional_db: None) -> Iterator[Any]:
    """The app on 127.0.0.1, started AFTER the settings above: Django's middleware reads
    SECURE_SSL_REDIRECT & co. once, when the server's handler is built (pytest-django's
    session-wide ``live_server`` would be built with the production values, HTTPS on)."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer("127.0.0.1")
    yield server
    server.stop()
    # (a request thread may keep its idle database connection open until the process ends:
    # pytest-django then warns that the test database could not be dropped; the next run
    # recreates it)


@pytest.fixture
def browser(app_server: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are
    # plain synchronous code all the same
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as pw:
        b = Browser(pw, app_server.url)
        try:
            yield b
        finally:
            b.close()
