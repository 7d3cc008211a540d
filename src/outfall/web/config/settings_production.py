"""The production profile: `settings.py` for app servers that scale out behind a proxy.

DJANGO_SETTINGS_MODULE=outfall.web.config.settings_production (deploy/compose.yaml sets it).
Every app server is stateless: the records, the sessions, the cache (rate limits and login
lockouts counted across servers) and the job queue are in PostgreSQL, the one store; stored files
are in a private bucket (or MEDIA_ROOT on one shared volume when no bucket is named). Any number
of app servers and `manage.py db_worker` processes run against them.

Required (the profile refuses to start, naming each one missing):
  OUTFALL_SECRET_KEY     the signing key
  DATABASE_URL           postgres://... (SQLite is for one machine, not this profile)
  OUTFALL_ALLOWED_HOSTS  the site's host names, comma-separated
  OUTFALL_SITE_URL       the public address links in e-mail point at
  OUTFALL_PROXY_COUNT    how many reverse proxies stand in front of the app (0 for none): the
                         client address of every rate limit and login lockout is read from
                         X-Forwarded-For that many entries from the right (core/client_ip.py)

Optional:
  OUTFALL_USE_X_FORWARDED_HOST  "1" (the default behind a proxy): the site's host is the one the
                                proxy received; "0" keeps the Host header the proxy sends
  DATABASE_REPLICA_URL   a read replica: `DATABASES["replica"]`, read only by the reports that
                         may be seconds behind (kit.replica says which)
  OUTFALL_MEDIA_BUCKET   stored files in this private S3 bucket (config/object_storage.py)
"""

from __future__ import annotations

import os

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from outfall.web.config.production_environment import refusals

_refused = refusals(os.environ)
if _refused:
    raise ImproperlyConfigured(
        "the production profile (outfall.web.config.settings_production) will not start: "
        + "; ".join(_refused)
        + " (see .env.example in deploy/)"
    )

from outfall.web.config.settings import *  # noqa: E402, F403
from outfall.web.config.settings import DATABASES, OUTFALL_PROXY_COUNT  # noqa: E402

# --- Behind the proxy ---------------------------------------------------------------------------
# The proxy terminates TLS and says so in X-Forwarded-Proto (settings.py sets
# SECURE_PROXY_SSL_HEADER when OUTFALL_PROXY_COUNT > 0); the proxy must overwrite that header and
# X-Forwarded-Host, never pass on what a client sent (deploy/nginx.conf does).
USE_X_FORWARDED_HOST = OUTFALL_PROXY_COUNT > 0 and (
    os.environ.get("OUTFALL_USE_X_FORWARDED_HOST", "1") == "1"
)

# --- PostgreSQL, and the read replica -----------------------------------------------------------
# Connections are kept between requests and checked before reuse (a failover or a restarted
# server then costs one retry, not an error page).
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if os.environ.get("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        os.environ["DATABASE_REPLICA_URL"], conn_max_age=60, conn_health_checks=True
    )
    # Under test the replica is the primary itself (no second schema to migrate and fill).
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}

# --- Stored files --------------------------------------------------------------------------------
if os.environ.get("OUTFALL_MEDIA_BUCKET"):
    from outfall.web.config.object_storage import s3_media_storage

    STORAGES = {
        "default": s3_media_storage(os.environ),
        # Static files are part of the release, not state: each app server serves its own
        # copy (collected into the image) through WhiteNoise, so the site's own origin stays
        # the only source the Content-Security-Policy allows.
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }

# Logs go to standard error, one line per record, for the container's log collector.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
    "root": {"handlers": ["console"], "level": os.environ.get("OUTFALL_LOG_LEVEL", "WARNING")},
}
