"""What the production profile needs from the environment, checked before it loads anything
(config/settings_production.py; deploy/compose.yaml and deploy/.env.example hand it over)."""

from __future__ import annotations

from collections.abc import Mapping

REQUIRED = (
    "OUTFALL_SECRET_KEY",
    "DATABASE_URL",
    "OUTFALL_ALLOWED_HOSTS",
    "OUTFALL_SITE_URL",
    "OUTFALL_PROXY_COUNT",
)


def refusals(environ: Mapping[str, str]) -> list[str]:
    """What in `environ` keeps the production profile from starting (empty when nothing)."""
    found = [f"{name} is not set" for name in REQUIRED if not environ.get(name, "").strip()]
    if environ.get("OUTFALL_DEBUG") == "1":
        found.append("OUTFALL_DEBUG=1 (debug pages show settings and code to anyone)")
    url = environ.get("DATABASE_URL", "")
    if url and not url.startswith(("postgres://", "postgresql://")):
        found.append(f"DATABASE_URL={url.split('://')[0]}://...: the profile needs PostgreSQL")
    replica = environ.get("DATABASE_REPLICA_URL", "")
    if replica and not replica.startswith(("postgres://", "postgresql://")):
        found.append("DATABASE_REPLICA_URL: a replica of the PostgreSQL store is postgres://...")
    count = environ.get("OUTFALL_PROXY_COUNT", "").strip()
    if count and not count.isdigit():
        found.append(f"OUTFALL_PROXY_COUNT={count!r}: a whole number of proxies (0 for none)")
    return found
