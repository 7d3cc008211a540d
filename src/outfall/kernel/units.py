"""The one unit registry (pint) and the conversions engineers use at the edges.

Kernels in `eng` work on plain floats in fixed units; convert here, at the public edge only.
"""

from __future__ import annotations

from functools import lru_cache

import pint

ureg = pint.UnitRegistry(on_redefinition="ignore")
# The engineer's acre is the international acre, exactly 43,560 sq ft (pint's default is the
# US survey acre, 43,560.17 sq ft).
ureg.define("acre = 43560 * foot ** 2 = ac")
ureg.define("acre_foot = acre * foot = af")
ureg.define("cfs = foot ** 3 / second")
ureg.define("csm = cfs / mile ** 2")
Q_ = ureg.Quantity

SQFT_PER_ACRE = 43_560.0
ACRES_PER_SQ_MILE = 640.0
CF_PER_ACRE_FOOT = 43_560.0
CF_PER_ACRE_INCH = 43_560.0 / 12.0


@lru_cache(maxsize=128)
def _factor(src: str, dst: str) -> float:
    return float(Q_(1.0, src).to(dst).magnitude)


def convert(value: float, src: str, dst: str) -> float:
    """Convert a plain float from unit `src` to unit `dst` (pint unit names)."""
    if src == dst:
        return float(value)
    return float(value) * _factor(src, dst)
