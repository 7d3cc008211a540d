"""The one shape of an audited write: the row read again and locked in one transaction, only the
changed fields saved, and the audit row filed in the town of the case it belongs to."""

from __future__ import annotations

import pytest
from django.db import connection

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.idde.models import Open311Client
from outfall.web.apps.kit.writes import audit, save_fields, write_lock


@pytest.fixture
def client_key(norfolk, people):
    return Open311Client.objects.create(
        town=norfolk, name="SeeClickFix", key_digest="0" * 64, created_by=people["dpw_staff"]
    )


@pytest.mark.django_db(transaction=True)  # real transactions, to see where one begins and ends
def test_a_write_holds_the_row_read_again_with_its_town_inside_one_transaction(
    client_key, django_assert_num_queries
):
    client_key.name = "typed but not saved"
    with write_lock(client_key) as locked:
        assert connection.in_atomic_block
        assert locked is not client_key and locked.name == "SeeClickFix"
        with django_assert_num_queries(0):
            assert locked.town.slug == "norfolk"
    assert not connection.in_atomic_block


def test_only_the_fields_named_are_saved(client_key):
    client_key.name = "typed but not saved"
    save_fields(client_key, active=False)
    client_key.refresh_from_db()
    assert client_key.active is False
    assert client_key.name == "SeeClickFix"


def test_an_audit_row_is_filed_in_the_town_of_its_record_with_its_changes(
    client_key, people, norfolk
):
    with write_lock(client_key) as locked:
        event = audit(
            people["dpw_staff"],
            locked,
            "open311_client.revoke",
            "§ 267-5",
            "Open311 api_key of SeeClickFix revoked",
            active=[True, False],
        )
    event = AuditEvent.objects.get(pk=event.pk)
    assert event.town == norfolk
    assert (event.action, event.section) == ("open311_client.revoke", "§ 267-5")
    assert event.summary == "Open311 api_key of SeeClickFix revoked"
    assert event.changes == {"active": [True, False]}
    assert (event.object_type, event.case_type) == ("idde.Open311Client", "idde.Open311Client")
    assert event.object_id == event.case_id == str(client_key.pk)


def test_a_record_without_a_town_is_filed_under_its_case_in_the_case_s_town(
    client_key, people, norfolk
):
    person = people["applicant"]
    with write_lock(client_key) as locked:
        event = audit(people["dpw_staff"], person, "person.note", "§ 267-5", "A note", case=locked)
    event = AuditEvent.objects.get(pk=event.pk)
    assert event.town == norfolk
    assert event.object_id == str(person.pk) and event.object_type.endswith(".User")
    assert (event.case_type, event.case_id) == ("idde.Open311Client", str(client_key.pk))


@pytest.mark.django_db(transaction=True)
def test_an_audit_row_is_refused_outside_the_service_s_transaction(client_key, people):
    with pytest.raises(RuntimeError, match="transaction"):
        audit(people["dpw_staff"], client_key, "open311_client.revoke", "§ 267-5", "revoked")
