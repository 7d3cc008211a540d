"""Stored files: random names that say nothing of the file, no /media/ route (DEBUG included),
the one response every file view answers with, and the migration step that renames the files
already stored.
"""

from __future__ import annotations

import importlib
import re

import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.http import Http404
from django.urls import Resolver404, clear_url_caches, resolve

from outfall.web.apps.core.files import (
    PrivateName,
    is_private_name,
    private_name,
    rename_stored_files,
    stored_file_response,
)
from outfall.web.apps.idde.models import Report
from outfall.web.apps.permits.models import Upload
from tests.web.permits.test_intake_fixtures import PDF, store_upload

NAME = re.compile(r"uploads/\d{4}/\d{2}/[A-Za-z0-9_-]{32}(\.[a-z0-9]{1,8})?")


@pytest.fixture
def media(settings, tmp_path):
    """Each test stores its files in a directory of its own."""
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def _body(response) -> bytes:
    return b"".join(response.streaming_content)


# --- names ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "original, ext",
    [
        ("Abutters List.CSV", ".csv"),
        ("plan.pdf", ".pdf"),
        ("site.yaml", ".yaml"),
        ("no-extension", ""),
        ("odd.tar.gz", ".gz"),
        ("../../etc/passwd", ""),
        ("evil.p hp", ""),
        ("long.extensionover8", ""),
        ("", ""),
    ],
)
def test_a_private_name_keeps_only_a_short_lowercased_extension(original, ext):
    name = PrivateName("uploads")(None, original)
    assert NAME.fullmatch(name), name
    assert name.endswith(ext) and is_private_name("uploads", name)
    stem = original.rsplit(".", 1)[0].lower()
    assert not stem or stem not in name.lower()


def test_two_files_of_the_same_name_get_different_names():
    names = {private_name("uploads", "abutters.csv") for _ in range(50)}
    assert len(names) == 50


def test_private_name_deconstructs_for_migrations():
    path, args, kwargs = PrivateName("idde/photos").deconstruct()
    assert path == "outfall.web.apps.core.files.PrivateName"
    assert args == ("idde/photos",) and kwargs == {}
    assert PrivateName("idde/photos") == PrivateName("/idde/photos/")
    assert PrivateName("idde/photos") != PrivateName("uploads")


def test_every_file_field_is_privately_named():
    from django.apps import apps
    from django.db.models import FileField

    fields = [
        f"{model._meta.label}.{field.name}"
        for model in apps.get_models()
        for field in model._meta.get_fields()
        if isinstance(field, FileField) and not isinstance(field.upload_to, PrivateName)
    ]
    assert fields == []


def test_an_old_name_is_not_taken_for_a_private_one():
    assert not is_private_name("uploads", "uploads/2026/12/abutters.csv")
    assert not is_private_name("idde/photos", "idde/photos/2026/12/RPT-2026-0001.png")
    assert not is_private_name("uploads", "documents/2026/12/" + "a" * 32 + ".pdf")


@pytest.mark.django_db
def test_a_stored_upload_is_named_neither_after_its_file_nor_its_case(
    media, people, make_application
):
    application = make_application(people["applicant"])
    first = store_upload(
        application, Upload.Kind.ABUTTERS, "abutters.csv", b"a,b\n", people["applicant"]
    )
    second = store_upload(
        application, Upload.Kind.ABUTTERS, "abutters.csv", b"a,b\n", people["applicant"]
    )
    for upload in (first, second):
        assert NAME.fullmatch(upload.file.name), upload.file.name
        assert "abutters" not in upload.file.name
        assert application.number not in upload.file.name
        assert upload.original_name == "abutters.csv"
    assert first.file.name != second.file.name


# --- no /media/ route -------------------------------------------------------------------------


@pytest.fixture
def debug_urls(settings):
    """The URL map as the demo builds it, with DEBUG on."""
    from outfall.web.config import urls

    settings.DEBUG = True
    importlib.reload(urls)
    clear_url_caches()
    yield urls
    settings.DEBUG = False
    importlib.reload(urls)
    clear_url_caches()


def test_no_url_pattern_serves_media_even_with_debug_on(debug_urls):
    from django.conf import settings

    assert settings.DEBUG is True
    patterns = [str(p.pattern) for p in debug_urls.urlpatterns]
    assert not any("media" in p for p in patterns)
    for path in ("/media/uploads/2026/12/abutters.csv", "/media/idde/photos/x.png"):
        with pytest.raises(Resolver404):
            resolve(path)


@pytest.mark.django_db
def test_a_stored_file_is_not_served_under_media_with_debug_on(
    debug_urls, client, media, people, make_application
):
    application = make_application(people["applicant"])
    upload = store_upload(application, Upload.Kind.PLAN, "plan.pdf", PDF, people["applicant"])
    assert default_storage.exists(upload.file.name)
    client.force_login(people["clerk"])
    assert client.get(f"/media/{upload.file.name}").status_code == 404
    assert client.get(f"/media/{upload.file.name}", follow=False).status_code == 404


# --- the one response ------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name, data, content_type, disposition",
    [
        ("plan.pdf", PDF, "application/pdf", "inline"),
        ("photo.png", b"\x89PNG\r\n\x1a\n", "image/png", "inline"),
        ("abutters.csv", b"name\nB. Neighbour\n", "text/csv", "attachment"),
        ("page.html", b"<script>alert(1)</script>", "text/html", "attachment"),
        ("drawing.svg", b"<svg onload='alert(1)'/>", "image/svg+xml", "attachment"),
        ("site.yaml", b"name: x\n", None, "attachment"),
    ],
)
def test_a_stored_file_is_served_sandboxed_unsniffed_and_uncached(
    media, people, make_application, name, data, content_type, disposition
):
    upload = store_upload(
        make_application(people["applicant"]), Upload.Kind.OTHER, name, data, people["applicant"]
    )
    response = stored_file_response(upload.file, filename=name, content_type=content_type)
    assert _body(response) == data
    assert response["Content-Disposition"].startswith(disposition)
    assert name in response["Content-Disposition"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"] == "default-src 'none'; sandbox"
    assert response["Cache-Control"] == "private, no-store"


@pytest.mark.django_db
def test_inline_false_makes_even_a_pdf_an_attachment_and_public_may_be_cached(
    media, people, make_application
):
    upload = store_upload(
        make_application(people["applicant"]), "plan", "p.pdf", PDF, people["applicant"]
    )
    attached = stored_file_response(
        upload.file, filename="p.pdf", content_type="application/pdf", inline=False
    )
    assert attached["Content-Disposition"].startswith("attachment")
    public = stored_file_response(
        upload.file, filename="p.pdf", content_type="application/pdf", public=True
    )
    assert public["Cache-Control"].startswith("public")
    assert public["Content-Security-Policy"] == "default-src 'none'; sandbox"


@pytest.mark.django_db
def test_a_missing_or_absent_file_is_a_404(media, people, make_application):
    upload = store_upload(
        make_application(people["applicant"]), "plan", "p.pdf", PDF, people["applicant"]
    )
    default_storage.delete(upload.file.name)
    with pytest.raises(Http404):
        stored_file_response(upload.file, filename="p.pdf")
    upload.file.name = ""
    with pytest.raises(Http404):
        stored_file_response(upload.file, filename="p.pdf")


# --- renaming the files already stored ---------------------------------------------------------


def _old_style(upload: Upload, name: str, data: bytes) -> str:
    """Store `data` under `name` the way files were named before, and point `upload` at it."""
    stored = default_storage.save(name, ContentFile(data))
    Upload.objects.filter(pk=upload.pk).update(file=stored)
    return stored


@pytest.mark.django_db
def test_the_migration_step_renames_a_file_keeping_its_bytes(
    media, people, make_application, django_capture_on_commit_callbacks
):
    application = make_application(people["applicant"])
    upload = store_upload(application, "abutters", "x.csv", b"-", people["applicant"])
    data = b"parcel_id,name\n12-34,B. Neighbour\n"
    old = _old_style(upload, "uploads/2026/12/abutters.csv", data)
    with django_capture_on_commit_callbacks(execute=True):
        renamed = rename_stored_files(Upload, "file", "uploads")
    upload.refresh_from_db()
    assert renamed == 1
    assert NAME.fullmatch(upload.file.name) and "abutters" not in upload.file.name
    with default_storage.open(upload.file.name, "rb") as handle:
        assert handle.read() == data
    assert not default_storage.exists(old)


@pytest.mark.django_db
def test_the_old_file_stays_until_the_rename_is_committed(media, people, make_application):
    upload = store_upload(
        make_application(people["applicant"]), "plan", "x.pdf", PDF, people["applicant"]
    )
    old = _old_style(upload, "uploads/2026/12/plan.pdf", PDF)
    assert rename_stored_files(Upload, "file", "uploads") == 1
    assert default_storage.exists(old)  # the test's transaction never commits


@pytest.mark.django_db
def test_the_migration_step_skips_missing_and_already_private_files_without_crashing(
    media, people, make_application, django_capture_on_commit_callbacks
):
    application = make_application(people["applicant"])
    private = store_upload(application, "plan", "kept.pdf", PDF, people["applicant"])
    kept_name = private.file.name
    missing = store_upload(application, "plan", "gone.pdf", PDF, people["applicant"])
    Upload.objects.filter(pk=missing.pk).update(file="uploads/2026/12/gone.pdf")
    with django_capture_on_commit_callbacks(execute=True):
        assert rename_stored_files(Upload, "file", "uploads") == 0
    private.refresh_from_db()
    missing.refresh_from_db()
    assert private.file.name == kept_name
    assert missing.file.name == "uploads/2026/12/gone.pdf"


@pytest.mark.django_db
def test_a_report_photo_named_after_its_tracking_number_is_renamed(
    media, norfolk, django_capture_on_commit_callbacks
):
    from tests.web.idde.reports_support import make_report, photo

    report = make_report(norfolk, photo=photo()).report
    assert report.tracking_number not in report.photo.name
    old = default_storage.save(
        f"idde/photos/2026/12/{report.tracking_number}.png", ContentFile(b"P")
    )
    Report.objects.filter(pk=report.pk).update(photo=old)
    without = make_report(norfolk).report
    with django_capture_on_commit_callbacks(execute=True):
        assert rename_stored_files(Report, "photo", "idde/photos") == 1
    report.refresh_from_db()
    without.refresh_from_db()
    assert is_private_name("idde/photos", report.photo.name)
    assert report.tracking_number not in report.photo.name
    assert report.photo.name.endswith(".png") and report.photo.read() == b"P"
    assert not without.photo


def run_migration_step(app: str, migration: str) -> None:
    """Run the data step of an app's private_file_names migration on the current models."""
    from types import SimpleNamespace

    from django.apps import apps
    from django.db import connection

    module = importlib.import_module(
        f"outfall.web.apps.{app}.migrations.{migration}_private_file_names"
    )
    step = module.Migration.operations[-1]
    assert type(step).__name__ == "RunPython" and step.reversible
    step.code(apps, SimpleNamespace(connection=connection))


@pytest.mark.django_db
def test_the_permits_migration_renames_uploads_and_documents(
    media, people, make_application, django_capture_on_commit_callbacks
):
    from outfall.web.apps.permits.models import GeneratedDocument

    application = make_application(people["applicant"])
    upload = store_upload(application, "plan", "p.pdf", PDF, people["applicant"])
    _old_style(upload, "uploads/2026/12/plan.pdf", PDF)
    doc = GeneratedDocument(application=application, kind="decision", generated_by=people["clerk"])
    doc.file.save("x.pdf", ContentFile(PDF))
    old_doc = default_storage.save(
        f"documents/2026/12/{application.number}-decision.pdf", ContentFile(PDF)
    )
    GeneratedDocument.objects.filter(pk=doc.pk).update(file=old_doc)
    with django_capture_on_commit_callbacks(execute=True):
        run_migration_step("permits", "0005")
    upload.refresh_from_db()
    doc.refresh_from_db()
    assert is_private_name("uploads", upload.file.name) and upload.file.read() == PDF
    assert is_private_name("documents", doc.file.name) and doc.file.read() == PDF
    assert not default_storage.exists(old_doc)


@pytest.mark.django_db
def test_the_idde_migration_renames_photos_and_documents(
    media, norfolk, people, django_capture_on_commit_callbacks
):
    import datetime as dt

    from django.utils import timezone

    from outfall.web.apps.idde.models import DischargePermit, EmergencySuspension
    from tests.web.idde.reports_support import make_report, photo

    report = make_report(norfolk, photo=photo()).report
    old_photo = default_storage.save(
        f"idde/photos/2026/12/{report.tracking_number}.png", ContentFile(b"P")
    )
    Report.objects.filter(pk=report.pk).update(photo=old_photo)
    permit = DischargePermit.objects.create(
        town=norfolk,
        number="SPA-2026-0001",
        property_address="1 Main Street",
        applicant_name="X",
        applied_on=dt.date(2026, 3, 2),
        document=default_storage.save(
            "idde/discharge_permits/2026/SPA-2026-0001.pdf", ContentFile(PDF)
        ),
    )
    suspension = EmergencySuspension.objects.create(
        town=norfolk,
        property_address="77 Industrial Way",
        person_name="Plating Works Inc.",
        ordered_at=timezone.make_aware(dt.datetime(2026, 8, 3, 14, 0)),
        imminent_risk_finding="Rinse water entering a catch basin.",
        ordered_by=people["dpw_director"],
        document=default_storage.save("idde/suspensions/2026/ES-2026.pdf", ContentFile(PDF)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        run_migration_step("idde", "0005")
    for record, field, prefix in (
        (report, "photo", "idde/photos"),
        (permit, "document", "idde/discharge_permits"),
        (suspension, "document", "idde/suspensions"),
    ):
        record.refresh_from_db()
        stored = getattr(record, field)
        assert is_private_name(prefix, stored.name), stored.name
        assert stored.read() == (b"P" if field == "photo" else PDF)
