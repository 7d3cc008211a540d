"""Requests generated from the OpenAPI document (schemathesis), sent to the Django app through
WSGI as signed-in staff, against records of every kind: no answer is a server error, and every
answer — success or refusal — has a status, a content type and a body the document declares.

The run is bounded (a few examples per operation, derandomized) so it stays well under a minute.
"""

from __future__ import annotations

from collections import Counter

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from outfall.web.apps.api.services import api_token_issue
from outfall.web.apps.assets.models import Asset

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
EXAMPLES = {"positive": 4, "negative": 2}


@pytest.fixture
def wsgi_app():
    """Django as a WSGI app inside the test's transaction: like Django's test client, requests
    do not close the connection that holds it."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield WSGIHandler()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def staff_tokens(people):
    """A bearer token for the permit clerk and one for the DPW Director."""
    out = {}
    for who in ("clerk", "dpw_director"):
        _, raw = api_token_issue(people[who], actor=people[who], name="generated requests")
        out[who] = {"Authorization": f"Bearer {raw}"}
    return out


@pytest.fixture
def every_kind_of_record(case, records, norfolk):
    """A permit case well along, one of each Article I record and a structure."""
    Asset.objects.create(
        town=norfolk, kind="outfall", asset_id="OF-001", latitude=42.12, longitude=-71.33
    )
    return case, records


def _known_ids(case, records) -> dict[str, int]:
    return {
        "application_id": case.pk,
        "asset_id": Asset.objects.get().pk,
        "report_id": records["reports"].pk,
        "investigation_id": records["investigations"].pk,
        "permit_id": records["discharge-permits"].pk,
        "spill_id": records["spills"].pk,
        "suspension_id": records["suspensions"].pk,
    }


def _checked_calls(strategy, headers: dict, examples: int, seen: Counter):
    """A Hypothesis test sending `examples` cases of `strategy`, checking each answer and
    counting its status in `seen`."""

    @given(case=strategy)
    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    def check(case):
        seen[case.call_and_validate(headers=headers, checks=CHECKS).status_code] += 1

    return check


def _path_names(path: str) -> list[str]:
    return [part[1:-1] for part in path.split("/") if part.startswith("{")]


@pytest.mark.parametrize("mode", sorted(EXAMPLES))
def test_generated_requests_get_declared_answers_and_never_a_server_error(
    wsgi_app, staff_tokens, every_kind_of_record, mode
):
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", wsgi_app)
    ids = _known_ids(*every_kind_of_record)
    failures = []
    seen = Counter()
    for result in schema.get_all_operations():
        operation = result.ok()
        headers = staff_tokens["dpw_director" if "/dpw/" in operation.path else "clerk"]
        known = {name: ids[name] for name in _path_names(operation.path) if name in ids}
        strategy = operation.as_strategy(
            generation_mode=schemathesis.GenerationMode(mode),
            path_parameters=known if mode == "positive" and known else None,
        )

        check = _checked_calls(strategy, headers, EXAMPLES[mode], seen)
        try:
            check()
        except Exception as exc:  # each operation's failure is reported, not just the first
            failures.append(f"{operation.method.upper()} {operation.path}: {exc}")
    assert failures == []
    if mode == "positive":  # the records were found and read, not only refused
        assert seen[200] >= 40 and seen[201] >= 1, seen
    else:
        assert seen[422] >= 20, seen
