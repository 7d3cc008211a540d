"""API URLs (mounted at /api/): the endpoints, /api/docs and /api/openapi.json."""

from outfall.web.apps.api.api import api

patterns, _app, _namespace = api.urls
urlpatterns = [*patterns]
app_name = _namespace
