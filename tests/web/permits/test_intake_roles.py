"""Every intake page and POST, role by role: who may, who is refused (403), who may not even
see the case (404), and the anonymous visitor (sent to log in).

The expectations are written out here from the brief (issue 4), not read from the policy table,
so a change to the policy that lets the wrong person act makes these tests fail.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from outfall.web.apps.permits.models import Referral, ReviewComment, SiteReviewRun, Upload
from tests.web.permits.test_intake_fixtures import (
    SITE_FILE,
    complete_package,
    csv_upload,
    pdf_upload,
    store_upload,
    today,
)

pytestmark = pytest.mark.django_db

USERS = (
    "clerk",
    "reviewer",
    "board",
    "town_clerk",
    "dpw_staff",
    "dpw_director",
    "applicant",
    "other_applicant",
    "anonymous",
)
LOGGED_IN = set(USERS) - {"anonymous"}
SEES_SUBMITTED = {"clerk", "reviewer", "board", "town_clerk", "applicant"}
EDITORS = {"clerk", "applicant"}
UPLOADERS = {"clerk", "reviewer", "applicant"}


def _start():
    return {
        "title": "Role test",
        "site_address": "1 Role Road",
        "applicant_role": "owner",
        "owners": "A. Owner",
        "disturbance_acres": "2",
    }


def _with_site_review(a, people):
    complete_package(a)
    store_upload(a, Upload.Kind.SITE_FILE, "site.yaml", SITE_FILE.read_bytes(), a.applicant)
    run = SiteReviewRun.objects.create(
        application=a,
        run_by=a.applicant,
        as_of=a.law_date,
        verdict="pass",
        site_file={},
        result={"site": "x", "standards": []},
        report_html="<!DOCTYPE html><p>report</p>",
    )
    return {"run": run.pk}


def _with_referral(a, people):
    r = Referral.objects.create(
        application=a,
        board="Board of Health",
        sent_on=today(),
        response_due=today() + dt.timedelta(days=21),
    )
    return {"referral": r.pk}


def _with_comment(a, people):
    c = ReviewComment.objects.create(
        application=a,
        author=people["reviewer"],
        body="Please show the basin outlet.",
        request_to_applicant=True,
    )
    return {"comment": c.pk}


@dataclass
class Route:
    label: str
    method: str
    path: str
    allowed: set[str]
    state: str = "submitted"
    data: Callable[[], dict] = dict
    setup: Callable | None = None
    ok: int = 302
    needs_case: bool = True
    sees: set[str] = field(default_factory=lambda: set(SEES_SUBMITTED))


T = today
ROUTES = [
    Route("start page", "get", "/permits/new/", LOGGED_IN, ok=200, needs_case=False),
    Route("start", "post", "/permits/new/", LOGGED_IN, data=_start, needs_case=False),
    Route("intake page", "get", "intake/", SEES_SUBMITTED, ok=200),
    Route("details page", "get", "intake/details/", EDITORS, ok=200),
    Route("details", "post", "intake/details/", EDITORS, data=_start),
    Route("plan page", "get", "intake/plan/", EDITORS, ok=200),
    Route("plan", "post", "intake/plan/", EDITORS, data=lambda: {"locus_map__status": "provided"}),
    Route("O&M page", "get", "intake/om-plan/", EDITORS, ok=200),
    Route("O&M", "post", "intake/om-plan/", EDITORS, data=lambda: {"maintenance_schedule": "x"}),
    Route("signatures page", "get", "intake/signatures/", EDITORS, ok=200),
    Route(
        "signature",
        "post",
        "intake/signatures/",
        EDITORS,
        data=lambda: {"owner_name": "A. Owner", "signed_on": T().isoformat(), "attest": "on"},
    ),
    Route("abutters page", "get", "intake/abutters/", UPLOADERS, ok=200),
    Route(
        "abutters",
        "post",
        "intake/abutters/",
        UPLOADERS,
        data=lambda: {
            "certified_on": T().isoformat(),
            "file": csv_upload("parcel,name,mailing_address\n1,B,2 Main St\n"),
        },
    ),
    Route("upload page", "get", "intake/uploads/", UPLOADERS, ok=200),
    Route(
        "upload",
        "post",
        "intake/uploads/",
        UPLOADERS,
        data=lambda: {"kind": "plan", "file": pdf_upload()},
    ),
    Route("site reviews page", "get", "intake/site-reviews/", SEES_SUBMITTED, ok=200),
    Route("site review re-run", "post", "intake/site-reviews/", UPLOADERS, setup=_with_site_review),
    Route(
        "site review",
        "get",
        "intake/site-reviews/{run}/",
        SEES_SUBMITTED,
        ok=200,
        setup=_with_site_review,
    ),
    Route(
        "site review report",
        "get",
        "intake/site-reviews/{run}/report/",
        SEES_SUBMITTED,
        ok=200,
        setup=_with_site_review,
    ),
    Route("submit page", "get", "intake/submit/", {"applicant"}, ok=200),
    Route(
        "submit",
        "post",
        "intake/submit/",
        {"applicant"},
        state="draft",
        sees={"applicant"},
        data=lambda: {"confirm_missing": "on"},
    ),
    Route("resubmit page", "get", "intake/resubmit/", {"applicant"}, state="incomplete", ok=200),
    Route(
        "resubmit",
        "post",
        "intake/resubmit/",
        {"applicant"},
        state="incomplete",
        data=lambda: {"confirm_missing": "on"},
    ),
    Route("withdraw page", "get", "intake/withdraw/", EDITORS, ok=200),
    Route("withdraw", "post", "intake/withdraw/", EDITORS, data=lambda: {"reason": "sold"}),
    Route("completeness page", "get", "intake/completeness/", {"clerk"}, ok=200),
    Route(
        "completeness finding",
        "post",
        "intake/completeness/",
        {"clerk"},
        data=lambda: {"decision": "incomplete", "missing": ["om_plan"]},
    ),
    Route("fees page", "get", "intake/fees/", {"clerk"}, ok=200),
    Route(
        "fee",
        "post",
        "intake/fees/",
        {"clerk"},
        data=lambda: {"kind": "application", "amount": "500", "paid_on": T().isoformat()},
    ),
    Route("filings page", "get", "intake/filings/", {"clerk", "town_clerk"}, ok=200),
    Route(
        "filing",
        "post",
        "intake/filings/",
        {"clerk", "town_clerk"},
        data=lambda: {
            "what": "the original application form",
            "filed_on": T().isoformat(),
            "receipt_number": "TC-1",
        },
    ),
    Route("referrals page", "get", "intake/referrals/", {"clerk"}, ok=200),
    Route(
        "referral",
        "post",
        "intake/referrals/",
        {"clerk"},
        data=lambda: {
            "boards": ["Board of Health"],
            "sent_on": T().isoformat(),
            "response_due": (T() + dt.timedelta(days=21)).isoformat(),
        },
    ),
    Route(
        "referral response page",
        "get",
        "intake/referrals/{referral}/response/",
        {"clerk"},
        ok=200,
        setup=_with_referral,
    ),
    Route(
        "referral response",
        "post",
        "intake/referrals/{referral}/response/",
        {"clerk"},
        setup=_with_referral,
        data=lambda: {"responded_on": T().isoformat(), "response": "No objection."},
    ),
    Route("comments page", "get", "intake/comments/", SEES_SUBMITTED, ok=200),
    Route(
        "comment",
        "post",
        "intake/comments/",
        {"clerk", "reviewer"},
        data=lambda: {"body": "Show the outlet.", "visible_to_applicant": "on"},
    ),
    Route(
        "reply page",
        "get",
        "intake/comments/{comment}/reply/",
        UPLOADERS,
        ok=200,
        setup=_with_comment,
    ),
    Route(
        "reply",
        "post",
        "intake/comments/{comment}/reply/",
        UPLOADERS,
        setup=_with_comment,
        data=lambda: {"body": "See sheet C-4."},
    ),
    Route(
        "resolve",
        "post",
        "intake/comments/{comment}/resolve/",
        {"clerk", "reviewer"},
        setup=_with_comment,
    ),
    Route("waivers page", "get", "intake/waivers/", SEES_SUBMITTED, ok=200),
    Route(
        "waiver request",
        "post",
        "intake/waivers/",
        {"applicant"},
        data=lambda: {"requirement": "§ 267-19B(2) recharge", "reasons": "Ledge at 2 ft."},
    ),
]


def _expected(route: Route, user: str) -> int:
    if user == "anonymous":
        return 302
    if user in route.allowed:
        return route.ok
    if route.needs_case and user not in route.sees:
        return 404
    return 403


@pytest.mark.parametrize("user", USERS)
@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.label)
def test_who_may_use_each_intake_page_and_action(client, people, make_application, route, user):
    url = route.path
    if route.needs_case:
        a = make_application(
            people["applicant"],
            state=route.state,
            law_date=today(),
            submitted_on=None if route.state == "draft" else today(),
            owners=["A. Owner"],
        )
        ids = route.setup(a, people) if route.setup else {}
        url = f"/permits/{a.pk}/" + route.path.format(**ids)
    if user != "anonymous":
        client.force_login(people[user])
    response = getattr(client, route.method)(url, route.data())
    expected = _expected(route, user)
    assert response.status_code == expected, (route.label, user, response.content[:500])
    if expected == 302:
        assert ("/login/" in response["Location"]) == (user == "anonymous")
