"""Writes of the Board's regulations (§ 267-17B), each one transaction: the policy asked, the
version read again and locked, the lifecycle's step taken (its guard asks the law), the fields
it changes saved alone and one audit row citing the section. An adopted version has no step
left, so nothing here can change it; a new version supersedes it. A reviewer's confirmation of a
table figure is a new row too (§ 267-19B(3)), never an edit."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.template.loader import get_template
from django.utils import timezone

from outfall.compliance.lifecycle.regulation import (
    REGULATION_MACHINE,
    RegulationFacts,
    RegulationState,
)
from outfall.compliance.provenance import SECTION as DATA_SECTION
from outfall.compliance.provenance import confirmable_value, confirmed_value_checked
from outfall.kernel.errors import InputError
from outfall.law import s267_18_procedure
from outfall.law.s267_17_administration import (
    FINE_SCHEDULE,
    regulation_setting_checked,
    regulations_advertisement,
    regulations_hearing_notice_by,
)
from outfall.web.apps.kit.documents import file_pdf_later
from outfall.web.apps.kit.locks import lock_row
from outfall.web.apps.kit.numbers import next_number
from outfall.web.apps.kit.snapshots import determination_snapshot
from outfall.web.apps.kit.writes import audit, save_fields, write_lock
from outfall.web.apps.regulations.models import DataConfirmation, Regulation
from outfall.web.apps.regulations.policy import require
from outfall.web.apps.regulations.selectors import regulation_facts, town_parameters

SECTION = "§ 267-17B"
NOTICE_TEMPLATE = "regulations/documents/hearing_notice.html"


def _today(today: dt.date | None) -> dt.date:
    return today or timezone.localdate()


def _not_after(field: str, day: dt.date, today: dt.date) -> None:
    if day > today:
        raise InputError(field, day.isoformat(), f"is after today ({today.isoformat()})", SECTION)


def _local(moment: dt.datetime) -> dt.datetime:
    return timezone.localtime(moment) if timezone.is_aware(moment) else moment


def _take(reg: Regulation, step: str, facts: RegulationFacts) -> str:
    """The lifecycle's step from the version's state (refused with every reason), its new state."""
    return REGULATION_MACHINE.attempt(step, reg.state, facts).target.value


def _settings(town, fine_schedule, as_of: dt.date) -> list[dict]:
    if not fine_schedule:
        return []
    value = regulation_setting_checked(
        FINE_SCHEDULE.name, fine_schedule, as_of=as_of, town=town_parameters(town)
    )
    return [{"name": FINE_SCHEDULE.name, "value": value}]


def regulation_draft(
    *,
    town,
    actor,
    title: str,
    text: str,
    fine_schedule: list[dict] | None = None,
    supersedes: Regulation | None = None,
    today: dt.date | None = None,
) -> Regulation:
    """A new draft regulation (or a new version of an adopted one, which it will supersede),
    with the values it would set for the law checked against the law now (§ 267-25D fines)."""
    require(actor, "regulation.draft", town=town)
    today = _today(today)
    title, text = title.strip(), text.strip()
    if not title:
        raise InputError("title", title, "give the regulation a title", SECTION)
    if not text:
        raise InputError("text", text, "give the text the Board would adopt", SECTION)
    if supersedes is not None and (
        supersedes.town_id != town.pk or supersedes.state != RegulationState.ADOPTED
    ):
        raise InputError(
            "supersedes", str(supersedes), "only an adopted regulation of this town", SECTION
        )
    settings = _settings(town, fine_schedule, today)
    with transaction.atomic():
        lock_row(town)
        reg = Regulation.objects.create(
            town=town,
            number=next_number(
                Regulation.objects.all(), f"REG-{town.slug[:3].upper()}-{today.year}-"
            ),
            title=title,
            text=text,
            settings=settings,
            supersedes=supersedes,
            drafted_by=actor,
        )
        audit(
            actor,
            reg,
            "regulation.draft",
            SECTION,
            f"Draft regulation {reg.number}: {reg.title}"
            + (f", a new version of {supersedes.number}" if supersedes else ""),
            settings=settings,
        )
    return reg


def hearing_notice_html(reg: Regulation) -> str:
    """The legal notice of the hearing, as the newspaper prints it (made a PDF by the worker)."""
    hearing_at = _local(reg.hearing_at)
    notice_by = regulations_hearing_notice_by(
        hearing_at.date(), as_of=hearing_at.date(), town=town_parameters(reg.town)
    )
    return get_template(NOTICE_TEMPLATE).render(
        {
            "town": reg.town,
            "regulation": reg,
            "hearing_at": hearing_at,
            "notice_by": notice_by.outcome,
            "days": next(
                u.value for u in notice_by.parameters if u.name.endswith("notice_days_before")
            ),
            "medium": next(
                u.value for u in notice_by.parameters if u.name.endswith("notice_medium")
            ),
        }
    )


def hearing_schedule(
    reg: Regulation,
    *,
    actor,
    hearing_at: dt.datetime,
    location: str,
    today: dt.date | None = None,
) -> Regulation:
    """Set (or set again) the public hearing on the draft, and make its legal notice; a hearing
    set again must be advertised again (§ 267-17B)."""
    require(actor, "regulation.hearing", reg)
    today = _today(today)
    location = location.strip()
    if not location:
        raise InputError("location", location, "say where the hearing is held", SECTION)
    if _local(hearing_at).date() < today:
        raise InputError(
            "hearing_at", _local(hearing_at).date().isoformat(), "is in the past", SECTION
        )
    with write_lock(reg) as locked:
        state = _take(locked, "schedule_hearing", regulation_facts(locked))
        save_fields(
            locked,
            state=state,
            hearing_at=hearing_at,
            hearing_location=location,
            newspaper="",
            advertised_on=None,
            advertisement={},
            notice=None,
        )
        file_pdf_later(
            locked,
            "notice",
            f"{locked.number}-hearing-notice",
            hearing_notice_html(locked),
            label=f"Legal notice of the hearing on {locked.number}",
            actor=actor,
        )
        audit(
            actor,
            locked,
            "regulation.hearing",
            SECTION,
            f"Public hearing on {locked.number} set for {_local(hearing_at):%Y-%m-%d %H:%M} at "
            f"{location}",
            hearing_at=hearing_at.isoformat(),
            location=location,
        )
    return locked


def advertisement_record(
    reg: Regulation,
    *,
    actor,
    newspaper: str,
    advertised_on: dt.date,
    today: dt.date | None = None,
) -> Regulation:
    """The newspaper advertisement of the hearing date, refused unless it ran at least the
    law's days before the hearing (§ 267-17B)."""
    require(actor, "regulation.hearing", reg)
    _not_after("advertised_on", advertised_on, _today(today))
    newspaper = newspaper.strip()
    with write_lock(reg) as locked:
        facts = regulation_facts(locked, newspaper=newspaper, advertised_on=advertised_on)
        state = _take(locked, "record_advertisement", facts)
        det = regulations_advertisement(
            facts.hearing_on, advertised_on, as_of=advertised_on, town=facts.town
        )
        save_fields(
            locked,
            state=state,
            newspaper=newspaper,
            advertised_on=advertised_on,
            advertisement=determination_snapshot(det),
        )
        audit(
            actor,
            locked,
            "regulation.advertisement",
            SECTION,
            f"Hearing on {locked.number} advertised in {newspaper} on {advertised_on.isoformat()}, "
            f"{det.details['days_before']} days before it",
            newspaper=newspaper,
            advertised_on=advertised_on.isoformat(),
        )
    return locked


def vote_record(
    reg: Regulation,
    *,
    actor,
    voted_on: dt.date,
    present: int,
    recused: int,
    ayes: int,
    nays: int,
    abstaining: int = 0,
    today: dt.date | None = None,
) -> Regulation:
    """The Board's vote on the draft after its hearing; the law counts it (§ 267-17B, the town's
    quorum and majority rule): carried, the draft awaits adoption; not, it is not adopted."""
    require(actor, "regulation.vote", reg)
    _not_after("voted_on", voted_on, _today(today))
    town = town_parameters(reg.town)
    det = s267_18_procedure.board_vote(
        present=present,
        recused=recused,
        ayes=ayes,
        nays=nays,
        abstaining=abstaining,
        matter="regulation",
        as_of=voted_on,
        town=town,
    )
    carried = det.outcome.carried
    with write_lock(reg) as locked:
        facts = regulation_facts(locked, voted_on=voted_on, carried=carried)
        state = _take(locked, "vote_carried" if carried else "vote_failed", facts)
        save_fields(
            locked,
            state=state,
            voted_on=voted_on,
            present=present,
            recused=recused,
            ayes=ayes,
            nays=nays,
            abstaining=abstaining,
            vote=determination_snapshot(det),
        )
        audit(
            actor,
            locked,
            "regulation.vote",
            SECTION,
            f"Board vote on {locked.number} on {voted_on.isoformat()}: {ayes} aye, {nays} nay, "
            f"{abstaining} abstaining, {recused} recused — "
            + ("carried" if carried else "did not carry"),
            carried=carried,
        )
    return locked


def regulation_adopt(
    reg: Regulation, *, actor, effective_on: dt.date, today: dt.date | None = None
) -> Regulation:
    """Adopt the voted version from `effective_on` (never before the vote); from then it is the
    town's override layer for the values it sets, and it supersedes the version it names."""
    require(actor, "regulation.adopt", reg)
    today = _today(today)
    with write_lock(reg) as locked:
        state = _take(locked, "adopt", regulation_facts(locked, effective_on=effective_on))
        for s in locked.settings:
            regulation_setting_checked(
                s["name"], s["value"], as_of=effective_on, town=town_parameters(locked.town)
            )
        save_fields(locked, state=state, effective_on=effective_on, adopted_on=today)
        audit(
            actor,
            locked,
            "regulation.adopt",
            SECTION,
            f"Regulation {locked.number} ({locked.title}) adopted, in force from "
            f"{effective_on.isoformat()}"
            + (f", superseding {locked.supersedes.number}" if locked.supersedes else ""),
            public=True,
            effective_on=effective_on.isoformat(),
        )
    return locked


def data_value_confirm(
    *,
    town,
    actor,
    figure: str,
    value: float,
    source: str,
    today: dt.date | None = None,
) -> DataConfirmation:
    """A reviewer's confirmation of a figure of the engineering tables, read from `source`
    (§ 267-19B(3): design to the 2008 Massachusetts Stormwater Handbook): from today later site
    reviews of the town read it instead of the table's row, naming it as the value's layer."""
    require(actor, "data.confirm", town=town)
    today = _today(today)
    row = confirmable_value(figure)
    value = confirmed_value_checked(figure, value)
    source = " ".join((source or "").split())
    if not source:
        raise InputError(
            "source", source, "name where the value was read (document, table, page)", DATA_SECTION
        )
    with transaction.atomic():
        lock_row(town)
        confirmation = DataConfirmation.objects.create(
            town=town,
            figure=figure,
            value=value,
            source=source[:300],
            confirmed_on=today,
            confirmed_by=actor,
        )
        audit(
            actor,
            confirmation,
            "data.confirm",
            DATA_SECTION,
            f"{row.label} confirmed as {value:g} {row.unit} (the table held {row.value:g}) "
            f"against {confirmation.source}",
            figure=figure,
            value=value,
            table_value=row.value,
            source=confirmation.source,
        )
    return confirmation
