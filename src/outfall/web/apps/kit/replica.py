"""Reads that may be seconds behind: the read replica's, when one is configured.

The production profile adds the database alias `replica` when DATABASE_REPLICA_URL is set (a
streaming replica of the PostgreSQL store, some seconds behind it). There is no database router:
every read and write goes to the primary (`default`), so a person always reads what they have
just written, except the few reads listed here, each asking for `report_database()` itself:

- the MS4 annual report (`ms4.selectors`: the page, its figures' records, the
  `ms4_annual_report` command's JSON and CSV) — a count over the permit year that being a few
  seconds behind cannot change in any way a reader can act on, and the heaviest read there is.

Without a replica (one machine, the tests, the demo) `report_database()` is `default`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS

REPLICA = "replica"


def report_database() -> str:
    """The alias the seconds-stale report reads go to: the replica if there is one."""
    return REPLICA if REPLICA in settings.DATABASES else DEFAULT_DB_ALIAS
