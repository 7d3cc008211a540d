from django.apps import AppConfig


class HomeConfig(AppConfig):
    name = "outfall.web.apps.home"
    label = "home"
    verbose_name = "Home page"
