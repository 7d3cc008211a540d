"""The deployment that scales out, run as processes (issue 13, item 5): gunicorn serving the
production profile behind a proxy (the test sends what the proxy sends), `manage.py db_worker`,
PostgreSQL with a second database as the read replica, and an S3 API server as the private
bucket (tests/web/deploy/topology.py). Runs in the PostgreSQL pass of tests/web; skipped on
SQLite."""

from __future__ import annotations

import datetime as dt
import hashlib
import io

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connections
from django.urls import reverse
from PIL import Image

from outfall.law.ms4_permit import permit_year
from outfall.web.apps.assets.models import Asset
from outfall.web.apps.core.files import SANDBOX
from outfall.web.apps.core.models import Town
from outfall.web.apps.core.roles import Role
from outfall.web.apps.idde.models import Report
from outfall.web.apps.jobs.models import Job
from tests.web.conftest import make_user
from tests.web.deploy.processes import bucket_keys, bucket_object
from tests.web.deploy.topology import Browser, replicate, running, wait_for

# One set of processes for the module: under xdist the tests stay on one worker (loadgroup).
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.xdist_group("deploy")]
PASSWORD = "correct horse battery staple"
PUBLIC_LIST = "/api/public/hearings"


@pytest.fixture(scope="module")
def topology(django_db_setup, tmp_path_factory):
    """Every process of the deployment, started once for this module."""
    if connections["default"].vendor != "postgresql":
        pytest.skip("the deployment's one store is PostgreSQL (set DATABASE_URL)")
    pytest.importorskip("gunicorn", reason="gunicorn (production extra) serves the app")
    pytest.importorskip("moto.server", reason="moto[server] (dev extra) is the S3 stand-in")
    pytest.importorskip("storages.backends.s3", reason="django-storages[s3] (production extra)")
    settings_dict = dict(connections["default"].settings_dict)
    connections.close_all()  # the replica is copied from the primary: no session may be open
    with running(settings_dict, tmp_path_factory.mktemp("deploy")) as deployment:
        yield deployment


def staff_member(username: str, town, role: str = Role.DPW_STAFF):
    """A person with a role in `town`, whose password the production profile can check (the
    test settings' fast hasher is not one of its hashers)."""
    user = make_user(username, town, role)
    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(PASSWORD, hasher.salt())
    user.save(update_fields=["password"])
    return user


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 200, 180)).save(out, "PNG")
    return out.getvalue()


def test_a_rate_limit_counts_each_client_behind_the_proxy_not_the_proxy(topology):
    """Every request reaches gunicorn from the proxy's one address; the limit (3 an hour here)
    counts the client the proxy saw, on whichever app server worker answers."""
    one, other = Browser(topology.base, "203.0.113.7"), Browser(topology.base, "198.51.100.9")
    assert [one.get(PUBLIC_LIST).status_code for _ in range(3)] == [200, 200, 200]
    assert one.get(PUBLIC_LIST).status_code == 429
    # An address the client put in front of the proxy's own entry changes nothing.
    spoofed = one.get(PUBLIC_LIST, forwarded_for="192.0.2.99, 203.0.113.7")
    assert spoofed.status_code == 429
    assert other.get(PUBLIC_LIST).status_code == 200


def test_a_reports_photo_goes_to_the_bucket_and_its_mail_is_sent_by_the_worker(topology, norfolk):
    """§ 267-3: a public report with a photo and an e-mail address. The photo is stored in the
    private bucket, not on the app server; the e-mails are queued and the worker sends them."""
    staff_member("dpw", norfolk)
    reporter = Browser(topology.base, "192.0.2.10")
    answer = reporter.post_form(
        "/report/",
        {
            "description": "Milky water running from the outfall",
            "address": "1 Liberty Lane",
            "contact_email": "reporter@example.org",
        },
        files={"photo": ("drain.png", png(), "image/png")},
    )
    assert answer.status_code == 302, answer.text[:3000]
    report = Report.objects.get()
    key = f"media/{report.photo.name}"
    assert bucket_keys(topology.s3_endpoint, topology.bucket) == [key]
    stored = bucket_object(topology.s3_endpoint, topology.bucket, key)
    assert hashlib.sha256(stored).hexdigest() == report.photo_sha256
    assert not [p for p in topology.var.rglob("*") if p.is_file() and "media" in p.parts]

    def statuses() -> list[str]:
        return list(Job.objects.values_list("status", flat=True))

    assert len(statuses()) == 2  # the Department's e-mail and the reporter's, queued
    wait_for(lambda: set(statuses()) == {Job.Status.DONE}, "the worker to run both")
    mail = "".join(p.read_text() for p in topology.mail.glob("*.log"))
    assert "To: reporter@example.org" in mail and "To: dpw@example.org" in mail
    assert report.tracking_number in mail and "https://permits.example.test/" in mail


def test_a_stored_photo_reaches_only_the_staff_who_may_see_it_through_the_view(
    topology, norfolk, exampleton
):
    """Issue 6's permission-checked view streams the object; another town's staff get 404, a
    person not logged in the login page; no page names the bucket."""
    staff_member("dpw", norfolk)
    staff_member("other_dpw", exampleton)
    Browser(topology.base, "192.0.2.11").post_form(
        "/report/",
        {"description": "Oil sheen in the brook", "address": "Main Street bridge"},
        files={"photo": ("sheen.png", png(), "image/png")},
    )
    report = Report.objects.get()
    photo = reverse("idde:report_photo", args=[report.pk])
    staff, stranger = Browser(topology.base, "192.0.2.20"), Browser(topology.base, "192.0.2.21")
    staff.log_in("dpw", PASSWORD)
    stranger.log_in("other_dpw", PASSWORD)

    seen = staff.get(photo)
    assert seen.status_code == 200
    stored = bucket_object(topology.s3_endpoint, topology.bucket, f"media/{report.photo.name}")
    assert seen.content == stored
    assert seen.headers["Content-Security-Policy"] == SANDBOX
    assert seen.headers["Cache-Control"] == "private, no-store"
    assert stranger.get(photo).status_code == 404
    anonymous = Browser(topology.base, "192.0.2.22").get(photo)
    assert anonymous.status_code == 302 and anonymous.headers["Location"].startswith("/login/")
    page = staff.get(reverse("idde:report_detail", args=[report.pk]))
    assert page.status_code == 200 and topology.s3_endpoint not in page.text
    assert topology.bucket not in page.text


def test_the_ms4_report_reads_the_replica_and_every_other_page_the_primary(topology, norfolk):
    """The MS4 annual report (Part 4.4) may be seconds behind, so it reads the replica; the
    record just written is on the primary, and its own page shows it at once."""
    staff_member("dpw", norfolk)
    for n in (1, 2):
        Asset.objects.create(
            town=norfolk,
            kind=Asset.Kind.OUTFALL,
            asset_id=f"OF-00{n}",
            latitude=42.1,
            longitude=-71.3,
        )
    replicate(topology.settings_dict, topology.replica, Town._meta.db_table, Asset._meta.db_table)
    newest = Asset.objects.create(  # written a moment ago: not on the replica yet
        town=norfolk, kind=Asset.Kind.OUTFALL, asset_id="OF-003", latitude=42.1, longitude=-71.3
    )
    staff = Browser(topology.base, "192.0.2.30")
    staff.log_in("dpw", PASSWORD)
    year = permit_year(dt.date.today(), town="norfolk").outcome.start.year
    records = staff.get(reverse("ms4:figure_records", args=[year, "outfalls_inventoried"]))
    assert records.status_code == 200, records.text[:3000]
    assert "OF-001" in records.text and "OF-002" in records.text
    assert "OF-003" not in records.text
    own_page = staff.get(reverse("assets:detail", args=[newest.pk]))
    assert own_page.status_code == 200 and "OF-003" in own_page.text
