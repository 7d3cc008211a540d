"""The order PDF reads as an order to its violator and to a judge (§ 267-10C; § 267-25B): the
parties and the property, the findings with their sections, the numbered actions with their
deadlines, what follows if it is not obeyed (town abatement, costs, lien and interest, fines —
from the town's parameters), the appeal the bylaw gives (§ 267-10G; § 267-25E), and the
signature of the Director of Public Works by name, under the Department's address."""

from __future__ import annotations

import datetime as dt

import pytest
from pypdf import PdfReader

from outfall.web.apps.enforcement.models import EnforcementDocument
from outfall.web.apps.kit.documents import person_name
from tests.web.enforcement.conftest import days

pytestmark = pytest.mark.django_db

DPW_ADDRESS = "33 Medway Branch Road, Norfolk, MA 02056"


def _order_text(cases, case, *, issued_on, deadline) -> str:
    order = cases.order(case, issued_on=issued_on, deadline=deadline)
    doc = EnforcementDocument.objects.get(case=case, kind="order", about=f"order {order.pk}")
    reader = PdfReader(doc.file.open("rb"))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


@pytest.fixture
def director(cases, norfolk):
    norfolk.dpw_address = DPW_ADDRESS
    norfolk.save()
    person = cases.people["dpw_director"]
    person.first_name, person.last_name = "Avery", "Director"
    person.save()
    return person


def test_an_article_i_order_names_parties_findings_actions_consequences_appeal_and_signer(
    cases, director, today
):
    case = cases.open("I", opened_on=today - days(10))
    deadline = today + days(20)
    text = _order_text(cases, case, issued_on=today - days(9), deadline=deadline)
    due = f"{deadline:%B} {deadline.day}, {deadline.year}"
    # Parties and property.
    for fact in (case.violator_name, case.violator_address, case.property_address, case.number):
        assert fact in text
    # Findings, then the order, then the consequences, then the appeal, then the signature.
    headings = ["Findings", "Order", "If this order is not obeyed", "Appeal", person_name(director)]
    places = [text.find(h) for h in headings]
    assert -1 not in places and places == sorted(places), dict(zip(headings, places, strict=True))
    assert "The Department of Public Works enforces Article I" in text and "§ 267-10A" in text
    assert case.description in text
    # The numbered action with its deadline and section.
    action = "Remove illicit connections to, or stop illicit discharges into, the MS4, no later"
    assert f"{action} than {due}" in text, text
    assert "§ 267-10C(1)(a)" in text
    # The consequences, stated from the town's parameters.
    for consequence in (
        "the Town may, at its option, do it itself",
        "special assessment against the property owner and a lien on the property",
        "MGL c. 59 § 57 rate (14 % a year)",
        "within 30 days of receiving that notice",
        "a fine of up to $300 for each offence",
        "offence 1: a warning; offence 2: $100; offence 3 and each later one: $300",
        "§ 267-10C(2)",
        "§ 267-10C(3)",
        "§ 267-10D",
        "§ 267-10E",
    ):
        assert consequence in text, consequence
    # The appeal the bylaw gives: the Department's orders are final, relief is to a court.
    assert "final order of the Department of Public Works" in text and "§ 267-10G" in text
    # Signed by the Director by name and title, under the Department's address.
    assert "For the Department of Public Works" in text and "Avery Director" in text
    assert DPW_ADDRESS in text
    # The law's check of the order is kept with the order, not printed as a checklist.
    assert "The order must also tell" not in text and "The order sets" not in text


def test_an_article_ii_order_says_no_fine_is_set_and_the_boards_orders_are_final(
    cases, director, today
):
    case = cases.open("II", opened_on=today - days(10))
    text = _order_text(cases, case, issued_on=today - days(9), deadline=today + days(20))
    assert "the fines are set by the rules and regulations" in text and "§ 267-25D" in text
    assert "final order of the Planning Board" in text and "§ 267-25E" in text
    assert "the property owner must reimburse the Town" in text and "§ 267-25B" in text
    assert isinstance(case.law_date, dt.date)
