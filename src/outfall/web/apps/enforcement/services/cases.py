"""Opening, consent to entry and closing of enforcement cases.

A case opens from an Article I investigation (the DPW, § 267-10A) or an Article II permit (the
Planning Board, § 267-25A); its law date is the day it opens. The violator is not a user.
"""

from __future__ import annotations

import datetime as dt

from django.db import IntegrityError, transaction

from outfall.compliance.lifecycle.enforcement import (
    EnforcementState,
    order_assessment,
    order_catalog,
)
from outfall.kernel.errors import InputError
from outfall.law import s267_10_enforcement
from outfall.law.errors import NotInForce
from outfall.web.apps.enforcement import policy
from outfall.web.apps.enforcement.models import EnforcementCase, EntryConsent
from outfall.web.apps.enforcement.services.common import (
    day_on_record,
    not_before,
    today_or,
)
from outfall.web.apps.enforcement.services.writes import CaseWrite
from outfall.web.apps.kit.numbers import next_number
from outfall.web.apps.kit.writes import audit

CASE_FIELDS = (
    "violator_name",
    "violator_address",
    "owner_name",
    "owner_address",
    "property_address",
    "parcel_id",
    "description",
)
REQUIRED = ("violator_name", "violator_address", "property_address", "description")


def _next_number(town, article: str, year: int) -> str:
    """ENF-<TOWN>-<article>-<year>-NNNN."""
    prefix = f"ENF-{town.slug[:3].upper()}-{article}-{year}-"
    return next_number(EnforcementCase.objects.all(), prefix)


def _check_in_force(article: str, town, day: dt.date) -> None:
    """Refuse a case under an article not yet in force on the day it opens."""
    catalog = order_catalog(article)
    try:
        order_assessment(article, [catalog[0].key], False, None, as_of=day, town=town.slug)
    except NotInForce:
        rules = s267_10_enforcement.article_rules(article)
        raise InputError(
            "opened_on",
            day.isoformat(),
            f"Article {article} was not yet in force on that day",
            rules.authority_citation,
        ) from None


def case_open(
    *,
    town,
    actor,
    data: dict,
    application=None,
    investigation=None,
    opened_on: dt.date | None = None,
    today: dt.date | None = None,
) -> EnforcementCase:
    """Open a case from exactly one source: an investigation (Article I) or a permit (Article II)."""
    if (application is None) == (investigation is None):
        raise InputError(
            "source",
            "none" if application is None else "both",
            "a case opens from one Article I investigation or one Article II permit",
            "§ 267-10A",
        )
    article = "I" if investigation is not None else "II"
    source = investigation if investigation is not None else application
    if source.town_id != town.pk:
        raise InputError("town", town.slug, "the source record belongs to another town")
    policy.require(actor, "case.open", town=town, article=article)
    today = today_or(today)
    opened_on = day_on_record("opened_on", opened_on or today, today)
    for name in REQUIRED:
        if not str(data.get(name, "")).strip():
            raise InputError(name, "", "is required")
    _check_in_force(article, town, opened_on)
    rules = s267_10_enforcement.article_rules(article)
    values = {name: str(data.get(name, "")).strip() for name in CASE_FIELDS}
    for _attempt in range(5):
        try:
            with transaction.atomic():
                case = EnforcementCase.objects.create(
                    town=town,
                    number=_next_number(town, article, opened_on.year),
                    article=article,
                    application=application,
                    investigation=investigation,
                    opened_on=opened_on,
                    law_date=opened_on,
                    state=EnforcementState.OPEN.value,
                    opened_by=actor,
                    **values,
                )
                audit(
                    actor,
                    case,
                    "enforcement.open",
                    rules.authority_citation,
                    f"Article {article} enforcement case opened from "
                    f"{'investigation' if investigation else 'permit'} {source.number}",
                    article=article,
                    source=source.number,
                    **values,
                )
            return case
        except IntegrityError:
            continue
    raise InputError("number", "", "could not allot a case number; try again")


def consent_record(
    case: EnforcementCase,
    *,
    actor,
    given_by: str,
    given_on: dt.date,
    scope: str,
    refused: bool = False,
    capacity: str = "",
    valid_until: dt.date | None = None,
    today: dt.date | None = None,
) -> EntryConsent:
    """Record consent (or refusal) to enter private property to inspect or sample
    (§ 267-10F; for Article II, the entry the permit holder allows under § 267-18B)."""
    write = CaseWrite(case, actor, "consent.record", today)
    write.day("given_on", given_on)
    if valid_until is not None:
        not_before("valid_until", valid_until, given_on, "the day consent was given", write.cite)
    given_by = write.text("given_by", given_by, "name the person who gave or refused consent")
    scope = write.text("scope", scope, "say what entry was asked for")
    with write.lock() as locked:
        consent = EntryConsent.objects.create(
            case=locked,
            investigation=locked.investigation,
            property_address=locked.property_address,
            given_by=given_by,
            capacity=capacity.strip(),
            given_on=given_on,
            scope=scope,
            refused=refused,
            valid_until=valid_until,
            recorded_by=actor,
        )
        write.audit(
            consent,
            "consent",
            f"Entry {'refused' if refused else 'consented to'} by {consent.given_by} "
            f"on {given_on.isoformat()}",
            scope=consent.scope,
            refused=refused,
        )
    return consent


def case_close(case: EnforcementCase, *, actor, today: dt.date | None = None) -> EnforcementCase:
    """Close the file once the violation is corrected, the costs paid, or the lien handed over."""
    write = CaseWrite(case, actor, "case.close", today)
    with write.lock():
        write.step("close")
    return case
