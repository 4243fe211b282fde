"""Live public pages: one mechanism for conditional GETs (ETag/304), a shared response cache and
gzip, over cheap version stamps.

Every phone in the hall polls the leaderboard, the tables and the clocks; they change a few times
a minute. So each public page (a view marked with :func:`public`) is named by a *validator*: a
digest of the path and query, the language, htmx or not, the code's build stamp and two version
numbers kept in the shared cache:

- the tournament's version (``live:v:t:<slug>``), bumped once by every committed transaction
  that wrote something a viewer could see (the model signals of the models each app registers in
  its ``AppConfig.ready``, :func:`watch`: :func:`bump_on_commit`),
  plus after a write request under ``t/<slug>/`` or ``tournaments/<slug>/`` that committed no
  such bump, plus by the standings task when it stores new standings;
- the site version (``live:v:site``), bumped when a player or a club changes (they show on every
  tournament's pages) or a tournament is renamed.

A request whose ``If-None-Match`` names the current validator is a 304 without running the view;
otherwise the response stored under the validator is replayed (gzip-compressed when the client
accepts it), or the view runs and its response is stored. Nothing is ever invalidated: a change is
a new validator. A version that is missing from the cache (evicted, restarted) starts again from a
random number, so no old validator can match again.

Each process keeps the versions it read for a moment; with Redis every bump is announced on a
channel that every process listens to, so a change is seen at once everywhere (:class:`_Listener`).
Requests without a session cookie are answered as early as possible: by :class:`LiveFirst` (the
WSGI application) before Django builds a request, once this process has given the same answer
through the whole stack, else by :class:`LiveEarlyMiddleware` before the session is read.

Only anonymous requests qualify: no session cookie, no ``Authorization`` header, no pending
messages. A response that used the CSRF token, sets a cookie or is not a 200 is neither stored,
compressed nor given a validator — public pages carry no per-request token (templates/base.html
leaves it out and the language switch is a GET: :func:`set_language`), so they are all three.
With several worker processes the versions must live in a shared cache (``REDIS_URL``); with a
per-process cache the mechanism is on only in DEBUG (one process: runserver).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.handlers.wsgi import get_path_info, get_script_name
from django.db import transaction
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponseRedirect,
    JsonResponse,
)
from django.http.cookie import parse_cookie
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import check_for_language, get_language_from_request
from django.views.decorators.http import require_safe

from common import cache as shared_cache

SITE_KEY = "live:v:site"
RESPONSE_TTL = 600  # seconds a stored response is kept (a newer version never reads it anyway)
MAX_QUERY = 200  # longer query strings are answered, not stored
MIN_GZIP = 512
VARY = ("Cookie", "Accept-Language", "Accept-Encoding", "HX-Request")
_SKIP_HEADERS = {"set-cookie", "date", "content-length", "content-encoding", "etag", "vary"}


def enabled() -> bool:
    return bool(getattr(settings, "LIVE_CACHE", True))


# ------------------------------------------------------------------------------ versions
def tournament_key(slug: str) -> str:
    return f"live:v:t:{slug}"


# Versions read in this process lately (key → (value, when read)): every phone polling the same
# tournament asks for the same two numbers, a cache round trip each time was most of a 304's cost.
# A write in this process updates them at once. With Redis every bump is also announced on a
# channel each process listens to (:class:`_Listener`): a listening process forgets the number at
# once, so it may keep the others for HEARD_SECONDS (a number is asked again now and then all the
# same); without a channel, other processes' writes are seen within LOCAL_SECONDS.
LOCAL_SECONDS = 0.1
HEARD_SECONDS = 1.0
_local: dict[str, tuple[int, float]] = {}


def _kept_for() -> float:
    if _listener.listening():
        return float(getattr(settings, "LIVE_HEARD_SECONDS", HEARD_SECONDS))
    return float(getattr(settings, "LIVE_LOCAL_SECONDS", LOCAL_SECONDS))


class CacheAway(Exception):
    """The version numbers cannot be read (Redis away, common/cache.py): no validator, no 304,
    nothing stored; the page is rendered from the database."""


def versions(slug: str | None) -> tuple[int, int]:
    """(site version, tournament version): at most one cache round trip; missing ones start at
    random. :class:`CacheAway` when the cache cannot say."""
    if shared_cache.skipping():
        raise CacheAway
    before = shared_cache.changes()
    found = _versions(slug)
    if shared_cache.changes() != before:
        raise CacheAway  # what was read is a miss, or older than a change made meanwhile
    return found


def _versions(slug: str | None) -> tuple[int, int]:
    keys = [SITE_KEY] + ([tournament_key(slug)] if slug else [])
    now = time.monotonic()
    ttl = _kept_for()
    known = [_local.get(k) for k in keys]
    if all(k is not None and now - k[1] < ttl for k in known):
        values = [k[0] for k in known if k is not None]
        return values[0], values[1] if slug else 0
    heard = _listener.heard
    found = cache.get_many(keys)
    out = []
    for key in keys:
        value = found.get(key)
        if value is None:
            if cache.add(key, secrets.randbelow(2**62), None):
                _listener.announce(key)
            value = cache.get(key)
        out.append(int(value or 0))
    with _listener.lock:  # a change heard meanwhile: these numbers may be older than it
        if _listener.heard == heard:
            _local.update((key, (value, now)) for key, value in zip(keys, out, strict=True))
    if len(_local) > 10000:
        _local.clear()
    return out[0], out[1] if slug else 0


def _incr(key: str) -> None:
    _local.pop(key, None)
    try:
        cache.incr(key)
    except ValueError:  # missing: a random start, never a number an old validator saw
        cache.add(key, secrets.randbelow(2**62), None)
    _listener.announce(key)
    bumped = getattr(_request_bumps, "keys", None)
    if bumped is not None:
        bumped.add(key)


# The versions bumped while this thread serves a write request (LiveMiddleware._bump_written).
_request_bumps = threading.local()


class _Listener:
    """Hears the versions other processes bump (a Redis channel; one thread per process, started
    by the first request after the fork). Off without Redis, and until subscribed: then the
    numbers are kept only LOCAL_SECONDS. A lost connection forgets every number, as changes may
    have gone unheard meanwhile."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.heard = 0  # counts the changes heard: a reader keeps what it read only if none came
        self._pid = 0
        self._on = False

    def listening(self) -> bool:
        if self._pid != os.getpid():
            self._start()
        return self._on

    def announce(self, key: str) -> None:
        client = _redis()
        if client is not None and not shared_cache.skipping():  # Redis away: nobody to tell
            try:
                client.publish(_channel(client), key)
            except Exception:  # noqa: BLE001  (the number is bumped; listeners re-read it soon anyway)
                pass

    def _forget(self, key: str | None) -> None:
        with self.lock:
            self.heard += 1
            if key is None:
                _local.clear()
            else:
                _local.pop(key, None)

    def _start(self) -> None:
        with self.lock:
            if self._pid == os.getpid():
                return
            self._pid, self._on = os.getpid(), False
        client = _redis()
        if client is not None:
            threading.Thread(target=self._run, args=(client, os.getpid()), daemon=True,
                             name="live-versions").start()

    def _run(self, client: Any, pid: int) -> None:
        while self._pid == pid:
            try:
                pubsub = client.pubsub()
                pubsub.subscribe(_channel(client))
                for message in pubsub.listen():
                    if message["type"] == "subscribe":
                        self._forget(None)
                        self._on = True
                    elif message["type"] == "message":
                        self._forget(message["data"].decode())
            except Exception:  # noqa: BLE001  (Redis away: numbers are re-read every LOCAL_SECONDS)
                pass
            self._on = False
            self._forget(None)
            time.sleep(1)


_listener = _Listener()


def _redis() -> Any:
    """The Redis client behind the default cache, or None (another cache backend)."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    backend = caches["default"]
    return backend._cache.get_client(write=True) if isinstance(backend, RedisCache) else None


def _channel(client: Any) -> str:
    """Channels are shared by every database of a Redis server: the name carries the number."""
    return f"{cache.make_key('live:changed')}:{client.connection_pool.connection_kwargs.get('db', 0)}"


def _bump_all_after_outage() -> None:
    """Writes committed while Redis was away could not bump their versions: every page gets a
    new validator, so no phone keeps a page from before (common/cache.py runs this)."""
    _incr(SITE_KEY)


shared_cache.on_recovery(_bump_all_after_outage)


def bump(slug: str | None = None) -> None:
    """A viewer-visible change committed: the tournament's pages (or, without ``slug``, every
    page) get a new validator."""
    _incr(tournament_key(slug) if slug else SITE_KEY)


# Marks this module's commit callback among a transaction's (see bump_on_commit).
_PENDING = "live_version_key"


def _pending_bump(conn: Any, key: str) -> Any:
    """The commit callback of ``conn``'s current transaction that bumps ``key``, if it has one."""
    for _savepoints, func, _robust in conn.run_on_commit:
        if getattr(func, _PENDING, None) == key:
            return func
    return None


def bump_on_commit(slug: str | None = None) -> None:
    """A viewer-visible change in the current transaction: the version is bumped once, when the
    transaction commits (other connections see nothing of it before), however many rows it
    saves. Every version is a render of each page viewed in each process: a confirmation saved
    four rows and bumped eight times. The writing connection sees its own change at once: until
    the commit, its validators carry a token that each of its writes renews (a test's
    transaction never commits; a savepoint rolled back takes its callback, and so its token,
    with it)."""
    key = tournament_key(slug) if slug else SITE_KEY
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        _incr(key)
        return
    pending = _pending_bump(conn, key)
    if pending is None:
        pending = partial(_incr, key)
        setattr(pending, _PENDING, key)
        transaction.on_commit(pending)
    pending.live_token = secrets.token_hex(8)


def _own_writes(slug: str | None) -> str:
    """The tokens of this connection's uncommitted writes to what a page of ``slug`` shows."""
    conn = transaction.get_connection()
    if not conn.in_atomic_block:  # every poll in production: no transaction open
        return ""
    keys = [SITE_KEY] + ([tournament_key(slug)] if slug else [])
    return ".".join(getattr(_pending_bump(conn, k), "live_token", "") for k in keys)


# ------------------------------------------------------------------------------ model signals
# What a saved or deleted row means for the pages: each app registers its own models in its
# ``AppConfig.ready`` (this module imports no app): :func:`watch` its models, :func:`tournament_rows`
# the tournament itself, :func:`site_rows` the rows every page shows, :func:`owned_through` how a
# row without a ``tournament_id`` finds its tournament.
_SLUG_KEY = "live:slug:{}"
_tournaments: list[Any] = []  # the tournament model (tournament_rows)
_site_wide: tuple[type, ...] = ()  # rows shown on every page (site_rows)
_owners: list[tuple[str, Any, str]] = []  # (attribute, model, path to the tournament's id)
_quiet: set[str] = set()  # rows no public page shows: their writes need no new validator


def watch(models: Any, *, quiet: Any = ()) -> None:
    """Every save and delete of ``models`` gives their tournament's pages (or every page) a new
    validator; ``quiet``: the models among them no public page shows (audit entries do count:
    they catch writes done with ``QuerySet.update``)."""
    from django.db.models.signals import post_delete, post_save

    _quiet.update(model.__name__ for model in quiet)
    for model in models:
        post_save.connect(_changed, sender=model, weak=False, dispatch_uid=f"live-save-{model.__name__}")
        post_delete.connect(_changed, sender=model, weak=False, dispatch_uid=f"live-del-{model.__name__}")


def tournament_rows(model: Any) -> None:
    """The tournament model: a row's ``slug`` names its pages (``t/<slug>/``)."""
    _tournaments[:] = [model]


def site_rows(*models: type) -> None:
    """Rows shown on every page (names, clubs, tournament titles): a change is a new site version."""
    global _site_wide
    _site_wide = (*_site_wide, *models)


def owned_through(attribute: str, model: Any, path: str) -> None:
    """A row with ``attribute`` (``game_id``) belongs to the tournament ``model``'s row of that id
    reaches by ``path`` (``Game``, ``"tournament_id"``)."""
    _owners.append((attribute, model, path))


def _slug_of(tournament_id: int | None) -> str | None:
    if tournament_id is None or not _tournaments:
        return None
    key = _SLUG_KEY.format(tournament_id)
    slug = cache.get(key)
    if slug is None:
        slug = _tournaments[0].objects.filter(pk=tournament_id).values_list("slug", flat=True).first()
        if slug is not None:
            cache.set(key, slug, 3600)
    return slug  # type: ignore[no-any-return]


def _tournament_id(instance: Any) -> int | None:
    """The tournament a saved or deleted row belongs to (one small query at most)."""
    if hasattr(instance, "tournament_id"):
        return instance.tournament_id  # type: ignore[no-any-return]
    for attr, model, path in _owners:
        pk = getattr(instance, attr, None)
        if pk is not None:
            return model.objects.filter(pk=pk).values_list(path, flat=True).first()  # type: ignore[no-any-return]
    return None


def _changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    if not enabled() or sender.__name__ in _quiet or kwargs.get("raw"):
        return
    if isinstance(instance, _site_wide):
        if _tournaments and isinstance(instance, _tournaments[0]):
            cache.delete(_SLUG_KEY.format(instance.pk))
            bump_on_commit(instance.slug)
        bump_on_commit(None)  # names, clubs and tournament titles show on every page
        return
    slug = _slug_of(_tournament_id(instance))
    bump_on_commit(slug)


# ------------------------------------------------------------------------------ marking views
def public(view: Any = None, *, personal: bool = False, bucket: int = 0) -> Any:
    """Mark a view (function, or an APIView class) as a public page: answered from its
    validator and the shared response cache for anonymous requests. ``personal``: the view reads
    the session (a player's private link), so any session cookie bypasses the mechanism.
    ``bucket``: without a worker (tasks run in-process), seconds after which the validator changes
    anyway (a view whose answer also depends on the time, such as a clock whose deadline passed:
    with a worker, the expiry task's write is a new version at the deadline)."""
    def mark(v: Any) -> Any:
        v.live_public = {"personal": personal, "bucket": bucket}
        return v
    return mark(view) if view is not None else mark


def _spec(match: Any) -> dict[str, Any] | None:
    func = match.func
    for target in (func, getattr(func, "cls", None), getattr(func, "view_class", None)):
        spec = getattr(target, "live_public", None)
        if spec is not None:
            return spec  # type: ignore[no-any-return]
    return None


@lru_cache(maxsize=4096)
def _route(path: str) -> tuple[dict[str, Any], str | None] | None:
    """A public page's mark and tournament slug, or None (the URL resolution, remembered)."""
    try:
        match = resolve(path)
    except Resolver404:
        return None
    spec = _spec(match)
    return None if spec is None else (spec, match.kwargs.get("slug"))


@lru_cache(maxsize=1)
def build_stamp() -> str:
    """Names the code and templates: a deploy (new templates, translations, views) is a new
    validator. The same in every worker process (file contents' sizes and times)."""
    root = Path(settings.BASE_DIR)
    h = hashlib.sha256(os.environ.get("LIVE_BUILD", "").encode())
    for folder in _stamped_folders(root):
        for dirpath, _dirs, files in sorted(os.walk(folder)):
            for name in sorted(files):
                if name.endswith((".html", ".mo", ".py", ".js", ".css")):
                    st = os.stat(os.path.join(dirpath, name))
                    h.update(f"{dirpath}/{name}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.hexdigest()[:16]


def _stamped_folders(root: Path) -> list[Path]:
    """The folders whose files make a page: templates, translations, static files, this package
    and every installed app of this repository (their templates included; config, the settings'
    package, is one)."""
    from django.apps import apps

    found = [root / "templates", root / "locale", root / "static", Path(__file__).resolve().parent]
    for top in sorted({app.name.split(".")[0] for app in apps.get_app_configs()}):
        if (root / top / "__init__.py").exists() and (root / top).resolve() not in found:
            found.append((root / top).resolve())
    return found


def _eligible(request: HttpRequest, spec: dict[str, Any]) -> bool:
    if request.method not in ("GET", "HEAD") or "HTTP_AUTHORIZATION" in request.META:
        return False
    if "messages" in request.COOKIES:
        return False
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        if spec["personal"]:
            return False
        user = getattr(request, "user", None)
        if user is None or user.is_authenticated or request.session.get("_messages"):
            return False
    return len(request.META.get("QUERY_STRING", "")) <= MAX_QUERY


def validator(meta: dict[str, Any], path: str, slug: str | None, language: str, bucket: int = 0) -> str:
    """The validator of a request (its ``META`` and ``path``) for this language."""
    site, tour = versions(slug)
    raw = "|".join((build_stamp(), path, meta.get("QUERY_STRING", ""), language,
                    "hx" if meta.get("HTTP_HX_REQUEST") else "", str(site), str(tour),
                    str(int(time.time() // bucket)) if bucket and _no_worker() else "", _own_writes(slug)))
    return 'W/"' + hashlib.blake2b(raw.encode(), digest_size=12).hexdigest() + '"'


def _no_worker() -> bool:
    from celery import current_app as app

    return bool(app.conf.task_always_eager)


def _matches(meta: dict[str, Any], etag: str) -> bool:
    header = meta.get("HTTP_IF_NONE_MATCH", "")
    if not header:
        return False
    tags = {t.strip() for t in header.split(",")}
    return "*" in tags or etag in tags or etag[2:] in tags


_GZIP = re.compile(r"(?:^|,)\s*gzip\s*(?:;\s*q=(?!0(?:\.0*)?\s*(?:,|$))[\d.]+\s*)?(?:,|$)", re.I)


def _accepts_gzip(meta: dict[str, Any]) -> bool:
    """``gzip`` among the accepted encodings (not with q=0)."""
    return bool(_GZIP.search(meta.get("HTTP_ACCEPT_ENCODING", "")))


def _finish(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"  # keep it, but ask every time (a 304 is cheap)
    patch_vary_headers(response, VARY)
    return response


def _replay(request: HttpRequest, meta: dict[str, Any], payload: bytes, gz: bool, etag: str) -> HttpResponse:
    response = HttpResponse(b"" if request.method == "HEAD" else payload)
    for name, value in meta["headers"]:
        response[name] = value
    if gz:
        response["Content-Encoding"] = "gzip"
    response["Content-Length"] = str(len(payload))
    return _finish(response, etag)


_RENDER_LOCKS = tuple(threading.RLock() for _ in range(64))


def _render_lock(key: str) -> threading.RLock:
    """The lock a render of the page stored under ``key`` holds (one of a few, shared by keys
    that hash alike: two pages rendering at once in one process rarely meet on one)."""
    return _RENDER_LOCKS[hash(key) % len(_RENDER_LOCKS)]


def _stored(request: HttpRequest, key: str, etag: str) -> HttpResponse | None:
    """The response stored under ``key``, replayed: its headers and only the body this client
    takes (gzip or plain) are read, in one round trip (a 3 MB page whose gzip is 300 kB)."""
    gz = _accepts_gzip(request.META)
    found = cache.get_many([key, key + (":gz" if gz else ":body")])
    meta = found.get(key)
    if meta is None:
        return None
    gz = gz and meta["gz"]
    payload = found.get(key + (":gz" if gz else ":body"))
    if payload is None and not gz:
        payload = cache.get(key + ":body")  # gzip asked, but the page is too small to compress
    return None if payload is None else _replay(request, meta, payload, gz, etag)


class LiveMiddleware:
    """Answers public pages from their validator (see the module's text). Sits after the
    authentication middleware (it needs to know a session is anonymous) and before the ones whose
    headers it stores with the response (messages, frame options, htmx, content policy)."""

    early = False  # see LiveEarlyMiddleware

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if (settings.SESSION_COOKIE_NAME in request.COOKIES) == self.early:
            return self.get_response(request)  # the other one of the pair answers it
        if not enabled() or request.method not in ("GET", "HEAD"):
            _request_bumps.keys = set()
            try:
                response = self.get_response(request)
                if enabled() and request.method not in ("GET", "HEAD", "OPTIONS") and response.status_code < 400:
                    self._bump_written(request, _request_bumps.keys)
            finally:
                _request_bumps.keys = None
            return response
        route = _route(request.path_info)
        if route is None:
            return self.get_response(request)
        spec, slug = route
        if not _eligible(request, spec):
            return self.get_response(request)
        language = get_language_from_request(request)
        try:
            etag = validator(request.META, request.path, slug, language, spec.get("bucket", 0))
        except CacheAway:
            return self.get_response(request)  # from the database, no validator: never a false 304
        if _matches(request.META, etag):
            if self.early:
                request.META[ANSWERED_EARLY] = etag  # LiveFirst answers the next ones the same
            return _finish(HttpResponseNotModified(), etag)
        key = "live:r:" + etag[3:-1]
        replayed = _stored(request, key, etag)
        if replayed is None:
            # One render per page version in this process: the phones that ask for a page just
            # changed while it renders wait for it and get it replayed, instead of rendering it
            # too (forty phones of one event poll the page a result has just changed).
            with _render_lock(key):
                replayed = _stored(request, key, etag)
                if replayed is None:
                    return self._render(request, key, etag)
        if self.early:
            request.META[ANSWERED_EARLY] = etag
        return replayed

    def _render(self, request: HttpRequest, key: str, etag: str) -> HttpResponse:
        """The page from the view, stored under ``key`` for everyone when nothing in it is personal."""
        request.live_public = True  # type: ignore[attr-defined]  # base.html: no CSRF header
        response = self.get_response(request)
        if (response.status_code != 200 or response.cookies or getattr(response, "streaming", False)
                or request.META.get("CSRF_COOKIE_NEEDS_UPDATE") or request.META.get("CSRF_COOKIE_USED")
                or response.has_header("ETag")):
            return response  # personal in some way: as it is, never stored nor compressed
        body = response.content
        compressed = gzip.compress(body, 6, mtime=0) if len(body) >= MIN_GZIP else None
        meta = {"gz": compressed is not None, "at": time.time(),
                "headers": [(k, v) for k, v in response.items() if k.lower() not in _SKIP_HEADERS]}
        # the bodies first: a reader finding the headers finds what it needs
        cache.set_many({key + ":body": body, **({key + ":gz": compressed} if compressed else {})}, RESPONSE_TTL)
        cache.set(key, meta, RESPONSE_TTL)
        gz = compressed is not None and _accepts_gzip(request.META)
        if self.early:
            request.META[ANSWERED_EARLY] = etag
        return _replay(request, meta, compressed if gz and compressed else body, gz, etag)

    @staticmethod
    def _bump_written(request: HttpRequest, bumped: set[str]) -> None:
        """A write request that succeeded: its tournament's pages get a new validator, unless a
        commit during the request gave them one (catches writes that bypass model signals, such
        as ``QuerySet.update``)."""
        match = getattr(request, "resolver_match", None)
        slug = match.kwargs.get("slug") if match is not None else None
        if slug and tournament_key(slug) not in bumped:
            bump(slug)


class LiveEarlyMiddleware(LiveMiddleware):
    """The same for requests without a session cookie (every phone that never logged in), placed
    right after the static files: an unchanged poll costs no session, locale, CSRF or
    authentication step. Requests with a session cookie are left to :class:`LiveMiddleware`."""

    early = True


# ------------------------------------------------------------------------------ before Django
ANSWERED_EARLY = "live.answered_early"  # set by LiveEarlyMiddleware: its answer, by this validator
KEEP_BYTES = 32 * 1024 * 1024  # pages kept by each process (LiveFirst), oldest dropped first
KEEP_ONE = 1024 * 1024  # larger ones are not kept


class _Poll:
    """What the validator reads of a request, straight from the WSGI environ (no HttpRequest)."""

    def __init__(self, environ: dict[str, Any], cookies: dict[str, str]) -> None:
        self.META = environ
        self.COOKIES = cookies
        self.method = environ["REQUEST_METHOD"]
        self.path_info = get_path_info(environ) or "/"
        self.path = "{}/{}".format(get_script_name(environ).rstrip("/"), self.path_info.replace("/", "", 1))


def _secure(environ: dict[str, Any]) -> bool:
    """``HttpRequest.is_secure`` from the environ."""
    if settings.SECURE_PROXY_SSL_HEADER:
        header, value = settings.SECURE_PROXY_SSL_HEADER
        found = environ.get(header)
        if found is not None:
            return bool(found.split(",", 1)[0].strip() == value)
    return bool(environ.get("wsgi.url_scheme") == "https")


class LiveFirst:
    """Wraps the WSGI application (config/wsgi.py): a public page asked without a session cookie
    is answered before Django builds a request, sends its signals or runs any middleware, when
    this process has already given the same answer through the whole stack
    (:class:`LiveEarlyMiddleware`): a 304 (the headers of the last one, security headers included,
    with this request's validator), or the page stored under this validator, kept here as it went
    out (a validator names one content for ever: what was right for it stays right). Anything out
    of the ordinary (a body, a NUL, a plain-HTTP request that would be redirected, a session) goes
    to Django as before."""

    def __init__(self, application: Callable[..., Any]) -> None:
        self.application = application
        self.not_modified: dict[bool, list[tuple[str, str]]] = {}  # secure or not → the 304's headers
        self.pages: OrderedDict[tuple[str, bool, bool], tuple[str, list[tuple[str, str]], bytes]] = OrderedDict()
        self.kept = 0
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        try:
            poll = self._poll(environ)
        except Exception:  # noqa: BLE001  (Redis away, an odd path: Django answers, and reports it its way)
            poll = None
        if poll is None:
            return self.application(environ, start_response)
        etag, secure, gz = poll
        matches = _matches(environ, etag)
        if matches and secure in self.not_modified:
            start_response("304 Not Modified", [*self.not_modified[secure], ("ETag", etag)])
            return []
        page = None if matches else self.pages.get((etag, secure, gz))
        if page is not None and environ["REQUEST_METHOD"] == "GET":
            start_response(page[0], page[1])
            return [page[2]]
        answer: list[Any] = []

        def learn(status: str, headers: list[tuple[str, str]], *args: Any) -> Any:
            answer[:] = [status, headers]
            return start_response(status, headers, *args)
        result = self.application(environ, learn)
        if environ.get(ANSWERED_EARLY) != etag or not answer:
            return result  # validated by another version than the one read here, or not ours
        status, headers = answer
        if status.startswith("304"):
            self.not_modified[secure] = [(k, v) for k, v in headers if k.lower() != "etag"]
        elif status.startswith("200") and environ["REQUEST_METHOD"] == "GET":
            try:
                body = b"".join(result)
            finally:
                getattr(result, "close", lambda: None)()
            self._keep((etag, secure, gz), (status, list(headers), body))
            return [body]
        return result

    def _poll(self, environ: dict[str, Any]) -> tuple[str, bool, bool] | None:
        """(validator, secure, gzip accepted) of a request this may answer, else None."""
        if (environ["REQUEST_METHOD"] not in ("GET", "HEAD") or not enabled()
                or environ.get("CONTENT_LENGTH", "") not in ("", "0")):
            return None
        secure = _secure(environ)
        if settings.SECURE_SSL_REDIRECT and not secure:
            return None
        raw_cookies = environ.get("HTTP_COOKIE", "")
        if "\x00" in raw_cookies or "%00" in environ.get("QUERY_STRING", "") or "%00" in environ.get("PATH_INFO", ""):
            return None
        cookies = parse_cookie(raw_cookies) if raw_cookies else {}
        if settings.SESSION_COOKIE_NAME in cookies:
            return None  # LiveMiddleware's, after the session
        poll = _Poll(environ, cookies)
        if "\x00" in poll.path_info:
            return None
        route = _route(poll.path_info)
        if route is None or not _eligible(poll, route[0]):  # type: ignore[arg-type]
            return None
        spec, slug = route
        etag = validator(environ, poll.path, slug, get_language_from_request(poll),  # type: ignore[arg-type]
                         spec.get("bucket", 0))
        return etag, secure, _accepts_gzip(environ)

    def _keep(self, key: tuple[str, bool, bool], page: tuple[str, list[tuple[str, str]], bytes]) -> None:
        size = len(page[2])
        if size > KEEP_ONE:
            return
        with self.lock:
            if key in self.pages:
                return
            self.pages[key] = page
            self.kept += size
            while self.kept > KEEP_BYTES:
                _key, (_status, _headers, body) = self.pages.popitem(last=False)
                self.kept -= len(body)


# ------------------------------------------------------------------------------ small endpoints
@require_safe
def set_language(request: HttpRequest) -> HttpResponse:
    """The language switch as a GET (``?language=en&next=/t/x/``): public pages need no CSRF
    token in their header form, and it works without JavaScript. Changing the language changes
    nothing but that visitor's display, so it needs no protection against cross-site requests."""
    nxt = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(nxt, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        nxt = "/"
    response = HttpResponseRedirect(nxt)
    language = request.GET.get("language", "")
    if check_for_language(language) and language in dict(settings.LANGUAGES):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, language, max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE, httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        )
    return response


@require_safe
def server_time(request: HttpRequest) -> HttpResponse:
    """The server's clock (epoch seconds): a page answered with a 304 keeps the time it was first
    made at, so the clocks' countdown (static/js/clock.js) asks here once per page."""
    response = JsonResponse({"now": time.time()})
    response["Cache-Control"] = "no-store"
    return response
