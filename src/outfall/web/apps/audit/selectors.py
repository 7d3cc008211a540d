"""Reads of the audit trail: a case's history as a timeline."""

from __future__ import annotations

from django.db.models import QuerySet

from outfall.web.apps.audit.chain import ChainCheck, chain_verify
from outfall.web.apps.audit.models import AuditEvent


def audit_list_for_case(case, *, public_only: bool = False) -> QuerySet[AuditEvent]:
    qs = AuditEvent.objects.filter(case_type=case._meta.label, case_id=str(case.pk))
    if public_only:
        qs = qs.filter(public=True)
    return qs.select_related("actor").order_by("at", "id")


def audit_chain_verify(town) -> ChainCheck:
    """The town's audit chain checked row by row (`audit.chain`)."""
    rows = AuditEvent.objects.filter(town=town).order_by("seq", "id").iterator()
    return chain_verify(town.name, rows)
