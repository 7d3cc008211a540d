"""Fixtures of the deployment tests: an S3 API server (moto's) for the private bucket, and the
default storage pointed at a new bucket of it, as the production profile points it."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import pytest

from tests.web.deploy.processes import S3_CREDENTIALS, private_bucket, s3_server


@pytest.fixture(scope="session")
def s3_endpoint(tmp_path_factory):
    """An S3 API server process for the session (skipped where moto is not installed)."""
    pytest.importorskip("moto.server", reason="moto[server] (dev extra) is the S3 stand-in")
    pytest.importorskip("storages.backends.s3", reason="django-storages[s3] (production extra)")
    with s3_server(tmp_path_factory.mktemp("s3") / "moto.log") as endpoint:
        yield endpoint


def new_bucket(s3_endpoint: str) -> str:
    return private_bucket(s3_endpoint, f"outfall-{secrets.token_hex(6)}")


@pytest.fixture
def in_bucket(settings, monkeypatch, s3_endpoint):
    """Stored files go to a new private bucket, through the production profile's storage entry
    (`in_bucket.bucket`); `in_bucket.move()` points them at another new one (a new
    installation's)."""
    for name, value in S3_CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    buckets = Buckets(s3_endpoint, settings)
    buckets.move()
    return buckets


@dataclass
class Buckets:
    endpoint: str
    settings: object
    bucket: str = ""

    def move(self) -> str:
        from outfall.web.config.object_storage import s3_media_storage

        self.bucket = new_bucket(self.endpoint)
        environ = {
            "OUTFALL_MEDIA_BUCKET": self.bucket,
            "OUTFALL_MEDIA_PREFIX": "media",
            "OUTFALL_S3_ENDPOINT_URL": self.endpoint,
            "OUTFALL_S3_ADDRESSING": "path",
        }
        self.settings.STORAGES = {**self.settings.STORAGES, "default": s3_media_storage(environ)}
        return self.bucket
