"""Each verification of a chain is stored; the case page shows the last one — "Record verified
<date> — intact" or a warning naming the first bad entry — without checking the chain itself, so
it stays fast. The next check also holds the chain to the last one found intact: rows cut from
its end, or a chain rewritten with fresh hashes, no longer pass. The town's administrators can
verify on demand, as a job whose page shows the result, and that is audited."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.urls import reverse

from outfall.web.apps.audit.chain import row_digest
from outfall.web.apps.audit.models import AuditEvent, AuditVerification
from outfall.web.apps.audit.services import audit_record
from outfall.web.apps.core.models import Membership
from outfall.web.apps.core.roles import Role
from outfall.web.apps.jobs.models import Job
from tests.web.audit.owner import as_owner
from tests.web.conftest import make_user

pytestmark = pytest.mark.django_db


def write(town, actor, n: int):
    rows = []
    for i in range(n):
        with transaction.atomic():
            rows.append(
                audit_record(
                    actor=actor,
                    town=town,
                    action=f"step.{i}",
                    section="§ 267-18E",
                    summary=f"Step {i}",
                    obj=town,
                )
            )
    return rows


def verify(*args) -> str:
    out = io.StringIO()
    call_command("verify_audit", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def admin(norfolk):
    user = make_user("town-admin", norfolk, Role.ADMIN)
    return user


def test_each_check_is_stored_with_the_chains_last_place(norfolk, people):
    rows = write(norfolk, people["clerk"], 3)
    verify("--town", "norfolk")
    stored = AuditVerification.objects.get(town=norfolk)
    assert stored.ok and stored.rows == 3 and stored.how == "command"
    assert (stored.last_seq, stored.last_hash) == (3, rows[-1].row_hash)
    assert not AuditVerification.objects.filter(town__isnull=True).exists()


def test_rows_cut_from_the_end_after_a_check_are_named_at_the_next(norfolk, people):
    rows = write(norfolk, people["clerk"], 3)
    verify("--town", "norfolk")
    as_owner("DELETE FROM audit_auditevent WHERE id = %s", [rows[-1].pk])
    with pytest.raises(CommandError, match="1 chain"):
        verify("--town", "norfolk")
    last = AuditVerification.objects.filter(town=norfolk).first()
    assert not last.ok and last.first_bad_seq == 3 and last.first_bad_row is None
    assert "rows were removed from its end" in last.message


def test_a_chain_rewritten_with_fresh_hashes_is_named_at_the_next_check(norfolk, people):
    """Someone who knows the algorithm can edit a row and seal every hash again; the chain then
    links up, but the row at the place last found intact is no longer the same."""
    rows = write(norfolk, people["clerk"], 2)
    verify("--town", "norfolk")
    as_owner("UPDATE audit_auditevent SET summary = 'Denied' WHERE id = %s", [rows[0].pk])
    previous = ""
    for row in AuditEvent.objects.filter(town=norfolk).order_by("seq"):
        row.prev_hash = previous
        as_owner(
            "UPDATE audit_auditevent SET prev_hash = %s, row_hash = %s WHERE id = %s",
            [previous, row_digest(row), row.pk],
        )
        previous = row_digest(row)
    with pytest.raises(CommandError):
        verify("--town", "norfolk")
    last = AuditVerification.objects.filter(town=norfolk).first()
    assert last.first_bad_row == rows[1].pk and "rewritten" in last.message


def test_the_case_page_shows_the_last_check_intact(client, people, make_application):
    application = make_application(people["applicant"])
    write(application.town, people["clerk"], 1)
    verify("--town", "norfolk")
    client.force_login(people["clerk"])
    page = client.get(reverse("permits:detail", args=[application.pk])).content.decode()
    assert "Record verified " in page and "— intact (1 entry in Town of Norfolk" in page
    assert "Verify Town of Norfolk" not in page


def test_the_case_page_warns_naming_the_first_bad_entry_from_the_stored_check_only(
    client, people, make_application
):
    application = make_application(people["applicant"])
    rows = write(application.town, people["clerk"], 2)
    verify("--town", "norfolk")
    as_owner("UPDATE audit_auditevent SET summary = 'Denied' WHERE id = %s", [rows[0].pk])
    client.force_login(people["clerk"])
    url = reverse("permits:detail", args=[application.pk])
    assert "— intact" in client.get(url).content.decode()  # the page does not check live
    with pytest.raises(CommandError):
        verify("--town", "norfolk")
    page = client.get(url).content.decode()
    assert "did not verify" in page and "— intact" not in page
    assert (
        f"First bad entry: row {rows[0].pk} (place 1): its content was changed after it was "
        "written." in page
    )


def test_a_town_never_checked_says_so(client, people, make_application):
    application = make_application(people["applicant"])
    client.force_login(people["clerk"])
    page = client.get(reverse("permits:detail", args=[application.pk])).content.decode()
    assert "audit record has not been verified yet" in page


def test_an_administrator_verifies_on_demand_and_the_check_is_audited(
    client, admin, people, make_application
):
    """The check is a job (the suite runs jobs at once); its page links back to the case."""
    application = make_application(people["applicant"])
    write(application.town, people["clerk"], 2)
    client.force_login(admin)
    url = reverse("permits:detail", args=[application.pk])
    assert "Verify Town of Norfolk's record now" in client.get(url).content.decode()
    response = client.post(reverse("jobs:verify_audit"), {"town": "norfolk", "next": url})
    job = Job.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("jobs:status", args=[job.pk])
    check = AuditVerification.objects.get(town=application.town)
    assert check.ok and check.how == "on_demand" and check.run_by == admin
    event = AuditEvent.objects.filter(town=application.town).order_by("-seq").first()
    assert event.action == "audit.verify" and event.actor == admin
    assert "intact (2 rows)" in event.summary
    followed = client.get(response["Location"]).content.decode()
    assert f'<a href="{url}">Town of Norfolk&#x27;s record is intact (2 rows)</a>' in followed
    page = client.get(url).content.decode()
    assert "— intact (2 entries" in page and "on demand by an administrator" in page


def test_an_on_demand_check_of_a_broken_chain_names_the_first_bad_entry(
    client, admin, people, norfolk
):
    rows = write(norfolk, people["clerk"], 2)
    as_owner("UPDATE audit_auditevent SET summary = 'Denied' WHERE id = %s", [rows[0].pk])
    client.force_login(admin)
    response = client.post(reverse("jobs:verify_audit"), {"town": "norfolk"})
    job = Job.objects.get()
    assert job.status == Job.Status.DONE  # the check ran; what it found is its result
    assert job.result_label == (
        f"Town of Norfolk's record does not verify: row {rows[0].pk} (place 1): its content was "
        "changed after it was written"
    )
    assert "does not verify" in client.get(response["Location"]).content.decode()
    assert not AuditVerification.objects.get().ok


def test_only_the_towns_administrators_verify_on_demand(client, people, exampleton):
    client.force_login(people["clerk"])
    assert client.post(reverse("jobs:verify_audit"), {"town": "norfolk"}).status_code == 403
    Membership.objects.create(user=people["clerk"], town=exampleton, role=Role.ADMIN)
    assert client.post(reverse("jobs:verify_audit"), {"town": "norfolk"}).status_code == 403
    assert client.get(reverse("jobs:verify_audit")).status_code == 405
    assert not AuditVerification.objects.exists() and not Job.objects.exists()


def test_an_on_demand_check_goes_back_only_to_a_page_of_this_site(client, admin):
    client.force_login(admin)
    client.post(reverse("jobs:verify_audit"), {"town": "norfolk", "next": "https://evil.example/"})
    assert Job.objects.get().result_url == reverse("home:home")
