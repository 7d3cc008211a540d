"""Who may open each page of the Board's regulations and post each step, role by role: the
Board's clerk and its members in their own town (§ 267-17B), and no one else — not the other
staff of the town, not the DPW, not an applicant, not another town's clerk; a visitor is sent
to log in. The regulations in force are public."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.regulations.models import Regulation
from tests.web.conftest import make_user
from tests.web.regulations.conftest import at

pytestmark = pytest.mark.django_db

EVERYONE = [
    "clerk",
    "board",
    "reviewer",
    "town_clerk",
    "dpw_staff",
    "dpw_director",
    "applicant",
    "other_town_clerk",
    "anonymous",
]
MAY = {"clerk", "board"}


@pytest.fixture
def as_who(client, people, exampleton):
    def login(who):
        if who == "other_town_clerk":
            client.force_login(make_user("ex_clerk", exampleton, "clerk"))
        elif who != "anonymous":
            client.force_login(people[who])
        return client

    return login


def _today() -> dt.date:
    return timezone.localdate()


@pytest.fixture
def draft(walk):
    return walk.draft(today=_today())


@pytest.fixture
def scheduled(walk):
    return walk.scheduled(hearing=_today() + dt.timedelta(days=30))


@pytest.fixture
def advertised(walk):
    """Its hearing ten days ago, advertised two weeks before it."""
    hearing = _today() - dt.timedelta(days=10)
    return walk.advertised(hearing=hearing, advertised=hearing - dt.timedelta(days=14))


@pytest.fixture
def voted(walk):
    return walk.voted(hearing=_today() - dt.timedelta(days=10))


# page -> the record it is about (None: a page of the town)
PAGES = {
    "list": None,
    "new": None,
    "detail": "draft",
    "notice_pdf": "scheduled",
    "hearing": "draft",
    "advertisement": "scheduled",
    "vote": "advertised",
    "adopt": "voted",
}


def _url(request, name):
    record = PAGES[name]
    if record is None:
        return reverse(f"regulations:{name}")
    return reverse(f"regulations:{name}", args=[request.getfixturevalue(record).pk])


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("name", sorted(PAGES))
def test_each_page_opens_only_for_the_boards_clerk_and_members(request, as_who, name, who):
    url = _url(request, name)
    response = as_who(who).get(url)
    if who == "anonymous":
        assert response.status_code == 302 and "/login/" in response["Location"]
    elif who in MAY:
        assert response.status_code == 200
    elif PAGES[name] is not None:
        assert response.status_code == 404  # one who may not see it never learns it exists
    else:
        assert response.status_code == 403


def _hearing_day():
    return (_today() + dt.timedelta(days=30)).isoformat()


# step -> (record fixture, form data, the state it leads to)
POSTS = {
    "new": (
        None,
        lambda: {"title": "Fines", "text": "Text.", "fine_schedule": "1: warning\n2: 100"},
        "draft",
    ),
    "hearing": (
        "draft",
        lambda: {"hearing_at": f"{_hearing_day()}T19:00", "location": "Town Hall"},
        "hearing_scheduled",
    ),
    "advertisement": (
        "scheduled",
        lambda: {"newspaper": "The Gazette", "advertised_on": _today().isoformat()},
        "advertised",
    ),
    "vote": (
        "advertised",
        lambda: {
            "voted_on": (_today() - dt.timedelta(days=10)).isoformat(),
            "present": 5,
            "recused": 0,
            "ayes": 4,
            "nays": 1,
            "abstaining": 0,
        },
        "voted",
    ),
    "adopt": ("voted", lambda: {"effective_on": _today().isoformat()}, "adopted"),
}


@pytest.mark.parametrize("who", EVERYONE)
@pytest.mark.parametrize("name", sorted(POSTS))
def test_each_step_posts_only_for_the_board_and_otherwise_changes_nothing(
    request, as_who, name, who
):
    record, data, state = POSTS[name]
    reg = request.getfixturevalue(record) if record else None
    url = reverse(f"regulations:{name}", args=[reg.pk] if reg else [])
    client = as_who(who)
    before = AuditEvent.objects.filter(action__startswith="regulation.").count()
    response = client.post(url, data())
    after = AuditEvent.objects.filter(action__startswith="regulation.").count()
    if who in MAY:
        assert response.status_code == 302, response.content.decode()[:2000]
        changed = (
            Regulation.objects.order_by("-pk").first()
            if reg is None
            else Regulation.objects.get(pk=reg.pk)
        )
        assert changed.state == state
        assert after == before + 1
        row = AuditEvent.objects.filter(action__startswith="regulation.").order_by("-id").first()
        assert row.section == "§ 267-17B"
    else:
        assert response.status_code in (302, 403, 404)
        assert after == before
        if reg is not None:
            reg.refresh_from_db()
            assert reg.state == Regulation.objects.get(pk=reg.pk).state


def test_a_late_advertisement_is_shown_again_with_the_reason_and_its_section(as_who, walk):
    reg = walk.scheduled(hearing=_today() + dt.timedelta(days=3))
    response = as_who("clerk").post(
        reverse("regulations:advertisement", args=[reg.pk]),
        {"newspaper": "The Gazette", "advertised_on": _today().isoformat()},
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "too late" in body and "§ 267-17B" in body
    reg.refresh_from_db()
    assert reg.state == "hearing_scheduled" and reg.advertised_on is None


def test_a_bad_line_of_the_fine_schedule_is_named_on_its_field(as_who):
    response = as_who("clerk").post(
        reverse("regulations:new"), {"title": "Fines", "text": "T", "fine_schedule": "1: lots"}
    )
    assert response.status_code == 400
    assert "Line 1" in response.content.decode()


def test_a_fine_above_the_ceiling_is_refused_on_the_field_with_the_section(as_who):
    response = as_who("clerk").post(
        reverse("regulations:new"), {"title": "Fines", "text": "T", "fine_schedule": "1: 500"}
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert "§ 267-25D" in body and "$300" in body


def test_the_vote_is_not_offered_before_the_hearing_day(as_who, walk):
    reg = walk.advertised(
        hearing=_today() + dt.timedelta(days=20), advertised=_today() - dt.timedelta(days=1)
    )
    page = as_who("clerk").get(reverse("regulations:detail", args=[reg.pk])).content.decode()
    assert reverse("regulations:vote", args=[reg.pk]) not in page
    assert reverse("regulations:hearing", args=[reg.pk]) in page


@pytest.mark.parametrize("who", EVERYONE)
def test_the_regulations_in_force_are_public_with_their_effective_dates(client, as_who, walk, who):
    reg = walk.adopted(
        hearing=_today() - dt.timedelta(days=30), effective=_today() - dt.timedelta(days=5)
    )
    walk.draft(title="A draft nobody may read here", today=_today())
    response = as_who(who).get(reverse("regulations:public"))
    assert response.status_code == 200
    body = response.content.decode()
    assert reg.number in body and "Written warning" in body
    eff = reg.effective_on
    assert f"{eff:%B} {eff.day}, {eff.year}" in body
    assert "A draft nobody may read here" not in body


def test_another_towns_clerk_lists_only_their_own_towns_regulations(client, draft, exampleton):
    clerk = make_user("ex_clerk2", exampleton, "clerk")
    client.force_login(clerk)
    session = client.session
    session["town"] = "exampleton"
    session.save()
    response = client.get(reverse("regulations:list"))
    assert response.status_code == 200
    assert draft.number not in response.content.decode()
    assert get_user_model().objects.filter(username="ex_clerk2").exists()


def test_a_hearing_set_in_the_past_is_refused_on_its_field(as_who, draft):
    response = as_who("clerk").post(
        reverse("regulations:hearing", args=[draft.pk]),
        {
            "hearing_at": at(_today() - dt.timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
            "location": "Hall",
        },
    )
    assert response.status_code == 400 and "is in the past" in response.content.decode()


def test_a_new_version_of_an_adopted_regulation_is_drafted_from_the_draft_page(as_who, walk):
    first = walk.adopted(
        hearing=_today() - dt.timedelta(days=30), effective=_today() - dt.timedelta(days=5)
    )
    client = as_who("clerk")
    assert first.number in client.get(reverse("regulations:new")).content.decode()
    response = client.post(
        reverse("regulations:new"),
        {"title": "Fines, revised", "text": "T", "fine_schedule": "1: 50", "supersedes": first.pk},
    )
    assert response.status_code == 302
    second = Regulation.objects.order_by("-pk").first()
    assert second.supersedes == first and second.state == "draft"
