"""Stored files on object storage (django-storages' S3 backend): the `STORAGES["default"]` entry
for a private bucket, read from the environment by the production profile.

OUTFALL_MEDIA_BUCKET      the bucket (private: no public ACL, no public URL is ever made)
OUTFALL_MEDIA_PREFIX      a key prefix inside it (default none), e.g. one installation's folder
OUTFALL_S3_ENDPOINT_URL   an S3-compatible service other than AWS (MinIO, Ceph, ...)
OUTFALL_S3_REGION         the bucket's region
OUTFALL_S3_ADDRESSING     "path" or "virtual" (what the service needs; default: boto3's choice)

Credentials are boto3's own: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY from the environment, or
the machine's role; they are never written into settings.

Readers never get a bucket address: every stored file is streamed through the view that checks
its reader's permission (`core.files.stored_file_response`), which also sets the sandboxing and
no-store headers a signed bucket URL could not carry.
"""

from __future__ import annotations

from collections.abc import Mapping

S3_BACKEND = "storages.backends.s3.S3Storage"


def s3_media_storage(environ: Mapping[str, str]) -> dict:
    """The `STORAGES["default"]` entry for the private media bucket named in `environ`."""
    options: dict = {
        "bucket_name": environ["OUTFALL_MEDIA_BUCKET"],
        "location": environ.get("OUTFALL_MEDIA_PREFIX", "").strip("/"),
        # Private: no ACL is sent (the bucket's own policy, blocking public access, applies),
        # and a name already taken is never overwritten (names are random: core.files).
        "default_acl": None,
        "file_overwrite": False,
        "querystring_auth": True,
        "querystring_expire": 60,
        "signature_version": "s3v4",
    }
    optional = {
        "endpoint_url": "OUTFALL_S3_ENDPOINT_URL",
        "region_name": "OUTFALL_S3_REGION",
        "addressing_style": "OUTFALL_S3_ADDRESSING",
    }
    for option, name in optional.items():
        if environ.get(name):
            options[option] = environ[name]
    return {"BACKEND": S3_BACKEND, "OPTIONS": options}
