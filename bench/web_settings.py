"""The settings `python -m bench --only web` serves its synthetic statewide data set with: the
installation's own, plus a middleware that counts each request's queries (the `X-Bench-Queries`
answer header) and the bench's towns' parameter sets.

The bench's towns (`bench-00` ...) are parameter sets inheriting Norfolk's, written to a
temporary directory beside links to the real towns (`OUTFALL_BENCH_PARAMETERS`); the law's
loader reads them from there. Never used outside the bench.
"""

from __future__ import annotations

import os
from pathlib import Path

from outfall.law import parameters as _parameters
from outfall.web.config.settings import *  # noqa: F403
from outfall.web.config.settings import MIDDLEWARE

_root = os.environ.get("OUTFALL_BENCH_PARAMETERS")
if _root:
    _parameters.load_parameter_set.__defaults__ = (Path(_root),)
    _parameters.available_towns.__defaults__ = (Path(_root),)

MIDDLEWARE = ["bench.web_queries.QueryCount", *MIDDLEWARE]
