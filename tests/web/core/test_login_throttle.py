"""Login is throttled: after the town's limit of wrong passwords for one username from one
address, even the right password is refused with a page that says why, until the cool-off ends;
another person's login from elsewhere is not affected."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-Correct-password-1"


@pytest.fixture
def alice(db):
    user = make_user("alice")
    user.set_password(PASSWORD)
    user.save()
    return user


def attempt(client, username, password, addr="203.0.113.7"):
    return client.post(
        reverse("core:login"), {"username": username, "password": password}, REMOTE_ADDR=addr
    )


def test_fifteen_wrong_passwords_then_the_right_one_is_refused(client, alice, settings):
    statuses = [attempt(client, "alice", f"wrong-{n}").status_code for n in range(15)]
    assert statuses[0] == 200  # the form again, with its error
    assert 429 in statuses or 403 in statuses
    response = attempt(client, "alice", PASSWORD)
    assert response.status_code in (403, 429)
    assert "Too many attempts to log in" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_few_mistakes_then_the_right_password_logs_in_and_resets_the_count(client, alice):
    for n in range(3):
        attempt(client, "alice", f"wrong-{n}")
    response = attempt(client, "alice", PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_a_locked_username_does_not_lock_out_the_same_person_from_another_address(
    client, alice, settings
):
    for n in range(settings.AXES_FAILURE_LIMIT):
        attempt(client, "alice", f"wrong-{n}")
    assert attempt(client, "alice", PASSWORD).status_code in (403, 429)
    other = attempt(client, "alice", PASSWORD, addr="198.51.100.9")
    assert other.status_code == 302
