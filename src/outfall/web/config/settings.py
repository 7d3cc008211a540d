"""Django settings for outfall. Secrets and deployment choices come from the environment.

OUTFALL_SECRET_KEY   required when OUTFALL_DEBUG is off
OUTFALL_DEBUG        "1" for development and the demo
DATABASE_URL         e.g. postgres://user@127.0.0.1:5432/outfall (default: SQLite in var/)
OUTFALL_ALLOWED_HOSTS comma-separated
EMAIL_URL-style settings: OUTFALL_EMAIL_BACKEND, OUTFALL_EMAIL_HOST, OUTFALL_EMAIL_PORT,
  OUTFALL_EMAIL_HOST_USER, OUTFALL_EMAIL_HOST_PASSWORD, OUTFALL_EMAIL_USE_TLS, OUTFALL_FROM_EMAIL
OUTFALL_VAR_DIR      where the SQLite file, uploads and generated files live (default ./var)
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured

WEB_DIR = Path(__file__).resolve().parents[1]
REPO_DIR = WEB_DIR.parents[2]
VAR_DIR = Path(os.environ.get("OUTFALL_VAR_DIR", REPO_DIR / "var")).resolve()

DEBUG = os.environ.get("OUTFALL_DEBUG", "") == "1"
SECRET_KEY = os.environ.get("OUTFALL_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "OUTFALL_SECRET_KEY is not set (set OUTFALL_DEBUG=1 only for development)"
        )
    SECRET_KEY = "development-only-not-secret"

ALLOWED_HOSTS = [h for h in os.environ.get("OUTFALL_ALLOWED_HOSTS", "").split(",") if h] or (
    ["localhost", "127.0.0.1", "testserver"] if DEBUG else []
)

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "axes",
    "outfall.web.apps.core",
    "outfall.web.apps.audit",
    "outfall.web.apps.jobs",
    "outfall.web.apps.kit",
    "outfall.web.apps.regulations",
    "outfall.web.apps.permits",
    "outfall.web.apps.assets",
    "outfall.web.apps.idde",
    "outfall.web.apps.enforcement",
    "outfall.web.apps.ms4",
    "outfall.web.apps.deadlines",
    "outfall.web.apps.api",
    "outfall.web.apps.home",
    "outfall.web.apps.demo",
    "ninja",
    # After outfall.web.apps.jobs, whose `db_worker` (the library's, which first requeues the
    # jobs of a killed worker) takes the command's name.
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "outfall.web.apps.core.middleware.NulInputMiddleware",
    "outfall.web.apps.core.middleware.LockContentionMiddleware",
    "outfall.web.apps.core.middleware.TownMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes): after OUTFALL_LOGIN_FAILURE_LIMIT wrong passwords for one
# username from one client address, that pair is locked out for OUTFALL_LOGIN_COOLOFF_MINUTES;
# a successful login resets the count. Behind a reverse proxy set OUTFALL_PROXY_COUNT to the
# number of proxies so the client address is read from X-Forwarded-For, not the proxy's own.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("OUTFALL_LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = dt.timedelta(minutes=int(os.environ.get("OUTFALL_LOGIN_COOLOFF_MINUTES", "30")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "core/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "outfall.web.apps.core.client_ip.client_ip"

ROOT_URLCONF = "outfall.web.config.urls"
WSGI_APPLICATION = "outfall.web.config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [WEB_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "csp.context_processors.nonce",
                "outfall.web.apps.core.context.outfall_context",
            ],
            # The legal paper's dates, times and signature blocks, in every template and in a
            # town's own document template (which may load nothing).
            "builtins": ["outfall.web.apps.kit.templatetags.legal_style"],
        },
    }
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{VAR_DIR / 'outfall.sqlite3'}", conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Writers take SQLite's lock when their transaction begins (IMMEDIATE) and wait for it up to
    # the timeout, instead of failing "database is locked" when a read turns into a write.
    DATABASES["default"].setdefault("OPTIONS", {}).update(timeout=20, transaction_mode="IMMEDIATE")
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "core:login"
LOGIN_REDIRECT_URL = "home:home"
LOGOUT_REDIRECT_URL = "home:home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "America/New_York"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [WEB_DIR / "static"]
# Front-end packages are installed by npm (package.json), never copied into the repository.
for _prefix, _dist in (("htmx", "htmx.org/dist"), ("leaflet", "leaflet/dist")):
    if (REPO_DIR / "node_modules" / _dist).exists():
        STATICFILES_DIRS.append((_prefix, REPO_DIR / "node_modules" / _dist))
MEDIA_ROOT = VAR_DIR / "media"
# Stored files have no public URL: no route answers MEDIA_URL (in DEBUG neither), and a web
# server in front must not serve MEDIA_ROOT. Each file is read through a view that checks the
# reader's permission (outfall.web.apps.core.files); never link `FieldFile.url`. (MEDIA_URL
# stays a string: Django's live test server wraps it in a handler that expects one.)
MEDIA_URL = "/media/"

UPLOAD_MAX_BYTES = int(os.environ.get("OUTFALL_UPLOAD_MAX_BYTES", str(25 * 1024 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = UPLOAD_MAX_BYTES
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# Bounds of what an upload may hold: the pages of a PDF (which must open with pypdf), and the
# features, positions and nesting depth of one storm-drain inventory import (GeoJSON).
OUTFALL_PDF_MAX_PAGES = int(os.environ.get("OUTFALL_PDF_MAX_PAGES", "2000"))
OUTFALL_GEOJSON_MAX_FEATURES = int(os.environ.get("OUTFALL_GEOJSON_MAX_FEATURES", "50000"))
OUTFALL_GEOJSON_MAX_POSITIONS = int(os.environ.get("OUTFALL_GEOJSON_MAX_POSITIONS", "1000000"))
OUTFALL_GEOJSON_MAX_DEPTH = int(os.environ.get("OUTFALL_GEOJSON_MAX_DEPTH", "20"))

EMAIL_BACKEND = os.environ.get(
    "OUTFALL_EMAIL_BACKEND",
    "django.core.mail.backends.filebased.EmailBackend"
    if DEBUG
    else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_FILE_PATH = VAR_DIR / "mail"
EMAIL_HOST = os.environ.get("OUTFALL_EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("OUTFALL_EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("OUTFALL_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("OUTFALL_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("OUTFALL_EMAIL_USE_TLS", "") == "1"
# A mail server that accepts and never answers must not hold a request or a worker for long.
EMAIL_TIMEOUT = int(os.environ.get("OUTFALL_EMAIL_TIMEOUT", "10"))
# Map tile servers (OpenStreetMap's tile policy) need to know the requesting site: send the origin
# to other sites, never the path, and the full address within this site.
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
DEFAULT_FROM_EMAIL = os.environ.get("OUTFALL_FROM_EMAIL", "outfall@localhost")

# Background work (issue 10): django-tasks, the backport of Django 6's tasks API, with its
# database backend (django-tasks-db): a job is a row written in the same transaction as the record
# that asked for it (the outbox), run by `manage.py db_worker`. A job that fails is tried again
# after OUTFALL_JOB_BACKOFF_SECONDS, doubling each time, up to OUTFALL_JOB_MAX_ATTEMPTS tries in
# all, then shown to the town's administrators as failed. A job still marked running when its
# worker died is run again when a worker starts (on SQLite, once it has run for
# OUTFALL_JOB_ABANDONED_MINUTES; on PostgreSQL, as soon as its worker's connection is gone).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
OUTFALL_JOB_MAX_ATTEMPTS = int(os.environ.get("OUTFALL_JOB_MAX_ATTEMPTS", "5"))
OUTFALL_JOB_BACKOFF_SECONDS = float(os.environ.get("OUTFALL_JOB_BACKOFF_SECONDS", "30"))
OUTFALL_JOB_ABANDONED_MINUTES = float(os.environ.get("OUTFALL_JOB_ABANDONED_MINUTES", "15"))

CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "outfall_cache",
    }
}
RATELIMIT_USE_CACHE = "default"
# Every per-address limit counts by the one client address (see core/client_ip.py).
OUTFALL_PROXY_COUNT = int(os.environ.get("OUTFALL_PROXY_COUNT", "0"))
RATELIMIT_IP_META_KEY = "outfall.web.apps.core.client_ip.client_ip"

SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = False
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SESSION_COOKIE_SECURE = os.environ.get("OUTFALL_INSECURE_COOKIES", "") != "1"
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    # Served over HTTPS in production: plain HTTP is redirected and browsers are told to keep
    # to HTTPS (HSTS, a year by default; 0 turns it off while a site is first moved to HTTPS).
    SECURE_SSL_REDIRECT = (
        SESSION_COOKIE_SECURE and os.environ.get("OUTFALL_SSL_REDIRECT", "1") == "1"
    )
    SECURE_HSTS_SECONDS = (
        int(os.environ.get("OUTFALL_HSTS_SECONDS", "31536000")) if SESSION_COOKIE_SECURE else 0
    )
    # The site's own subdomains only (e.g. *.permits.example.org), so safe to include.
    SECURE_HSTS_INCLUDE_SUBDOMAINS = os.environ.get("OUTFALL_HSTS_INCLUDE_SUBDOMAINS", "1") == "1"
    SECURE_HSTS_PRELOAD = os.environ.get("OUTFALL_HSTS_PRELOAD", "") == "1"
# The browsers' HSTS preload list is for a whole registered domain: the town's decision
# (OUTFALL_HSTS_PRELOAD=1), not the application's, so its deploy warning is not raised.
SILENCED_SYSTEM_CHECKS = ["security.W021"]
# Behind a reverse proxy that terminates TLS, it tells the app the request came over HTTPS.
if int(os.environ.get("OUTFALL_PROXY_COUNT", "0")) > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
CSRF_TRUSTED_ORIGINS = [
    o for o in os.environ.get("OUTFALL_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

OUTFALL_DEFAULT_TOWN = os.environ.get("OUTFALL_DEFAULT_TOWN", "norfolk")
OUTFALL_WARNING_DAYS = int(os.environ.get("OUTFALL_WARNING_DAYS", "10"))
# Map tiles for the permit-site map (any XYZ tile server); the sites are also listed as a table.
OUTFALL_MAP_TILES = os.environ.get(
    "OUTFALL_MAP_TILES", "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
)
OUTFALL_MAP_ATTRIBUTION = os.environ.get("OUTFALL_MAP_ATTRIBUTION", "© OpenStreetMap contributors")


def map_tile_origin(tiles: str) -> str:
    """The scheme and host an XYZ tile address loads from, for the policy below: a `{s}` (or any
    placeholder) in the first label of the host becomes the wildcard `*`; a tile address on this
    site ("/tiles/{z}/{x}/{y}.png") needs none ('self' covers it)."""
    scheme, sep, rest = tiles.partition("://")
    if not sep:
        return ""
    host = rest.split("/", 1)[0]
    first, dot, others = host.partition(".")
    if "{" in others or ("{" in first and not dot) or scheme not in ("http", "https"):
        raise ImproperlyConfigured(
            f"OUTFALL_MAP_TILES={tiles!r}: the tile server's host must be fixed, with a placeholder "
            "only as its first label (e.g. https://{s}.tile.example.org/{z}/{x}/{y}.png)"
        )
    return f"{scheme}://{'*' if '{' in first else first}{dot}{others}"


# Content-Security-Policy (django-csp): scripts and styles from this site only, plus the inline
# map scripts carrying the request's nonce ({{ CSP_NONCE }}); images from this site, data:
# (Leaflet's and the API docs' icons) and the one map tile server; no plugins, no <base>, no
# framing, forms post only here. Style attributes are not allowed: none are written (htmx's
# own indicator <style> is switched off in base.html and its rules are in outfall.css).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:", *filter(None, [map_tile_origin(OUTFALL_MAP_TILES)])],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
# Requests per client address to the public API lists (django-ratelimit syntax).
OUTFALL_PUBLIC_API_RATE = os.environ.get("OUTFALL_PUBLIC_API_RATE", "60/m")
# API tokens: how many days a new token lives unless its owner chooses otherwise, and the most
# an owner may choose; an expired token is refused (401, saying so).
OUTFALL_API_TOKEN_DAYS = int(os.environ.get("OUTFALL_API_TOKEN_DAYS", "90"))
OUTFALL_API_TOKEN_MAX_DAYS = int(os.environ.get("OUTFALL_API_TOKEN_MAX_DAYS", "365"))
# Where links in e-mails point, e.g. https://permits.norfolk.ma.us: every e-mail's links are
# absolute (kit.mail.site_url). The default is the demo's own address on this machine; a town
# sets its public address.
OUTFALL_SITE_URL = os.environ.get("OUTFALL_SITE_URL", "") or "http://127.0.0.1:8000"
# Public illicit discharge reports (idde): reports accepted per address, the least time a person
# takes to fill the form in, the photo size limit, how far from the town's map centre a pin may
# fall (a town may override it), and the review interval of an open investigation.
OUTFALL_REPORT_RATE = os.environ.get("OUTFALL_REPORT_RATE", "10/h")
OUTFALL_REPORT_MIN_FILL_SECONDS = float(os.environ.get("OUTFALL_REPORT_MIN_FILL_SECONDS", "3"))
OUTFALL_REPORT_PHOTO_MAX_BYTES = int(
    os.environ.get("OUTFALL_REPORT_PHOTO_MAX_BYTES", str(10 * 1024 * 1024))
)
OUTFALL_REPORT_BOUNDS_MARGIN_DEG = float(os.environ.get("OUTFALL_REPORT_BOUNDS_MARGIN_DEG", "0.1"))
OUTFALL_INVESTIGATION_REVIEW_DAYS = int(os.environ.get("OUTFALL_INVESTIGATION_REVIEW_DAYS", "30"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": "WARNING"},
}
