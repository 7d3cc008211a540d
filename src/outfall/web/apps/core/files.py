"""Stored files: private names, and the one way a view hands a stored file to a reader.

No stored file has a URL of its own: there is no /media/ route, in development or in
production. Each file is read through a view that first checks that the reader may see the
record it belongs to, and that view answers with `stored_file_response`.

A stored file's name in storage is `<prefix>/<yyyy>/<mm>/<random><.ext>`: 32 random URL-safe
characters and, when the original name had a short alphanumeric extension, that extension in
lower case. Nothing the uploader chose (the file's name, a tracking number, a case number) is
in the path, so a name cannot be guessed from what is known about the record. The record
itself keeps whatever human name it needs (`Upload.original_name`).
"""

from __future__ import annotations

import logging
import mimetypes
import os
import re
import secrets

from django.db import transaction
from django.http import FileResponse, Http404
from django.utils import timezone
from django.utils.deconstruct import deconstructible

log = logging.getLogger(__name__)

RANDOM_BYTES = 24  # 32 URL-safe characters
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,8}")
_RANDOM = r"[A-Za-z0-9_-]{32}"

# Shown in the browser; anything else is downloaded. SVG is not here: it can carry script.
INLINE_TYPES = frozenset({"application/pdf", "image/png", "image/jpeg", "image/gif", "image/webp"})
PRIVATE_CACHE = "private, no-store"
PUBLIC_CACHE = "public, max-age=300"
SANDBOX = "default-src 'none'; sandbox"


def _extension(filename: str) -> str:
    ext = os.path.splitext(os.path.basename(filename or ""))[1]
    return ext.lower() if _EXTENSION.fullmatch(ext) else ""


def private_name(prefix: str, filename: str = "", *, when=None) -> str:
    """A new random storage name under `prefix/<yyyy>/<mm>/`, keeping only a short extension."""
    when = when or timezone.localtime()
    token = secrets.token_urlsafe(RANDOM_BYTES)
    return f"{prefix.strip('/')}/{when:%Y/%m}/{token}{_extension(filename)}"


def is_private_name(prefix: str, name: str) -> bool:
    """Whether `name` already has the shape `private_name(prefix, ...)` gives."""
    pattern = rf"{re.escape(prefix.strip('/'))}/\d{{4}}/\d{{2}}/{_RANDOM}(\.[a-z0-9]{{1,8}})?"
    return re.fullmatch(pattern, name or "") is not None


@deconstructible(path="outfall.web.apps.core.files.PrivateName")
class PrivateName:
    """`upload_to` for every FileField: a random name under `prefix`, never the uploader's."""

    def __init__(self, prefix: str):
        self.prefix = prefix.strip("/")

    def __call__(self, instance, filename: str) -> str:
        return private_name(self.prefix, filename)

    def __eq__(self, other) -> bool:
        return isinstance(other, PrivateName) and other.prefix == self.prefix

    def __hash__(self) -> int:
        return hash(("PrivateName", self.prefix))

    def __repr__(self) -> str:
        return f"PrivateName({self.prefix!r})"


def rename_stored_files(model, field_name: str, prefix: str, *, using: str = "default") -> int:
    """Give each stored file of `model.<field_name>` a private name; the number renamed.

    For data migrations (works on historical models): each file is copied under a new name in
    the field's storage, the row is pointed at it, and the old file is deleted once the
    transaction commits (so a migration that fails later leaves every row's file in place).
    Rows without a file, rows whose file is missing and files already privately named are
    skipped; a file that cannot be read is logged and left as it was. Never raises for a file.
    """
    field = model._meta.get_field(field_name)
    storage = field.storage
    rows = (
        model._default_manager.using(using)
        .exclude(**{f"{field_name}__isnull": True})
        .exclude(**{field_name: ""})
        .values_list("pk", field_name)
    )
    renamed = 0
    for pk, old in list(rows):  # read first: the loop writes to the table it reads
        if not old or is_private_name(prefix, old):
            continue
        try:
            if not storage.exists(old):
                log.warning("%s %s: stored file %r is missing; left as it is", model, pk, old)
                continue
            with storage.open(old, "rb") as handle:
                new = storage.save(private_name(prefix, old), handle)
        except Exception:
            log.exception("%s %s: stored file %r could not be renamed", model, pk, old)
            continue
        model._default_manager.using(using).filter(pk=pk).update(**{field_name: new})
        transaction.on_commit(lambda old=old: _delete_quietly(storage, old), using=using)
        renamed += 1
    return renamed


def _delete_quietly(storage, name: str) -> None:
    try:
        storage.delete(name)
    except Exception:
        log.exception("old stored file %r could not be deleted", name)


def delete_stored_files_on_commit(fieldfiles) -> int:
    """Delete these stored files once the surrounding transaction commits — never before: a
    transaction that rolls back (a refused wipe, a failed write) leaves every file its rows
    point at in place. Returns how many were scheduled."""
    pending = [(f.storage, f.name) for f in fieldfiles if f]
    for storage, name in pending:
        transaction.on_commit(lambda s=storage, n=name: _delete_quietly(s, n))
    return len(pending)


def stored_file_response(
    fieldfile,
    *,
    filename: str,
    content_type: str | None = None,
    inline: bool = True,
    public: bool = False,
) -> FileResponse:
    """The file behind `fieldfile` for a reader the calling view has already checked.

    The answer is never sniffed (nosniff) and never runs as a page: it is sandboxed with no
    sources allowed, so an uploaded HTML or SVG file cannot run script on this site. A PDF or a
    raster image is shown inline when `inline`; anything else is an attachment. Private files
    are never cached (`public=True` is for documents of the public record). 404 when there is
    no file or it is missing from storage.
    """
    name = getattr(fieldfile, "name", None)
    if not fieldfile or not name:
        raise Http404("No file on record")
    try:
        handle = fieldfile.storage.open(name, "rb")
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise Http404("The stored file is missing") from None
    except OSError:
        log.exception("stored file %r could not be opened", name)
        raise Http404("The stored file cannot be read") from None
    content_type = content_type or mimetypes.guess_type(filename)[0] or "application/octet-stream"
    shown = inline and content_type.split(";")[0].strip().lower() in INLINE_TYPES
    response = FileResponse(
        handle, content_type=content_type, as_attachment=not shown, filename=filename
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = SANDBOX
    response["Cache-Control"] = PUBLIC_CACHE if public else PRIVATE_CACHE
    response["Cross-Origin-Resource-Policy"] = "same-origin"
    if not public:
        response["Pragma"] = "no-cache"
    return response
