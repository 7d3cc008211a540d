"""Template tag for the case page's intake panel: what it shows and what this user may do."""

from __future__ import annotations

from django import template

from outfall.web.apps.kit.tags import register_panel
from outfall.web.apps.permits.selectors.intake import intake_panel, intake_steps

register = template.Library()


register_panel(register, "intake_panel_for", intake_panel)


@register.inclusion_tag("permits/intake/_stepper.html", takes_context=True)
def intake_stepper(context, application):
    """The applicant's path through intake as an ordered list of steps, each done or not, the
    page being read marked `aria-current="step"` (shown to whoever may still edit the package)."""
    request = context["request"]
    match = getattr(request, "resolver_match", None)
    current = match.url_name if match else ""
    return {"steps": intake_steps(request.user, application, current=current)}
