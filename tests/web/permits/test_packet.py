"""The Board packet (§ 267-18E): every paper linked through its permission-checked route, and
only for a reader who may open it; the packet as one PDF (a contents page, then the PDFs merged,
a paper that is not a PDF listed as not included) made by the worker and read by whoever may read
the packet — the town's permit staff, the Board and the Town Clerk, never the applicant (it holds
the staff's internal comments), DPW, another town's staff or an anonymous reader.
"""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.jobs.models import Job
from outfall.web.apps.permits.models import BoardPacket, Hearing, Upload
from outfall.web.apps.permits.services import packet as svc
from tests.web.permits.test_files_access import _login, everyone, media
from tests.web.permits.test_intake_fixtures import PDF, store_upload

pytestmark = pytest.mark.django_db
__all__ = ["everyone", "media"]

READERS = ["clerk", "board", "reviewer", "town_clerk"]
# The case's own applicant may open the case but not its internal record: 403; anyone who
# may not see the case at all gets a 404 (its existence is not revealed).
REFUSED = {
    "applicant": 403,
    "other_applicant": 404,
    "dpw_staff": 404,
    "dpw_director": 404,
    "exampleton_clerk": 404,
}


@pytest.fixture
def case(people, make_application, media):
    """A scheduled case with a plan (PDF), an abutters list (CSV) and a noticed hearing."""
    import datetime as dt

    from django.utils import timezone

    a = make_application(
        people["applicant"], state="hearing_scheduled", complete_on=dt.date(2026, 2, 2)
    )
    plan = store_upload(a, Upload.Kind.PLAN, "plan.pdf", PDF, people["applicant"])
    plan.content_type = "application/pdf"
    plan.save(update_fields=["content_type"])
    store_upload(
        a, Upload.Kind.ABUTTERS, "abutters.csv", b"parcel,name\n1,A\n", people["applicant"]
    )
    a.abutters.create(parcel_id="1", name="A. Abutter", mailing_address="2 Main St")
    Hearing.objects.create(
        application=a,
        scheduled_for=timezone.make_aware(dt.datetime(2026, 3, 10, 19)),
        location="Town Hall",
        newspaper="Norfolk Gazette",
        notice_published_on=dt.date(2026, 2, 20),
        notice_posted_on=dt.date(2026, 2, 21),
    )
    return a


def _packet_pdf(case, people, who="board") -> BoardPacket:
    job = svc.board_packet_request(case, actor=people[who])
    assert Job.objects.get(pk=job.pk).status == Job.Status.DONE
    return case.packets.latest("pk")


@pytest.mark.parametrize("who", READERS)
def test_the_town_s_readers_of_the_internal_record_read_the_packet(client, everyone, case, who):
    page = _login(client, everyone, who).get(reverse("permits:board_packet", args=[case.pk]))
    assert page.status_code == 200


@pytest.mark.parametrize("who", sorted(REFUSED))
def test_everyone_else_is_refused_the_packet(client, everyone, case, who):
    page = _login(client, everyone, who).get(reverse("permits:board_packet", args=[case.pk]))
    assert page.status_code == REFUSED[who]


def test_an_anonymous_reader_is_sent_to_log_in(client, case):
    response = client.get(reverse("permits:board_packet", args=[case.pk]))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_packet_links_each_upload_through_the_checked_route(client, everyone, case):
    html = (
        _login(client, everyone, "board")
        .get(reverse("permits:board_packet", args=[case.pk]))
        .content.decode()
    )
    for upload in case.uploads.all():
        url = reverse("permits:upload", args=[case.pk, upload.pk])
        assert f'<a href="{url}">{upload.original_name}</a>' in html
    assert "/media/" not in html
    assert "Published in Norfolk Gazette" in html and "2026-02-20" in html


def test_the_mailing_list_is_linked_only_for_the_clerk_who_may_open_it(client, everyone, case):
    csv_url = reverse("permits:hearing_mailing_csv", args=[case.pk])
    packet = reverse("permits:board_packet", args=[case.pk])
    assert csv_url in _login(client, everyone, "clerk").get(packet).content.decode()
    board_page = _login(client, everyone, "board").get(packet).content.decode()
    assert csv_url not in board_page and "Abutter mailing list (CSV)" in board_page
    assert _login(client, everyone, "board").get(csv_url).status_code == 403


def test_a_board_member_asks_for_the_packet_pdf_and_follows_it_on_the_page(client, everyone, case):
    client = _login(client, everyone, "board")
    response = client.post(reverse("permits:board_packet_make", args=[case.pk]))
    assert response.status_code == 302 and "?job=" in response["Location"]
    page = client.get(response["Location"]).content.decode()
    packet = case.packets.latest("pk")
    assert "job-status" in page
    assert reverse("permits:board_packet_pdf", args=[case.pk, packet.pk]) in page
    assert AuditEvent.objects.filter(action="permits.board_packet.requested").count() == 1


def test_the_packet_pdf_opens_with_its_contents_then_the_merged_pdfs(people, case):
    packet = _packet_pdf(case, people)
    reader = PdfReader(io.BytesIO(packet.file.read()))
    contents = reader.pages[0].extract_text()
    assert "Board packet" in contents and "plan.pdf" in contents
    assert "abutters.csv" in contents and "not a PDF" in contents
    plan_pages = len(PdfReader(io.BytesIO(PDF)).pages)
    plan = next(r for r in packet.contents if "plan.pdf" in r["label"])
    cover_pages = plan["starts"] - 1
    assert packet.pages == len(reader.pages) == cover_pages + plan_pages
    csv = next(r for r in packet.contents if "abutters.csv" in r["label"])
    assert csv["included"] is False and "not a PDF" in csv["note"]


def test_a_paper_past_the_page_bound_is_listed_and_left_out(people, case, settings):
    settings.OUTFALL_PDF_MAX_PAGES = 0
    packet = _packet_pdf(case, people)
    plan = next(r for r in packet.contents if "plan.pdf" in r["label"])
    assert plan["included"] is False and "bound of 0 pages" in plan["note"]


@pytest.mark.parametrize("who", READERS)
def test_whoever_may_see_the_packet_downloads_its_pdf(client, everyone, people, case, who):
    packet = _packet_pdf(case, people)
    url = reverse("permits:board_packet_pdf", args=[case.pk, packet.pk])
    response = _login(client, everyone, who).get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"


@pytest.mark.parametrize("who", sorted(REFUSED))
def test_nobody_else_downloads_the_packet_pdf(client, everyone, people, case, who):
    packet = _packet_pdf(case, people)
    url = reverse("permits:board_packet_pdf", args=[case.pk, packet.pk])
    assert _login(client, everyone, who).get(url).status_code == REFUSED[who]
    assert (
        _login(client, everyone, who)
        .post(reverse("permits:board_packet_make", args=[case.pk]))
        .status_code
        == REFUSED[who]
    )


def test_an_anonymous_reader_cannot_download_the_packet(client, people, case):
    packet = _packet_pdf(case, people)
    url = reverse("permits:board_packet_pdf", args=[case.pk, packet.pk])
    assert client.get(url).status_code == 302
