from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "outfall.web.apps.permits"
    label = "permits"
    verbose_name = "Stormwater management permits"
