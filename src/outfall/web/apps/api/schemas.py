"""Shapes of the API's requests and answers (the OpenAPI document is generated from these)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from ninja import Field, Schema


class ReasonOut(Schema):
    citation: str = Field(description="the section, e.g. § 267-18E")
    text: str


class ErrorOut(Schema):
    detail: str


class RefusedOut(Schema):
    detail: str
    transition: str
    state: str
    reasons: list[ReasonOut]


class ApplicationOut(Schema):
    id: int
    number: str
    title: str
    town: str
    site_address: str
    parcel_id: str
    latitude: float | None
    longitude: float | None
    state: str
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


class TransitionOut(Schema):
    name: str
    label: str
    citation: str
    target: str
    action: str = Field(description="the policy action whose rule governs this step")
    permitted: bool = Field(description="whether the caller may take this step")
    blockers: list[ReasonOut] = Field(description="why the law does not allow it now")


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


class DecisionOut(Schema):
    application_id: int
    kind: str
    kind_label: str
    voted_on: dt.date
    votes_for: int
    votes_against: int
    findings: str
    conditions: str
    filed_with_town_clerk_on: dt.date | None


class DeficiencyOut(Schema):
    description: str
    correct_by: dt.date
    corrected_on: dt.date | None


class InspectionOut(Schema):
    stage: str
    stage_label: str
    scheduled_for: dt.date | None
    done_on: dt.date | None
    passed: bool | None
    findings: str
    deficiencies: list[DeficiencyOut]


class SuretyReleaseOut(Schema):
    kind: str
    amount: Decimal
    released_on: dt.date
    phase: str


class SuretyOut(Schema):
    application_id: int
    form: str
    form_label: str
    amount: Decimal
    posted_on: dt.date
    approved_by_town_counsel_on: dt.date | None
    released: Decimal
    held: Decimal
    releases: list[SuretyReleaseOut]


class ClockOut(Schema):
    uid: str
    source: str = Field(description="permits, enforcement, or another source of clocks")
    case_number: str
    case_title: str
    case_url: str
    application_id: int | None = Field(None, description="the permit application, if any")
    application_number: str | None = None
    key: str
    label: str
    due: dt.date
    raw_due: dt.date
    moved_because: str | None
    citation: str
    explanation: str
    days_left: int
    state: str = Field(description="ok, warning or overdue")


class PublicHearingOut(Schema):
    town: str
    number: str
    title: str
    site_address: str
    scheduled_for: dt.datetime
    location: str
    opened_on: dt.date | None
    closed_on: dt.date | None


class PublicDecisionOut(Schema):
    town: str
    number: str
    title: str
    site_address: str
    kind: str
    kind_label: str
    voted_on: dt.date
    filed_with_town_clerk_on: dt.date | None


class TokenIn(Schema):
    name: str = Field(..., min_length=1, max_length=100, description="what the token is for")


class TokenOut(Schema):
    id: int
    name: str
    prefix: str
    created_at: dt.datetime


class NewTokenOut(TokenOut):
    token: str = Field(description="shown once: store it now, it cannot be read again")
