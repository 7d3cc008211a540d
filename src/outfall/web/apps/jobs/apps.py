from django.apps import AppConfig


class JobsConfig(AppConfig):
    name = "outfall.web.apps.jobs"
    label = "jobs"
    verbose_name = "Background jobs"
