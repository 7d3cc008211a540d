"""The case page states one interest figure, the ledger's, with one explanation: the MGL c. 59
§ 57 rate the town's parameters give, from the first interest day, period by period as payments
reduce the unpaid costs from their dates (§ 267-10C(3); § 267-25B)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from outfall.law import s267_10_enforcement
from outfall.web.apps.enforcement.selectors.ledger import cost_balance
from outfall.web.apps.enforcement.services import costs as cost_svc
from tests.web.enforcement.conftest import days
from tests.web.identifiers import visible_text

pytestmark = pytest.mark.django_db

# Words written for a program calling the law engine, never for a person reading a page.
API_WORDING = re.compile(r"\bpass the\b|\bcaller\b|\bargument\b|\bparameter `|\bNone\b")


@pytest.fixture
def paid_in_part(cases, today):
    """$10,000 of costs noticed 200 days ago, $2,500 paid 100 days ago, $1,000 40 days ago."""
    received = today - days(200)
    case = cases.abated(
        "I",
        start=today - days(260),
        completed=today - days(215),
        costs=(("contractor", "10000.00"),),
    )
    actor = cases.writer(case)
    cost_svc.costs_notice(
        case, actor=actor, sent_on=received - days(2), received_on=received, today=received
    )
    for ago, paid in ((100, "2500.00"), (40, "1000.00")):
        cost_svc.payment_record(
            case,
            actor=actor,
            paid_on=today - days(ago),
            amount=paid,
            applies_to="costs",
            today=today - days(ago),
        )
    return case


def _money(text: str) -> list[Decimal]:
    return [Decimal(m.replace(",", "")) for m in re.findall(r"\$([\d,]+\.\d\d)", text)]


def test_the_case_page_shows_the_ledgers_one_interest_figure_and_its_periods(
    login, paid_in_part, today
):
    balance = cost_balance(paid_in_part, on=today)
    assert len(balance.periods) == 3 and balance.interest_accrued > 0
    html = login("dpw_director").get(reverse("enforcement:detail", args=[paid_in_part.pk]))
    page = html.content.decode()
    total_row = re.search(r'<tr id="interest-total">(.*?)</tr>', page, re.S).group(1)
    assert _money(visible_text(total_row)) == [balance.interest_accrued]
    periods = re.search(r'<table class="data" id="interest-periods">(.*?)</table>', page, re.S)
    rows = re.findall(r"<tr><th scope=\"row\">.*?</tr>", periods.group(1), re.S)
    shown = [_money(visible_text(row))[-1] for row in rows]
    assert shown == [p.interest for p in balance.periods]
    assert sum(shown) == balance.interest_accrued
    # The engine's figure on what is unpaid now, as if unpaid since the first interest day, is
    # not the ledger's and is not shown.
    whole = s267_10_enforcement.interest_due(
        balance.unpaid_principal,
        paid_in_part.cost_notice.received_on,
        today,
        as_of=paid_in_part.law_date,
        town="norfolk",
    ).outcome["interest_usd"]
    assert whole != balance.interest_accrued
    assert whole not in _money(visible_text(page))
    # One explanation: the rate and the section, from the town's parameters.
    reading = re.search(r'id="interest-reading">(.*?)</section>', page, re.S).group(1)
    assert "14 % a year" in reading and "MGL c. 59 § 57" in reading and "§ 267-10C(3)" in reading


def test_no_enforcement_page_shows_wording_written_for_a_program(login, paid_in_part):
    client = login("dpw_director")
    for url in (
        reverse("enforcement:detail", args=[paid_in_part.pk]),
        reverse("enforcement:list"),
        reverse("enforcement:dpw_index"),
    ):
        text = visible_text(client.get(url).content.decode())
        assert not API_WORDING.search(text), API_WORDING.search(text).group(0)
