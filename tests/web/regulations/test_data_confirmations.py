"""A reviewer confirms a figure of the engineering tables against its source (§ 267-19B(3)):
only a reviewer or the administrator of the town, audited with the section; later site reviews
read the confirmed value, the figure's flag is gone and the review names the confirmation as the
value's layer."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.permits.models import SiteReviewRun
from outfall.web.apps.regulations import services
from outfall.web.apps.regulations.models import DataConfirmation
from tests.web.conftest import make_user
from tests.web.permits.test_intake_fixtures import site_upload
from tests.web.permits.test_intake_flow import CONFIRMED, start

pytestmark = pytest.mark.django_db

URL = "/regulations/data/confirm/"
POSTED = {
    "figure": "recharge_F.C",
    "value": "0.3",
    "source": "MassDEP Stormwater Handbook (2008), Vol. 3 Ch. 1, Table 2.3.2",
}


@pytest.fixture
def admin(norfolk):
    return make_user("town_admin", norfolk, "admin")


@pytest.mark.parametrize(
    "who, status",
    [("reviewer", 302), ("admin", 302), ("clerk", 403), ("board", 403), ("town_clerk", 403),
     ("dpw_staff", 403), ("applicant", 403)],
)  # fmt: skip
def test_only_a_reviewer_or_the_administrator_confirms_a_figure(client, people, admin, who, status):
    client.force_login(admin if who == "admin" else people[who])
    assert client.get(f"{URL}?figure=recharge_F.C").status_code == (200 if status == 302 else 403)
    assert client.post(URL, POSTED).status_code == status
    assert DataConfirmation.objects.count() == (1 if status == 302 else 0)


def test_a_reviewer_of_another_town_may_not_confirm_for_norfolk(norfolk, exampleton):
    stranger = make_user("ex_reviewer", exampleton, "reviewer")
    with pytest.raises(PermissionDenied):
        services.data_value_confirm(
            town=norfolk, actor=stranger, figure="recharge_F.C", value=0.3, source="Handbook"
        )
    assert not DataConfirmation.objects.exists()


def test_the_confirmation_is_audited_with_its_section_and_the_table_value(client, people):
    client.force_login(people["reviewer"])
    client.post(URL, POSTED)
    event = AuditEvent.objects.get(action="data.confirm")
    assert event.section == "§ 267-19B(3)"
    assert "confirmed as 0.3 in (the table held 0.25)" in event.summary
    assert "Table 2.3.2" in event.summary


def test_a_value_out_of_bounds_or_without_a_source_is_refused_on_its_field(client, people):
    client.force_login(people["reviewer"])
    page = client.post(URL, {**POSTED, "value": "7"}).content.decode()
    assert "at most 1 inch of runoff" in page and "§ 267-19B(3)" in page
    page = client.post(URL, {**POSTED, "source": "  "}).content.decode()
    assert "Source it was read from" in page
    assert not DataConfirmation.objects.exists()


def test_a_later_review_reads_the_confirmed_value_and_names_its_layer(client, people):
    _, a = start(client, people)
    client.post(f"/permits/{a.pk}/intake/uploads/", {"kind": "site_file", "file": site_upload()})
    client.post(f"/permits/{a.pk}/intake/submit/", CONFIRMED)
    first = SiteReviewRun.objects.get(application=a)
    client.force_login(people["reviewer"])
    page = client.get(f"/permits/{a.pk}/intake/site-reviews/{first.pk}/").content.decode()
    assert "Recharge target depth factor F for hydrologic soil group C, 0.25 in" in page
    assert f'href="{URL}?figure=recharge_F.C"' in page
    assert "UNVERIFIED_recalled" not in page and "unverified-memory" not in page

    assert client.post(URL, POSTED).status_code == 302
    client.force_login(people["applicant"])
    client.post(f"/permits/{a.pk}/intake/site-reviews/")
    second = SiteReviewRun.objects.filter(application=a).latest("pk")
    assert second.pk != first.pk
    required = {s["id"]: s for s in second.result["standards"]}["recharge"]["required"]
    before = {s["id"]: s for s in first.result["standards"]}["recharge"]["required"]
    assert required["recharge_volume_cf"] > before["recharge_volume_cf"]
    page = client.get(f"/permits/{a.pk}/intake/site-reviews/{second.pk}/").content.decode()
    assert "soil group C, 0.25 in" not in page
    assert "Figures confirmed by a reviewer (1)" in page
    assert "value confirmed by" in page and "Table 2.3.2" in page
    assert f'href="{URL}' not in page  # the applicant is not offered a confirmation


def test_the_figures_page_lists_each_confirmable_figure_and_the_confirmations(client, people):
    client.force_login(people["reviewer"])
    client.post(URL, POSTED)
    page = client.get("/regulations/data/").content.decode()
    assert "TSS removal credit of a deep sump catch basin" in page
    assert "0.3 in, value confirmed by" in page
    client.force_login(people["clerk"])
    assert client.get("/regulations/data/").status_code == 200
    client.force_login(people["applicant"])
    assert client.get("/regulations/data/").status_code == 403
