"""An applicant's journey through the pages: start, determination, package, site review, submit."""

from __future__ import annotations

from decimal import Decimal

import pytest

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.permits.models import (
    Application,
    DeterminationRecord,
    SiteReviewRun,
    Upload,
)
from outfall.web.apps.permits.selectors.intake import intake_checklist
from outfall.web.apps.permits.services import intake as svc
from tests.web.permits.test_intake_fixtures import (
    csv_upload,
    site_upload,
    today,
)

pytestmark = pytest.mark.django_db

START = {
    "title": "Maple Street subdivision",
    "site_address": "10 Maple Street",
    "parcel_id": "14-52",
    "applicant_role": "agent",
    "agent_name": "C. Engineer",
    "owners": "A. Owner\nB. Owner",
    "disturbance_acres": "6.2",
    "common_plan_acres": "",
    "widening_lanes": "0",
}


CONFIRMED = {"confirm_missing": "on"}
"""The applicant's confirmation that the package goes in with items missing (§ 267-18A)."""


def start(client, people, **changes):
    client.force_login(people["applicant"])
    response = client.post("/permits/new/", {**START, **changes})
    return response, Application.objects.order_by("-pk").first()


def test_an_applicant_starts_a_draft_and_sees_that_six_acres_need_a_permit_with_its_reasons(
    client, people
):
    response, a = start(client, people)
    assert response.status_code == 302
    assert a.state == "draft" and a.applicant == people["applicant"]
    assert a.owners == ["A. Owner", "B. Owner"] and not a.applicant_is_owner
    assert a.agent_name == "C. Engineer"
    assert a.permit_required is True and a.classification == "new_development"
    questions = set(
        DeterminationRecord.objects.filter(application=a).values_list("question", flat=True)
    )
    assert len(questions) == 3
    page = client.get(f"/permits/{a.pk}/intake/").content.decode()
    assert "§ 267-16A" in page and "43,560 sq ft" in page
    assert "date the application was submitted" in page


def test_half_an_acre_needs_no_permit_and_the_page_says_so(client, people):
    _, a = start(client, people, disturbance_acres="0.5")
    assert a.permit_required is False
    assert (
        "does not need a stormwater management permit"
        in client.get(f"/permits/{a.pk}/intake/").content.decode()
    )


def test_a_common_plan_smaller_than_the_project_is_refused_naming_the_field_and_section(
    client, people
):
    response, a = start(client, people, common_plan_acres="1.0")
    assert response.status_code == 200 and a is None
    text = response.content.decode()
    assert "Total disturbance of the larger common plan" in text and "§ 267-16A" in text
    assert "Maple Street subdivision" in text  # what was typed is kept


def test_a_blank_owner_list_is_a_form_error(client, people):
    response, a = start(client, people, owners="   ")
    assert response.status_code == 200 and a is None


def test_submission_fixes_the_law_date_to_the_submission_date_and_asks_the_law_again(
    client, people
):
    _, a = start(client, people)
    before = DeterminationRecord.objects.filter(application=a).count()
    response = client.post(f"/permits/{a.pk}/intake/submit/", CONFIRMED)
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.state == "submitted" and a.submitted_on == today() and a.law_date == today()
    assert DeterminationRecord.objects.filter(application=a).count() == before + 3


def test_the_plan_checklist_takes_all_22_items_and_an_unexplained_omission_names_its_item(
    client, people
):
    _, a = start(client, people)
    page = client.get(f"/permits/{a.pk}/intake/plan/").content.decode()
    assert page.count("__status") >= 22
    data = {"locus_map__status": "explained", "locus_map__explanation": ""}
    response = client.post(f"/permits/{a.pk}/intake/plan/", data)
    assert response.status_code == 200
    assert "(1) a map locating the site" in response.content.decode()
    assert "§ 267-19A(1)" in response.content.decode()
    data = {
        "locus_map__status": "provided",
        "soils__status": "explained",
        "soils__explanation": "No soils work",
    }
    assert client.post(f"/permits/{a.pk}/intake/plan/", data).status_code in (200, 302)
    assert a.plan_items.filter(item_id="locus_map", provided=True).exists()


def test_the_om_plan_is_checked_against_section_267_20a(client, people):
    _, a = start(client, people)
    data = {
        "owners": "A. Owner\nB. Owner",
        "operation_responsible": "A. Owner | 1 Main Street",
        "financing_responsible": "A. Owner | 1 Main Street",
        "maintenance_schedule": "Twice a year",
        "no_easements": "on",
        "owner_signatures": "A. Owner",
    }
    assert client.post(f"/permits/{a.pk}/intake/om-plan/", data).status_code == 302
    a.refresh_from_db()
    assert a.om_plan_provided is False  # B. Owner has not signed the maintenance agreement
    data["owner_signatures"] = "A. Owner\nB. Owner"
    client.post(f"/permits/{a.pk}/intake/om-plan/", data)
    a.refresh_from_db()
    assert a.om_plan_provided is True


def test_an_om_line_without_an_address_is_a_form_error_naming_the_line(client, people):
    _, a = start(client, people)
    response = client.post(
        f"/permits/{a.pk}/intake/om-plan/", {"operation_responsible": "A. Owner"}
    )
    assert response.status_code == 200 and "Line 1" in response.content.decode()


def test_every_owner_must_sign_before_the_signatures_are_complete(client, people):
    _, a = start(client, people)
    url = f"/permits/{a.pk}/intake/signatures/"
    ok = {"owner_name": "A. Owner", "signed_on": today().isoformat(), "attest": "on"}
    assert client.post(url, ok).status_code == 302
    a.refresh_from_db()
    assert a.owner_signatures_complete is False
    client.post(url, {**ok, "owner_name": "B. Owner"})
    a.refresh_from_db()
    assert a.owner_signatures_complete is True


def test_a_site_file_upload_is_reviewed_and_every_run_is_kept(client, people):
    _, a = start(client, people)
    url = f"/permits/{a.pk}/intake/uploads/"
    assert client.post(url, {"kind": "site_file", "file": site_upload()}).status_code == 302
    assert (
        client.post(url, {"kind": "site_file", "file": site_upload("v2.yaml")}).status_code == 302
    )
    runs = SiteReviewRun.objects.filter(application=a).order_by("pk")
    assert runs.count() == 2
    run = runs.last()
    assert run.verdict == run.result["verdict"] and run.report_html.startswith("<!DOCTYPE html>")
    assert run.as_of == a.law_date
    page = client.get(f"/permits/{a.pk}/intake/site-reviews/{run.pk}/").content.decode()
    assert "§ 267-19B" in page
    report = client.get(f"/permits/{a.pk}/intake/site-reviews/{run.pk}/report/")
    assert report.status_code == 200 and b"Maple Street" in report.content


def test_a_site_file_mistake_shows_one_line_naming_the_item_and_field_and_saves_nothing(
    client, people
):
    _, a = start(client, people)
    text = (
        site_upload().read().decode().replace("disturbance_acres: 6.2", "disturbance_acres: -6.2")
    )
    response = client.post(
        f"/permits/{a.pk}/intake/uploads/",
        {"kind": "site_file", "file": site_upload(text=text)},
    )
    assert response.status_code == 200
    assert "project.disturbance_acres" in response.content.decode()
    assert not Upload.objects.filter(application=a).exists()
    assert not SiteReviewRun.objects.filter(application=a).exists()


def test_a_site_file_with_several_mistakes_lists_each_on_the_upload_page(client, people):
    """Every mistake, not only the first: the engineer fixes the file in one pass."""
    _, a = start(client, people)
    text = (
        site_upload()
        .read()
        .decode()
        .replace("disturbance_acres: 6.2", "disturbance_acres: -6.2")
        .replace("dt_hr: 0.05", "dt_hr: 5")
        .replace("critical_area: false", "critical_area: maybe")
    )
    response = client.post(
        f"/permits/{a.pk}/intake/uploads/",
        {"kind": "site_file", "file": site_upload(text=text)},
    )
    page = response.content.decode()
    assert response.status_code == 200
    for field, value in (
        ("project.disturbance_acres", "-6.2"),
        ("project.critical_area", "&#x27;maybe&#x27;"),
        ("rainfall.dt_hr", "5"),
    ):
        assert f"site file: {field}={value}:" in page
    assert page.count("site file: ") == 3
    assert not Upload.objects.filter(application=a).exists()


def test_a_maple_street_site_file_for_a_brook_farm_application_is_shown_as_a_mismatch(
    client, people
):
    """The 6.2-acre file is reviewed and kept, but the applicant, the engineer and the clerk see
    each field that differs, and the review does not count for the 3-acre application."""
    _, a = start(
        client,
        people,
        title="Brook Farm",
        site_address="12 Brook Farm Road",
        disturbance_acres="3",
    )
    response = client.post(
        f"/permits/{a.pk}/intake/uploads/",
        {"kind": "site_file", "file": site_upload()},
        follow=True,
    )
    page = response.content.decode()
    assert "describes a different project from the application" in page
    assert "Area of land disturbed (acres): the site file says 6.2, the application 3" in page
    run = SiteReviewRun.objects.get(application=a)
    assert run.application_match["outcome"] == "differs"
    fields = [d["field"] for d in run.application_match["details"]["differences"]]
    assert fields == ["disturbance_acres", "discharges_to_wetlands", "name"]
    audit = AuditEvent.objects.filter(action="site_review.run").get()
    assert "Area of land disturbed (acres) 6.2 (application: 3)" in audit.summary
    assert "does not count for this application" in audit.summary

    review = client.get(f"/permits/{a.pk}/intake/site-reviews/{run.pk}/").content.decode()
    assert "Where the site file and the application differ" in review
    assert "“Brook Farm” at 12 Brook Farm Road" in review

    item = {i.key: i for i in intake_checklist(a)}["site_review"]
    assert not item.met and "6.2" in item.detail

    client.post(f"/permits/{a.pk}/intake/submit/", CONFIRMED)
    client.force_login(people["clerk"])
    case = client.get(f"/permits/{a.pk}/").content.decode()
    assert "does not count for this application" in case

    a.disturbance_acres, a.discharges_to_wetlands = Decimal("6.2"), True
    a.save()
    item = {i.key: i for i in intake_checklist(a)}["site_review"]
    assert item.met and "name" in item.detail.lower()  # a corrected application clears it


def test_the_abutters_csv_becomes_abutter_rows_with_its_certification_date(client, people):
    _, a = start(client, people)
    csv_text = (
        "parcel,name,mailing_address\n12-1,B. Neighbour,2 Main St\n12-2,C. Neighbour,3 Main St\n"
    )
    response = client.post(
        f"/permits/{a.pk}/intake/abutters/",
        {"certified_on": today().isoformat(), "file": csv_upload(csv_text)},
    )
    assert response.status_code == 302
    a.refresh_from_db()
    assert a.abutters.count() == 2 and a.abutters_certified_on == today()
    assert a.uploads.filter(kind="abutters").count() == 1


def test_the_case_page_shows_the_intake_panel_with_the_applicants_actions(client, people):
    _, a = start(client, people)
    page = client.get(f"/permits/{a.pk}/").content.decode()
    assert "Intake and review" in page and "Submit the application" in page
    assert "Completeness review" not in page
    client.post(f"/permits/{a.pk}/intake/submit/", CONFIRMED)
    client.force_login(people["clerk"])
    page = client.get(f"/permits/{a.pk}/").content.decode()
    assert "Completeness review" in page and "Record fees" in page
    assert "Submit the application" not in page


def _list_bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    lines += [
        f"{n}: &{n} [{','.join([f'*{p}'] * 9)}]"
        for p, n in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    return "\n".join(lines)


def _mapping_bomb() -> str:
    lines = ["a: &a {" + ", ".join(f"k{i}: lol" for i in range(9)) + "}"]
    lines += [
        f"{n}: &{n} {{" + ", ".join(f"k{i}: *{p}" for i in range(9)) + "}"
        for p, n in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    return "\n".join([*lines, "name: {<<: *i}"])


@pytest.mark.parametrize(
    "text,why",
    [
        (_list_bomb(), "anchors and aliases"),
        (_mapping_bomb(), "anchors and aliases"),
        ("[" * 100_000 + "]" * 100_000, "nested deeper"),
    ],
    ids=["alias bomb of lists", "alias bomb of mappings", "nesting bomb"],
)
def test_a_bomb_uploaded_as_a_site_file_is_refused_at_once_and_nothing_is_saved(
    client, people, text, why
):
    """A few hundred bytes that made a 73 MB error page, or a server error (issue 10): refused
    from the parser's events in a page of ordinary size, naming why."""
    _, a = start(client, people)
    response = client.post(
        f"/permits/{a.pk}/intake/uploads/",
        {"kind": "site_file", "file": site_upload(text=text)},
    )
    assert response.status_code == 200
    assert why in response.content.decode()
    assert len(response.content) < 200_000
    assert not Upload.objects.filter(application=a).exists()


def test_submitting_with_items_missing_lists_them_and_asks_the_applicant_to_confirm(client, people):
    """Lawful, but never silent: each missing line by its number and label, then a confirmation;
    the filing's audit row keeps what was missing (§ 267-18A)."""
    _, a = start(client, people)
    page = client.get(f"/permits/{a.pk}/intake/submit/").content.decode()
    assert "9 items of the checklist are missing" in page
    assert "<li>1. Every stormwater management plan item provided or explained: 0 of 22" in page
    assert "<li>3. Operation and maintenance plan contents:" in page
    assert "om_plan" not in page.split('id="missing-items"')[1].split("</section>")[0]
    response = client.post(f"/permits/{a.pk}/intake/submit/")
    assert response.status_code == 200
    assert "9 item(s) are missing: add them first, or confirm" in response.content.decode()
    a.refresh_from_db()
    assert a.state == "draft"
    assert client.post(f"/permits/{a.pk}/intake/submit/", CONFIRMED).status_code == 302
    a.refresh_from_db()
    assert a.state == "submitted"
    filed = AuditEvent.objects.filter(summary__startswith="Application filed").get()
    assert "submitted with 9 item(s) missing, as the applicant confirmed: 1. Every" in filed.summary


def test_the_service_refuses_a_submission_with_items_missing_unless_confirmed(people, client):
    _, a = start(client, people)
    with pytest.raises(svc.IntakeRefused) as refused:
        svc.application_submit(a, actor=people["applicant"])
    texts = [r.text for r in refused.value.reasons]
    assert texts[0].startswith("the application lacks 9 item(s)")
    assert texts[1].startswith("missing: 1. Every stormwater management plan item")


def test_the_site_review_page_shows_the_key_figures_and_plots_and_offers_the_pdf(client, people):
    """Peaks pre and post per storm, recharge, TSS/TP and each standard with its section; the
    report's hydrographs in the page's own layout; the review as a PDF to attach."""
    _, a = start(client, people)
    client.post(f"/permits/{a.pk}/intake/uploads/", {"kind": "site_file", "file": site_upload()})
    run = SiteReviewRun.objects.get(application=a)
    url = f"/permits/{a.pk}/intake/site-reviews/{run.pk}/"
    page = client.get(url).content.decode()
    assert f'href="/permits/{a.pk}/"' in page  # the way back to the case
    assert "Peak discharge before and after development" in page
    assert "<td>100-year</td>" in page and ">31.78<" in page and ">22.09<" in page
    assert "11942 cu ft provided of 1958 cu ft required" in page
    assert "84.4% (required 90%)" in page and "81.6% (required 60%)" in page
    assert "§ 267-19B(2)" in page and "§ 267-19B(4)(a)" in page
    assert page.count('data-chart="hydrograph"') == 3
    assert "style=" not in page.split('id="hydrographs"')[1]
    assert client.get(f"{url}review.pdf").status_code == 404  # not made yet

    response = client.post(url)
    assert response.status_code == 302
    run.refresh_from_db()
    assert run.report_pdf
    pdf = client.get(f"{url}review.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    assert b"".join(pdf.streaming_content).startswith(b"%PDF-")
    assert AuditEvent.objects.filter(action="site_review.pdf").count() == 1
    assert client.post(url).status_code == 409  # filed once


def test_the_review_pdf_is_not_shown_to_someone_who_may_not_open_the_case(client, people):
    _, a = start(client, people)
    client.post(f"/permits/{a.pk}/intake/uploads/", {"kind": "site_file", "file": site_upload()})
    run = SiteReviewRun.objects.get(application=a)
    client.force_login(people["clerk"])
    url = f"/permits/{a.pk}/intake/site-reviews/{run.pk}/"
    assert client.post(url).status_code == 404  # a draft is the applicant's alone
    assert client.get(f"{url}review.pdf").status_code == 404


def test_intake_is_a_stepper_an_ordered_list_marking_the_page_being_read(client, people):
    _, a = start(client, people)
    page = client.get(f"/permits/{a.pk}/intake/plan/").content.decode()
    stepper = page.split('<nav aria-label="Application steps" class="stepper">')[1].split("</nav>")[
        0
    ]
    assert stepper.strip().startswith("<ol>")
    assert stepper.count("<li") == 7
    assert (
        f'<a href="/permits/{a.pk}/intake/plan/" aria-current="step">Plan checklist</a>' in stepper
    )
    assert stepper.count("aria-current") == 1
    assert 'Site, owners and applicability</a> <span class="step-state">&#10003; done' in stepper
    client.force_login(people["clerk"])
    a.state = "submitted"
    a.save()
    assert "Application steps" not in client.get(f"/permits/{a.pk}/intake/").content.decode()


def test_the_plan_checklist_is_marked_in_one_go_around_the_exceptions(client, people):
    """Every item left unanswered becomes provided; the ones answered otherwise stay so."""
    _, a = start(client, people)
    page = client.get(f"/permits/{a.pk}/intake/plan/")
    form = page.context["form"]
    one = form.items[0]["id"]
    response = client.post(
        f"/permits/{a.pk}/intake/plan/",
        {
            "all_provided": "on",
            f"{one}__status": "explained",
            f"{one}__explanation": "No floodplain on the site.",
        },
    )
    assert response.status_code == 302
    rows = {p.item_id: p.provided for p in a.plan_items.all()}
    assert len(rows) == len(form.items) and rows.pop(one) is False
    assert all(rows.values())
    item = {i.key: i for i in intake_checklist(a)}["plan_items"]
    assert item.met
