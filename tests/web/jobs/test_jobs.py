"""Background work on the real queue (issue 10): a site review and a filed PDF leave the request
as jobs committed with their record, the person who asked sees queued → done with a link to the
result (an htmx fragment polled until it ends), a failed job is listed for the town's
administrators with its error and the record it concerns, and their Retry is audited."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from outfall.web.apps.audit.models import AuditEvent, AuditVerification
from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.models import EmergencySuspension
from outfall.web.apps.idde.services import suspensions
from outfall.web.apps.jobs.models import Job
from outfall.web.apps.jobs.services import RETRY_SECTION, job_enqueue, job_retry
from outfall.web.apps.kit.mail import (
    AttachmentNotReady,
    mail_on_commit,
    send_mail,
    stored_attachment,
)
from outfall.web.apps.permits.models import SiteReviewRun, Upload
from tests.web.conftest import make_user
from tests.web.jobs.outbox import free_port, queue, run_worker, smtp
from tests.web.permits.test_intake_fixtures import (
    SITE_FILE,
    complete_package,
    store_upload,
    submitted,
)

pytestmark = pytest.mark.django_db(transaction=True)
__all__ = ["queue", "smtp", "submitted"]


@pytest.fixture
def admin(norfolk):
    return make_user("town_admin", norfolk, Role.ADMIN)


def site_file_on(application, text: bytes | None = None) -> Upload:
    data = SITE_FILE.read_bytes() if text is None else text
    return store_upload(
        application, Upload.Kind.SITE_FILE, "site.yaml", data, application.applicant
    )


def order_suspension(norfolk, people):
    return suspensions.suspension_order(
        town=norfolk,
        property_address="77 Industrial Way",
        person_name="Plating Works Inc.",
        ordered_at=timezone.make_aware(dt.datetime(2026, 8, 3, 14, 0)),
        discharge_actual_or_threatened=True,
        imminent_risk=True,
        suspension_necessary=True,
        finding="Cyanide rinse water entering catch basin CB-12.",
        actor=people["dpw_director"],
    )


# ---------------------------------------------------------------- the site review as a job


def test_a_site_review_is_queued_then_run_by_the_worker_and_the_page_links_its_result(
    client, submitted, people, queue
):
    complete_package(submitted)
    site_file_on(submitted)
    client.force_login(people["reviewer"])
    url = reverse("permits:intake_site_reviews", args=[submitted.pk])
    response = client.post(url)
    assert response.status_code == 302
    job = Job.objects.get()
    assert response["Location"] == f"{url}?job={job.pk}"
    assert not SiteReviewRun.objects.exists()  # the review left the request
    queued = client.get(response["Location"]).content.decode()
    assert "Waiting in the queue" in queued and f'hx-get="/jobs/{job.pk}/status/"' in queued

    run_worker()
    run = SiteReviewRun.objects.get()
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.attempts == 1
    assert job.result_url == reverse("permits:intake_site_review", args=[submitted.pk, run.pk])
    fragment = client.get(f"/jobs/{job.pk}/status/", headers={"HX-Request": "true"})
    html = fragment.content.decode()
    assert "Done" in html and f'href="{job.result_url}"' in html and "hx-get" not in html
    assert job.result_label in html and "_" not in job.result_label  # the verdict in words
    assert AuditEvent.objects.filter(action="site_review.run").count() == 1


def test_a_review_the_law_does_not_allow_yet_is_refused_at_once_and_nothing_is_queued(
    client, submitted, people, queue
):
    site_file_on(submitted)  # fees not paid: the Board's review waits (§ 267-18D)
    client.force_login(people["reviewer"])
    response = client.post(reverse("permits:intake_site_reviews", args=[submitted.pk]))
    assert response.status_code == 409 and "§ 267-18D" in response.content.decode()
    assert not Job.objects.exists() and not DBTaskResult.objects.exists()


def test_a_site_file_the_review_refuses_fails_the_job_at_once_with_the_mistake(
    client, submitted, people, queue
):
    complete_package(submitted)
    site_file_on(submitted, b"name: Broken\nsubcatchments: nine\n")
    client.force_login(people["applicant"])
    client.post(reverse("permits:intake_site_reviews", args=[submitted.pk]))
    run_worker()
    job = Job.objects.get()
    assert job.status == Job.Status.FAILED and job.attempts == 1  # trying again cannot help
    assert job.last_error.startswith("the site file has 3 mistakes: project=None: is required")
    assert not SiteReviewRun.objects.exists()
    page = client.get(f"/jobs/{job.pk}/status/").content.decode()
    assert "Failed" in page and "the site file has 3 mistakes" in page


def test_only_the_person_who_asked_and_the_towns_staff_follow_a_job(
    client, submitted, people, queue
):
    complete_package(submitted)
    site_file_on(submitted)
    client.force_login(people["applicant"])
    client.post(reverse("permits:intake_site_reviews", args=[submitted.pk]))
    job = Job.objects.get()
    assert client.get(f"/jobs/{job.pk}/status/").status_code == 200
    client.force_login(people["other_applicant"])
    assert client.get(f"/jobs/{job.pk}/status/").status_code == 404
    client.force_login(people["clerk"])
    assert client.get(f"/jobs/{job.pk}/status/").status_code == 200


# ---------------------------------------------------------------- the record checked on demand


def test_an_on_demand_check_of_the_record_leaves_the_request_for_the_worker(
    client, admin, people, norfolk, queue
):
    """The chain is walked by the worker, not in the request (issue 10, item 4);
    the administrator follows the job until it links back to the page with the result."""
    back = reverse("home:home")
    client.force_login(admin)
    response = client.post(reverse("jobs:verify_audit"), {"town": "norfolk", "next": back})
    job = Job.objects.get()
    assert response["Location"] == reverse("jobs:status", args=[job.pk])
    assert not AuditVerification.objects.exists()  # not checked in the request
    queued = client.get(response["Location"]).content.decode()
    assert "Waiting in the queue" in queued and f'hx-get="/jobs/{job.pk}/status/"' in queued

    run_worker()
    check = AuditVerification.objects.get(town=norfolk)
    assert check.ok and check.how == "on_demand" and check.run_by == admin
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.result_url == back
    fragment = client.get(f"/jobs/{job.pk}/status/", headers={"HX-Request": "true"})
    html = fragment.content.decode()
    assert "hx-get" not in html and f'href="{back}"' in html and "record is intact" in html
    assert AuditEvent.objects.filter(town=norfolk, action="audit.verify").count() == 1


# ---------------------------------------------------------------- PDFs filed by the worker


def test_a_suspension_order_is_committed_with_its_pdf_job_and_the_worker_files_the_pdf_once(
    norfolk, people, queue
):
    s = order_suspension(norfolk, people)
    assert not s.document  # the PDF is the worker's
    job = Job.objects.get(work="outfall.web.apps.kit.documents.file_pdf_job")
    assert job.record_label == f"Emergency suspension no. {s.pk}"  # it has no number field
    run_worker()
    s.refresh_from_db()
    with s.document.open("rb") as fh:
        assert fh.read().startswith(b"%PDF-")
    filed = s.document.name
    job.refresh_from_db()
    assert job.status == Job.Status.DONE
    Job.objects.filter(pk=job.pk).update(status=Job.Status.QUEUED)  # the same try delivered twice
    from outfall.web.apps.jobs.services import job_run

    job_run(job.pk)
    s.refresh_from_db()
    assert s.document.name == filed and EmergencySuspension.objects.count() == 1


def test_a_mail_attaching_a_document_not_yet_filed_waits_for_it(norfolk, people, queue):
    s = order_suspension(norfolk, people)
    mail_on_commit(
        "Order",
        "attached",
        ["plating@example.org"],
        about=s,
        attach=stored_attachment(s, "document", name="order.pdf"),
    )
    mail_job = Job.objects.get(work=send_mail.job_path)
    from outfall.web.apps.jobs.services import job_run

    with pytest.raises(AttachmentNotReady):  # run before the document's job
        job_run(mail_job.pk)
    mail_job.refresh_from_db()
    assert mail_job.status == Job.Status.RETRYING
    assert "AttachmentNotReady" in mail_job.last_error
    queue.OUTFALL_JOB_BACKOFF_SECONDS = 0
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
    run_worker()  # documents run first (higher priority), then the mail finds its attachment
    from django.core import mail

    (sent,) = mail.outbox
    assert sent.attachments[0][0] == "order.pdf" and sent.attachments[0][1].startswith(b"%PDF-")


# ---------------------------------------------------------------- the administrators' page


def failed_mail_job(norfolk, smtp) -> Job:
    smtp.EMAIL_PORT = free_port()
    smtp.OUTFALL_JOB_BACKOFF_SECONDS = 0
    mail_on_commit("Notice", "body", ["owner@example.org"], about=norfolk)
    run_worker()
    job = Job.objects.get()
    assert job.status == Job.Status.FAILED
    return job


def test_failed_jobs_are_listed_for_the_towns_administrators_with_error_and_record(
    client, norfolk, people, admin, queue, smtp
):
    job = failed_mail_job(norfolk, smtp)
    client.force_login(admin)
    page = client.get("/jobs/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "E-mail “Notice” to 1 address" in html and "ConnectionRefusedError" in html
    assert "<td>Town of Norfolk</td>" in html and f'action="/jobs/{job.pk}/retry/"' in html
    assert '<a href="/jobs/">Background jobs</a>' in html  # in the administrator's menu
    for role in ("clerk", "dpw_director", "applicant"):
        client.force_login(people[role])
        assert client.get("/jobs/").status_code == 403


def test_retry_queues_the_failed_job_again_and_is_audited(
    client, submitted, people, admin, queue, smtp
):
    smtp.EMAIL_PORT = free_port()
    smtp.OUTFALL_JOB_BACKOFF_SECONDS = 0
    complete_package(submitted)
    job = job_enqueue(
        send_mail,
        label="E-mail “x”",
        about=submitted,
        section="§ 267-18E",
        subject="x",
        body="y",
        to=["a@example.org"],
    )
    run_worker()
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED
    client.force_login(people["clerk"])
    assert client.post(f"/jobs/{job.pk}/retry/").status_code == 403
    client.force_login(admin)
    assert client.post(f"/jobs/{job.pk}/retry/").status_code == 302
    job.refresh_from_db()
    assert job.status == Job.Status.QUEUED and job.max_attempts == 10
    event = AuditEvent.objects.get(action="job.retry")
    assert event.section == "§ 267-18E" and event.actor == admin
    assert (event.case_type, event.case_id) == ("permits.Application", str(submitted.pk))
    assert "ConnectionRefusedError" in event.summary
    smtp.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    run_worker()
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.attempts == 6
    with pytest.raises(Exception, match="only a failed job"):
        job_retry(job, actor=admin)


def test_a_retry_of_a_job_whose_record_names_no_section_still_audits_one(norfolk, admin, queue):
    """Every audited write names its section: a job and record with none are retried under
    the retry's own "none: …" (issue 10)."""
    job = job_enqueue(send_mail, label="x", about=norfolk, subject="s", body="b", to=["a@x.org"])
    assert job.section == ""
    Job.objects.filter(pk=job.pk).update(status=Job.Status.FAILED)
    job_retry(job, actor=admin)
    event = AuditEvent.objects.get(action="job.retry")
    assert event.section == RETRY_SECTION and event.section.startswith("none: ")


# ---------------------------------------------------------------- a job the worker cannot run


def test_a_job_naming_a_function_not_marked_as_work_is_refused_and_nothing_runs(norfolk, queue):
    job = job_enqueue(send_mail, label="x", about=norfolk, subject="s", body="b", to=["a@x.org"])
    Job.objects.filter(pk=job.pk).update(work="os.system", args={"command": "false"})
    run_worker()
    job.refresh_from_db()
    assert job.status == Job.Status.FAILED and job.attempts == 1
    assert job.last_error == "os.system is not work a job may run"


def test_a_worker_started_after_one_died_runs_its_job_again(norfolk, queue, settings):
    if settings.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        pytest.skip("PostgreSQL knows a dead worker by its lease: test_worker_crash.py")
    job = job_enqueue(send_mail, label="x", about=norfolk, subject="s", body="b", to=["a@x.org"])
    long_ago = timezone.now() - dt.timedelta(minutes=settings.OUTFALL_JOB_ABANDONED_MINUTES + 1)
    Job.objects.filter(pk=job.pk).update(status=Job.Status.RUNNING, attempts=1, started_at=long_ago)
    DBTaskResult.objects.update(status="RUNNING", started_at=long_ago)
    run_worker()
    job.refresh_from_db()
    assert job.status == Job.Status.DONE and job.attempts == 2
    assert DBTaskResult.objects.filter(status="FAILED").count() == 1
    assert DBTaskResult.objects.filter(status="SUCCESSFUL").count() == 1


def test_a_job_running_less_long_than_the_limit_is_left_to_its_worker(norfolk, queue):
    if queue.DATABASES["default"]["ENGINE"].endswith("postgresql"):
        pytest.skip("PostgreSQL knows a live worker by its lease: test_worker_crash.py")
    job = job_enqueue(send_mail, label="x", about=norfolk, subject="s", body="b", to=["a@x.org"])
    Job.objects.filter(pk=job.pk).update(
        status=Job.Status.RUNNING, attempts=1, started_at=timezone.now()
    )
    from outfall.web.apps.jobs.services import jobs_recover_abandoned

    assert jobs_recover_abandoned() == []
