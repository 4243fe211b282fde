"""Settings, read from environment variables only.

With nothing set the app runs on the *embedded default*: a SQLite file, a local-memory cache,
Celery tasks run eagerly, DEBUG on and a generated development secret — so a new user needs no
servers. Setting ``DATABASE_URL`` (PostgreSQL) and ``REDIS_URL`` (cache + Celery broker) switches
to production behaviour. See README "Configuration" for every variable.
"""

from __future__ import annotations

import secrets
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()

DATABASE_URL = env.str("DATABASE_URL", default="")
REDIS_URL = env.str("REDIS_URL", default="")

# Production is whatever runs on a real database; an explicit DEBUG always wins.
DEBUG = env.bool("DEBUG", default=not DATABASE_URL)


def _dev_secret() -> str:
    """A secret generated once per checkout, so dev sessions survive a restart."""
    path = BASE_DIR / ".dev-secret"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off (production).")
    SECRET_KEY = _dev_secret()

ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "tournaments",
    "tables",
    "scoring",
    "clubs",  # above tournaments: clubs, their admins, the federation's tools
    "ranking",  # above scoring: the national ranking (K-RANKING)
    "workbook",
    "history",
    "seasons",
    "publishing",
    "ratings",  # above scoring: the rating (Indice), docs/rating.md
    "teams",  # above scoring, ranking and workbook: team events (CNS, club team tournaments), docs/teams.md
    "selfservice",  # above scoring: players' own check-in, calling the referee, hidden standings
    "fees",  # above tournaments: entry fees, payments at check-in, club members (docs/fees.md)
    "clubstats",  # above scoring and ranking: the clubs' and players' statistics, docs/statistics.md
    "config.apps.SiteConfig",  # the site itself: manage.py api_contract (the live pages: common/live.py)
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session is looked up (a cookie with NUL) and anything reads the body:
    "common.edge.RequestSizeLimitMiddleware",  # 413 above REQUEST_BODY_MAX_BYTES (common/edge.py)
    "common.edge.NulCharacterMiddleware",  # no NUL reaches PostgreSQL (common/edge.py)
    "common.live.LiveEarlyMiddleware",  # ETag/304, response cache, gzip: requests with no session
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "tournaments.access.RevokedLinkMiddleware",  # a revoked referee link ends its session
    "common.live.LiveMiddleware",  # the same for requests with a session (anonymous ones only)
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "common.refusals.RefusalMiddleware",  # a refused action says why in the page (htmx or not)
    "common.security.ContentSecurityPolicyMiddleware",  # CSP + a few headers (common/security.py)
    "common.security.LoginRateLimitMiddleware",  # 429 after 5 failed logins per user+IP / 15 min
    # last: it runs the API view itself, once per Idempotency-Key (tournaments/idempotency.py)
    "tournaments.idempotency.ApiIdempotencyMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # long_date / long_datetime: the one way a page says a date in words
            "builtins": ["tournaments.templatetags.dates"],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
if DATABASE_URL:
    DATABASES = {"default": env.db_url("DATABASE_URL")}
    DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": env.str("SQLITE_PATH", default=str(BASE_DIR / "db.sqlite3")),
            # Several people may write at once on the embedded default; wait, don't fail.
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ----------------------------------------------------------------------------------
if REDIS_URL:
    CACHES = {
        "default": {
            # Django's Redis cache that treats Redis away as a miss (common/cache.py): pages are
            # rendered from the database meanwhile.
            "BACKEND": "common.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": env.str("CACHE_PREFIX", default="risiko"),
            # A Redis that does not answer costs a request at most this long (seconds).
            "OPTIONS": {"socket_connect_timeout": env.float("CACHE_CONNECT_TIMEOUT", default=0.5),
                        "socket_timeout": env.float("CACHE_TIMEOUT", default=2.0)},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# After a failed cache operation, seconds before Redis is tried again (common/cache.py).
CACHE_RETRY_SECONDS = env.float("CACHE_RETRY_SECONDS", default=1.0)

# Public pages answered from version stamps (common/live.py). The stamps must be shared by every
# worker process: on with Redis, or in DEBUG (one process); LIVE_CACHE=false turns it off.
LIVE_CACHE = env.bool("LIVE_CACHE", default=bool(REDIS_URL) or DEBUG)

# --- Celery ---------------------------------------------------------------------------------
# Without Redis, tasks run in-process (eager): nothing waits, so nothing may rely on a worker
# for correctness (clocks derive "expired" from the stored deadline; see tables/).
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default=REDIS_URL or "memory://")
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=not REDIS_URL)
# Two instances sharing one Redis keep their tasks apart by queue (and their cache by CACHE_PREFIX).
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_QUEUE", default="celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
# A task whose pool process dies (killed, out of memory) goes back to the queue instead of being
# acknowledged as failed: a standings recomputation is redone, not lost.
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A message taken by a worker that vanished (its main process killed) goes back to the queue
# after this many seconds (kombu's default is an hour). Longer than the longest task (the
# national ranking of a year: seconds), so a running task is never handed out twice. A clock's
# expiry, scheduled for its deadline, is held unacknowledged until then: it may be handed out
# again every period, and its task is idempotent (tables/tasks.py).
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=300)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_VISIBILITY_TIMEOUT}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "Europe/Rome"
CELERY_BEAT_SCHEDULE = {
    # Catches any clock deadline a stopped worker missed (tables.tasks); idempotent.
    "sweep-expired-clocks": {"task": "tables.tasks.sweep_deadlines", "schedule": 30.0},
    # Beat's sign of life, run by a worker: /healthz reports its age (config/health.py).
    "heartbeat": {"task": "config.heartbeat", "schedule": float(env.int("HEARTBEAT_SECONDS", default=15))},
    # Queues again a standings recomputation that was lost (scoring/tasks.py: heal_standings).
    "heal-standings": {"task": "scoring.tasks.heal_standings",
                       "schedule": float(env.int("STANDINGS_WATCHDOG_SECONDS", default=30))},
}
# /healthz reports standings that miss a change older than this (config/health.py).
STANDINGS_STALE_SECONDS = env.int("STANDINGS_STALE_SECONDS", default=90)
HEARTBEAT_SECONDS = env.int("HEARTBEAT_SECONDS", default=15)

# --- Auth -----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "common.passwords.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournaments:list"
LOGOUT_REDIRECT_URL = "tournaments:list"

# --- Internationalisation -------------------------------------------------------------------
LANGUAGE_CODE = "it"
LANGUAGES = [("it", _("Italian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="Europe/Rome")
USE_I18N = True
USE_TZ = True

# --- Static files (served by the app itself: venues may have no internet) -------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_MANIFEST = env.bool("STATIC_MANIFEST", default=False)  # true in the Docker image
# Without a collectstatic step (a checkout, the embedded default) whitenoise serves from the apps.
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if STATIC_MANIFEST
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# --- REST API -------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "common.schema.AutoSchema",  # + the documented error answers
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # CSRF on every cookie-borne write, player-link sessions included
        "common.authentication.CookieCsrfSessionAuthentication",
        "rest_framework.authentication.BasicAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PAGINATION_CLASS": "common.api.SafeLimitOffsetPagination",  # bounded offset/limit
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "common.api.exception_handler",
    # scores are exact decimals: written as the JSON numbers they spell (common/api.py)
    # a key repeated in one JSON object is refused, not silently overwritten (common/api.py)
    "DEFAULT_PARSER_CLASSES": [
        "common.restjson.StrictJSONParser", "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_RENDERER_CLASSES": [
        "common.restjson.ExactJSONRenderer", "rest_framework.renderers.BrowsableAPIRenderer",
    ],
}
SPECTACULAR_SETTINGS = {
    "TITLE": "RisiKo! tournaments API",
    "DESCRIPTION": "Clubs, players, tournaments, registrations, tables, results and standings.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # config/converters.py: ids in paths are whole numbers of at most 18 digits
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
    # a payment's status (fees) beside the other "status" fields: named, not a hash
    "ENUM_NAME_OVERRIDES": {"PaymentStatusEnum": "fees.models.Payment.Status"},
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                             "common.schema.error_component_hook"],
}

# --- Request and upload limits (docs/security.md "Limits") ----------------------------------
# A whole request body (common/edge.py answers 413 above it): one upload of at most 5 MB
# (tournaments.spreadsheets.LIMITS.upload_bytes) plus the form around it.
REQUEST_BODY_MAX_BYTES = env.int("REQUEST_BODY_MAX_BYTES", default=6 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_MAX_BYTES  # non-file body (JSON, form fields)
# One published tournament (docs/publishing.md): HTTP 413 above it.
PUBLISH_MAX_BYTES = env.int("PUBLISH_MAX_BYTES", default=5 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440  # larger uploads spill to a temporary file
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 10

# --- Security (production) ------------------------------------------------------------------
# A venue laptop serving plain HTTP on its own LAN sets HTTPS=false explicitly.
HTTPS = env.bool("HTTPS", default=not DEBUG)
SECURE_SSL_REDIRECT = HTTPS
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=31536000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
CSRF_FAILURE_VIEW = "common.htmx.csrf_failure"  # an htmx action says so in the page
CSRF_COOKIE_HTTPONLY = True  # pages read the token from the template, never from the cookie
# Content security policy (common/security.py): everything from this server, nothing inline.
CONTENT_SECURITY_POLICY = env.str("CONTENT_SECURITY_POLICY", default=(
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
))
# Login rate limit (common/security.py): failures per username + client address.
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)
LOGIN_FAILURE_WINDOW = env.int("LOGIN_FAILURE_WINDOW", default=15 * 60)  # seconds
# ... and failures from one address whatever the usernames (spraying many names).
LOGIN_FAILURE_LIMIT_PER_ADDRESS = env.int("LOGIN_FAILURE_LIMIT_PER_ADDRESS", default=100)
# Set only behind a proxy that overwrites X-Forwarded-For (the compose stack has none).
TRUST_X_FORWARDED_FOR = env.bool("TRUST_X_FORWARDED_FOR", default=False)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}

# --- Mail (invitations to a tournament's staff) ----------------------------------------------
# Unset EMAIL_HOST: no mail is sent; organizers copy the invitation link or show its QR code.
EMAIL_HOST = env.str("EMAIL_HOST", default="")
EMAIL_PORT = env.int("EMAIL_PORT", default=587)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="risiko-tornei@localhost")
EMAIL_TIMEOUT = 10
