from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "outfall.web.apps.core"
    label = "core"
    verbose_name = "Towns and roles"
