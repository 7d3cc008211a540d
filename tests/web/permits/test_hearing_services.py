"""The hearing and the decision as the law runs them (§ 267-18E–G, § 267-23C), through the services.

One case runs through the Board's calendar: complete on 2026-02-02 (so the hearing must open by
2026-03-19), heard on 2026-03-10 (notice due by 2026-03-03), continued on opening night to
2026-03-17, closed on 2026-03-24 (final action due by 2026-04-14), decided on 2026-04-07.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.utils import timezone
from pypdf import PdfReader

from outfall.compliance.lifecycle import TransitionNotAllowed
from outfall.kernel.errors import InputError
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.core.roles import Role
from outfall.web.apps.kit.refusals import Refused
from outfall.web.apps.permits.models import (
    Abutter,
    Application,
    DeterminationRecord,
    Hearing,
    WaiverRequest,
)
from outfall.web.apps.permits.selectors.board import board_business
from outfall.web.apps.permits.services import board
from outfall.web.apps.permits.services import hearing as services

pytestmark = pytest.mark.django_db

COMPLETE = dt.date(2026, 2, 2)
HEARING_DAY = dt.date(2026, 3, 10)
NOTICE_BY = dt.date(2026, 3, 3)
CONTINUED_TO = dt.date(2026, 3, 17)
CLOSED = dt.date(2026, 3, 24)
DECISION_BY = dt.date(2026, 4, 14)
VOTED = dt.date(2026, 4, 7)
STAGES = (
    "complete",
    "scheduled",
    "noticed",
    "open",
    "continued",
    "closed",
    "decided",
    "filed",
    "issued",
)


def at(day: dt.date, hour: int = 19, minute: int = 0) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour, minute)))


class Clock:
    """Sets the day the application believes it is (timezone.localdate), never the wall clock."""

    def __init__(self, monkeypatch):
        self.day = COMPLETE
        original = timezone.localdate

        def localdate(value=None, timezone=None):
            return self.day if value is None else original(value, timezone)

        monkeypatch.setattr("django.utils.timezone.localdate", localdate)

    def set(self, day: dt.date) -> Clock:
        self.day = day
        return self


@pytest.fixture
def clock(monkeypatch) -> Clock:
    return Clock(monkeypatch)


def new_case(make_application, applicant, *, abutters: int = 2, waivers: int = 0, **fields):
    values = {
        "state": "complete",
        "complete_on": COMPLETE,
        "law_date": dt.date(2026, 1, 15),
        "parcel_id": "14-22",
    }
    values.update(fields)
    application = make_application(applicant, **values)
    for n in range(abutters):
        Abutter.objects.create(
            application=application,
            parcel_id=f"14-{30 + n}",
            name=f"Abutter Number{n + 1}",
            mailing_address=f"{10 + n} Pond Street\nNorfolk, MA 02056",
        )
    for n in range(waivers):
        WaiverRequest.objects.create(
            application=application,
            requirement=f"§ 267-19A item {n + 1}",
            reasons="The item does not serve the bylaw's purpose on this lot.",
            submitted_on=COMPLETE,
        )
    return application


def board_of_three(people) -> list:
    """The Norfolk Board members who sit: the fixture's member and two more (three of five is
    the quorum under the town's rule)."""
    from tests.web.conftest import make_user

    members = [people["board"]]
    for name in ("board_two", "board_three"):
        if name not in people:
            people[name] = make_user(name, people["board"].memberships.get().town, Role.BOARD)
        members.append(people[name])
    return members


def all_vote(application: Application, people, vote: str) -> None:
    """Every sitting member votes `vote` on every question before the Board now."""
    matters = board_business(application).matters
    if not matters:
        return
    for member in board_of_three(people):
        board.board_vote_cast(application, votes={m.key: vote for m in matters}, actor=member)


def advance(application: Application, stage: str, people, clock: Clock) -> Application:
    """Run the case through every step up to `stage`, each on its day, as the real roles do."""
    clerk = people["clerk"]
    target = STAGES.index(stage)
    done = stage_reached(application)
    if done < 1 <= target:
        clock.set(dt.date(2026, 2, 10))
        services.hearing_schedule(
            application, scheduled_for=at(HEARING_DAY), location="Town Hall", actor=clerk
        )
    if done < 2 <= target:
        clock.set(dt.date(2026, 3, 2))
        services.hearing_notice_record(
            application,
            newspaper="Country Gazette",
            published_on=dt.date(2026, 3, 2),
            posted_on=dt.date(2026, 3, 2),
            actor=clerk,
        )
        clock.set(NOTICE_BY)
        services.hearing_mailing_record(application, mailed_on=NOTICE_BY, actor=clerk)
    if done < 3 <= target:
        clock.set(HEARING_DAY)
        services.hearing_open(application, opened_on=HEARING_DAY, actor=clerk)
    if done < 4 <= target:
        services.hearing_continue(
            application, held_on=HEARING_DAY, continued_to=at(CONTINUED_TO), actor=clerk
        )
    if done < 5 <= target:
        clock.set(CLOSED)
        all_vote(application, people, "yes")
        services.hearing_close(application, closed_on=CLOSED, actor=clerk)
    if done < 6 <= target:
        clock.set(VOTED)
        services.decision_record(
            application,
            kind="approve_with_conditions",
            voted_on=VOTED,
            findings="The plan meets § 267-19B.",
            conditions=[("perpetual", "Sweep the outlet apron twice a year.")],
            actor=clerk,
        )
        all_vote(application, people, "yes")
        services.decision_issue(application, issued_on=VOTED, actor=clerk)
    if done < 7 <= target:
        clock.set(VOTED + dt.timedelta(days=1))
        services.decision_file_with_town_clerk(
            application, filed_on=VOTED + dt.timedelta(days=1), actor=clerk
        )
    if done < 8 <= target:
        clock.set(VOTED + dt.timedelta(days=2))
        services.permit_issue(
            application, issued_on=VOTED + dt.timedelta(days=2), number="SMP-2026-7", actor=clerk
        )
    application.refresh_from_db()
    return application


def stage_reached(application: Application) -> int:
    """How far along STAGES the case already is (so `advance` can pick up where it stands)."""
    application.refresh_from_db()
    hearing = Hearing.objects.filter(application=application).first()
    state = application.state
    if state == "complete":
        return 0
    if state == "hearing_scheduled":
        return 2 if hearing.abutters_mailed_on else 1
    if state == "hearing_open":
        return 4 if hearing.sessions.exclude(continued_to=None).exists() else 3
    if state == "hearing_closed":
        return 5
    if state == "issued":
        return 8
    decision = application.decision
    return 7 if decision.filed_with_town_clerk_on else 6


def pdf_text(field_file) -> str:
    field_file.open("rb")
    try:
        text = "\n".join(page.extract_text() for page in PdfReader(field_file).pages)
    finally:
        field_file.close()
    return " ".join(text.replace("-\n", "-").split())


# ---- scheduling (§ 267-18E) ----


def test_a_hearing_cannot_be_scheduled_before_the_application_was_complete(
    people, make_application, clock
):
    application = new_case(make_application, people["applicant"])
    with pytest.raises(InputError) as err:
        services.hearing_schedule(
            application,
            scheduled_for=at(dt.date(2026, 1, 30)),
            location="Town Hall",
            actor=people["clerk"],
        )
    assert err.value.field == "scheduled_for"
    assert "2026-02-02" in err.value.why
    assert err.value.citation == "§ 267-18E"
    assert not Hearing.objects.exists()


def test_an_application_complete_on_2_february_must_have_its_hearing_opened_by_19_march(
    people, make_application, clock
):
    application = new_case(make_application, people["applicant"])
    with pytest.raises(InputError) as err:
        services.hearing_schedule(
            application,
            scheduled_for=at(dt.date(2026, 3, 20)),
            location="Town Hall",
            actor=people["clerk"],
        )
    assert err.value.field == "acknowledge_late"
    assert "2026-03-19" in err.value.why
    services.hearing_schedule(
        application,
        scheduled_for=at(dt.date(2026, 3, 19)),
        location="Town Hall",
        actor=people["clerk"],
    )
    application.refresh_from_db()
    assert application.state == "hearing_scheduled"


def test_a_late_hearing_may_be_scheduled_only_with_the_boards_risk_acknowledged_and_flagged(
    people, make_application, clock
):
    application = new_case(make_application, people["applicant"])
    services.hearing_schedule(
        application,
        scheduled_for=at(dt.date(2026, 3, 24)),
        location="Town Hall",
        late_acknowledged=True,
        actor=people["clerk"],
    )
    event = AuditEvent.objects.get(action="schedule_hearing")
    assert "LATE" in event.summary
    assert event.changes["late_hearing"] is True
    assert DeterminationRecord.objects.filter(application=application).exists()


def test_a_hearing_at_eight_in_a_winter_evening_is_heard_on_its_own_day_not_the_utc_one(
    people, make_application, clock
):
    application = new_case(make_application, people["applicant"])
    services.hearing_schedule(
        application,
        scheduled_for=at(dt.date(2026, 3, 3), hour=20, minute=30),
        location="Town Hall",
        actor=people["clerk"],
    )
    from outfall.web.apps.permits.facts import permit_facts

    application.refresh_from_db()
    assert permit_facts(application).hearing_on == dt.date(2026, 3, 3)


def test_moving_the_hearing_voids_the_notices_given_for_the_old_date(
    people, make_application, clock
):
    application = advance(new_case(make_application, people["applicant"]), "noticed", people, clock)
    services.hearing_schedule(
        application,
        scheduled_for=at(dt.date(2026, 3, 17)),
        location="Town Hall",
        actor=people["clerk"],
    )
    hearing = Hearing.objects.get(application=application)
    assert hearing.notice_published_on is None and hearing.abutters_mailed_on is None


def test_scheduling_tells_the_applicant_after_commit(
    people, make_application, clock, django_capture_on_commit_callbacks
):
    application = new_case(make_application, people["applicant"])
    with django_capture_on_commit_callbacks(execute=True):
        services.hearing_schedule(
            application, scheduled_for=at(HEARING_DAY), location="Town Hall", actor=people["clerk"]
        )
    assert [m.to for m in mail.outbox] == [["applicant@example.org"]]
    assert "2026-03-10" in mail.outbox[0].body


# ---- notice (§ 267-18E) ----


def test_a_hearing_noticed_only_6_days_before_cannot_be_opened(people, make_application, clock):
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    six_days_before = HEARING_DAY - dt.timedelta(days=6)
    clock.set(six_days_before)
    services.hearing_notice_record(
        application,
        newspaper="Country Gazette",
        published_on=six_days_before,
        posted_on=six_days_before,
        actor=people["clerk"],
    )
    services.hearing_mailing_record(application, mailed_on=six_days_before, actor=people["clerk"])
    clock.set(HEARING_DAY)
    with pytest.raises(TransitionNotAllowed) as refused:
        services.hearing_open(application, opened_on=HEARING_DAY, actor=people["clerk"])
    assert refused.value.reasons[0].citation == "§ 267-18E"
    assert "2026-03-03" in refused.value.reasons[0].text
    hearing = Hearing.objects.get(application=application)
    assert hearing.opened_on is None and not hearing.sessions.exists()
    application.refresh_from_db()
    assert application.state == "hearing_scheduled"


def test_a_hearing_noticed_7_days_before_by_all_three_means_may_be_opened(
    people, make_application, clock
):
    application = advance(new_case(make_application, people["applicant"]), "open", people, clock)
    assert application.state == "hearing_open"


def test_a_hearing_without_the_abutter_mailing_cannot_be_opened(people, make_application, clock):
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    clock.set(dt.date(2026, 3, 2))
    services.hearing_notice_record(
        application,
        newspaper="Country Gazette",
        published_on=dt.date(2026, 3, 2),
        posted_on=dt.date(2026, 3, 2),
        actor=people["clerk"],
    )
    clock.set(HEARING_DAY)
    with pytest.raises(TransitionNotAllowed) as refused:
        services.hearing_open(application, opened_on=HEARING_DAY, actor=people["clerk"])
    assert "not been recorded" in refused.value.reasons[0].text


def test_a_notice_cannot_be_recorded_as_given_after_the_hearing_or_in_the_future(
    people, make_application, clock
):
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    clock.set(dt.date(2026, 3, 1))
    with pytest.raises(InputError) as err:
        services.hearing_notice_record(
            application, posted_on=dt.date(2026, 3, 2), actor=people["clerk"]
        )
    assert err.value.field == "posted_on"


def test_abutters_cannot_be_mailed_when_the_certified_list_names_none(
    people, make_application, clock
):
    application = advance(
        new_case(make_application, people["applicant"], abutters=0), "scheduled", people, clock
    )
    with pytest.raises(InputError) as err:
        services.hearing_mailing_record(
            application, mailed_on=dt.date(2026, 2, 10), actor=people["clerk"]
        )
    assert err.value.field == "abutters" and err.value.citation == "§ 267-18E"


def test_the_legal_notice_is_a_real_public_pdf_with_the_hearing_date_and_the_site(
    people, make_application, clock
):
    application = advance(
        new_case(make_application, people["applicant"]), "scheduled", people, clock
    )
    doc = services.hearing_notice_generate(application, actor=people["clerk"])
    text = pdf_text(doc.file)
    assert doc.public and doc.kind == "hearing_notice"
    assert "March 10, 2026" in text and "p.m." in text
    assert application.site_address in text


def test_one_abutter_letter_per_abutter_with_the_hearing_date_and_site(
    people, make_application, clock
):
    application = advance(
        new_case(make_application, people["applicant"], abutters=3), "scheduled", people, clock
    )
    doc = services.abutter_letters_generate(application, actor=people["clerk"])
    doc.file.open("rb")
    pages = [p.extract_text() for p in PdfReader(doc.file).pages]
    doc.file.close()
    assert not doc.public
    for n in (1, 2, 3):
        letters = [p for p in pages if f"Abutter Number{n}" in p]
        assert len(letters) == 1
        assert "March 10, 2026" in letters[0] and application.site_address in letters[0]


# ---- the hearing (§ 267-18E, § 267-23C) ----


def test_a_hearing_is_opened_on_the_day_it_was_noticed_for(people, make_application, clock):
    application = advance(new_case(make_application, people["applicant"]), "noticed", people, clock)
    clock.set(dt.date(2026, 3, 11))
    with pytest.raises(InputError) as err:
        services.hearing_open(application, opened_on=dt.date(2026, 3, 11), actor=people["clerk"])
    assert err.value.field == "opened_on" and "2026-03-10" in err.value.why


def test_a_continued_hearing_keeps_each_sitting(people, make_application, clock):
    application = advance(
        new_case(make_application, people["applicant"]), "continued", people, clock
    )
    sessions = list(application.hearing.sessions.order_by("held_on"))
    assert [s.held_on for s in sessions] == [HEARING_DAY]
    assert timezone.localtime(sessions[0].continued_to).date() == CONTINUED_TO
    assert application.state == "hearing_open"


def test_every_waiver_request_is_voted_with_the_date_of_the_close(people, make_application, clock):
    application = advance(
        new_case(make_application, people["applicant"], waivers=2), "closed", people, clock
    )
    votes = list(application.waivers.values_list("granted", "voted_on"))
    assert votes == [(True, CLOSED), (True, CLOSED)]
    assert AuditEvent.objects.filter(action="waiver.voted", section="§ 267-23C").count() == 2


def test_a_hearing_cannot_close_with_a_waiver_request_left_unvoted(people, make_application, clock):
    application = advance(
        new_case(make_application, people["applicant"], waivers=1), "continued", people, clock
    )
    clock.set(CLOSED)
    with pytest.raises(Refused) as err:
        services.hearing_close(application, closed_on=CLOSED, actor=people["clerk"])
    assert err.value.reasons[0].citation == "§ 267-23C"
    application.refresh_from_db()
    assert application.state == "hearing_open" and application.hearing.closed_on is None


def test_closing_on_24_march_puts_final_action_due_on_14_april(people, make_application, clock):
    advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    event = AuditEvent.objects.get(action="close_hearing")
    assert "2026-04-14" in event.summary


# ---- extensions (§ 267-18E) ----


def test_an_agreed_extension_replaces_the_21_day_date(people, make_application, clock):
    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    clock.set(dt.date(2026, 4, 10))
    services.extension_record(
        application,
        agreed_on=dt.date(2026, 4, 10),
        extended_to=dt.date(2026, 5, 12),
        actor=people["clerk"],
    )
    from outfall.web.apps.permits.selectors.hearing import clock_deadline, hearing_clock

    assert clock_deadline(hearing_clock(application), "decision_by").due == dt.date(2026, 5, 12)


def test_an_extension_agreed_after_the_time_ran_out_cannot_revive_it(
    people, make_application, clock
):
    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    clock.set(dt.date(2026, 4, 20))
    with pytest.raises(InputError) as err:
        services.extension_record(
            application,
            agreed_on=dt.date(2026, 4, 20),
            extended_to=dt.date(2026, 5, 12),
            actor=people["clerk"],
        )
    assert err.value.field == "agreed_on" and err.value.citation == "§ 267-18G"


# ---- decision (§ 267-18F) and constructive approval (§ 267-18G) ----


def test_an_approval_with_conditions_files_a_decision_pdf_with_its_conditions(
    people, make_application, clock, django_capture_on_commit_callbacks
):
    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    with django_capture_on_commit_callbacks(execute=True):
        advance(application, "decided", people, clock)
    doc = application.documents.get(kind="decision")
    text = pdf_text(doc.file)
    assert application.state == "approved_with_conditions"
    assert "Sweep the outlet apron" in text and application.site_address in text
    assert not doc.public
    assert mail.outbox[-1].to == ["applicant@example.org"]


def test_an_approval_with_conditions_needs_its_conditions(people, make_application, clock):
    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    clock.set(VOTED)
    with pytest.raises(InputError) as err:
        services.decision_record(
            application, kind="approve_with_conditions", voted_on=VOTED, actor=people["clerk"]
        )
    assert err.value.field == "condition_1" and err.value.citation == "§ 267-18F(2)"


def test_a_decision_voted_after_the_time_ran_out_is_refused_as_approval_by_inaction(
    people, make_application, clock
):
    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    clock.set(dt.date(2026, 4, 15))
    with pytest.raises(InputError) as err:
        services.decision_record(
            application,
            kind="disapprove",
            voted_on=dt.date(2026, 4, 15),
            findings="Peak rates exceed predevelopment.",
            actor=people["clerk"],
        )
    assert err.value.citation == "§ 267-18G"
    application.refresh_from_db()
    assert application.state == "hearing_closed"


def test_filing_with_the_town_clerk_makes_the_decision_public(people, make_application, clock):
    application = advance(new_case(make_application, people["applicant"]), "filed", people, clock)
    assert application.documents.get(kind="decision").public
    assert application.clerk_filings.filter(what__icontains="decision").exists()


def test_issuing_the_permit_files_the_permit_pdf_with_its_number_and_conditions(
    people, make_application, clock
):
    application = advance(new_case(make_application, people["applicant"]), "issued", people, clock)
    assert application.state == "issued"
    latest = application.documents.filter(kind="decision").order_by("-id").first()
    text = pdf_text(latest.file)
    assert latest.public and "SMP-2026-7" in text and "Sweep the outlet apron" in text


def test_a_town_clerk_cannot_certify_constructive_approval_before_the_day_after_the_decision_deadline(
    people, make_application, clock
):
    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    clock.set(DECISION_BY)
    with pytest.raises(InputError) as err:
        services.constructive_approval_certify(
            application, certified_on=DECISION_BY, actor=people["town_clerk"]
        )
    assert err.value.citation == "§ 267-18G" and "2026-04-15" in err.value.why
    application.refresh_from_db()
    assert application.state == "hearing_closed"


def test_a_town_clerk_certifies_on_the_day_after_the_decision_deadline_and_the_permit_must_issue(
    people, make_application, clock, django_capture_on_commit_callbacks
):
    application = advance(new_case(make_application, people["applicant"]), "closed", people, clock)
    clock.set(DECISION_BY + dt.timedelta(days=1))
    with django_capture_on_commit_callbacks(execute=True):
        record = services.constructive_approval_certify(
            application, certified_on=DECISION_BY + dt.timedelta(days=1), actor=people["town_clerk"]
        )
    assert record.deadline_missed == DECISION_BY
    application.refresh_from_db()
    assert application.state == "constructively_approved"
    assert set(mail.outbox[-1].to) == {"applicant@example.org", "clerk@example.org"}
    services.permit_issue(
        application,
        issued_on=DECISION_BY + dt.timedelta(days=1),
        number="SMP-CA-1",
        actor=people["clerk"],
    )
    application.refresh_from_db()
    assert application.state == "issued"
    text = pdf_text(application.documents.filter(kind="decision").latest("id").file)
    assert "failure to act" in text and "SMP-CA-1" in text


def test_with_no_hearing_opened_the_time_runs_out_the_day_after_the_hearing_had_to_open(
    people, make_application, clock
):
    application = new_case(make_application, people["applicant"])
    clock.set(dt.date(2026, 3, 19))
    with pytest.raises(InputError):
        services.constructive_approval_certify(
            application, certified_on=dt.date(2026, 3, 19), actor=people["town_clerk"]
        )
    clock.set(dt.date(2026, 3, 20))
    services.constructive_approval_certify(
        application, certified_on=dt.date(2026, 3, 20), actor=people["town_clerk"]
    )
    application.refresh_from_db()
    assert application.state == "constructively_approved"


def test_while_the_hearing_is_open_no_certification_can_be_made(people, make_application, clock):
    application = advance(new_case(make_application, people["applicant"]), "open", people, clock)
    clock.set(dt.date(2026, 6, 1))
    with pytest.raises(TransitionNotAllowed) as refused:
        services.constructive_approval_certify(
            application, certified_on=dt.date(2026, 6, 1), actor=people["town_clerk"]
        )
    assert refused.value.reasons[0].citation == "§ 267-18G"
    assert (
        not Application.objects.get(pk=application.pk)
        .__class__.objects.filter(constructive_approval__isnull=False)
        .exists()
    )
