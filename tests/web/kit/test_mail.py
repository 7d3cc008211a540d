"""Mail goes through the outbox (issue 10): a report filed by Open311 or by the resident's form
writes the report and one send-mail job in one transaction and answers at once, without
touching the mail server; the worker sends it. A mail server that refuses connections, or
accepts and never answers, never fails, slows or repeats the write: the job is tried again after
a wait, then failed where the town's administrators see it — still one report, one job.
(It used to answer 500 with the report created, so the 311 app filed it again, or hang 45 s.)"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import transaction
from django_tasks_db.models import DBTaskResult

from outfall.web.apps.idde.models import Report
from outfall.web.apps.jobs.models import Job
from outfall.web.apps.kit.mail import mail_on_commit
from tests.web.idde.reports_support import report_post
from tests.web.jobs.outbox import free_port, queue, run_worker, silent_mail_server, smtp

pytestmark = pytest.mark.django_db(transaction=True)  # real commits, as the worker sees them
__all__ = ["queue", "smtp"]
URL = "/open311/v2/requests.json"
FILED = {
    "service_code": "illicit_discharge",
    "address_string": "1 Liberty Lane",
    "description": "Oily sheen at the catch basin",
    "email": "resident@example.org",
}


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def the_mail_job() -> Job:
    (job,) = Job.objects.filter(work="outfall.web.apps.kit.mail.send_mail")
    return job


def test_an_open311_report_is_answered_at_once_with_its_mail_waiting_in_the_outbox(
    client, norfolk, queue, smtp
):
    smtp.EMAIL_PORT = free_port()  # nothing listens: the request must not even try
    response = client.post(URL, FILED)
    assert response.status_code == 201
    report = Report.objects.get()
    job = the_mail_job()
    assert job.status == Job.Status.QUEUED and job.attempts == 0
    assert job.town == norfolk and job.record_label == f"Report {report.tracking_number}"
    assert job.args["to"] == ["resident@example.org"]
    assert DBTaskResult.objects.filter(status="READY").count() == 1
    assert mail.outbox == []


def test_a_refusing_mail_server_leaves_one_report_one_job_waiting_to_try_again(
    client, norfolk, queue, smtp
):
    smtp.EMAIL_PORT = free_port()
    assert client.post(URL, FILED).status_code == 201
    run_worker()
    job = the_mail_job()
    assert job.status == Job.Status.RETRYING and job.attempts == 1
    assert "ConnectionRefusedError" in job.last_error
    assert job.next_attempt_at - job.finished_at == dt.timedelta(seconds=30)
    run_worker()  # the next try is not due yet: nothing runs twice
    job.refresh_from_db()
    assert job.attempts == 1
    assert Report.objects.count() == 1 and Job.objects.count() == 1


def test_each_wait_doubles_and_after_the_last_try_the_job_is_failed_not_repeated(
    client, norfolk, queue, smtp
):
    smtp.EMAIL_PORT = free_port()
    smtp.OUTFALL_JOB_BACKOFF_SECONDS = 0  # every retry due at once: the worker runs them all
    assert client.post(URL, FILED).status_code == 201
    run_worker()
    job = the_mail_job()
    assert job.status == Job.Status.FAILED
    assert job.attempts == job.max_attempts == 5
    assert "ConnectionRefusedError" in job.last_error
    assert DBTaskResult.objects.filter(status="FAILED").count() == 5
    assert not DBTaskResult.objects.filter(status="READY").exists()
    assert Report.objects.count() == 1 and Job.objects.count() == 1


def test_the_wait_between_tries_doubles(queue, norfolk):
    from outfall.web.apps.jobs.services import _backoff

    assert [_backoff(n).total_seconds() for n in (1, 2, 3, 4)] == [30, 60, 120, 240]


def test_a_mail_server_that_never_answers_is_not_reached_by_the_request_and_holds_the_worker_only_to_the_timeout(
    client, norfolk, queue, smtp
):
    with silent_mail_server() as (port, held):
        smtp.EMAIL_PORT = port
        response = client.post(URL, FILED)
        assert response.status_code == 201
        assert held == []  # the request never spoke to the mail server
        run_worker()
        assert held  # the worker did, and gave up after EMAIL_TIMEOUT
    job = the_mail_job()
    assert job.status == Job.Status.RETRYING and job.attempts == 1
    assert "timed out" in job.last_error
    assert Report.objects.count() == 1


def test_the_residents_form_files_one_report_and_one_job_with_a_silent_mail_server(
    client, norfolk, queue, smtp
):
    with silent_mail_server() as (port, held):
        smtp.EMAIL_PORT = port
        response = client.post("/report/", report_post())
        assert response.status_code == 302
        assert held == []
        run_worker()
    assert Report.objects.count() == 1
    job = the_mail_job()
    assert job.status == Job.Status.RETRYING and job.attempts == 1


def test_the_worker_sends_the_mail_once_the_server_answers(client, norfolk, queue):
    assert client.post(URL, FILED).status_code == 201
    assert mail.outbox == []
    run_worker()
    run_worker()
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["resident@example.org"]
    job = the_mail_job()
    assert job.status == Job.Status.DONE and job.attempts == 1 and job.last_error == ""


def test_a_write_that_rolls_back_leaves_no_mail_in_the_outbox(norfolk, queue):
    with pytest.raises(RuntimeError), transaction.atomic():
        mail_on_commit("Rolled back", "never sent", ["a@example.org"], about=norfolk)
        assert Job.objects.count() == 1  # in the transaction, beside the record
        raise RuntimeError("the service refused after queueing its mail")
    assert not Job.objects.exists() and not DBTaskResult.objects.exists()
    run_worker()
    assert mail.outbox == []


def test_the_immediate_test_backend_sends_only_after_the_commit(norfolk, settings):
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    with transaction.atomic():
        mail_on_commit("After commit", "body", ["a@example.org", "a@example.org", ""])
        assert mail.outbox == []
    assert [m.to for m in mail.outbox] == [["a@example.org"]]
    assert Job.objects.get().status == Job.Status.DONE
