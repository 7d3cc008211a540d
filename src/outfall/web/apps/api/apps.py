from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The JSON API (django-ninja) with its OpenAPI document, and per-user API tokens."""

    name = "outfall.web.apps.api"
    label = "api"
    verbose_name = "JSON API"
