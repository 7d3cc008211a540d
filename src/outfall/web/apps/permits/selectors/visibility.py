"""Reads of permit applications, always through what the user may see."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, Q, QuerySet, prefetch_related_objects

from outfall.compliance.lifecycle import PermitState
from outfall.web.apps.core.permissions import is_permit_staff, towns_with_role
from outfall.web.apps.core.roles import PERMIT_STAFF
from outfall.web.apps.kit.selectors import prefetch_together, row_or_404
from outfall.web.apps.permits.models import (
    Application,
    AsBuilt,
    BoardAttendance,
    BoardVote,
    Deficiency,
    GeneratedDocument,
    OMObligation,
    PermitCondition,
    Referral,
    SiteReviewRun,
    Upload,
    WaiverRequest,
)

PUBLIC_STATES = tuple(
    s.value for s in PermitState if s not in (PermitState.DRAFT, PermitState.WITHDRAWN)
)


def application_list_visible_to(user) -> QuerySet[Application]:
    """Staff see their towns' applications; applicants their own; nobody else sees any."""
    if not getattr(user, "is_authenticated", False):
        return Application.objects.none()
    staff_towns = towns_with_role(user, PERMIT_STAFF)
    own = Q(applicant=user)
    staff = Q(town_id__in=staff_towns) & ~Q(state=PermitState.DRAFT.value)
    return Application.objects.filter(own | staff).select_related("town", "applicant")


def application_list_in_view(user, town=None) -> QuerySet[Application]:
    """What a list of applications shows: a staff member the cases of `town` (the selected one;
    None: every town they serve), an applicant all their own, of any town (the list says which)."""
    qs = application_list_visible_to(user)
    if town is None:
        return qs
    return qs.filter(Q(applicant=user) | Q(town=town))


def permit_staff_towns(user) -> list[int]:
    """The towns whose permit cases `user` sees as staff (several: the lists offer them all)."""
    return towns_with_role(user, PERMIT_STAFF)


def application_get(user, pk: int) -> Application:
    """One application the user may see; 404 otherwise (never reveal that it exists)."""
    return row_or_404(application_list_visible_to(user), pk, "No such application")


CASE_PAGE_ONE_TO_ONE = (
    "town",
    "applicant",
    "hearing",
    "decision",
    "constructive_approval",
    "permit",
    "surety",
    "certificate",
)
"""What the case page reads of every case beside the application itself, in its one query."""


def with_case_records(applications: QuerySet[Application]) -> QuerySet[Application]:
    """The cases with every record their clocks read, fetched once (`permits.clocks`)."""
    return applications.select_related("town", "hearing", "constructive_approval").prefetch_related(
        "extensions",
        Prefetch("as_builts", queryset=AsBuilt.objects.select_related("upload")),
        Prefetch("referrals", queryset=Referral.objects.order_by("response_due")),
        Prefetch("om_obligations", queryset=OMObligation.objects.order_by("next_due")),
        Prefetch("inspections__deficiencies", queryset=Deficiency.objects.order_by("correct_by")),
    )


VOTES = Prefetch("votes", queryset=BoardVote.objects.select_related("member", "recorded_by"))
"""The Board's votes on a matter with the members who cast and recorded them."""

SITE_REVIEWS_SHOWN = 5
"""The latest site review runs the case page lists (the newest is the checklist's)."""

CASE_PAGE_TOGETHER = (
    "plan_items",
    "fees",
    "clerk_filings",
    "easements",
    "extensions",
    Prefetch("referrals", queryset=Referral.objects.order_by("response_due")),
    Prefetch("om_obligations", queryset=OMObligation.objects.order_by("next_due")),
    "om_obligations__reports",
    "inspections",
    Prefetch("inspections__deficiencies", queryset=Deficiency.objects.order_by("correct_by")),
    "responsible_parties",
    "hearing__sessions",
    "surety__releases",
    Prefetch("waivers", queryset=WaiverRequest.objects.order_by("submitted_on", "pk")),
    Prefetch("documents", queryset=GeneratedDocument.objects.order_by("-generated_at", "-pk")),
    Prefetch("conditions", queryset=PermitCondition.objects.order_by("number")),
    "completeness_reviews",
    "change_notices",
    "om_amendments",
)
"""The small kinds of record the case page's panels and clocks read, all in one query
(`kit.selectors.prefetch_together`); the hearing and surety are joined with the case."""

CASE_PAGE_RECORDS = (
    Prefetch("as_builts", queryset=AsBuilt.objects.select_related("upload")),
    Prefetch("inspections__photos", queryset=Upload.objects.order_by("pk")),
    Prefetch(
        "site_reviews",
        queryset=SiteReviewRun.objects.order_by("-run_at", "-pk")[:SITE_REVIEWS_SHOWN],
        to_attr="site_reviews_latest",
    ),
    Prefetch("waivers__votes", queryset=VOTES.queryset),
    Prefetch("decision__votes", queryset=VOTES.queryset),
    Prefetch(
        "board_attendance",
        queryset=BoardAttendance.objects.select_related("member", "recorded_by").order_by(
            "member__last_name", "member__first_name"
        ),
    ),
)
"""The kinds the case page reads with their joined rows, a query each after
`CASE_PAGE_TOGETHER`; the panels take every kind with `kit.selectors.related_rows` (issue 13)."""


def application_page_get(user, pk: int) -> Application:
    """`application_get` for the case page: the records its panels and clocks read fetched with
    it, once (what `with_case_records` reads among them)."""
    application = row_or_404(
        application_list_visible_to(user).select_related(*CASE_PAGE_ONE_TO_ONE),
        pk,
        "No such application",
    )
    prefetch_together([application], *CASE_PAGE_TOGETHER)
    prefetch_related_objects([application], *CASE_PAGE_RECORDS)
    return application


def application_list_public(town=None) -> QuerySet[Application]:
    """Applications whose public record (notices, hearings, decisions) anyone may read."""
    qs = Application.objects.filter(state__in=PUBLIC_STATES).exclude(submitted_on=None)
    if town is not None:
        qs = qs.filter(town=town)
    return qs.select_related("town")


def require_staff(user, application: Application) -> None:
    if not is_permit_staff(user, application.town):
        raise PermissionDenied("Only the town's permit staff may do this.")
