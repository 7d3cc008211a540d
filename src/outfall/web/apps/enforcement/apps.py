from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "outfall.web.apps.enforcement"
    label = "enforcement"
    verbose_name = "Enforcement"
