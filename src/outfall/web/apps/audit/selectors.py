"""Reads of the audit trail: a case's history as a timeline."""

from __future__ import annotations

from django.db.models import QuerySet

from outfall.web.apps.audit.models import AuditEvent


def audit_list_for_case(case, *, public_only: bool = False) -> QuerySet[AuditEvent]:
    qs = AuditEvent.objects.filter(case_type=case._meta.label, case_id=str(case.pk))
    if public_only:
        qs = qs.filter(public=True)
    return qs.select_related("actor").order_by("at", "id")
