from django.apps import AppConfig


class DeadlinesConfig(AppConfig):
    """Every statutory clock of every case, its dashboard, reminders and calendar feed."""

    name = "outfall.web.apps.deadlines"
    label = "deadlines"
    verbose_name = "Deadlines"
