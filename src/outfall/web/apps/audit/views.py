"""The audit record's one page action: an administrator verifies their town's chain on demand."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from outfall.web.apps.audit.models import AuditVerification
from outfall.web.apps.audit.policy import may_verify
from outfall.web.apps.audit.services import audit_verification_run
from outfall.web.apps.core.models import Town


@login_required
@require_POST
def verify_on_demand(request):
    """Verify the town's chain now, store and audit the result, and go back to the page."""
    town = get_object_or_404(Town, slug=request.POST.get("town", ""))
    if not may_verify(request.user, town):
        raise PermissionDenied("Only the town's administrators verify its record on demand.")
    result = audit_verification_run(town, how=AuditVerification.How.ON_DEMAND, actor=request.user)
    if result.ok:
        messages.success(request, f"{town.name}'s record verified: intact ({result.rows} rows).")
    else:
        messages.error(request, f"{town.name}'s record does not verify: {result.message}")
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "home:home"
    return redirect(target)
