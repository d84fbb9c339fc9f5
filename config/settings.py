"""Tablescore settings, read from the environment.

Nothing set means a development-friendly default that still refuses to run
insecurely in production: DEBUG must be switched on explicitly (``make run``
does so) and without DEBUG a server needs a SECRET_KEY from the environment.
Commands that serve nothing (``score``, ``scoresheet``, ``importgame`` ...)
work with no environment at all.
"""

import os
import secrets
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

# Commands that serve nothing: they read and write game records, sheets and plans, answer
# no request and sign nothing that outlives them, so they run with no environment at all.
COMMANDS_SERVING_NOTHING = frozenset(
    {"score", "scoresheet", "schedule", "bracket", "exportgame", "importgame", "help"}
)


def management_command(argv: list[str]) -> str | None:
    """The management command this process runs (manage.py, django-admin), or None."""
    if len(argv) < 2:
        return None
    program = Path(argv[0]).name
    if program in {"manage.py", "django-admin", "__main__.py"}:
        return argv[1]
    return None


SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG:
        SECRET_KEY = "insecure-development-key-never-use-in-production"
    elif management_command(sys.argv) in COMMANDS_SERVING_NOTHING:
        SECRET_KEY = secrets.token_urlsafe(50)  # for this process only; nothing is served
    else:
        # A server (runserver, gunicorn, the wsgi/asgi application) never starts without one.
        from django.core.exceptions import ImproperlyConfigured

        raise ImproperlyConfigured("Set SECRET_KEY (or DEBUG=1 for local development).")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "scoring",
    "printing",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "common.security_headers.ContentSecurityPolicyMiddleware",
    "common.security_headers.PermissionsPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language: the switch's cookie, else the browser's Accept-Language (after
    # the session, before anything that answers with words).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Wrong table tokens on the table pages: counted, and answered 429 past their rate.
    "config.table_guard.WrongTableTokens",
    # Last: turns a locked-out login into a 429 answer.
    "axes.middleware.AxesMiddleware",
]

# Admin and director logins: repeated wrong passwords for one user from one
# address lock that pair out for a while (django-axes), answered with a 429.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# The client's address as every throttle reads it (behind NUM_PROXIES proxies, from
# X-Forwarded-For): a guesser behind the proxy locks out only their own address.
AXES_CLIENT_IP_CALLABLE = "common.throttles.login_address"

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
                "printing.context_processors.paper",
            ],
        },
    },
]

# Database: a SQLite file unless DATABASE_URL names another one.
SQLITE_PATH = os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3"))
DATABASES = {"default": dj_database_url.config(default=f"sqlite:///{SQLITE_PATH}")}
DB_STATEMENT_TIMEOUT = float(os.environ.get("DB_STATEMENT_TIMEOUT", "0"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Keep connections between requests (a new PostgreSQL connection costs more
    # than a round entry), checked before reuse so a dropped one is replaced; the
    # check costs no round trip (see config.postgresql.base).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DB_CONN_MAX_AGE", "600"))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    options = DATABASES["default"].setdefault("OPTIONS", {})
    if env_bool("DB_PREPARED_STATEMENTS", True):
        # The values go apart from the statement (server-side binding), and a statement a
        # connection has run five times is prepared: PostgreSQL parses and plans it once,
        # and the statement goes by its name. Off behind a pooler that cannot keep prepared
        # statements (PgBouncer in transaction mode before 1.21): then nothing is prepared.
        options.update({"server_side_binding": True, "prepare_threshold": 5})
    else:
        options["prepare_threshold"] = None
    # A database that accepts and never answers is given up on in seconds, and the request
    # answered 503 "try again" (config.unavailable): connecting waits DB_CONNECT_TIMEOUT
    # seconds at most, a statement DB_STATEMENT_TIMEOUT (the server stops it then, and this
    # process stops waiting a moment later, see config.postgresql.base). 0: no limit, as
    # for commands and the worker unless set; deploy/bin/web sets it for the web server.
    options["connect_timeout"] = int(os.environ.get("DB_CONNECT_TIMEOUT", "2"))
    if DB_STATEMENT_TIMEOUT > 0:
        options["options"] = f"-c statement_timeout={round(DB_STATEMENT_TIMEOUT * 1000)}"
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Many phones write at once: wait for the lock instead of failing, take the
    # write lock at BEGIN so that a read-then-write never has to upgrade, and
    # let readers proceed beside the writer (WAL).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Languages: English, and French as spoken in Canada. Each reader's comes from the switch
# on every page (a cookie the phone keeps), else from the browser; the catalogues live in
# locale/ (see the README's "Adding a language"). Django's own fr formats serve fr-ca.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("fr-ca", "Français (Canada)")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["config.locale_formats"]
LANGUAGE_COOKIE_AGE = 400 * 24 * 3600  # as long as a browser keeps a cookie
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", str(BASE_DIR / "media")))
MEDIA_URL = "media/"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed names from collectstatic's manifest; STATIC_MANIFEST=0 serves the files
        # under their own names (no collectstatic before a page renders).
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if env_bool("STATIC_MANIFEST", not DEBUG)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Django's database sessions, read by a statement built once (common.sessions).
SESSION_ENGINE = "common.sessions"
LOGIN_URL = "admin:login"
# "My games" and "I am Ann" live in the session: keep them for a season of club nights.
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_COOKIE_AGE", str(180 * 24 * 3600)))
# A director's (staff) session ends after a working day, set at login.
DIRECTOR_SESSION_HOURS = float(os.environ.get("DIRECTOR_SESSION_HOURS", "12"))

REDIS_URL = os.environ.get("REDIS_URL", "")


def cache_url_for(redis_url: str) -> str:
    """The cache's Redis: REDIS_URL's server, the database after the broker's."""
    base, _, db = redis_url.rstrip("/").rpartition("/")
    if base.startswith(("redis://", "rediss://")) and db.isdigit() and base.count("/") >= 2:
        return f"{base}/{(int(db) + 1) % 16}"
    return redis_url.rstrip("/") + "/1"


# The cache holds throttle counts: CACHE_URL if set, else REDIS_URL's server (so that
# every server process shares one count), else per process (the embedded default).
CACHE_URL = os.environ.get("CACHE_URL", "") or (cache_url_for(REDIS_URL) if REDIS_URL else "")
CACHES: dict[str, dict[str, Any]] = {
    "default": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": "tablescore",
            # A cache that cannot answer at once is passed over (common.throttles).
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# Parts of pages drawn from nothing but what their key says (a round form's controls):
# kept by each server process for itself, since any process draws them alike.
CACHES["template_fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "template-fragments",
    "TIMEOUT": 24 * 3600,
    "OPTIONS": {"MAX_ENTRIES": 2000},
}
# Celery: without REDIS_URL tasks run in the calling process, at once.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_TIMEOUT = 3
# One message at a time per worker process: a job waiting behind a long one stays on the
# queue, where another worker (or this one, restarted) can take it.
CELERY_WORKER_PREFETCH_MULTIPLIER = 1

# Print jobs. A job may draw for at most PRINT_TIME_LIMIT seconds. An unacknowledged
# message (its worker was killed outright) goes back on the queue after the visibility
# timeout, which is longer than the longest job so that a job still drawing is never
# handed out twice. Sooner than that, the sweep (Celery beat, every PRINT_SWEEP_SECONDS)
# sends again every job that could not be queued, and every running job whose progress
# has not moved for PRINT_STALL_SECONDS, at most PRINT_RESTARTS times before it fails.
PRINT_TIME_LIMIT = int(os.environ.get("PRINT_TIME_LIMIT", "300"))
PRINT_STALL_SECONDS = float(os.environ.get("PRINT_STALL_SECONDS", "30"))
PRINT_SWEEP_SECONDS = float(os.environ.get("PRINT_SWEEP_SECONDS", "15"))
PRINT_RESTARTS = int(os.environ.get("PRINT_RESTARTS", "2"))
# Fault drills only: seconds of sleep after each sheet, so a job can be interrupted mid-way.
PRINT_SHEET_DELAY = float(os.environ.get("PRINT_SHEET_DELAY", "0"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 2 * PRINT_TIME_LIMIT,
    "socket_connect_timeout": 2,
}
# Seating and publishing a round in the background are swept the same way: a job whose
# progress has not moved for BACKGROUND_STALL_SECONDS (its message lost with a Redis that
# keeps nothing, or its worker killed) is sent again, at most BACKGROUND_RESTARTS times.
BACKGROUND_STALL_SECONDS = float(os.environ.get("BACKGROUND_STALL_SECONDS", "60"))
BACKGROUND_SWEEP_SECONDS = float(os.environ.get("BACKGROUND_SWEEP_SECONDS", "15"))
BACKGROUND_RESTARTS = int(os.environ.get("BACKGROUND_RESTARTS", "3"))
CELERY_BEAT_SCHEDULE = {
    "print-sweep": {
        "task": "printing.sweep",
        "schedule": PRINT_SWEEP_SECONDS,
        "options": {"expires": PRINT_SWEEP_SECONDS},
    },
    "background-sweep": {
        "task": "tournaments.background_sweep",
        "schedule": BACKGROUND_SWEEP_SECONDS,
        "options": {"expires": BACKGROUND_SWEEP_SECONDS},
    },
}

# Tablescore's own switches.
TABLESCORE_REQUIRE_LOGIN_TO_CREATE = env_bool("TABLESCORE_REQUIRE_LOGIN_TO_CREATE", False)
TABLESCORE_PAPER_SIZE = os.environ.get("TABLESCORE_PAPER_SIZE", "A4")  # or "LETTER"
# The site's address as players reach it, for links printed as QR codes (behind a
# proxy the request's own address may differ); empty: the request's address.
TABLESCORE_BASE_URL = os.environ.get("TABLESCORE_BASE_URL", "")
TABLESCORE_MAX_BODY_BYTES = 64 * 1024
# Called after commit with game_id= whenever a tournament game changes (scoring imports
# no tournaments code: this dotted path is the one link from a table to its event).
TABLESCORE_GAME_CHANGED_HOOK = "tournaments.hooks.table_game_changed"
# Called with game_id= by a tournament table's pages: its round's clock (an object with
# state, seconds_left and label), or None. Empty: table pages show no clock.
TABLESCORE_TABLE_CLOCK_HOOK = "tournaments.hooks.table_clock"
# Called with game_id=, seat=, proof= when a phone that opened a table from a player's own
# link makes a change: the player's name ("" when the proof shows nobody). Empty: no seat
# is ever proven, every seat is only said.
TABLESCORE_SEAT_PROOF_HOOK = "tournaments.hooks.seat_person"
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024

# Limits (common.throttles), sized for a club behind one address: games started (web and
# API together, per address or per signed-in user), print jobs asked for, and wrong table
# tokens (table pages and API), per address. "none" switches one off. Behind a proxy,
# NUM_PROXIES=1 reads the client's address from X-Forwarded-For.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))
NINJA_NUM_PROXIES = NUM_PROXIES


def env_rate(names: tuple[str, ...], default: str) -> str | None:
    """The first of ``names`` set in the environment (older names after the current one)."""
    value = next((os.environ[n] for n in names if os.environ.get(n, "").strip()), default)
    return None if value.strip().lower() == "none" else value.strip()


# The defaults, sized for a club behind one address (a busy night starts a few hundred
# games an hour; tables made by publishing an event's round are never counted).
VENUE_RATES = {
    "games": "600/h",
    "print_jobs": "120/h",
    "wrong_tokens": "30/min",
    "signups": "60/h",
}
TABLESCORE_RATES = {
    "games": env_rate(("GAMES_RATE", "WEB_GAMES_RATE", "API_GAMES_RATE"), VENUE_RATES["games"]),
    "print_jobs": env_rate(("PRINT_JOBS_RATE",), VENUE_RATES["print_jobs"]),
    "wrong_tokens": env_rate(
        ("WRONG_TOKENS_RATE", "API_WRONG_TOKENS_RATE"), VENUE_RATES["wrong_tokens"]
    ),
    # Registrations made on events' sign-up pages (web and API together), per address.
    "signups": env_rate(("SIGNUPS_RATE",), VENUE_RATES["signups"]),
}

# Security: strict unless DEBUG; HTTPS details are switchable for a proxy.
SESSION_COOKIE_SECURE = not DEBUG and env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0" if DEBUG else "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE_HSTS_SECONDS > 0
SECURE_HSTS_PRELOAD = SECURE_HSTS_SECONDS > 0
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
SILENCED_SYSTEM_CHECKS = env_list("SILENCED_SYSTEM_CHECKS")

# Content-Security-Policy (django-csp) and Permissions-Policy (common.permissions_policy),
# on every answer. Every script and style is a file of this site: no page holds a script
# or a style of its own, nor an on...= or style= attribute, and htmx evaluates nothing
# (templates/base.html's htmx-config). The QR codes are inline SVG; nothing is framed.
CSP_SELF, CSP_NONE = "'self'", "'none'"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [CSP_SELF],
        "script-src": [CSP_SELF],
        "style-src": [CSP_SELF],
        "img-src": [CSP_SELF],
        "font-src": [CSP_SELF],
        "connect-src": [CSP_SELF],
        "worker-src": [CSP_SELF],
        "manifest-src": [CSP_SELF],
        "object-src": [CSP_NONE],
        "base-uri": [CSP_SELF],
        "form-action": [CSP_SELF],
        "frame-ancestors": [CSP_NONE],
    }
}
# The table page keeps the screen awake during a game and copies its view link (sharing
# it, where the browser can, keeps web-share's own default: this site); no page uses any
# other of these features, but the desk's players' links page, which allows itself the
# camera to scan players' passes (tournaments.web.desk.links). Only features every
# Chromium knows are named: an unknown one costs a console warning on every page.
PERMISSIONS_UNUSED = (
    "accelerometer", "autoplay", "camera", "clipboard-read",
    "display-capture", "encrypted-media", "fullscreen", "geolocation", "gyroscope", "hid",
    "idle-detection", "magnetometer", "microphone", "midi", "payment", "picture-in-picture",
    "publickey-credentials-get", "serial", "usb", "xr-spatial-tracking",
)  # fmt: skip
PERMISSIONS_POLICY: dict[str, list[str]] = {
    "screen-wake-lock": ["self"],
    "clipboard-write": ["self"],
    **{feature: [] for feature in PERMISSIONS_UNUSED},
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
