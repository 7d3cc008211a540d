"""The Board's regulations pages (§ 267-17B): the list and each version's page for the clerk and
the Board, the step pages declared once in `STEPS` (draft, schedule the hearing, record the
advertisement, the vote, adoption) through the kit's step controller, the hearing notice PDF,
and the public list of the regulations in force, which needs no login; the table figures a
reviewer confirmed against their source, and the page that confirms one (§ 267-19B(3))."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from outfall.compliance.lifecycle.regulation import REGULATION_MACHINE
from outfall.compliance.provenance import SECTION as DATA_SECTION
from outfall.compliance.provenance import WHO_MAY_CONFIRM, confirmable_values
from outfall.law.s267_17_administration import REGULATIONS
from outfall.web.apps.audit.selectors import audit_list_for_case
from outfall.web.apps.core.pages import page_of
from outfall.web.apps.kit.steps import NewRecords, RecordSteps, Step, step_page
from outfall.web.apps.regulations import forms as f
from outfall.web.apps.regulations import policy
from outfall.web.apps.regulations import services as svc
from outfall.web.apps.regulations.clocks import clock_list_for
from outfall.web.apps.regulations.forms import schedule_text
from outfall.web.apps.regulations.selectors import (
    adopted_list,
    confirmation_list,
    confirmation_list_visible_to,
    regulation_facts,
    regulation_get,
    regulation_list_visible_to,
    regulations_in_force,
    setting_label,
)


def _url(reg) -> str:
    return reverse("regulations:detail", args=[reg.pk])


REGULATION = RecordSteps(
    get=regulation_get,
    require=policy.require,
    url=_url,
    subject=lambda r: f"{r.number} — {r.title}",
    back_label=lambda r: f"Back to {r.number}",
    action="regulation.view",
    section=REGULATIONS,
    blockers=lambda r, step: _not_now(r, step),
)


def _in_town(user, action: str, town) -> None:
    """The policy asked of a page that records a new regulation: the action, in the town."""
    policy.require(user, action, town=town)


NEW = NewRecords(require=_in_town, url=_url, back="regulations:list", section=REGULATIONS)

DRAFT = Step(
    "new",
    "new/",
    f.DraftForm,
    svc.regulation_draft,
    lambda town, reg: f"Draft {reg.number} saved.",
    title="Draft a regulation",
    action="regulation.draft",
    form_kwargs=lambda town: {"adopted": adopted_list(town)},
)


def _settings_shown(reg) -> list[dict]:
    return [
        {
            "label": setting_label(s["name"]),
            "value": s["value"],
            "text": schedule_text(s["value"]) if isinstance(s["value"], list) else s["value"],
        }
        for s in reg.settings
    ]


STEPS = (
    Step(
        "hearing",
        "hearing/",
        f.HearingForm,
        svc.hearing_schedule,
        "Hearing scheduled; its legal notice is filed with the regulation.",
        title="Schedule the public hearing",
        action="regulation.hearing",
        initial=lambda r: {"location": r.hearing_location or r.town.hearing_location},
    ),
    Step(
        "advertisement",
        "advertisement/",
        f.AdvertisementForm,
        svc.advertisement_record,
        "Newspaper advertisement recorded.",
        title="Record the newspaper advertisement",
        action="regulation.hearing",
        notes=lambda r, _: [
            f"{c.label}: by {c.due:%B} {c.due.day}, {c.due.year} ({c.explanation})."
            for c in clock_list_for(r, today=timezone.localdate())
        ],
    ),
    Step(
        "vote",
        "vote/",
        f.VoteForm,
        svc.vote_record,
        lambda r, result: (
            "Vote recorded: "
            + (
                "it carried; adopt it with its effective date."
                if result.state == "voted"
                else "it did not carry; the draft is not adopted."
            )
        ),
        title="Record the Board's vote",
        action="regulation.vote",
    ),
    Step(
        "adopt",
        "adopt/",
        f.AdoptForm,
        svc.regulation_adopt,
        lambda r, result: (
            f"{result.number} adopted, in force from {result.effective_on:%B} "
            f"{result.effective_on.day}, {result.effective_on.year}."
        ),
        title="Adopt with its effective date",
        action="regulation.adopt",
    ),
)

STEP_TRANSITIONS = {
    "hearing": ("schedule_hearing",),
    "advertisement": ("record_advertisement",),
    "vote": ("vote_carried", "vote_failed"),
    "adopt": ("adopt",),
}


def _open_now(reg, step: Step) -> bool:
    """Whether the lifecycle offers `step` from the version's state (the vote only once the
    hearing's day has come: the Board votes after it)."""
    offered = {t.name for t in REGULATION_MACHINE.available(reg.state)}
    if not offered & set(STEP_TRANSITIONS[step.name]):
        return False
    if step.name == "vote":
        today = timezone.localdate()
        facts = regulation_facts(reg, voted_on=today, carried=True)
        return not REGULATION_MACHINE.blockers("vote_carried", reg.state, facts)
    return True


def _not_now(reg, step: Step) -> list:
    """What stands in the way of a step not open now, in the machine's words (the states it is
    taken from, or the hearing still to come)."""
    if _open_now(reg, step):
        return []
    facts = regulation_facts(reg, voted_on=timezone.localdate(), carried=True)
    return REGULATION_MACHINE.blockers(STEP_TRANSITIONS[step.name][0], reg.state, facts)


def _steps_now(user, reg) -> list[Step]:
    """The steps the lifecycle offers from the version's state that `user` may take."""
    return [s for s in STEPS if _open_now(reg, s) and policy.can(user, s.action, reg)]


def _detail(user, reg) -> dict:
    return {
        "reg": reg,
        "settings": _settings_shown(reg),
        "steps": _steps_now(user, reg),
        "clocks": clock_list_for(reg, today=timezone.localdate()),
        "successors": list(reg.superseded_by.all()),
        "history": audit_list_for_case(reg),
    }


detail = REGULATION.view("regulations/detail.html", _detail, get_only=True)
notice_pdf = REGULATION.pdf(
    lambda r: r.notice,
    lambda r: f"{r.number}-hearing-notice.pdf",
    missing="No hearing notice is on file yet",
)


@login_required
@require_GET
def regulation_list(request):
    """The town's regulations, drafts and adopted, newest first, for the clerk and the Board."""
    policy.require(request.user, "regulation.view", town=request.town)
    page = page_of(request, regulation_list_visible_to(request.user, request.town))
    return render(
        request,
        "regulations/list.html",
        {
            "rows": page,
            "page": page,
            "may_draft": policy.can(request.user, "regulation.draft", town=request.town),
        },
    )


def _confirmable(town) -> list:
    """The figures a reviewer may confirm, the unverified first, each with the town's latest
    confirmation (if any)."""
    latest = {}
    for c in confirmation_list(town):
        latest.setdefault(c.figure, c)
    figures = sorted(confirmable_values().values(), key=lambda f: not f.unverified)
    return [{"figure": f, "confirmed": latest.get(f.ref)} for f in figures]


@login_required
@require_GET
def data_list(request):
    """The table figures behind the site reviews a reviewer may confirm against their source, and
    the town's confirmations, newest first (§ 267-19B(3))."""
    policy.require(request.user, "data.view", town=request.town)
    rows = confirmation_list_visible_to(request.user, request.town)
    return render(
        request,
        "regulations/data.html",
        {
            "page": page_of(request, rows),
            "figures": _confirmable(request.town),
            "may_confirm": policy.can(request.user, "data.confirm", town=request.town),
            "who": WHO_MAY_CONFIRM,
            "section": DATA_SECTION,
        },
    )


@login_required
def data_confirm(request):
    """A reviewer confirms one figure with the source it was read from (`?figure=` opens the page
    on it); later site reviews read the confirmed value and name it as its layer."""
    town = request.town
    policy.require(request.user, "data.confirm", town=town)
    figures = list(confirmable_values().values())
    posted = request.method == "POST"
    asked = request.GET.get("figure", "")
    initial = {"figure": asked} if asked in confirmable_values() else None
    form = f.ConfirmValueForm(request.POST if posted else None, initial=initial, figures=figures)

    def perform(data: dict) -> tuple[str, str]:
        done = svc.data_value_confirm(town=town, actor=request.user, **data)
        figure = confirmable_values()[done.figure]
        return (
            f"{figure.label} confirmed as {done.value:g} {figure.unit}; later site reviews read it.",
            reverse("regulations:data"),
        )

    context = {
        "title": "Confirm a figure against its source",
        "section": DATA_SECTION,
        "back": reverse("regulations:data"),
        "back_label": "Back to the figures behind the site reviews",
        "intro": "The site review reads the confirmed value instead of the table's from now on, "
        "and names this confirmation as the value's source. Only "
        f"{WHO_MAY_CONFIRM} may confirm.",
    }
    return step_page(request, form=form, perform=perform, context=context)


@require_GET
def public_list(request):
    """The adopted regulations in force today, with their effective dates: public."""
    today = timezone.localdate()
    rows = regulations_in_force(request.town, on=today) if request.town else []
    return render(
        request,
        "regulations/public.html",
        {
            "today": today,
            "rows": [{"in_force": r, "settings": _settings_shown(r.regulation)} for r in rows],
        },
    )
