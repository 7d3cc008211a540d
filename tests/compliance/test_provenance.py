"""The figures behind a site review in words a reviewer can act on, and a figure a reviewer
confirmed against its source (§ 267-19B(3), the 2008 Massachusetts Stormwater Handbook) read by
the review in place of the table's, named as the value's layer."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from outfall.compliance import provenance
from outfall.compliance.review import review_site
from outfall.compliance.sitefile import load_site
from outfall.kernel.errors import InputError
from outfall.law import parameters
from outfall.law.errors import ParameterFileError
from outfall.law.parameters import ParameterOverride

MAPLE = Path(__file__).resolve().parents[2] / "examples" / "sites" / "maple-street-subdivision.yaml"
CONFIRMED_ON = dt.date(2026, 12, 4)
LAYER = "value confirmed by P. Reviewer on December 4, 2026"


def confirmed(ref: str, value: float, source: str = "MassDEP Handbook (2008) Vol. 3 Table 2.3.2"):
    return ParameterOverride(
        provenance.confirmable_value(ref).name, CONFIRMED_ON, value, "§ 267-19B(3)", LAYER, source
    )


@pytest.fixture(scope="module")
def maple():
    return load_site(MAPLE)


@pytest.fixture(scope="module")
def reviewed(maple):
    return review_site(maple, as_of=dt.date(2026, 6, 1))


def test_every_flag_of_a_review_reads_in_words_without_a_table_identifier(reviewed):
    raw = {*provenance.STATUS_WORDS, *provenance.TABLE_TITLES}
    for flag in reviewed.flags:
        text = provenance.flag_note(flag).text
        assert not any(word in text for word in raw), text
        assert "_" not in text, text


def test_an_unverified_figure_names_its_source_and_who_may_confirm_it(reviewed):
    notes = provenance.flag_notes(reviewed.flags)
    credit = next(n for n in notes if n.what.startswith("TSS removal credit of an infiltration"))
    assert credit.unverified and credit.confirm is not None
    assert "recalled from memory of its source, not read from it" in credit.text
    assert "Check it against MassDEP Stormwater Handbook Vol.2 Ch.2 (2008);" in credit.text
    assert "reviewer or administrator role may confirm it" in credit.text
    checked = next(n for n in notes if n.what.startswith("TSS removal credit of a grass"))
    assert not checked.unverified and "confirm" not in checked.text


def test_a_figure_the_tables_alone_hold_says_where_it_is_corrected(reviewed):
    notes = provenance.flag_notes(reviewed.flags)
    missing = next(n for n in notes if "not found in the sources searched" in n.text)
    assert missing.confirm is None and "a correction is made there" in missing.text


def test_the_review_reads_a_confirmed_figure_and_names_its_layer(maple, reviewed):
    before = {s.id: s for s in reviewed.standards}["recharge"].details["required"]["volume_cf"]
    town = parameters.town("norfolk").with_overrides([confirmed("recharge_F.C", 0.30)])
    again = review_site(maple, as_of=dt.date(2026, 6, 1), town=town)
    after = {s.id: s for s in again.standards}["recharge"].details["required"]["volume_cf"]
    assert after > before
    texts = [provenance.flag_note(f).text for f in again.flags]
    assert not any("soil group C" in t for t in texts)
    assert any("soil group C" in provenance.flag_note(f).text for f in reviewed.flags)
    [used] = again.confirmed_data
    assert used["value"] == 0.30 and used["table_value"] == 0.25
    assert used["layer"] == LAYER and used["citation"] == "§ 267-19B(3)"
    assert again.as_dict()["confirmed_data"] == [used]


def test_a_confirmed_credit_is_read_by_the_pretreatment_worksheet(maple):
    town = parameters.town("norfolk").with_overrides(
        [confirmed("tss_credit.deep_sump_catch_basin", 20)]
    )
    again = review_site(maple, as_of=dt.date(2026, 6, 1), town=town)
    sheets = {s.id: s for s in again.standards}["pretreatment"].details["worksheets"]
    credits = [
        row["credit_pct"]
        for w in sheets
        for row in w["stages"]
        if row["bmp_key"] == "deep_sump_catch_basin"
    ]
    assert credits and set(credits) == {20.0}


def test_a_confirmed_value_out_of_bounds_is_refused_naming_the_field_and_section():
    with pytest.raises(InputError) as refused:
        provenance.confirmed_value_checked("tss_credit.infiltration_basin", 120)
    assert refused.value.field == "value" and refused.value.citation == "§ 267-19B(3)"
    with pytest.raises(InputError):
        provenance.confirmable_value("curve_number.A")


def test_the_override_layer_takes_a_data_figure_and_still_refuses_an_unknown_parameter():
    town = parameters.town("norfolk")
    held = town.with_overrides([confirmed("recharge_F.C", 0.3)])
    assert held.definition("data.recharge_F.C").values[-1].layer == LAYER
    with pytest.raises(ParameterFileError, match=re.escape("no parameter named 'recharge_F.C'")):
        town.with_overrides(
            [ParameterOverride("recharge_F.C", CONFIRMED_ON, 0.3, "§ 267-19B(3)", LAYER)]
        )


def test_a_confirmation_of_a_figure_the_tables_do_not_hold_is_an_error_of_the_record(maple):
    town = parameters.town("norfolk").with_overrides(
        [ParameterOverride("data.tss_credit.moat", CONFIRMED_ON, 50.0, "§ 267-19B(3)", LAYER)]
    )
    with pytest.raises(ParameterFileError, match=re.escape(LAYER)):
        review_site(maple, as_of=dt.date(2026, 6, 1), town=town)
