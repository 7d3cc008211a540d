from django.apps import AppConfig


class RegulationsConfig(AppConfig):
    name = "outfall.web.apps.regulations"
    label = "regulations"
    verbose_name = "Planning Board rules and regulations"
