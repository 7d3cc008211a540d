"""Pages for releases reported under § 267-9: the list with any late notification flagged, the
intake, the record with every clock (raw and moved date, section, explanation) beside what was
done, the notifications form, and the containment and closing steps (`lifecycle.spill`).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import path, reverse
from django.utils import timezone

from outfall.compliance.lifecycle.spill import NOTICE_WORDS, STATE_LABELS, available, spill_state
from outfall.web.apps.idde.forms import spills as f
from outfall.web.apps.idde.policy import can, require
from outfall.web.apps.idde.selectors import spills as sel
from outfall.web.apps.idde.services import spills as svc
from outfall.web.apps.idde.views.discharge_permits import form_page
from outfall.web.apps.kit.forms import as_bool
from outfall.web.apps.kit.steps import RecordSteps


def _detail_url(spill) -> str:
    return reverse("idde:spill_detail", args=[spill.pk])


@login_required
def spill_list(request):
    require(request.user, "spill.manage", request.town)
    now = timezone.now()
    rows = [
        {"spill": s, "flags": sel.spill_late_flags(s, now=now)}
        for s in sel.spill_list_visible_to(request.user, request.town)
    ]
    return render(request, "idde/spills/list.html", {"rows": rows})


@login_required
def spill_new(request):
    def perform(d):
        spill = svc.spill_report(
            town=request.town,
            facility=d["facility"],
            facility_address=d["facility_address"],
            commercial_or_industrial=as_bool(d["commercial_or_industrial"]),
            material=d["material"],
            discovered_at=d["discovered_at"],
            description=d["description"],
            actor=request.user,
        )
        return f"Spill {spill.number} recorded; its clocks are running.", _detail_url(spill)

    return form_page(
        request,
        action="spill.manage",
        town=request.town,
        form_class=f.SpillForm,
        title="Record a spill",
        citation=svc.SECTION,
        back=reverse("idde:spill_list"),
        perform=perform,
    )


@login_required
def spill_detail(request, pk: int):
    spill = sel.spill_get(request.user, pk)
    require(request.user, "spill.manage", spill.town)
    rows = sel.spill_clock_rows(spill)
    return render(
        request,
        "idde/spills/detail.html",
        {
            "spill": spill,
            "rows": rows,
            "flags": [r for r in rows if r.status in {"late", "overdue"}],
            "discovered_at": timezone.localtime(spill.discovered_at),
            "state_label": STATE_LABELS[spill_state(spill.contained_on, spill.closed_on)],
            "steps": available(spill_state(spill.contained_on, spill.closed_on)),
            "may_manage": can(request.user, "spill.manage", spill.town),
            "never_given": [NOTICE_WORDS.get(k, k) for k in spill.notices_never_given or ()],
        },
    )


SPILL = RecordSteps(
    get=sel.spill_get,
    require=lambda user, action, spill: require(user, action, spill.town),
    url=_detail_url,
    subject=lambda s: f"{s.number} — {s.facility} ({s.get_material_display()})",
    action="spill.manage",
    section=svc.SECTION,
)
NOTIFICATIONS = ("fire_police_notified_at", "department_notified_at", "written_confirmation_on")


@login_required
def spill_notifications(request, pk: int):
    def perform(spill, d, *_):
        svc.spill_notifications_record(spill, actor=request.user, **d)
        return "Notifications recorded."

    return SPILL.step(
        request,
        pk,
        form_class=f.NotificationsForm,
        title="Record the notifications",
        perform=perform,
        initial=lambda s: {k: getattr(s, k) for k in NOTIFICATIONS if getattr(s, k)},
    )


@login_required
def spill_contain(request, pk: int):
    def perform(spill, d, *_):
        svc.spill_containment_record(
            spill, contained_on=d["contained_on"], note=d["note"], actor=request.user
        )
        return "Containment and clean-up recorded."

    return SPILL.step(
        request,
        pk,
        form_class=f.ContainmentForm,
        title="Record the containment and clean-up",
        perform=perform,
    )


def _missing_notices(spill) -> list[tuple[str, str]]:
    missing = svc.notices_missing(svc.spill_facts(spill))
    return [(k, NOTICE_WORDS[k].capitalize()) for k in missing]


@login_required
def spill_close(request, pk: int):
    def perform(spill, d, *_):
        svc.spill_close(
            spill,
            closed_on=d["closed_on"],
            prevention_steps=d["prevention_steps"],
            never_given=d.get("never_given") or [],
            note=d["note"],
            actor=request.user,
        )
        return f"Spill {spill.number} closed."

    return SPILL.step(
        request,
        pk,
        form_class=f.CloseForm,
        form_kwargs=lambda s: {"missing": _missing_notices(s)},
        title="Close the spill record",
        perform=perform,
        initial=lambda s: {"prevention_steps": s.prevention_steps} if s.prevention_steps else None,
    )


P = "spills/"
urlpatterns = [
    path(P, spill_list, name="spill_list"),
    path(P + "new/", spill_new, name="spill_new"),
    path(P + "<int:pk>/", spill_detail, name="spill_detail"),
    path(P + "<int:pk>/notifications/", spill_notifications, name="spill_notifications"),
    path(P + "<int:pk>/contain/", spill_contain, name="spill_contain"),
    path(P + "<int:pk>/close/", spill_close, name="spill_close"),
]
