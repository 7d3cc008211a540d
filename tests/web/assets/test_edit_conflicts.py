"""Two people editing one record: the second save is told what the first changed, and nothing
either typed is lost (issue 10: a stale form silently overwrote another user's edit)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from outfall.web.apps.assets.models import Asset
from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.kit.versions import edit_token, require_unchanged

pytestmark = pytest.mark.django_db

FORM = {
    "kind": "outfall",
    "name": "Mill Brook at Main Street",
    "latitude": "42.119",
    "longitude": "-71.326",
    "receiving_water": "Mill Brook",
    "catchment": "MB-1",
    "condition": "good",
    "size_in": "18",
    "active": "on",
}


def _signed_in(person) -> Client:
    client = Client()
    client.force_login(person)
    return client


def _opened(client, asset) -> str:
    """Open the edit form; the version it carries."""
    page = client.get(reverse("assets:edit", args=[asset.pk])).content.decode()
    return re.search(r'name="based_on" value="([^"]+)"', page).group(1)


def test_the_second_of_two_editors_is_told_what_changed_and_nothing_is_overwritten(people, outfall):
    first, second = _signed_in(people["dpw_staff"]), _signed_in(people["dpw_director"])
    version_first, version_second = _opened(first, outfall), _opened(second, outfall)
    url = reverse("assets:edit", args=[outfall.pk])

    saved = first.post(url, {**FORM, "notes": "Headwall cracked", "based_on": version_first})
    assert saved.status_code == 302

    stale = second.post(url, {**FORM, "notes": "Flap gate missing", "based_on": version_second})
    assert stale.status_code == 409
    page = stale.content.decode()
    assert "Notes: it was “empty” when you opened this form and is now “Headwall cracked”" in page
    assert "nothing you typed was saved" in page
    assert "Flap gate missing" in page  # what the second editor typed is kept on the form
    outfall.refresh_from_db()
    assert outfall.notes == "Headwall cracked"

    fresh = re.search(r'name="based_on" value="([^"]+)"', page).group(1)
    again = second.post(url, {**FORM, "notes": "Flap gate missing", "based_on": fresh})
    assert again.status_code == 302
    outfall.refresh_from_db()
    assert outfall.notes == "Flap gate missing"


def test_the_audit_row_keeps_the_old_and_the_new_value_of_each_field(people, outfall):
    client = _signed_in(people["dpw_staff"])
    client.post(
        reverse("assets:edit", args=[outfall.pk]),
        {**FORM, "notes": "Headwall cracked", "based_on": _opened(client, outfall)},
    )
    row = AuditEvent.objects.filter(action="asset.update").latest("pk")
    assert row.changes["notes"] == {"from": "", "to": "Headwall cracked"}


def test_a_damaged_version_is_refused_on_its_field_not_taken_for_a_conflict(people, outfall):
    client = _signed_in(people["dpw_staff"])
    response = client.post(
        reverse("assets:edit", args=[outfall.pk]), {**FORM, "notes": "x", "based_on": "forged"}
    )
    assert response.status_code == 400
    assert "the form was damaged in transit" in response.content.decode()
    outfall.refresh_from_db()
    assert outfall.notes == ""


def test_a_caller_without_a_version_is_not_checked(outfall):
    require_unchanged(outfall, ["notes"], None)
    require_unchanged(outfall, ["notes"], "")


def test_a_version_names_only_the_fields_that_changed(outfall):
    token = edit_token(outfall, ["notes", "name"])
    Asset.objects.filter(pk=outfall.pk).update(name="Renamed")
    outfall.refresh_from_db()
    with pytest.raises(Exception) as err:
        require_unchanged(outfall, ["notes", "name"], token, labels={"name": "Name"})
    assert [c.label for c in err.value.changes] == ["Name"]
    assert (err.value.changes[0].then, err.value.changes[0].now) == (
        "Mill Brook at Main Street",
        "Renamed",
    )
