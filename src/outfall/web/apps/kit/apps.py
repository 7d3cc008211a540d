from django.apps import AppConfig


class KitConfig(AppConfig):
    name = "outfall.web.apps.kit"
    label = "kit"
    verbose_name = "Shared web kit"
