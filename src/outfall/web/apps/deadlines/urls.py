"""Deadlines URLs (mounted at /deadlines/)."""

from outfall.web.apps.deadlines.views import app_name, urlpatterns

__all__ = ["app_name", "urlpatterns"]
