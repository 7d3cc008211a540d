from django.apps import AppConfig


class IddeConfig(AppConfig):
    name = "outfall.web.apps.idde"
    label = "idde"
    verbose_name = "Illicit discharges"
