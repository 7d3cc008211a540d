"""Settings for the whole suite.

Hypothesis's per-example deadline is a wall-clock assertion, which the project's tests never
make (DESIGN.md, benchmarks apart from tests): on a loaded 2-core machine a correct example can
take longer than 200 ms. Every property test runs without it.
"""

from hypothesis import settings

settings.register_profile("outfall", deadline=None)
settings.load_profile("outfall")
