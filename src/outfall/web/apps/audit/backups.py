"""Backing up an installation and restoring it onto an empty one (`manage.py backup`, `restore`).

A backup is a directory (or the same as a .tar.gz):

    manifest.json    what it holds: the schema's migrations, each table's row count, and the
                     SHA-256 and size of every file below
    database.json    every row of every table, in Django's serialization, read in one snapshot
                     (dates and times to the microsecond, so the audit chain's hashes still hold)
    media/...        every stored file, under its own name

The portable path across SQLite and PostgreSQL: rows keep their ids, and references to Django's
own content types and permissions (made afresh by `migrate`) are by natural key. Left out: those
two tables, sessions (nobody stays logged in across a restore) and the cache.

Stored files are read and written through the storage every file field uses (Django's default
storage): the media root on one machine, or the private bucket of the production profile
(config/object_storage.py) — a backup holds the bucket's files and a restore writes them back
into the bucket, both with the same SHA-256 checks.

A restore refuses before writing anything: a manifest of another format, a schema that is not
the one backed up (migrate to the same version first), a file whose SHA-256 differs from the
manifest, or an installation that is not empty (any row in a table the backup holds, any stored
file). It then copies the files, and writes the rows in one transaction with the audit record's
append-only guard lifted for it alone (rows are only inserted: audit rows come back exactly,
their chain places and hashes included). A restore that fails leaves the installation empty.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import posixpath
import shutil
import tarfile
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.core import serializers
from django.core.files import File
from django.core.files.storage import default_storage
from django.core.management import call_command
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connections, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from outfall.web.apps.audit.append_only import guard_lifted

FORMAT = "outfall-backup"
VERSION = 1
MANIFEST = "manifest.json"
DATABASE = "database.json"
MEDIA = "media"
LEFT_OUT = frozenset({"contenttypes.contenttype", "auth.permission", "sessions.session"})
CHUNK = 1024 * 1024


class BackupRefused(Exception):
    """A backup or restore that cannot be done as asked; nothing was written."""


class ExactJSONEncoder(DjangoJSONEncoder):
    """Django's encoder, but times keep their microseconds (Django's drops them: an audit row's
    `at` is part of its hash)."""

    def default(self, o):
        if isinstance(o, dt.datetime | dt.time):
            return o.isoformat()
        return super().default(o)


def backed_up_models() -> list:
    """Every table a backup holds, in an order a restore can write them."""
    by_app: dict = {}
    for model in apps.get_models():
        meta = model._meta
        if meta.managed and not meta.proxy and meta.label_lower not in LEFT_OUT:
            by_app.setdefault(meta.app_config, []).append(model)
    return serializers.sort_dependencies(list(by_app.items()), allow_cycles=True)


def _sha256_of_handle(handle) -> str:
    digest = hashlib.sha256()
    while block := handle.read(CHUNK):
        digest.update(block)
    return digest.hexdigest()


def sha256_of(path: Path) -> str:
    with path.open("rb") as handle:
        return _sha256_of_handle(handle)


def sha256_of_stored(name: str, storage=None) -> str:
    """The SHA-256 of one stored file, read through the storage API."""
    with (storage or default_storage).open(name, "rb") as handle:
        return _sha256_of_handle(handle)


def applied_migrations(using: str) -> dict[str, list[str]]:
    applied: dict[str, list[str]] = {}
    for app, name in sorted(MigrationRecorder(connections[using]).applied_migrations()):
        applied.setdefault(app, []).append(name)
    return applied


def stored_names(storage=None) -> list[str]:
    """The name of every stored file (in the media root or the bucket), sorted."""
    storage = storage or default_storage
    names: list[str] = []

    def walk(folder: str) -> None:
        try:
            folders, files = storage.listdir(folder)
        except FileNotFoundError:  # a media root not made yet holds nothing
            return
        names.extend(posixpath.join(folder, f) if folder else f for f in files)
        for sub in folders:
            walk(posixpath.join(folder, sub) if folder else sub)

    walk("")
    return sorted(names)


def storage_place(storage=None) -> str:
    """Where the stored files are, in words: the bucket, or the media root."""
    storage = storage or default_storage
    bucket = getattr(storage, "bucket_name", None)
    if bucket:
        location = getattr(storage, "location", "")
        return f"bucket {bucket}" + (f" under {location}/" if location else "")
    return str(getattr(storage, "location", settings.MEDIA_ROOT))


def rows_of(models: list, using: str) -> Iterator:
    return chain.from_iterable(
        m._base_manager.using(using).order_by("pk").iterator(chunk_size=2000) for m in models
    )


def serialize_rows(models: list, stream, using: str) -> None:
    serializers.serialize(
        "json",
        rows_of(models, using),
        stream=stream,
        use_natural_foreign_keys=True,
        cls=ExactJSONEncoder,
    )


@contextmanager
def snapshot(using: str):
    """One consistent view of the database for the whole dump: REPEATABLE READ on PostgreSQL;
    on SQLite the transaction holds the database's one write lock, so nothing changes. (Inside
    a transaction already, its own view is the one read.)"""
    connection = connections[using]
    fresh = not connection.in_atomic_block
    with transaction.atomic(using=using):
        if fresh and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


@dataclass(frozen=True)
class BackupResult:
    path: Path
    rows: int
    files: int
    missing: list[str]


def backup_write(target: Path, *, using: str = "default") -> BackupResult:
    """Write a backup of the database and the stored files to `target` (a new or empty
    directory, or a path ending in .tar.gz)."""
    as_tar = target.name.endswith(".tar.gz")
    if as_tar:
        if target.exists():
            raise BackupRefused(f"--to {target}: already exists")
        work = Path(tempfile.mkdtemp(prefix="outfall-backup-", dir=target.parent))
    else:
        if target.exists() and any(target.iterdir()):
            raise BackupRefused(f"--to {target}: the directory is not empty")
        target.mkdir(parents=True, exist_ok=True)
        work = target
    try:
        result = _backup_into(work, using)
        if as_tar:
            partial = target.with_name(target.name + ".partial")
            with tarfile.open(partial, "w:gz") as tar:
                for path in sorted(work.rglob("*")):
                    tar.add(path, arcname=str(path.relative_to(work)), recursive=False)
            partial.replace(target)
    finally:
        if as_tar:
            shutil.rmtree(work, ignore_errors=True)
    return BackupResult(target, result.rows, result.files, result.missing)


def _backup_into(work: Path, using: str) -> BackupResult:
    models = backed_up_models()
    with snapshot(using):
        with (work / DATABASE).open("w", encoding="utf-8") as stream:
            serialize_rows(models, stream, using)
        counts = {m._meta.label: m._base_manager.using(using).count() for m in models}
        referenced = referenced_files(using)
        migrations = applied_migrations(using)
        vendor = connections[using].vendor
    files = []
    for name in stored_names():
        copy = work / MEDIA / name
        copy.parent.mkdir(parents=True, exist_ok=True)
        with default_storage.open(name, "rb") as source, copy.open("wb") as out:
            shutil.copyfileobj(source, out, CHUNK)
        files.append({"path": name, "sha256": sha256_of(copy), "bytes": copy.stat().st_size})
    held = {f["path"] for f in files}
    missing = sorted(referenced - held)
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "created_at": timezone.now().isoformat(),
        "database": {
            "file": DATABASE,
            "vendor": vendor,
            "sha256": sha256_of(work / DATABASE),
            "bytes": (work / DATABASE).stat().st_size,
            "rows": counts,
        },
        "migrations": migrations,
        "files": files,
        "missing_files": missing,
    }
    (work / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return BackupResult(work, sum(counts.values()), len(files), missing)


def referenced_files(using: str) -> set[str]:
    """The stored file every row with a file field points at."""
    from django.db.models import FileField

    names: set[str] = set()
    for model in backed_up_models():
        for field in model._meta.concrete_fields:
            if isinstance(field, FileField):
                values = model._base_manager.using(using).exclude(**{field.name: ""})
                names.update(v for v in values.values_list(field.name, flat=True) if v)
    return names


# ------------------------------------------------------------------------------ restore


@dataclass(frozen=True)
class RestoreResult:
    rows: int
    files: int


@contextmanager
def opened(source: Path):
    """The backup's directory: `source` itself, or a .tar.gz unpacked (safely) into a temporary
    one."""
    if source.is_dir():
        yield source
        return
    if not source.name.endswith(".tar.gz") or not source.is_file():
        raise BackupRefused(f"--from {source}: neither a backup directory nor a .tar.gz")
    work = Path(tempfile.mkdtemp(prefix="outfall-restore-"))
    try:
        with tarfile.open(source, "r:gz") as tar:
            tar.extractall(work, filter="data")
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


def read_manifest(folder: Path) -> dict:
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BackupRefused(f"{MANIFEST}: cannot be read ({exc})") from exc
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise BackupRefused(
            f"{MANIFEST}: format {manifest.get('format')!r} version {manifest.get('version')!r}, "
            f"expected {FORMAT!r} version {VERSION}"
        )
    return manifest


def check_files(folder: Path, manifest: dict) -> None:
    """Every file the manifest lists is there with its SHA-256 (the database dump included)."""
    database = manifest["database"]
    listed = [(DATABASE, database["sha256"])]
    listed += [(f"{MEDIA}/{f['path']}", f["sha256"]) for f in manifest["files"]]
    for name, expected in listed:
        path = folder / name
        if not path.is_file():
            raise BackupRefused(f"{name}: listed in the manifest but not in the backup")
        found = sha256_of(path)
        if found != expected:
            raise BackupRefused(
                f"{name}: SHA-256 {found} differs from the manifest's {expected} "
                "(the backup was changed or damaged); nothing restored"
            )


def check_empty(models: list, using: str) -> None:
    """Refuse unless no table the backup holds has a row and no file is stored."""
    held = [m._meta.label for m in models if m._base_manager.using(using).exists()]
    if held:
        raise BackupRefused(
            "the installation is not empty: rows in "
            + ", ".join(held[:8])
            + (f" and {len(held) - 8} more table(s)" if len(held) > 8 else "")
            + " (restore only onto a new, migrated installation)"
        )
    stored = stored_names()
    if stored:
        raise BackupRefused(
            f"the installation is not empty: {len(stored)} stored file(s) in {storage_place()}"
        )


def restore_from(source: Path, *, using: str = "default") -> RestoreResult:
    """Restore the backup at `source` onto this (empty) installation."""
    with opened(source) as folder:
        manifest = read_manifest(folder)
        here = applied_migrations(using)
        if manifest["migrations"] != here:
            theirs = {f"{a}.{n}" for a, names in manifest["migrations"].items() for n in names}
            ours = {f"{a}.{n}" for a, names in here.items() for n in names}
            differ = sorted(theirs ^ ours)
            raise BackupRefused(
                "the backup's schema is not this installation's: migrations "
                + ", ".join(differ[:6])
                + (" …" if len(differ) > 6 else "")
                + " differ (run the same version of outfall, migrated, then restore)"
            )
        models = backed_up_models()
        check_files(folder, manifest)
        check_empty(models, using)
        written: list[str] = []
        try:
            for entry in manifest["files"]:
                with (folder / MEDIA / entry["path"]).open("rb") as handle:
                    stored = default_storage.save(entry["path"], File(handle))
                written.append(stored)
                if stored != entry["path"]:
                    raise BackupRefused(
                        f"{entry['path']}: stored as {stored} in {storage_place()} (the name "
                        "was taken while the restore ran)"
                    )
                if sha256_of_stored(stored) != entry["sha256"]:
                    raise BackupRefused(
                        f"{entry['path']}: changed while it was copied into {storage_place()}"
                    )
            with guard_lifted(connections[using]):
                call_command("loaddata", str(folder / DATABASE), database=using, verbosity=0)
                counts = {m._meta.label: m._base_manager.using(using).count() for m in models}
                if counts != manifest["database"]["rows"]:
                    differ = sorted(
                        k
                        for k in counts.keys() | manifest["database"]["rows"].keys()
                        if counts.get(k) != manifest["database"]["rows"].get(k)
                    )
                    raise BackupRefused(
                        f"rows restored differ from the manifest in {', '.join(differ)}"
                    )
        except BaseException:
            for name in written:
                default_storage.delete(name)
            raise
    return RestoreResult(sum(counts.values()), len(written))
