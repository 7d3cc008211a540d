"""Every clock comes from one explicit registry: each app that keeps clocks is listed, a source
that is missing stops the import, and a source that fails breaks the page instead of letting its
clocks vanish from the dashboard."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from outfall.web.apps.deadlines import selectors
from outfall.web.apps.enforcement import clocks as enforcement_clocks

APPS = Path(selectors.__file__).resolve().parents[1]


def test_every_app_that_keeps_clocks_is_in_the_registry():
    with_clocks = {p.parent.name for p in APPS.glob("*/clocks.py")} - {"kit"}
    listed = {m.__name__.split(".")[-2] for m in selectors.CLOCK_SOURCES}
    assert (
        with_clocks
        == listed
        == {
            "permits",
            "enforcement",
            "idde",
            "assets",
            "regulations",
            "ms4",
        }
    )


@pytest.mark.parametrize("source", selectors.CLOCK_SOURCES, ids=lambda m: m.__name__)
def test_each_source_names_itself_its_kinds_and_lists_clocks(source):
    assert isinstance(source.SOURCE, str) and source.CLOCK_KINDS
    assert callable(source.clock_list_visible_to)
    assert callable(source.index_entries) and callable(source.index_visible)
    assert all(label and not label.islower() for label in source.CLOCK_KINDS.values())


def test_no_two_sources_claim_the_same_kind_of_clock():
    keys = [k for s in selectors.CLOCK_SOURCES for k in s.CLOCK_KINDS]
    assert len(keys) == len(set(keys))


def test_a_missing_source_stops_the_import_rather_than_dropping_its_clocks(monkeypatch):
    import outfall.web.apps.enforcement as enforcement

    monkeypatch.setitem(sys.modules, "outfall.web.apps.enforcement.clocks", None)
    monkeypatch.delattr(enforcement, "clocks")
    monkeypatch.delitem(sys.modules, "outfall.web.apps.deadlines.index")
    monkeypatch.delitem(sys.modules, "outfall.web.apps.deadlines.selectors")
    with pytest.raises(ImportError):
        importlib.import_module("outfall.web.apps.deadlines.selectors")
    monkeypatch.undo()
    importlib.import_module("outfall.web.apps.deadlines.selectors")


@pytest.mark.django_db
def test_a_source_that_fails_breaks_the_dashboard_instead_of_going_quiet(
    client, people, monkeypatch
):
    def broken(town, *, today, case_ids=None):
        raise RuntimeError("the enforcement clocks failed")

    monkeypatch.setattr(enforcement_clocks, "index_entries", broken)
    client.raise_request_exception = True
    client.force_login(people["clerk"])
    with pytest.raises(RuntimeError, match="enforcement clocks failed"):
        client.get("/deadlines/")
