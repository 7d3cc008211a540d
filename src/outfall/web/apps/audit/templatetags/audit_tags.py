"""`{% record_check town %}`: on a case's history, the result of the last stored verification of
the town's audit chain (never a live check: the page stays fast), and, for the town's
administrators, a button to verify it now."""

from __future__ import annotations

from django import template

from outfall.web.apps.audit.policy import may_verify
from outfall.web.apps.audit.selectors import audit_verification_last

register = template.Library()


@register.inclusion_tag("audit/_record_check.html", takes_context=True)
def record_check(context, town):
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "town": town,
        "verification": audit_verification_last(town) if town is not None else None,
        "may_verify": may_verify(user, town),
        "here": request.get_full_path() if request is not None else "",
        "csrf_token": context.get("csrf_token"),
    }
