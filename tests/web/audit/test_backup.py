"""Backup and restore: `manage.py backup` writes the database and every stored file with a
manifest of their SHA-256; `manage.py restore` puts them back onto an empty installation — every
table's rows and every file the same, the audit chains intact — and refuses, before writing
anything, an installation that is not empty, a file that is not the one backed up, or a schema
that differs. (The demo's own round trip is in tests/web/demo/test_demo_data.py.)"""

from __future__ import annotations

import io
import json
import tarfile

import pytest
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction

from outfall.web.apps.audit.models import AuditEvent
from outfall.web.apps.audit.services import ACCOUNT_SECTION, audit_record
from outfall.web.apps.core.models import Town
from outfall.web.apps.permits.models import Upload
from tests.web.audit.installation import (
    assert_restored,
    emptied,
    file_digests,
    table_contents,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def installation(settings, tmp_path, people, make_application):
    """A town at work: an application with a stored plan, audit rows in the town's chain and in
    the installation's (to the microsecond)."""
    settings.MEDIA_ROOT = tmp_path / "media"
    application = make_application(people["applicant"])
    upload = Upload(
        application=application,
        kind=Upload.Kind.PLAN,
        original_name="plan.pdf",
        content_type="application/pdf",
        size=9,
        sha256="0" * 64,
        uploaded_by=people["applicant"],
    )
    upload.file.save("plan.pdf", ContentFile(b"%PDF-1.7\n"), save=True)
    with transaction.atomic():
        for town, obj in ((application.town, application), (None, people["clerk"])):
            audit_record(
                actor=people["clerk"],
                town=town,
                action="note",
                section="§ 267-18" if town else ACCOUNT_SECTION,
                summary="Noted, with 'quotes' and ünïcode",
                obj=obj,
                changes={"amount": "500.00", "n": 1.5, "dates": ["2026-03-02"]},
            )
    return application


def backup(to) -> str:
    out = io.StringIO()
    call_command("backup", "--to", str(to), stdout=out)
    return out.getvalue()


def restore(source) -> str:
    out = io.StringIO()
    call_command("restore", "--from", str(source), stdout=out)
    return out.getvalue()


@pytest.mark.parametrize("name", ["backup", "backup.tar.gz"])
def test_a_backup_restored_onto_an_empty_installation_is_the_same_installation(
    installation, settings, tmp_path, name
):
    rows, files = table_contents(), file_digests()
    assert files and rows["audit.AuditEvent"]
    assert "1 stored file(s)" in backup(tmp_path / name)
    emptied(settings, tmp_path / "new-media")
    assert not AuditEvent.objects.exists() and not file_digests()
    out = restore(tmp_path / name)
    assert "Restored" in out and "1 stored file(s)" in out
    assert_restored(table_contents(), rows)
    assert file_digests() == files
    assert "Town of Norfolk: 1 audit row(s), the chain holds" in out
    assert "the installation (no town): 1 audit row(s), the chain holds" in out
    upload = Upload.objects.get()
    assert upload.file.read() == b"%PDF-1.7\n"


def test_the_manifest_lists_every_file_and_table_with_its_hash_and_count(installation, tmp_path):
    backup(tmp_path / "b")
    manifest = json.loads((tmp_path / "b" / "manifest.json").read_text())
    assert manifest["format"] == "outfall-backup"
    (entry,) = manifest["files"]
    assert entry["path"].startswith("uploads/") and entry["bytes"] == 9
    assert manifest["database"]["rows"]["audit.AuditEvent"] == 2
    assert manifest["database"]["rows"]["core.Town"] == 1
    assert "audit" in manifest["migrations"]


def test_restore_refuses_an_installation_that_is_not_empty(installation, tmp_path):
    backup(tmp_path / "b")
    before = table_contents()
    with pytest.raises(CommandError, match=r"not empty: rows in .*core.Town"):
        restore(tmp_path / "b")
    assert table_contents() == before


def test_restore_refuses_stored_files_already_there(installation, settings, tmp_path):
    backup(tmp_path / "b")
    emptied(settings, tmp_path / "new-media")
    (tmp_path / "new-media").mkdir()
    (tmp_path / "new-media" / "left-over.pdf").write_bytes(b"x")
    with pytest.raises(CommandError, match="1 stored file"):
        restore(tmp_path / "b")
    assert not Town.objects.exists()


@pytest.mark.parametrize("damaged", ["a stored file", "the database"])
def test_restore_refuses_a_file_whose_sha256_differs_and_writes_nothing(
    installation, settings, tmp_path, damaged
):
    backup(tmp_path / "b")
    if damaged == "a stored file":
        (target,) = (tmp_path / "b" / "media").rglob("*.pdf")
        target.write_bytes(b"%PDF-1.7\n% changed\n")
    else:
        target = tmp_path / "b" / "database.json"
        target.write_text(target.read_text().replace("Noted", "Denied"))
    emptied(settings, tmp_path / "new-media")
    with pytest.raises(CommandError, match=r"SHA-256 .* differs from the manifest"):
        restore(tmp_path / "b")
    assert not Town.objects.exists() and not file_digests()


def test_restore_refuses_a_backup_of_another_schema(installation, settings, tmp_path):
    backup(tmp_path / "b")
    manifest_path = tmp_path / "b" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["migrations"]["audit"].append("0099_from_the_future")
    manifest_path.write_text(json.dumps(manifest))
    emptied(settings, tmp_path / "new-media")
    with pytest.raises(CommandError, match=r"audit.0099_from_the_future"):
        restore(tmp_path / "b")


def test_a_restore_that_fails_part_way_leaves_the_installation_empty(
    installation, settings, tmp_path
):
    backup(tmp_path / "b")
    manifest_path = tmp_path / "b" / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["database"]["rows"]["audit.AuditEvent"] = 3
    manifest_path.write_text(json.dumps(manifest))
    emptied(settings, tmp_path / "new-media")
    with pytest.raises(CommandError, match=r"differ from the manifest in audit.AuditEvent"):
        restore(tmp_path / "b")
    assert not Town.objects.exists() and not AuditEvent.objects.exists()
    assert not file_digests()


def test_a_tar_gz_reaching_outside_its_folder_is_refused(installation, tmp_path):
    evil = tmp_path / "evil.tar.gz"
    with tarfile.open(evil, "w:gz") as tar:
        info = tarfile.TarInfo("../outside.txt")
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    with pytest.raises((CommandError, tarfile.TarError)):
        restore(evil)
    assert not (tmp_path / "outside.txt").exists()


def test_backup_will_not_write_into_a_directory_that_holds_something(installation, tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x").write_text("x")
    with pytest.raises(CommandError, match="not empty"):
        backup(tmp_path / "b")
