"""Pages for the O&M obligations that outlive the permit (§ 267-20): responsible parties,
changes of owner, amendments of the maintenance schedule, recurring tasks and their reports.
They stay open after the certificate and after the file is closed. Each step is declared once
in `PAGES`, like the construction steps, from the selectors' table of O&M steps.
"""

from __future__ import annotations

from django.http import Http404
from django.urls import path, reverse

from outfall.web.apps.kit.steps import RecordSteps, answered
from outfall.web.apps.permits.forms import om as f
from outfall.web.apps.permits.policy import require
from outfall.web.apps.permits.selectors import application_get
from outfall.web.apps.permits.selectors import om as sel
from outfall.web.apps.permits.services import om as svc
from outfall.web.apps.permits.views.cases import case_view
from outfall.web.apps.permits.views.construction import CONSTRUCTION, table_steps

OM = RecordSteps(
    get=application_get,
    require=require,
    url=lambda a: reverse("permits:om", args=[a.pk]),
    subject=CONSTRUCTION.subject,
    back_label=CONSTRUCTION.back_label,
    describe=CONSTRUCTION.describe,
    blockers=lambda a, step: sel.step_blockers(a, step.key, steps=sel.OM_STEPS),
)
page = table_steps(sel.OM_STEPS)


om_page = case_view("permits/om/page.html", lambda user, a: {"om": sel.om_record(user, a)})


def _ownership_change(application, *, actor, old_party, **change):
    """The change is recorded on the party that hands over (chosen on the form)."""
    return svc.ownership_change_record(old_party, actor=actor, **change)


def _party_names(application) -> dict:
    parties = application.responsible_parties.order_by("name").values_list("name", flat=True)
    return {"names": list(dict.fromkeys(parties))}


def _obligation(application, item: int):
    try:
        return sel.om_obligation_get(application, item)
    except application.om_obligations.model.DoesNotExist:
        raise Http404("No such O&M task") from None


PAGES = (
    page(
        "party_add",
        "om_party_add",
        "parties/new/",
        f.PartyForm,
        svc.responsible_party_add,
        "Responsible party added.",
    ),
    page(
        "ownership_change",
        "om_ownership_change",
        "ownership/",
        f.OwnershipChangeForm,
        _ownership_change,
        "Change of responsibility recorded.",
        form_kwargs=lambda a: {"parties": a.responsible_parties.filter(until__isnull=True)},
    ),
    page(
        "amendment_add",
        "om_amendment_add",
        "amendments/new/",
        f.AmendmentForm,
        svc.om_amendment_record,
        "Amendment recorded.",
        form_kwargs=_party_names,
    ),
    page(
        "obligation_add",
        "om_obligation_add",
        "obligations/new/",
        f.ObligationForm,
        svc.om_obligation_add,
        "Recurring task added.",
    ),
    page(
        "report_add",
        "om_report_add",
        "obligations/<int:item>/report/",
        f.ReportForm,
        svc.om_report_submit,
        "Report received; the next due date has moved forward.",
        target=_obligation,
        keywords=answered("satisfactory"),
    ),
)

P = "<int:pk>/om/"
urlpatterns = [path(P, om_page, name="om"), *OM.urls(P, PAGES)]
