"""Pages for releases reported under § 267-9: the list with any late notification flagged, the
intake, the record with every clock (raw and moved date, section, explanation) beside what was
done, the notifications form, and the containment and closing steps (`lifecycle.spill`; the
intake and the steps are declared in `steps.SPILL`).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path
from django.utils import timezone

from outfall.compliance.lifecycle.spill import NOTICE_WORDS, STATE_LABELS, available, spill_state
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.idde.policy import can, require
from outfall.web.apps.idde.selectors import spills as sel
from outfall.web.apps.idde.views.steps import SPILL


@login_required
def spill_list(request):
    require(request.user, "spill.manage", request.town)
    now = timezone.now()
    page = page_of(request, sel.spill_list_visible_to(request.user, request.town))
    rows = [{"spill": s, "flags": sel.spill_late_flags(s, now=now)} for s in page]
    return render(request, "idde/spills/list.html", {"rows": rows, "page": page})


def _shown(user, spill) -> dict:
    """The spill's record: every clock beside what was done, and any that was missed."""
    rows = sel.spill_clock_rows(spill)
    state = spill_state(spill.contained_on, spill.closed_on)
    return {
        "spill": spill,
        "rows": rows,
        "flags": [r for r in rows if r.status in {"late", "overdue"}],
        "discovered_at": timezone.localtime(spill.discovered_at),
        "state_label": STATE_LABELS[state],
        "steps": available(state),
        "may_manage": can(user, "spill.manage", spill.town),
        "never_given": [NOTICE_WORDS.get(k, k) for k in spill.notices_never_given or ()],
    }


spill_detail = SPILL.record.view("idde/spills/detail.html", _shown)

P = "spills/"
urlpatterns = [
    path(P, spill_list, name="spill_list"),
    path(P + "<int:pk>/", spill_detail, name="spill_detail"),
    *SPILL.urls(P),
]
