"""Stored files in the private bucket (the production profile's object storage): a file saved
through a record lands in the bucket under its private name and reaches a reader only through
the permission-checked view's streaming answer (issue 6: `core.files.stored_file_response`), and
a backup holds the bucket's files and a restore writes them back into a new bucket, each checked
by its SHA-256 (`audit.backups`)."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.http import Http404

from outfall.web.apps.core.files import SANDBOX, stored_file_response
from outfall.web.apps.permits.models import Upload
from tests.web.audit.installation import assert_restored, emptied, file_digests, table_contents
from tests.web.deploy.processes import bucket_keys, bucket_object, s3_client

pytestmark = pytest.mark.django_db

PLAN = b"%PDF-1.7\n% a stormwater plan\n"


@pytest.fixture
def plan(in_bucket, people, make_application) -> Upload:
    upload = Upload(
        application=make_application(people["applicant"]),
        kind=Upload.Kind.PLAN,
        original_name="plan.pdf",
        content_type="application/pdf",
        size=len(PLAN),
        sha256=hashlib.sha256(PLAN).hexdigest(),
        uploaded_by=people["applicant"],
    )
    upload.file.save("Smith plan.pdf", ContentFile(PLAN), save=True)
    return upload


def test_a_stored_file_is_in_the_private_bucket_under_its_private_name(in_bucket, plan):
    assert bucket_keys(in_bucket.endpoint, in_bucket.bucket) == [f"media/{plan.file.name}"]
    assert "Smith" not in plan.file.name and plan.file.name.startswith("uploads/")
    assert bucket_object(in_bucket.endpoint, in_bucket.bucket, f"media/{plan.file.name}") == PLAN
    acl = s3_client(in_bucket.endpoint).get_object_acl(
        Bucket=in_bucket.bucket, Key=f"media/{plan.file.name}"
    )
    assert not [g for g in acl["Grants"] if "AllUsers" in str(g["Grantee"])]


def test_the_view_streams_the_object_with_its_sandbox_and_a_missing_object_is_404(in_bucket, plan):
    response = stored_file_response(plan.file, filename="plan.pdf")
    assert b"".join(response.streaming_content) == PLAN
    assert response["Content-Security-Policy"] == SANDBOX
    assert response["Cache-Control"] == "private, no-store"
    assert "Location" not in response  # streamed, never redirected to a bucket address
    s3_client(in_bucket.endpoint).delete_object(
        Bucket=in_bucket.bucket, Key=f"media/{plan.file.name}"
    )
    with pytest.raises(Http404):
        stored_file_response(plan.file, filename="plan.pdf")


def test_a_backup_holds_the_buckets_files_and_a_restore_writes_them_into_a_new_bucket(
    in_bucket, plan, settings, tmp_path
):
    rows, files = table_contents(), file_digests()
    out = io.StringIO()
    call_command("backup", "--to", str(tmp_path / "b"), stdout=out)
    assert "1 stored file(s)" in out.getvalue()
    assert (tmp_path / "b" / "media" / plan.file.name).read_bytes() == PLAN
    emptied(settings, tmp_path / "unused-media-root")
    old_bucket = in_bucket.bucket
    in_bucket.move()
    assert not file_digests()
    call_command("restore", "--from", str(tmp_path / "b"), stdout=io.StringIO())
    assert_restored(table_contents(), rows)
    assert file_digests() == files
    assert bucket_keys(in_bucket.endpoint, in_bucket.bucket) == bucket_keys(
        in_bucket.endpoint, old_bucket
    )
    assert Upload.objects.get().file.read() == PLAN


def test_a_restore_refuses_a_bucket_that_already_holds_files(in_bucket, plan, settings, tmp_path):
    call_command("backup", "--to", str(tmp_path / "b"), stdout=io.StringIO())
    emptied(settings, tmp_path / "unused-media-root")
    with pytest.raises(CommandError, match=rf"1 stored file\(s\) in bucket {in_bucket.bucket}"):
        call_command("restore", "--from", str(tmp_path / "b"), stdout=io.StringIO())
