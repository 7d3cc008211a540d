"""The demo loaded once for each test module that asks for it (`demo`, the summary it printed),
then rolled back. Its var/ directory (where the status link is kept) is the module's own, as test
workers may load the demo at once."""

from __future__ import annotations

import io
import os

import pytest
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings

PASSWORD = "demo-test-password"


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    before = os.environ.get("OUTFALL_DEMO_PASSWORD")
    os.environ["OUTFALL_DEMO_PASSWORD"] = PASSWORD
    out = io.StringIO()
    with (
        override_settings(VAR_DIR=tmp_path_factory.mktemp("demo-var")),
        django_db_blocker.unblock(),
        transaction.atomic(),
    ):
        call_command("demo_data", stdout=out)
        yield out.getvalue()
        transaction.set_rollback(True)
    if before is None:
        os.environ.pop("OUTFALL_DEMO_PASSWORD")
    else:
        os.environ["OUTFALL_DEMO_PASSWORD"] = before
