"""The JSON API: the same selectors, services and policy as the pages, as JSON with OpenAPI.

Authentication is a bearer token (`Authorization: Bearer <token>`) or the browser session (with
the CSRF token on unsafe methods). A case the caller may not see is a 404, an action the caller
may not take a 403, and a lifecycle step the law refuses a 409 listing every reason with its
section. The public lists of hearings and decisions need no login and are rate-limited (429).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django_ratelimit.core import is_ratelimited
from ninja import NinjaAPI, Query, Schema
from ninja.errors import HttpError

from outfall.compliance import lifecycle
from outfall.kernel.errors import InputError
from outfall.web.apps.api import schemas as s
from outfall.web.apps.api.auth import AUTH, SessionCsrfAuth
from outfall.web.apps.api.selectors import api_token_list_for
from outfall.web.apps.api.services import api_token_issue
from outfall.web.apps.deadlines.selectors import clock_kinds, clock_list_visible_to
from outfall.web.apps.kit.api import (
    attrs,
    found,
    page,
    page_check,
    refused_body,
    steps_out,
    town_named,
    user_of,
)
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.facts import permit_facts
from outfall.web.apps.permits.models import Decision, Hearing, Inspection, Surety
from outfall.web.apps.permits.selectors import application_get, application_list_public
from outfall.web.apps.permits.selectors.search import ApplicationSearch, application_search
from outfall.web.apps.permits.services.transitions import application_transition

api = NinjaAPI(
    title="outfall",
    version="1",
    description=(
        "Stormwater management permits under Article II of the Town of Norfolk's Chapter 267: "
        "applications, hearings, decisions, inspections, surety and every open clock, with the "
        "same permissions as the web pages."
    ),
    auth=AUTH,
    urls_namespace="api",
)

DEFAULT_PUBLIC_RATE = "60/m"


@api.exception_handler(PermissionDenied)
def _forbidden(request, exc):
    return api.create_response(request, {"detail": str(exc) or "Forbidden"}, status=403)


@api.exception_handler(InputError)
def _bad_input(request, exc: InputError):
    body = {"detail": str(exc), "field": exc.field, "value": str(exc.value), "why": exc.why}
    if exc.citation:
        body["citation"] = exc.citation
    return api.create_response(request, body, status=422)


@api.exception_handler(lifecycle.TransitionNotAllowed)
def _refused(request, exc: lifecycle.TransitionNotAllowed):
    return api.create_response(request, refused_body(exc), status=409)


_user = user_of


def _case(request, application_id: int):
    """The application, which the caller must be allowed to see as a case."""
    a = application_get(_user(request), application_id)
    policy.require(_user(request), "case.view", a)
    return a


# ------------------------------------------------------------------ applications


def _application_out(a) -> dict:
    return {
        "id": a.pk,
        **attrs(a, "number", "title"),
        "town": a.town.slug,
        **attrs(a, "site_address", "parcel_id", "latitude", "longitude", "state", "state_label"),
        "applicant": a.applicant.get_username(),
        **attrs(a, "owner_name", "law_date", "submitted_on", "complete_on"),
    }


def _transitions_out(user, a) -> list[dict]:
    return steps_out(
        lifecycle,
        a.state,
        permit_facts(a),
        policy,
        user=user,
        obj=a,
        extra=lambda t: {"target": t.target.value},
    )


def _detail_out(user, a) -> dict:
    return {
        **_application_out(a),
        "description": a.description,
        "disturbance_acres": a.disturbance_acres,
        "transitions": _transitions_out(user, a),
    }


class ApplicationFilter(Schema):
    q: str = ""
    status: str = ""
    applicant: str = ""
    submitted_from: dt.date | None = None
    submitted_to: dt.date | None = None
    complete_from: dt.date | None = None
    complete_to: dt.date | None = None
    limit: int = 50
    offset: int = 0


@api.get("/applications", response=s.ApplicationPage, tags=["applications"])
def applications_list(request, filters: Query[ApplicationFilter]):
    """Applications the caller may see (staff: their towns; applicants: their own), filtered by
    status, text in the number/title/address/parcel, applicant or owner, and date ranges."""
    page_check(filters.limit, filters.offset)
    criteria = ApplicationSearch(
        text=filters.q,
        status=filters.status,
        applicant=filters.applicant,
        submitted_from=filters.submitted_from,
        submitted_to=filters.submitted_to,
        complete_from=filters.complete_from,
        complete_to=filters.complete_to,
    )
    qs = application_search(_user(request), criteria)
    return page(qs, filters.limit, filters.offset, _application_out)


@api.get(
    "/applications/{application_id}",
    response={200: s.ApplicationDetailOut, 404: s.ErrorOut},
    tags=["applications"],
)
def application_detail(request, application_id: int):
    """One application with its state and the lifecycle steps open from it: whether the caller
    may take each, and what the law says stands in the way."""
    user = _user(request)
    return _detail_out(user, application_get(user, application_id))


@api.post(
    "/applications/{application_id}/transitions/{name}",
    response={
        200: s.ApplicationDetailOut,
        403: s.ErrorOut,
        404: s.ErrorOut,
        409: s.RefusedOut,
    },
    tags=["applications"],
)
def application_step(
    request, application_id: int, name: str, payload: s.TransitionIn | None = None
):
    """Take a lifecycle step through the state machine, under the policy rule that governs it."""
    user = _user(request)
    application = application_get(user, application_id)
    action = policy.TRANSITION_ACTIONS.get(name)
    if action is None:
        raise Http404(f"No lifecycle step named {name!r}")
    policy.require(user, action, application)
    summary = payload.summary if payload and payload.summary else None
    application_transition(application, name, actor=user, summary=summary)
    return _detail_out(user, application_get(user, application_id))


# ------------------------------------------------------------------ records of a case


@api.get(
    "/applications/{application_id}/hearing",
    response={200: s.HearingOut, 404: s.ErrorOut},
    tags=["hearings"],
)
def application_hearing(request, application_id: int):
    """The public hearing of § 267-18E: schedule, notice, sessions, close."""
    a = _case(request, application_id)
    h = found(
        Hearing.objects.filter(application=a).first(),
        "No hearing is scheduled for this application",
    )
    return {
        "application_id": a.pk,
        **attrs(
            h,
            "scheduled_for",
            "location",
            "notice_published_on",
            "notice_posted_on",
            "abutters_mailed_on",
            "opened_on",
            "closed_on",
        ),
        "sessions": [attrs(x, "held_on", "continued_to") for x in h.sessions.order_by("held_on")],
    }


def _decision_out(a, d) -> dict:
    return {
        "application_id": a.pk,
        "kind": d.kind,
        "kind_label": d.get_kind_display(),
        **attrs(
            d,
            "voted_on",
            "votes_for",
            "votes_against",
            "findings",
            "conditions",
            "filed_with_town_clerk_on",
        ),
    }


@api.get(
    "/applications/{application_id}/decision",
    response={200: s.DecisionOut, 404: s.ErrorOut},
    tags=["decisions"],
)
def application_decision(request, application_id: int):
    """The Board's written decision (§ 267-18F)."""
    a = _case(request, application_id)
    d = found(
        Decision.objects.filter(application=a).first(),
        "No decision is recorded for this application",
    )
    return _decision_out(a, d)


@api.get(
    "/applications/{application_id}/inspections",
    response={200: list[s.InspectionOut], 404: s.ErrorOut},
    tags=["inspections"],
)
def application_inspections(request, application_id: int):
    """The inspections of § 267-22 in order, with their deficiencies and correction dates."""
    a = _case(request, application_id)
    order = {stage: i for i, stage in enumerate(Inspection.Stage.values)}
    rows = sorted(a.inspections.prefetch_related("deficiencies"), key=lambda i: order[i.stage])
    return [
        {
            "stage": i.stage,
            "stage_label": i.get_stage_display(),
            **attrs(i, "scheduled_for", "done_on", "passed", "findings"),
            "deficiencies": [
                attrs(d, "description", "correct_by", "corrected_on") for d in i.deficiencies.all()
            ],
        }
        for i in rows
    ]


@api.get(
    "/applications/{application_id}/surety",
    response={200: s.SuretyOut, 404: s.ErrorOut},
    tags=["surety"],
)
def application_surety(request, application_id: int):
    """The security posted under § 267-21, what has been released and what is still held."""
    a = _case(request, application_id)
    surety = found(
        Surety.objects.filter(application=a).first(), "No surety is posted for this application"
    )
    releases = list(surety.releases.order_by("released_on"))
    released = sum((r.amount for r in releases), Decimal("0"))
    return {
        "application_id": a.pk,
        "form": surety.form,
        "form_label": surety.get_form_display(),
        "amount": surety.amount,
        "posted_on": surety.posted_on,
        "approved_by_town_counsel_on": surety.approved_by_town_counsel_on,
        "released": released,
        "held": surety.amount - released,
        "releases": [attrs(r, "kind", "amount", "released_on", "phase") for r in releases],
    }


# ------------------------------------------------------------------ deadlines


def clock_out(clock) -> dict:
    """Any source's clock as the API shows it (the permit clocks also name their application)."""
    permit = clock.application_id is not None
    return {
        **clock.as_dict(),
        "due": clock.due,
        "raw_due": clock.raw_due,
        "application_number": clock.case_number if permit else None,
    }


@api.get("/deadlines", response=list[s.ClockOut], tags=["deadlines"])
def deadlines(request, kind: str = "", application: int | None = None):
    """Every open clock of the cases the caller may see, by due date: permits (§ 267-18,
    § 267-20, § 267-22), enforcement (§ 267-10C, § 267-25B) and the other sources; the state is
    ok, warning or overdue. Naming an application keeps to that permit's clocks."""
    kinds = clock_kinds()
    if kind and kind not in kinds:
        raise InputError("kind", kind, f"not a kind of clock (one of: {', '.join(kinds)})")
    clocks = clock_list_visible_to(_user(request), kind=kind or None, application_id=application)
    return [clock_out(c) for c in clocks]


@api.get(
    "/applications/{application_id}/deadlines",
    response={200: list[s.ClockOut], 404: s.ErrorOut},
    tags=["deadlines"],
)
def application_deadlines(request, application_id: int):
    """The open clocks of one case."""
    a = application_get(_user(request), application_id)
    return [clock_out(c) for c in clock_list_visible_to(_user(request), application_id=a.pk)]


# ------------------------------------------------------------------ tokens


@api.get("/tokens", response=list[s.TokenOut], tags=["tokens"])
def tokens_list(request):
    """The caller's live API tokens (never the tokens themselves)."""
    return list(api_token_list_for(_user(request)))


@api.post("/tokens", response={201: s.NewTokenOut}, tags=["tokens"], auth=[SessionCsrfAuth()])
def tokens_issue(request, payload: s.TokenIn):
    """A new bearer token for the caller, minted only from a signed-in browser session (with its
    CSRF token) — never from another token, so a leaked token cannot renew itself; the token is
    in this answer only."""
    user = _user(request)
    token, raw = api_token_issue(
        user, actor=user, name=payload.name, town=getattr(request, "town", None)
    )
    return {
        "id": token.pk,
        "name": token.name,
        "prefix": token.prefix,
        "created_at": token.created_at,
        "token": raw,
    }


# ------------------------------------------------------------------ public records


def _public_rate() -> str:
    return getattr(settings, "OUTFALL_PUBLIC_API_RATE", DEFAULT_PUBLIC_RATE)


def _limit_public(request) -> None:
    if is_ratelimited(request, group="api.public", key="ip", rate=_public_rate(), increment=True):
        raise HttpError(429, "Too many requests: slow down and try again in a minute")


_public_town = town_named


def _public_rows(request, town: str, model):
    """`model`'s rows (hearings, decisions) of the cases the public may see in `town` (every
    town when none is named), once the caller is within the public rate."""
    _limit_public(request)
    cases = application_list_public(_public_town(town))
    return model.objects.filter(application__in=cases).select_related("application__town")


def _public_case(a) -> dict:
    """What the public lists say of the application a hearing or decision belongs to."""
    return {"town": a.town.slug, **attrs(a, "number", "title", "site_address")}


@api.get(
    "/public/hearings",
    auth=None,
    response={200: list[s.PublicHearingOut], 429: s.ErrorOut},
    tags=["public"],
)
def public_hearings(request, town: str = ""):
    """Public hearings whose notice has been given (§ 267-18E), soonest first. No login."""
    rows = (
        _public_rows(request, town, Hearing)
        .exclude(notice_published_on=None, notice_posted_on=None, opened_on=None)
        .order_by("scheduled_for")
    )
    return [
        {
            **_public_case(h.application),
            **attrs(h, "scheduled_for", "location", "opened_on", "closed_on"),
        }
        for h in rows
    ]


@api.get(
    "/public/decisions",
    auth=None,
    response={200: list[s.PublicDecisionOut], 429: s.ErrorOut},
    tags=["public"],
)
def public_decisions(request, town: str = ""):
    """The Board's decisions (§ 267-18F), newest first. No login."""
    rows = _public_rows(request, town, Decision).order_by("-voted_on")
    return [
        {
            **_public_case(d.application),
            "kind": d.kind,
            "kind_label": d.get_kind_display(),
            "voted_on": d.voted_on,
            "filed_with_town_clerk_on": d.filed_with_town_clerk_on,
        }
        for d in rows
    ]


# ------------------------------------------------------------------ Article I routers

from outfall.web.apps.api.assets import router as assets_router  # noqa: E402

api.add_router("/dpw", assets_router)

from outfall.web.apps.api.enforcement import router as enforcement_router  # noqa: E402

api.add_router("/dpw/enforcement", enforcement_router)

from outfall.web.apps.api.idde import router as idde_router  # noqa: E402

api.add_router("/dpw/idde", idde_router)
