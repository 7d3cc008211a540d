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
from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition
from django_ratelimit.core import is_ratelimited
from ninja import Query, Status
from ninja.decorators import decorate_view
from ninja.errors import HttpError

from outfall.compliance import lifecycle
from outfall.web.apps.api import schemas as s
from outfall.web.apps.api.auth import AUTH, SessionCsrfAuth
from outfall.web.apps.api.contract import OutfallAPI, answers, install_error_handlers, shaped
from outfall.web.apps.api.selectors import api_token_list_for
from outfall.web.apps.api.services import api_token_issue
from outfall.web.apps.audit.selectors import audit_last_change
from outfall.web.apps.deadlines.index import row_clock
from outfall.web.apps.deadlines.selectors import clock_list_visible_to, clock_rows_visible_to
from outfall.web.apps.kit.api import (
    attrs,
    found,
    page,
    page_check,
    steps_out,
    town_named,
    user_of,
)
from outfall.web.apps.permits import policy
from outfall.web.apps.permits.facts import permit_facts
from outfall.web.apps.permits.models import Decision, Hearing, Inspection, Surety
from outfall.web.apps.permits.selectors import application_get, application_list_public
from outfall.web.apps.permits.selectors.hearing import (
    FAILURE_TO_ACT_LABEL,
    public_constructive_approvals,
)
from outfall.web.apps.permits.selectors.search import ApplicationSearch, application_search
from outfall.web.apps.permits.services.transitions import application_transition
from outfall.web.apps.regulations.selectors import regulation_hearings_public

PERMITS = "permits"
DEADLINES = "deadlines"
PUBLIC = "public records"
TOKENS = "API tokens"

TAGS = [
    {
        "name": PERMITS,
        "description": "Article II stormwater permits: applications, their "
        "lifecycle steps, hearings (§ 267-18E), decisions (§ 267-18F), inspections (§ 267-22) "
        "and surety (§ 267-21).",
    },
    {"name": DEADLINES, "description": "Every open clock of the cases the caller may see."},
    {
        "name": PUBLIC,
        "description": "Hearing notices and decisions anyone may read, without "
        "signing in (rate-limited).",
    },
    {"name": TOKENS, "description": "The caller's bearer tokens."},
    {
        "name": "storm drain system",
        "description": "The MS4 inventory and dry-weather screening (§ 267-5, § 267-6).",
    },
    {
        "name": "enforcement",
        "description": "The enforcement ledger of both articles (§ 267-10, § 267-25).",
    },
    {
        "name": "illicit discharges",
        "description": "Reports, investigations (§ 267-7), sump "
        "pump permits, notices, spills (§ 267-9) and emergency suspensions (§ 267-8).",
    },
]

api = OutfallAPI(
    title="outfall",
    version="1",
    description=(
        "Stormwater management under the Town of Norfolk's Chapter 267: permits, deadlines, the "
        "storm drain system, illicit discharges and enforcement, with the same permissions as "
        "the web pages. Every 4xx answer is an `ErrorOut`: `detail` says what went wrong, "
        "`problems` names each bad input's field, value, reason and section (400, 422), and "
        "`reasons` gives every reason a step is refused with its section (409)."
    ),
    auth=AUTH,
    urls_namespace="api",
    openapi_extra={"tags": TAGS},
)
install_error_handlers(api)

DEFAULT_PUBLIC_RATE = "60/m"

_user = user_of


def _case(request, application_id: int):
    """The application, which the caller must be allowed to see as a case."""
    a = application_get(_user(request), application_id)
    policy.require(_user(request), "case.view", a)
    return a


def _case_record(request, application_id: int, model, missing: str):
    """The case the caller may see and its one `model` record (a 404 saying what is missing)."""
    a = _case(request, application_id)
    return a, found(model.objects.filter(application=a).first(), missing)


# ------------------------------------------------------------------ applications


def _application_out(a) -> dict:
    return shaped(
        s.ApplicationOut, a, id=a.pk, town=a.town.slug, applicant=a.applicant.get_username()
    )


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


@api.get("/applications", response=answers({200: s.ApplicationPage}), tags=[PERMITS])
def list_applications(request, filters: Query[s.ApplicationFilter]):
    """Applications the caller may see (staff: their towns; applicants: their own), filtered by
    status, text in the number/title/address/parcel, applicant or owner, and date ranges."""
    criteria = ApplicationSearch(
        text=filters.q,
        status=filters.status or "",
        **filters.dict(exclude={"q", "status", "limit", "offset"}),
    )
    qs = application_search(_user(request), criteria)
    return page(qs, filters.limit, filters.offset, _application_out)


@api.get(
    "/applications/{application_id}",
    response=answers({200: s.ApplicationDetailOut}, 404),
    tags=[PERMITS],
)
def get_application(request, application_id: int):
    """One application with its state and the lifecycle steps open from it: whether the caller
    may take each, and what the law says stands in the way."""
    user = _user(request)
    return _detail_out(user, application_get(user, application_id))


@api.post(
    "/applications/{application_id}/transitions/{name}",
    response=answers({200: s.ApplicationDetailOut}, 403, 404, 409),
    tags=[PERMITS],
)
def take_application_step(
    request, application_id: int, name: s.StepName, payload: s.TransitionIn | None = None
):
    """Take a lifecycle step through the state machine, under the policy rule that governs it;
    409 with every reason and its section when the law does not allow it now."""
    user = _user(request)
    application = application_get(user, application_id)
    policy.require(user, policy.TRANSITION_ACTIONS[name], application)
    summary = payload.summary if payload and payload.summary else None
    application_transition(application, name, actor=user, summary=summary)
    return _detail_out(user, application_get(user, application_id))


# ------------------------------------------------------------------ records of a case


@api.get(
    "/applications/{application_id}/hearing",
    response=answers({200: s.HearingOut}, 403, 404),
    tags=[PERMITS],
)
def get_application_hearing(request, application_id: int):
    """The public hearing of § 267-18E: schedule, notice, sessions, close."""
    a, h = _case_record(
        request, application_id, Hearing, "No hearing is scheduled for this application"
    )
    sessions = [attrs(x, "held_on", "continued_to") for x in h.sessions.order_by("held_on")]
    return shaped(s.HearingOut, h, application_id=a.pk, sessions=sessions)


@api.get(
    "/applications/{application_id}/decision",
    response=answers({200: s.DecisionOut}, 403, 404),
    tags=[PERMITS],
)
def get_application_decision(request, application_id: int):
    """The Board's written decision (§ 267-18F)."""
    a, d = _case_record(
        request, application_id, Decision, "No decision is recorded for this application"
    )
    conditions = [
        shaped(s.ConditionOut, c, phase_label=c.get_phase_display())
        for c in d.conditions.order_by("number")
    ]
    return shaped(
        s.DecisionOut,
        d,
        application_id=a.pk,
        kind_label=d.get_kind_display(),
        conditions=conditions,
    )


@api.get(
    "/applications/{application_id}/inspections",
    response=answers({200: list[s.InspectionOut]}, 403, 404),
    tags=[PERMITS],
)
def list_application_inspections(request, application_id: int):
    """The inspections of § 267-22 in order, with their deficiencies and correction dates."""
    a = _case(request, application_id)
    order = {stage: i for i, stage in enumerate(Inspection.Stage.values)}
    rows = sorted(a.inspections.prefetch_related("deficiencies"), key=lambda i: order[i.stage])
    return [
        shaped(
            s.InspectionOut,
            i,
            stage_label=i.get_stage_display(),
            deficiencies=[
                attrs(d, "description", "correct_by", "corrected_on") for d in i.deficiencies.all()
            ],
        )
        for i in rows
    ]


@api.get(
    "/applications/{application_id}/surety",
    response=answers({200: s.SuretyOut}, 403, 404),
    tags=[PERMITS],
)
def get_application_surety(request, application_id: int):
    """The security posted under § 267-21, what has been released and what is still held."""
    a, surety = _case_record(
        request, application_id, Surety, "No surety is posted for this application"
    )
    releases = list(surety.releases.order_by("released_on"))
    released = sum((r.amount for r in releases), Decimal("0"))
    return shaped(
        s.SuretyOut,
        surety,
        application_id=a.pk,
        form_label=surety.get_form_display(),
        released=released,
        held=surety.amount - released,
        releases=[attrs(r, "kind", "amount", "released_on", "phase") for r in releases],
    )


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


@api.get("/deadlines", response=answers({200: s.ClockPage}), tags=[DEADLINES])
def list_deadlines(request, filters: Query[s.DeadlineFilter]):
    """The open clocks of the cases the caller may see, a page at a time, soonest first: permits
    (§ 267-18, § 267-20, § 267-22), enforcement (§ 267-10C, § 267-25B) and the other sources;
    the state is ok, warning or overdue. Naming an application keeps to that permit's clocks."""
    today = timezone.localdate()
    rows = clock_rows_visible_to(
        _user(request), today=today, kind=filters.kind, application_id=filters.application
    )
    return page(rows, filters.limit, filters.offset, lambda r: clock_out(row_clock(r, today)))


@api.get(
    "/applications/{application_id}/deadlines",
    response=answers({200: list[s.ClockOut]}, 404),
    tags=[PERMITS, DEADLINES],
)
def list_application_deadlines(request, application_id: int):
    """The open clocks of one case."""
    a = application_get(_user(request), application_id)
    return [clock_out(c) for c in clock_list_visible_to(_user(request), application_id=a.pk)]


# ------------------------------------------------------------------ tokens


@api.get("/tokens", response=answers({200: list[s.TokenOut]}), tags=[TOKENS])
def list_tokens(request):
    """The caller's live API tokens (never the tokens themselves)."""
    return list(api_token_list_for(_user(request)))


@api.post(
    "/tokens",
    response=answers({201: s.NewTokenOut}, 403, 409),
    tags=[TOKENS],
    auth=[SessionCsrfAuth()],
)
def issue_token(request, payload: s.TokenIn):
    """A new bearer token for the caller, minted only from a signed-in browser session (with its
    CSRF token) — never from another token, so a leaked token cannot renew itself; the token is
    in this answer only."""
    user = _user(request)
    token, raw = api_token_issue(
        user,
        actor=user,
        name=payload.name,
        days=payload.expires_in_days,
        town=getattr(request, "town", None),
    )
    return Status(201, shaped(s.NewTokenOut, token, id=token.pk, token=raw))


# ------------------------------------------------------------------ public records


def _public_rate() -> str:
    return getattr(settings, "OUTFALL_PUBLIC_API_RATE", DEFAULT_PUBLIC_RATE)


def _limit_public(request) -> None:
    if is_ratelimited(request, group="api.public", key="ip", rate=_public_rate(), increment=True):
        raise HttpError(429, "Too many requests: slow down and try again in a minute")


PUBLIC_MAX_AGE = 300
"""Seconds a reader (or a proxy between) may keep a public list before asking again."""


def _last_change(request):
    """`audit_last_change`, read once for the request's ETag and Last-Modified."""
    if not hasattr(request, "_outfall_last_change"):
        request._outfall_last_change = audit_last_change()
    return request._outfall_last_change


def _public_version(request, *args, **kwargs) -> str:
    """The public lists' ETag: the record's version (`audit_last_change`) and the day, since the
    default window moves at midnight though nothing was written."""
    version, _ = _last_change(request)
    return f"{version}-{timezone.localdate().isoformat()}"


def _public_changed(request, *args, **kwargs):
    """The public lists' Last-Modified: the newest audit row, or midnight if that is later."""
    _, at = _last_change(request)
    midnight = timezone.make_aware(dt.datetime.combine(timezone.localdate(), dt.time.min))
    return max(at, midnight) if at else midnight


public_conditional = decorate_view(
    condition(etag_func=_public_version, last_modified_func=_public_changed)
)


def _cacheable(response: HttpResponse) -> None:
    patch_cache_control(response, public=True, max_age=PUBLIC_MAX_AGE)


def _public_rows(request, town, model):
    """`model`'s rows (hearings, decisions) of the cases the public may see in `town` (every
    town when none is named), once the caller is within the public rate."""
    _limit_public(request)
    cases = application_list_public(town)
    return model.objects.filter(application__in=cases).select_related("application__town")


def _public_case(a) -> dict:
    """What the public lists say of the application a hearing or decision belongs to."""
    return {"town": a.town.slug, **attrs(a, "number", "title", "site_address")}


def _public_hearing(h) -> dict:
    return {
        **_public_case(h.application),
        **attrs(h, "scheduled_for", "location", "opened_on", "closed_on"),
    }


@api.get(
    "/public/hearings",
    auth=None,
    response=answers({200: s.PublicHearingPage}, public=True),
    tags=[PUBLIC],
)
@public_conditional
def list_public_hearings(request, filters: Query[s.PublicFilter], response: HttpResponse):
    """Public hearings whose notice has been given (§ 267-18E), soonest first, a page at a time:
    from today on unless `since` names an earlier day. No login; cacheable (ETag)."""
    since = filters.since or timezone.localdate()
    start = timezone.make_aware(dt.datetime.combine(since, dt.time.min))
    rows = (
        _public_rows(request, town_named(filters.town), Hearing)
        .exclude(notice_published_on=None, notice_posted_on=None, opened_on=None)
        .filter(scheduled_for__gte=start)
        .order_by("scheduled_for", "pk")
    )
    _cacheable(response)
    return page(rows, filters.limit, filters.offset, _public_hearing)


def _public_decision(d) -> dict:
    return {
        **_public_case(d.application),
        "kind": d.kind,
        "kind_label": d.get_kind_display(),
        "voted_on": d.voted_on,
        "filed_with_town_clerk_on": d.filed_with_town_clerk_on,
        "certified_on": None,
    }


def _public_failure_to_act(a) -> dict:
    return {
        **_public_case(a),
        "kind": s.FAILURE_TO_ACT,
        "kind_label": FAILURE_TO_ACT_LABEL,
        "voted_on": None,
        "filed_with_town_clerk_on": None,
        "certified_on": a.constructive_approval.certified_on,
    }


@api.get(
    "/public/regulation-hearings",
    auth=None,
    response=answers({200: s.PublicRegulationHearingPage}, public=True),
    tags=[PUBLIC],
)
def list_public_regulation_hearings(request, filters: Query[s.PublicFilter]):
    """Hearings on the Board's rules and regulations from today on (or from `since`), with their
    advertisement and legal notice (§ 267-17B), soonest first, a page at a time. No login."""
    _limit_public(request)
    rows = regulation_hearings_public(
        town_named(filters.town), filters.since or timezone.localdate()
    )
    return page(rows, filters.limit, filters.offset, _public_regulation_hearing)


def _public_regulation_hearing(r) -> dict:
    return {
        "town": r.town.slug,
        **attrs(r, "number", "title", "hearing_at", "newspaper", "advertised_on"),
        "location": r.hearing_location,
        "notice_url": reverse("permits:public_regulation_notice", args=[r.pk]),
    }


@api.get(
    "/public/decisions",
    auth=None,
    response=answers({200: s.PublicDecisionPage}, public=True),
    tags=[PUBLIC],
)
@public_conditional
def list_public_decisions(request, filters: Query[s.PublicFilter], response: HttpResponse):
    """The Board's decisions (§ 267-18F) and the approvals by its failure to act the Town Clerk
    has certified (§ 267-18G), newest first, a page at a time: of the last 365 days unless
    `since` names an earlier day. No login; cacheable (ETag)."""
    page_check(filters.limit, filters.offset)
    town = town_named(filters.town)
    since = filters.since or timezone.localdate() - dt.timedelta(days=s.PUBLIC_DECISION_DAYS)
    decided = (
        _public_rows(request, town, Decision)
        .exclude(issued_on=None)
        .filter(voted_on__gte=since)
        .order_by("-voted_on", "-pk")
    )
    by_inaction = (
        public_constructive_approvals(town)
        .filter(constructive_approval__certified_on__gte=since)
        .exclude(decision__issued_on__isnull=False)
    )
    end = filters.offset + filters.limit
    rows = sorted(
        [_public_decision(d) for d in decided[:end]]
        + [_public_failure_to_act(a) for a in by_inaction[:end]],
        key=lambda r: r["voted_on"] or r["certified_on"],
        reverse=True,
    )
    _cacheable(response)
    return {
        "count": decided.count() + by_inaction.count(),
        "limit": filters.limit,
        "offset": filters.offset,
        "items": rows[filters.offset : end],
    }


# ------------------------------------------------------------------ Article I routers

from outfall.web.apps.api.assets import router as assets_router  # noqa: E402

api.add_router("/dpw", assets_router)

from outfall.web.apps.api.enforcement import router as enforcement_router  # noqa: E402

api.add_router("/dpw/enforcement", enforcement_router)

from outfall.web.apps.api.idde import router as idde_router  # noqa: E402

api.add_router("/dpw/idde", idde_router)
