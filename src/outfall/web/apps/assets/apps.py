from django.apps import AppConfig


class AssetsConfig(AppConfig):
    name = "outfall.web.apps.assets"
    label = "assets"
    verbose_name = "Storm drain system"
