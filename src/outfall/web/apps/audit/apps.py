from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "outfall.web.apps.audit"
    label = "audit"
    verbose_name = "Audit trail"
