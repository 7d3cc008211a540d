"""The one set of unit conversions every layer uses: plain floats, exact by definition.

`eng` kernels work on plain floats in fixed units (stated in each docstring) and convert only at
their public edge; `law` and `compliance` convert with the same constants. Nothing here needs a
unit library: each factor is exact by definition (the international foot, inch and acre, the
second) or a ratio of such factors, so writing it once as a float costs nothing to import and
gives the same bits wherever it is used.

The acre is the international acre, exactly 43,560 square feet (not the US survey acre of
43,560.17 sq ft). Rounded factors that a published method states as its own (TR-55's 645.333
cfs·h per inch·mi², the graphical method's 53.33 acre-ft per inch·mi²) stay with the method that
publishes them in `eng`.
"""

from __future__ import annotations

IN_PER_FT = 12.0
"""Inches in a foot."""
SQFT_PER_ACRE = 43_560.0
"""Square feet in an (international) acre."""
ACRES_PER_SQ_MILE = 640.0
"""Acres in a square mile."""
CF_PER_ACRE_FOOT = SQFT_PER_ACRE
"""Cubic feet in an acre-foot."""
CF_PER_ACRE_INCH = SQFT_PER_ACRE / IN_PER_FT
"""Cubic feet in an acre-inch (3,630)."""
SECONDS_PER_HOUR = 3600.0
"""Seconds in an hour."""
MINUTES_PER_HOUR = 60.0
"""Minutes in an hour."""
CFS_PER_IN_HR_SF = 1.0 / IN_PER_FT / SECONDS_PER_HOUR
"""Cubic feet per second from one inch per hour over one square foot (1/43,200)."""

__all__ = [
    "ACRES_PER_SQ_MILE",
    "CFS_PER_IN_HR_SF",
    "CF_PER_ACRE_FOOT",
    "CF_PER_ACRE_INCH",
    "IN_PER_FT",
    "MINUTES_PER_HOUR",
    "SECONDS_PER_HOUR",
    "SQFT_PER_ACRE",
]
