from django.apps import AppConfig


class DemoConfig(AppConfig):
    name = "outfall.web.apps.demo"
    label = "demo"
    verbose_name = "Demo data"
