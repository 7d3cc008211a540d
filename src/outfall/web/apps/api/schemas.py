"""Shapes of the permit API's requests and answers (the OpenAPI document is generated from
these); every closed set is an enum, and every error is `contract.ErrorOut`."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from ninja import Field, Schema

from outfall.compliance.lifecycle import TRANSITIONS_BY_NAME
from outfall.compliance.lifecycle.permit import PermitState
from outfall.web.apps.api.contract import PageIn, PolicyStepOut, any_of, field_values, one_of
from outfall.web.apps.deadlines.selectors import CLOCK_SOURCES, clock_kinds
from outfall.web.apps.kit.clocks import ClockState
from outfall.web.apps.permits.models import (
    Decision,
    Inspection,
    PermitCondition,
    Surety,
    SuretyRelease,
)

DecisionKind = one_of(field_values(Decision, "kind"))
FAILURE_TO_ACT = PermitState.CONSTRUCTIVELY_APPROVED.value
PublicDecisionKind = one_of([*field_values(Decision, "kind"), FAILURE_TO_ACT])
StepName = one_of(TRANSITIONS_BY_NAME)
ClockKind = one_of(clock_kinds())
ClockSource = one_of(source.SOURCE for source in CLOCK_SOURCES)


class ApplicationOut(Schema):
    id: int
    number: str
    title: str
    town: str
    site_address: str
    parcel_id: str
    latitude: float | None
    longitude: float | None
    state: PermitState
    state_label: str
    applicant: str
    owner_name: str
    law_date: dt.date
    submitted_on: dt.date | None
    complete_on: dt.date | None


class ApplicationPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[ApplicationOut]


class TransitionOut(PolicyStepOut):
    name: StepName
    target: PermitState


class ApplicationDetailOut(ApplicationOut):
    description: str
    disturbance_acres: Decimal
    transitions: list[TransitionOut]


class TransitionIn(Schema):
    summary: str | None = Field(None, max_length=500, description="a note for the record")


class HearingSessionOut(Schema):
    held_on: dt.date
    continued_to: dt.datetime | None


class HearingOut(Schema):
    application_id: int
    scheduled_for: dt.datetime
    location: str
    notice_published_on: dt.date | None
    notice_posted_on: dt.date | None
    abutters_mailed_on: dt.date | None
    opened_on: dt.date | None
    closed_on: dt.date | None
    sessions: list[HearingSessionOut]


class ConditionOut(Schema):
    number: int
    phase: one_of(field_values(PermitCondition, "phase"))
    phase_label: str
    text: str
    met_on: dt.date | None


class DecisionOut(Schema):
    application_id: int
    kind: DecisionKind
    kind_label: str
    voted_on: dt.date
    issued_on: dt.date | None
    votes_for: int
    votes_against: int
    votes_abstaining: int
    findings: str
    conditions: list[ConditionOut]
    surety_required: bool
    surety_amount: Decimal | None
    filed_with_town_clerk_on: dt.date | None


class DeficiencyOut(Schema):
    description: str
    correct_by: dt.date
    corrected_on: dt.date | None


class InspectionOut(Schema):
    stage: one_of(field_values(Inspection, "stage"))
    stage_label: str
    scheduled_for: dt.date | None
    done_on: dt.date | None
    passed: bool | None
    findings: str
    deficiencies: list[DeficiencyOut]


class SuretyReleaseOut(Schema):
    kind: one_of(field_values(SuretyRelease, "kind"))
    amount: Decimal
    released_on: dt.date
    phase: str


class SuretyOut(Schema):
    application_id: int
    form: one_of(field_values(Surety, "form"))
    form_label: str
    amount: Decimal
    posted_on: dt.date
    approved_by_town_counsel_on: dt.date | None
    released: Decimal
    held: Decimal
    releases: list[SuretyReleaseOut]


class ClockOut(Schema):
    uid: str
    source: ClockSource = Field(description="the part of outfall whose case the clock is of")
    case_number: str
    case_title: str
    case_url: str
    application_id: int | None = Field(None, description="the permit application, if any")
    application_number: str | None = None
    key: ClockKind
    label: str
    due: dt.date
    raw_due: dt.date
    moved_because: str | None
    citation: str
    explanation: str
    days_left: int
    state: ClockState = Field(description="ok, warning or overdue")


class ClockPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[ClockOut]


class PublicHearingOut(Schema):
    town: str
    number: str
    title: str
    site_address: str
    scheduled_for: dt.datetime
    location: str
    opened_on: dt.date | None
    closed_on: dt.date | None


class PublicRegulationHearingOut(Schema):
    """A hearing on the Planning Board's rules and regulations (§ 267-17B), as noticed."""

    town: str
    number: str
    title: str
    hearing_at: dt.datetime
    location: str
    newspaper: str
    advertised_on: dt.date | None
    notice_url: str


class PublicDecisionOut(Schema):
    town: str
    number: str
    title: str
    site_address: str
    kind: PublicDecisionKind = Field(
        ...,
        description="the Board's decision (§ 267-18F), or constructively_approved: approved by "
        "the Board's failure to act, certified by the Town Clerk (§ 267-18G)",
    )
    kind_label: str
    voted_on: dt.date | None = Field(None, description="the Board's vote; none on a failure to act")
    filed_with_town_clerk_on: dt.date | None
    certified_on: dt.date | None = Field(
        None,
        description="the Town Clerk's certification that the time for final action passed "
        "without action (§ 267-18G); only on an approval by failure to act",
    )


class TokenIn(Schema):
    name: str = Field(..., min_length=1, max_length=100, description="what the token is for")
    expires_in_days: int | None = Field(
        None,
        ge=1,
        description="how many days the token works (the installation's default when not given, "
        "at most its maximum; OUTFALL_API_TOKEN_DAYS and OUTFALL_API_TOKEN_MAX_DAYS)",
    )


class TokenOut(Schema):
    id: int
    name: str
    prefix: str
    created_at: dt.datetime
    expires_at: dt.datetime = Field(description="refused from this moment on (401, saying so)")
    last_used_at: dt.datetime | None = Field(description="when a request last used it")


class NewTokenOut(TokenOut):
    token: str = Field(description="shown once: store it now, it cannot be read again")


class ApplicationFilter(PageIn):
    q: str = Field("", max_length=200, description="text in the number, title, address or parcel")
    status: any_of(PermitState) = Field(None, description="the state, e.g. submitted")
    applicant: str = Field("", max_length=200, description="the applicant's user name or owner")
    submitted_from: dt.date | None = None
    submitted_to: dt.date | None = None
    complete_from: dt.date | None = None
    complete_to: dt.date | None = None


class DeadlineFilter(PageIn):
    kind: any_of(clock_kinds()) = Field(None, description="one kind of clock")
    application: int | None = Field(None, ge=1, description="one permit application's clocks")


PUBLIC_DECISION_DAYS = 365
"""How far back the public decisions list reaches unless a reader asks from an earlier day."""


class PublicFilter(PageIn):
    town: str = Field("", max_length=100, description="a town's short name (default: every town)")
    since: dt.date | None = Field(
        None,
        description="the earliest day listed (default: hearings from today on; decisions of the "
        f"last {PUBLIC_DECISION_DAYS} days)",
    )


class PublicHearingPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[PublicHearingOut]


class PublicRegulationHearingPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[PublicRegulationHearingOut]


class PublicDecisionPage(Schema):
    count: int
    limit: int
    offset: int
    items: list[PublicDecisionOut]
