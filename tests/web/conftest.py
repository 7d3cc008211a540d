"""Shared fixtures for the web tests: a town, a person in every role, and applications."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from outfall.web.apps.core.models import Membership, Town
from outfall.web.apps.core.roles import Role
from tests.web.csp import csp_problems

ROLES = {
    "clerk": Role.CLERK,
    "reviewer": Role.REVIEWER,
    "board": Role.BOARD,
    "town_clerk": Role.TOWN_CLERK,
    "dpw_staff": Role.DPW_STAFF,
    "dpw_director": Role.DPW_DIRECTOR,
}


@pytest.fixture(autouse=True)
def every_response_keeps_the_content_security_policy(monkeypatch):
    """Each response any web test fetches carries the Content-Security-Policy header, and each
    inline script on its pages the request's nonce (tests/web/csp.py says what is checked)."""
    fetch = Client.request

    def checked(self, **request):
        response = fetch(self, **request)
        problems = csp_problems(response)
        assert not problems, f"{request.get('PATH_INFO')}: " + "; ".join(problems)
        return response

    monkeypatch.setattr(Client, "request", checked)


@pytest.fixture
def norfolk(db) -> Town:
    return Town.objects.create(
        slug="norfolk",
        name="Town of Norfolk",
        registry_of_deeds="Norfolk County Registry of Deeds",
        hearing_location="Norfolk Town Hall, 1 Liberty Lane",
    )


@pytest.fixture
def exampleton(db) -> Town:
    return Town.objects.create(slug="exampleton", name="Town of Exampleton (fictional)")


def make_user(username: str, town: Town | None = None, role: str | None = None):
    user = get_user_model().objects.create_user(
        username=username, password="correct horse battery staple", email=f"{username}@example.org"
    )
    if town is not None and role is not None:
        Membership.objects.create(user=user, town=town, role=role)
    return user


@pytest.fixture
def people(norfolk):
    """One user per role in Norfolk, plus two applicants and a stranger with no role."""
    out = {name: make_user(name, norfolk, role) for name, role in ROLES.items()}
    out["applicant"] = make_user("applicant")
    out["other_applicant"] = make_user("other_applicant")
    return out


@pytest.fixture
def make_application(norfolk):
    from outfall.web.apps.permits.models import Application

    counter = {"n": 0}

    def _make(
        applicant,
        *,
        state: str = "submitted",
        town: Town | None = None,
        surety_required: bool = False,
        **fields,
    ):
        """An application; `surety_required`: the Board's issued decision required $50,000 of
        surety (§ 267-21)."""
        counter["n"] += 1
        values = {
            "town": town or norfolk,
            "number": f"SMP-TEST-{counter['n']:03d}",
            "title": f"Test site {counter['n']}",
            "site_address": f"{counter['n']} Main Street",
            "applicant": applicant,
            "owner_name": "A. Owner",
            "disturbance_acres": Decimal("2.000"),
            "law_date": dt.date(2026, 6, 1),
            "state": state,
            "submitted_on": dt.date(2026, 6, 1) if state != "draft" else None,
        }
        values.update(fields)
        application = Application.objects.create(**values)
        if surety_required:
            from outfall.web.apps.permits.models import Decision

            Decision.objects.create(
                application=application,
                kind=Decision.Kind.APPROVE,
                voted_on=application.law_date,
                issued_on=application.law_date,
                surety_required=True,
                surety_amount=Decimal("50000.00"),
            )
        return application

    return _make
