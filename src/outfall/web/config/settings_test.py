"""Settings for the test suite: the real settings with test-only secrets and local e-mail.

The database comes from DATABASE_URL as in production (SQLite when unset); `make test` runs the
web tests a second time against the PostgreSQL server.
"""

import os
import tempfile

os.environ.setdefault("OUTFALL_SECRET_KEY", "test-only-secret")
os.environ.setdefault("OUTFALL_ALLOWED_HOSTS", "testserver,localhost,127.0.0.1")
os.environ.setdefault("OUTFALL_VAR_DIR", tempfile.mkdtemp(prefix="outfall-test-"))

from outfall.web.config.settings import *  # noqa: F403
from outfall.web.config.settings import STATIC_ROOT, VAR_DIR

EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MEDIA_ROOT = VAR_DIR / "media"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
WHITENOISE_AUTOREFRESH = True
# Background jobs run at once in the process (django-tasks' immediate backend), mail after the
# commit as from the queue; the outbox tests switch to the database backend and run the worker.
# OUTFALL_TEST_TASKS=database keeps the queue (a worker started by a test reads it).
if os.environ.get("OUTFALL_TEST_TASKS") != "database":
    TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
