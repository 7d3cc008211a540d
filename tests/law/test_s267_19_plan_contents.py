"""§ 267-19A: the 22 plan items, before and after 11-9-2021 STM Art. 13."""

from __future__ import annotations

import datetime as dt

import pytest

from outfall.kernel.errors import InputError
from outfall.law.errors import NotInForce
from outfall.law.s267_19_plan_contents import plan_completeness, plan_items

D = dt.date
AFTER = D(2026, 1, 5)
BEFORE = D(2021, 11, 8)


def every_item_provided(as_of):
    return {i: {"provided": True, "explanation": ""} for i in plan_items(as_of=as_of).outcome}


def test_since_the_2021_amendment_a_plan_has_22_items_from_locus_map_to_other_information():
    found = plan_items(as_of=AFTER)
    assert len(found.outcome) == 22
    assert found.outcome[0] == "locus_map"
    assert found.outcome[1] == "zoning_and_land_use"
    assert found.outcome[-1] == "other_information_requested"
    numbers = [item["number"] for item in found.details["items"]]
    assert numbers == list(range(1, 23))
    assert all(
        item["citation"] == f"§ 267-19A({item['number']})" for item in found.details["items"]
    )


def test_before_the_2021_amendment_there_was_no_item_20_on_construction_waste():
    before = plan_items(as_of=BEFORE).outcome
    after = plan_items(as_of=D(2021, 11, 9)).outcome
    assert "construction_waste_disposal" not in before
    assert "construction_waste_disposal" in after
    assert len(before) == 21


def test_the_2021_amendment_is_recorded_on_the_item_list_used():
    found = plan_items(as_of=AFTER)
    assert found.parameters[0].amendment == "11-9-2021 STM Art. 13"


def test_a_plan_with_every_item_provided_is_complete():
    found = plan_completeness(every_item_provided(AFTER), as_of=AFTER)
    assert found.outcome == "complete"
    assert found.details["missing"] == []


def test_an_item_not_provided_but_explained_still_counts():
    items = every_item_provided(AFTER)
    items["floodplain"] = {"provided": False, "explanation": "No mapped floodplain on the site."}
    found = plan_completeness(items, as_of=AFTER)
    assert found.outcome == "complete"
    assert found.details["explained"] == ["floodplain"]


def test_an_item_neither_provided_nor_explained_makes_the_plan_incomplete():
    items = every_item_provided(AFTER)
    items["seasonal_high_groundwater"] = {"provided": False, "explanation": "   "}
    del items["locus_map"]
    found = plan_completeness(items, as_of=AFTER)
    assert found.outcome == "incomplete"
    assert found.details["missing"] == ["locus_map", "seasonal_high_groundwater"]
    assert "§ 267-19A(10)" in found.citations


def test_a_plan_without_construction_waste_measures_was_complete_before_2021_but_not_after():
    items = every_item_provided(BEFORE)
    assert plan_completeness(items, as_of=BEFORE).outcome == "complete"
    found = plan_completeness(items, as_of=AFTER)
    assert found.outcome == "incomplete"
    assert found.details["missing"] == ["construction_waste_disposal"]


def test_an_item_unknown_to_any_version_of_the_bylaw_is_refused():
    items = every_item_provided(AFTER)
    items["locus_mapp"] = {"provided": True}
    with pytest.raises(InputError) as err:
        plan_completeness(items, as_of=AFTER)
    assert err.value.field == "items"


def test_an_item_entry_without_a_provided_flag_is_refused():
    items = every_item_provided(AFTER)
    items["utilities"] = {"explanation": "see sheet 4"}
    with pytest.raises(InputError) as err:
        plan_completeness(items, as_of=AFTER)
    assert err.value.field == "items.utilities"


def test_there_was_no_plan_content_rule_before_article_ii():
    with pytest.raises(NotInForce):
        plan_items(as_of=D(2007, 10, 22))
