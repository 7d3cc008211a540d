"""The demo's test modules share one way to load it (`tests.web.demo.loaded`)."""

from tests.web.demo.loaded import demo  # noqa: F401
