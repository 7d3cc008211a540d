"""Daily reminders: who is e-mailed which clocks, once a day, and the cron command."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core import mail
from django.core.mail import EmailMessage
from django.core.management import CommandError, call_command

from outfall.web.apps.core.models import Membership
from outfall.web.apps.deadlines.models import ReminderSent
from outfall.web.apps.deadlines.services import deadline_reminders_send
from outfall.web.apps.jobs.models import Job
from tests.web.conftest import make_user
from tests.web.deadlines.conftest import D

# Real commits: the reminders' mail leaves through the outbox once the run's transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

WARNING_DAY = D(2026, 3, 12)  # 7 days before the hearing must open (19 March)
QUIET_DAY = D(2026, 2, 10)  # every clock more than a month away


def _recipients():
    return sorted(m.to[0].split("@")[0] for m in mail.outbox)


def test_staff_who_receive_reminders_and_the_applicant_are_emailed_clocks_due_soon(
    people, complete_case
):
    complete_case()
    run = deadline_reminders_send(today=WARNING_DAY)
    assert _recipients() == ["applicant", "board", "clerk", "reviewer", "town_clerk"]
    assert set(run.sent) == set(_recipients())
    body = mail.outbox[0].body
    assert "Public hearing must open" in body and "2026-03-19" in body and "§ 267-18E" in body
    assert "Approved by the Board's failure to act" in body and "§ 267-18G" in body


def test_nobody_is_emailed_when_no_clock_is_due_soon(people, complete_case):
    complete_case()
    deadline_reminders_send(today=QUIET_DAY)
    assert mail.outbox == []
    assert not ReminderSent.objects.exists()


def test_staff_who_opted_out_and_dpw_staff_are_not_emailed(people, complete_case):
    complete_case()
    Membership.objects.filter(user=people["board"]).update(receives_reminders=False)
    deadline_reminders_send(today=WARNING_DAY)
    assert "board" not in _recipients()
    assert "dpw_staff" not in _recipients() and "dpw_director" not in _recipients()


def test_an_applicant_is_emailed_only_their_own_cases(people, complete_case):
    mine = complete_case(people["applicant"])
    theirs = complete_case(people["other_applicant"])
    deadline_reminders_send(today=WARNING_DAY)
    to_applicant = next(m for m in mail.outbox if m.to == ["applicant@example.org"])
    assert mine.number in to_applicant.body and theirs.number not in to_applicant.body
    to_clerk = next(m for m in mail.outbox if m.to == ["clerk@example.org"])
    assert mine.number in to_clerk.body and theirs.number in to_clerk.body


def test_staff_are_emailed_only_their_own_town(people, complete_case, exampleton):
    outsider = make_user("exampleton_clerk", exampleton, "clerk")
    complete_case()
    deadline_reminders_send(today=WARNING_DAY)
    assert outsider.email not in [m.to[0] for m in mail.outbox]


def test_a_second_run_on_the_same_day_sends_nothing_and_the_next_day_sends_again(
    people, complete_case
):
    complete_case()
    deadline_reminders_send(today=WARNING_DAY)
    first = len(mail.outbox)
    again = deadline_reminders_send(today=WARNING_DAY)
    assert len(mail.outbox) == first
    assert again.sent == {} and len(again.already_sent) == first
    deadline_reminders_send(today=D(2026, 3, 13))
    assert len(mail.outbox) == 2 * first


def test_a_refused_reminder_is_recorded_with_its_job_which_fails_visibly_and_is_not_queued_twice(
    people, complete_case, monkeypatch
):
    complete_case()
    real_send = EmailMessage.send

    def refuse_the_clerk(self, fail_silently=False):
        if self.to == ["clerk@example.org"]:
            raise OSError("mailbox unavailable")
        return real_send(self, fail_silently)

    monkeypatch.setattr(EmailMessage, "send", refuse_the_clerk)
    run = deadline_reminders_send(today=WARNING_DAY)
    assert "clerk" in run.sent and "clerk" not in _recipients() and len(mail.outbox) == 4
    assert ReminderSent.objects.filter(user=people["clerk"]).exists()
    job = Job.objects.get(args__to=["clerk@example.org"])
    assert job.status == Job.Status.FAILED and "mailbox unavailable" in job.last_error
    again = deadline_reminders_send(today=WARNING_DAY)
    assert "clerk" in again.already_sent
    assert Job.objects.filter(args__to=["clerk@example.org"]).count() == 1


def test_the_reminder_shows_the_raw_date_when_a_deadline_moved(people, complete_case):
    complete_case(complete_on=D(2026, 2, 4))  # 45th day is Saturday 21 March
    deadline_reminders_send(today=D(2026, 3, 16))
    body = next(m for m in mail.outbox if m.to == ["clerk@example.org"]).body
    assert "due 2026-03-23 (raw date 2026-03-21" in body


def test_the_cron_command_reports_what_it_sent_and_is_idempotent(people, complete_case):
    complete_case()
    out = StringIO()
    call_command("send_deadline_reminders", "--date", "2026-03-12", stdout=out)
    assert "5 reminder(s) sent, 0 already sent today" in out.getvalue()
    out = StringIO()
    call_command("send_deadline_reminders", "--date", "2026-03-12", stdout=out)
    assert "0 reminder(s) sent, 5 already sent today" in out.getvalue()
    assert len(mail.outbox) == 5


def test_the_cron_command_names_a_bad_date(people):
    with pytest.raises(CommandError, match="--date '12/03/2026'"):
        call_command("send_deadline_reminders", "--date", "12/03/2026")
