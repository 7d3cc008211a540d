"""The § 267-16B exemptions and § 267-16A routine maintenance asked on the start and details
forms, stored on the application and carried into the applicant's determination."""

from __future__ import annotations

import pytest

from outfall.kernel.errors import InputError
from outfall.web.apps.permits.models import Application, DeterminationRecord
from outfall.web.apps.permits.services import intake as svc

pytestmark = pytest.mark.django_db

FENCE = {
    "title": "Boundary fence",
    "site_address": "3 Pond Street",
    "applicant_role": "owner",
    "owners": "A. Owner",
    "disturbance_acres": "2",
    "common_plan_acres": "",
    "widening_lanes": "0",
}


def start(client, people, data):
    client.force_login(people["applicant"])
    response = client.post("/permits/new/", data)
    return response, Application.objects.order_by("-pk").first()


def permit_reasons(application) -> list[dict]:
    record = (
        DeterminationRecord.objects.filter(
            application=application, question__icontains="need a stormwater management permit"
        )
        .order_by("-pk")
        .first()
    )
    return record.reasons


def test_the_start_form_asks_the_exemption_questions_in_their_own_fieldset(client, people):
    client.force_login(people["applicant"])
    page = client.get("/permits/new/").content.decode()
    assert "<legend>Exemptions (§ 267-16B)</legend>" in page
    for name in ("exemptions", "routine_maintenance", "terrain_drainage_change"):
        assert f'name="{name}"' in page
    assert 'value="fencing"' in page and "§ 267-16B(5)" in page


def test_a_two_acre_fence_leaving_terrain_unchanged_needs_no_permit_by_section_267_16b3(
    client, people
):
    response, a = start(
        client, people, {**FENCE, "exemptions": ["fencing"], "terrain_drainage_change": "none"}
    )
    assert response.status_code == 302
    assert a.exemption_facts["exemptions"] == ["fencing"]
    assert a.exemption_facts["terrain_drainage_change"] == "none"
    assert a.permit_required is False
    citations = [r["citation"] for r in permit_reasons(a)]
    assert "§ 267-16B(3)" in citations
    page = client.get(f"/permits/{a.pk}/intake/").content.decode()
    assert "§ 267-16B(3)" in page
    assert "no stormwater management permit is required" in page


def test_the_same_fence_with_a_substantial_change_in_drainage_needs_a_permit(client, people):
    _, a = start(
        client,
        people,
        {**FENCE, "exemptions": ["fencing"], "terrain_drainage_change": "substantial"},
    )
    assert a.permit_required is True
    texts = [r["text"] for r in permit_reasons(a) if r["citation"] == "§ 267-16B(3)"]
    assert texts and "stated change: substantial" in texts[0]


def test_a_wetlands_claim_without_the_order_of_conditions_needs_a_permit_naming_the_condition(
    client, people
):
    response, a = start(
        client,
        people,
        {
            **FENCE,
            "exemptions": ["wetlands_order_of_conditions"],
            "wholly_within_wetlands_jurisdiction": "on",
        },
    )
    assert response.status_code == 302
    assert a.permit_required is True
    unmet = [r["text"] for r in permit_reasons(a) if r["citation"] == "§ 267-16B(5)"]
    assert len(unmet) == 1 and "order of conditions" in unmet[0]
    page = client.get(f"/permits/{a.pk}/intake/").content.decode()
    assert "§ 267-16B(5)" in page and "no Conservation Commission order of conditions" in page


def test_routine_maintenance_is_not_a_construction_activity(client, people):
    _, a = start(client, people, {**FENCE, "routine_maintenance": "on"})
    assert a.permit_required is False
    assert any("routine maintenance" in r["text"] for r in permit_reasons(a))


def test_the_form_keeps_the_exemption_answers_when_another_field_is_wrong(client, people):
    response, a = start(
        client,
        people,
        {
            **FENCE,
            "common_plan_acres": "1",
            "exemptions": ["utilities"],
            "terrain_drainage_change": "minor",
            "utility_includes_drainage": "on",
        },
    )
    assert response.status_code == 200 and a is None
    page = response.content.decode()
    assert "§ 267-16A" in page
    assert 'value="utilities" id="id_exemptions_3" checked' in page
    assert '<option value="minor" selected>' in page
    assert 'name="utility_includes_drainage" id="id_utility_includes_drainage" checked' in page


def test_the_details_page_shows_the_claim_and_a_changed_claim_asks_the_law_again(client, people):
    _, a = start(client, people, {**FENCE})
    assert a.permit_required is True
    url = f"/permits/{a.pk}/intake/details/"
    page = client.get(url).content.decode()
    assert "<legend>Exemptions (§ 267-16B)</legend>" in page
    data = {
        **FENCE,
        "exemptions": ["single_family_landscaping"],
        "single_family_dwelling": "on",
        "existing_landscaping_maintenance_only": "on",
    }
    assert client.post(url, data).status_code == 302
    a.refresh_from_db()
    assert a.permit_required is False
    assert a.exemption_facts["exemptions"] == ["single_family_landscaping"]
    page = client.get(url).content.decode()
    assert 'value="single_family_landscaping" id="id_exemptions_1" checked' in page


def test_an_exemption_the_bylaw_does_not_list_is_refused_naming_the_field(people, norfolk):
    data = {
        "title": "Shed",
        "site_address": "1 Main Street",
        "owners": ["A. Owner"],
        "disturbance_acres": 2,
        "exemption_facts": {"exemptions": ["orchard"]},
    }
    with pytest.raises(InputError) as caught:
        svc.application_start(town=norfolk, actor=people["applicant"], data=data)
    assert caught.value.field == "exemptions" and caught.value.citation == "§ 267-16B"
    assert not Application.objects.exists()
