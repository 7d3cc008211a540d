"""The audit trail: who did what, when, under which section — written in the same transaction."""

from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "outfall.web.apps.audit"
    label = "audit"
    verbose_name = "Audit trail"

    def ready(self):
        from outfall.web.apps.audit import receivers

        receivers.connect_post_migrate(self)
