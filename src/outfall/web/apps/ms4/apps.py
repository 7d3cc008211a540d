from django.apps import AppConfig


class Ms4Config(AppConfig):
    name = "outfall.web.apps.ms4"
    label = "ms4"
    verbose_name = "MS4 permit program"
