"""A person's own acts — logging in and out, a refused login, a lockout, switching towns, a token
issued — are audited in the one installation-wide chain (rows of no town): they belong to the
person's account, not to either town's record. The chain is verified like a town's."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import transaction
from django.urls import reverse

from outfall.web.apps.api.services import api_token_issue
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.audit.selectors import audit_chain_verify
from outfall.web.apps.audit.services import ACCOUNT_SECTION, audit_record

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery staple"
ADDRESS = "203.0.113.7"


def installation_rows():
    return list(AuditEvent.objects.filter(town__isnull=True).order_by("seq"))


def log_in(client, username, password=PASSWORD):
    return client.post(
        reverse("core:login"), {"username": username, "password": password}, REMOTE_ADDR=ADDRESS
    )


def test_a_login_and_a_logout_are_recorded_in_the_installation_chain(client, people):
    assert log_in(client, "clerk").status_code == 302
    client.post(reverse("core:logout"))
    login, logout = installation_rows()
    assert (login.action, logout.action) == ("account.login", "account.logout")
    assert login.actor == logout.actor == people["clerk"]
    assert login.town is None and login.section == ACCOUNT_SECTION
    assert login.changes == {"address": ADDRESS} and ADDRESS in login.summary
    assert (login.seq, logout.seq) == (1, 2) and logout.prev_hash == login.row_hash
    assert audit_chain_verify(None).ok


def test_a_refused_login_names_the_username_and_address_but_no_actor(client, people):
    assert log_in(client, "clerk", "wrong password").status_code == 200
    log_in(client, "nobody-by-this-name", "wrong password")
    known, unknown = installation_rows()
    assert known.action == unknown.action == "account.login_refused"
    assert known.actor is None and known.actor_label == "not logged in"
    assert known.object_id == str(people["clerk"].pk)
    assert unknown.object_type == "" and unknown.changes["username"] == "nobody-by-this-name"
    assert "'clerk'" in known.summary and ADDRESS in known.summary


def test_a_lockout_is_recorded_once_for_each_refused_attempt(client, people, settings):
    for n in range(settings.AXES_FAILURE_LIMIT + 2):
        log_in(client, "clerk", f"wrong-{n}")
    actions = [r.action for r in installation_rows()]
    assert actions[: settings.AXES_FAILURE_LIMIT - 1] == ["account.login_refused"] * (
        settings.AXES_FAILURE_LIMIT - 1
    )
    assert actions[settings.AXES_FAILURE_LIMIT - 1 :] == ["account.lockout"] * 3
    assert len(actions) == settings.AXES_FAILURE_LIMIT + 2


def test_a_town_switch_is_recorded_naming_both_towns(client, people, exampleton):
    client.force_login(people["clerk"])
    session = client.session
    session["town"] = "norfolk"
    session.save()
    client.post(reverse("core:switch_town"), {"town": "exampleton", "next": "/"})
    switch = installation_rows()[-1]
    assert switch.action == "account.town_switch" and switch.actor == people["clerk"]
    assert switch.changes == {"town": ["norfolk", "exampleton"]}
    assert "Town of Exampleton (fictional)" in switch.summary
    assert not AuditEvent.objects.filter(town__isnull=False).exists()


def test_an_anonymous_visitors_town_switch_is_not_recorded(client, norfolk, exampleton):
    client.post(reverse("core:switch_town"), {"town": "exampleton"})
    assert client.session["town"] == "exampleton"
    assert installation_rows() == []


def test_a_token_issued_joins_the_installation_chain_naming_the_town_worked_in(people, norfolk):
    api_token_issue(people["clerk"], actor=people["clerk"], name="GIS sync", town=norfolk)
    (row,) = installation_rows()
    assert row.action == "api_token.issue" and row.section == ACCOUNT_SECTION
    assert row.changes["working_in"] == "norfolk"


def test_verify_audit_checks_the_installation_chain_by_default_and_on_its_own(client, people):
    log_in(client, "clerk")
    out = io.StringIO()
    call_command("verify_audit", stdout=out)
    assert "Town of Norfolk: 0 audit row(s), the chain holds" in out.getvalue()
    assert "the installation (no town): 1 audit row(s), the chain holds" in out.getvalue()
    out = io.StringIO()
    call_command("verify_audit", "--installation", stdout=out)
    assert out.getvalue().splitlines() == [
        "the installation (no town): 1 audit row(s), the chain holds"
    ]


def test_two_chains_do_not_share_places(people, norfolk):
    with transaction.atomic():
        for town in (None, norfolk, None):
            audit_record(
                actor=people["clerk"],
                town=town,
                action="note",
                section=ACCOUNT_SECTION,
                summary="A note",
                obj=people["clerk"],
            )
    assert [r.seq for r in installation_rows()] == [1, 2]
    assert AuditEvent.objects.get(town=norfolk).seq == 1
