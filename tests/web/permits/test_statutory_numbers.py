"""The periods of § 267-18E come from the town's parameters, never from a template.

Exampleton (fictional) is given its own periods for these tests — the hearing opens within 60
days, notice 14 days ahead, final action within 30 days — and its notice to the applicant, its
pages, its document context and its clocks state and run on them, while Norfolk keeps 45/7/21.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
from pypdf import PdfReader

from outfall.web.apps.core.roles import Role
from outfall.web.apps.deadlines.selectors import clock_list_visible_to
from outfall.web.apps.permits.models import GeneratedDocument
from outfall.web.apps.permits.selectors.statutory import hearing_periods_for_case
from outfall.web.apps.permits.selectors.templates_admin import (
    document_context_for_case,
    document_context_sample,
)
from outfall.web.apps.permits.services import intake as svc
from tests.towns import town_with, use_town
from tests.web.conftest import make_user
from tests.web.permits.test_intake_fixtures import today

pytestmark = pytest.mark.django_db

D = dt.date
OWN_PERIODS = {
    "s267_18.hearing.open_within_days": 60,
    "s267_18.hearing.notice_days_before": 14,
    "s267_18.hearing.decision_within_days": 30,
}


@pytest.fixture
def own_town(monkeypatch, exampleton):
    use_town(monkeypatch, town_with("exampleton", OWN_PERIODS))
    return exampleton


@pytest.fixture
def own_clerk(own_town):
    return make_user("exampleton_clerk", own_town, Role.CLERK)


def _submitted(make_application, applicant, town):
    return make_application(
        applicant,
        town=town,
        state="submitted",
        law_date=today(),
        submitted_on=today(),
        owners=["A. Owner"],
    )


def _notice_text(application) -> str:
    doc = GeneratedDocument.objects.get(application=application, kind="incompleteness_notice")
    pdf = doc.file.open("rb").read()
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    return " ".join(text.replace("-\n", "-").split())


def test_the_notice_of_incompleteness_states_each_towns_own_hearing_period(
    own_town, own_clerk, people, make_application
):
    theirs = _submitted(make_application, people["applicant"], own_town)
    svc.completeness_find_incomplete(theirs, actor=own_clerk, missing_keys=["om_plan"])
    assert "The 60-day period within which the public hearing must open" in _notice_text(theirs)

    ours = _submitted(make_application, people["applicant"], None)
    svc.completeness_find_incomplete(ours, actor=people["clerk"], missing_keys=["om_plan"])
    assert "The 45-day period within which the public hearing must open" in _notice_text(ours)


def test_the_completeness_page_states_the_towns_hearing_clock(
    client, own_town, own_clerk, people, make_application
):
    case = _submitted(make_application, people["applicant"], own_town)
    client.force_login(own_clerk)
    page = client.get(f"/permits/{case.pk}/intake/completeness/").content.decode()
    assert "starts the 60-day hearing clock" in page and "45-day" not in page


def test_the_submit_page_states_the_towns_hearing_clock(client, own_town, people, make_application):
    draft = make_application(people["applicant"], town=own_town, state="draft", owners=["A. Owner"])
    client.force_login(people["applicant"])
    page = client.get(f"/permits/{draft.pk}/intake/submit/").content.decode()
    assert "the 60-day hearing clock starts only when" in page


def test_a_town_template_reads_the_towns_periods_from_the_document_context(
    own_town, people, make_application
):
    case = _submitted(make_application, people["applicant"], own_town)
    context, _ = document_context_for_case(case, "incompleteness_notice")
    assert context["law"] == hearing_periods_for_case(case)
    assert context["law"].hearing_open_within_days == 60
    sample = document_context_sample(own_town, "hearing_notice")
    assert sample["law"].notice_days_before == 14
    hearing_day = sample["hearing_at"].date()
    assert sample["notice_by"]["due"] == hearing_day - dt.timedelta(days=14)


def test_the_towns_clocks_run_on_its_own_periods(own_town, own_clerk, people, make_application):
    make_application(
        people["applicant"],
        town=own_town,
        state="complete",
        law_date=D(2026, 2, 2),
        submitted_on=D(2026, 2, 2),
        complete_on=D(2026, 2, 2),
    )
    clocks = {c.key: c for c in clock_list_visible_to(own_clerk, today=D(2026, 2, 10))}
    assert clocks["hearing_open_by"].due == D(2026, 4, 3)  # 60 days, a Friday
    assert "within 60 days" in clocks["hearing_open_by"].explanation
    assert clocks["constructive_approval_on"].due == D(2026, 4, 4)
