"""Lines imported before Asset.line existed (kept as properties["geometry"]) move into it, so
those pipes and ditches are exported as lines (§ 267-5)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

LINE = [[-71.3255, 42.1195], [-71.326, 42.119]]


@pytest.mark.django_db(transaction=True)
def test_a_line_kept_among_the_properties_moves_into_the_line_field():
    before = [("assets", "0003_catchments_and_position_index")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    town = old.get_model("core", "Town").objects.create(slug="norfolk", name="Norfolk")
    old.get_model("assets", "Asset").objects.create(
        town=town,
        kind="pipe",
        asset_id="P-1",
        latitude=42.1195,
        longitude=-71.3255,
        properties={"geometry": {"type": "LineString", "coordinates": LINE}, "owner": "DPW"},
    )

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    new = executor.loader.project_state(executor.loader.graph.leaf_nodes()).apps
    pipe = new.get_model("assets", "Asset").objects.get()
    assert pipe.line == LINE
    assert pipe.properties == {"owner": "DPW"}
