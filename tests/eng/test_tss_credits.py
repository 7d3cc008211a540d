"""MassDEP TSS removal worksheet: trains, the 44 % pretreatment check and the 80 % train check."""

from __future__ import annotations

import pytest

from outfall.eng.tss_credits import TssStage, tss_bmp_keys, tss_credit, tss_train_removal
from outfall.kernel.errors import InputError


def test_deep_sump_catch_basin_then_infiltration_basin_removes_85_percent():
    result = tss_train_removal(["deep_sump_catch_basin", "infiltration_basin"])
    assert result.total_removal_pct == pytest.approx(85.0)
    assert result.meets_train_target


def test_each_worksheet_row_removes_its_credit_from_the_load_it_receives():
    result = tss_train_removal(
        ["deep_sump_catch_basin", "oil_grit_separator", "subsurface_structure"]
    )
    rows = [
        v
        for s in result.stages
        for v in (s.load_in_fraction, s.removed_fraction, s.load_out_fraction)
    ]
    assert rows == pytest.approx([1.0, 0.25, 0.75, 0.75, 0.1875, 0.5625, 0.5625, 0.45, 0.1125])
    assert result.total_removal_pct == pytest.approx(88.75)


def test_two_25_percent_pretreatment_bmps_remove_43_75_percent_which_misses_44_unrounded():
    result = tss_train_removal(["deep_sump_catch_basin", "sediment_forebay", "infiltration_basin"])
    (check,) = result.pretreatment_checks
    assert check.upstream_removal_pct == pytest.approx(43.75)
    assert check.target_pct == 44.0
    assert not check.meets_target
    assert "rounded to a whole percent" in check.note
    assert result.every_infiltration_bmp_meets_pretreatment is False


def test_the_same_pretreatment_shows_44_percent_when_the_worksheet_rounds_to_whole_percent():
    result = tss_train_removal(
        ["deep_sump_catch_basin", "sediment_forebay", "infiltration_basin"],
        compare_at_whole_percent=True,
    )
    assert result.pretreatment_checks[0].meets_target
    assert result.every_infiltration_bmp_meets_pretreatment is True


def test_a_wide_filter_strip_ahead_of_an_infiltration_trench_meets_the_pretreatment_target():
    result = tss_train_removal(
        ["vegetated_filter_strip_50_ft_or_more", "deep_sump_catch_basin", "infiltration_trench"]
    )
    (check,) = result.pretreatment_checks
    assert check.upstream_removal_pct == pytest.approx(100 * (1 - 0.55 * 0.75))
    assert check.meets_target
    assert check.upstream_pretreatment_bmps == (
        "vegetated_filter_strip_50_ft_or_more",
        "deep_sump_catch_basin",
    )


def test_infiltration_with_nothing_upstream_has_no_pretreatment():
    result = tss_train_removal(["dry_well"])
    (check,) = result.pretreatment_checks
    assert check.upstream_removal_pct == 0.0 and check.upstream_pretreatment_bmps == ()
    assert not check.meets_target


def test_filter_strip_and_bioretention_remove_94_5_percent_with_no_infiltration_check():
    result = tss_train_removal(["vegetated_filter_strip_50_ft_or_more", "bioretention_area"])
    assert result.total_removal_pct == pytest.approx(94.5)
    assert result.pretreatment_checks == ()
    assert result.every_infiltration_bmp_meets_pretreatment is None
    assert any("bioretention_area taken as not infiltrating" in a for a in result.assumptions)


def test_an_unlined_bioretention_area_is_checked_for_pretreatment():
    result = tss_train_removal(
        ["deep_sump_catch_basin", TssStage("bioretention_area", infiltrates=True)]
    )
    assert result.pretreatment_checks[0].upstream_removal_pct == pytest.approx(25.0)


def test_catch_basin_and_extended_dry_detention_fall_short_of_80_percent():
    result = tss_train_removal(["deep_sump_catch_basin", "extended_dry_detention_basin"])
    assert result.total_removal_pct == pytest.approx(62.5)
    assert result.train_target_pct == 80.0
    assert not result.meets_train_target


def test_recalled_credits_keep_their_flag_in_the_result():
    result = tss_train_removal(["deep_sump_catch_basin", "infiltration_basin"])
    assert any("deep_sump_catch_basin" in f and "UNVERIFIED_recalled" in f for f in result.flags)
    assert [s.check_status for s in result.stages] == ["UNVERIFIED_recalled", "UNVERIFIED_recalled"]
    assert result.as_dict()["stages"][0]["check_status"] == "UNVERIFIED_recalled"


def test_a_forebay_ahead_of_a_basin_whose_credit_includes_one_is_flagged():
    result = tss_train_removal(["sediment_forebay", "wet_basin"])
    assert any("already assumes a forebay" in f for f in result.flags)


def test_a_proprietary_separator_needs_the_credit_massdep_set_for_it():
    with pytest.raises(InputError) as err:
        tss_train_removal(["proprietary_separator", "infiltration_trench"])
    assert err.value.field == "credit_pct"
    result = tss_train_removal(
        [TssStage("proprietary_separator", credit_pct=50), "infiltration_trench"]
    )
    assert result.pretreatment_checks[0].upstream_removal_pct == pytest.approx(50.0)
    assert any("supplied by the caller" in f for f in result.flags)


def test_street_sweeping_credit_must_lie_in_its_table_range():
    assert tss_credit("street_sweeping").credit_range_pct == (0.0, 10.0)
    with pytest.raises(InputError):
        tss_train_removal([TssStage("street_sweeping", credit_pct=20)])
    with pytest.raises(InputError):
        tss_train_removal([TssStage("wet_basin", credit_pct=95)])


def test_an_unknown_bmp_names_the_field_and_lists_the_keys():
    with pytest.raises(InputError) as err:
        tss_train_removal(["vortex_thing"])
    assert err.value.field == "bmp" and "deep_sump_catch_basin" in err.value.why
    assert len(tss_bmp_keys()) == 27


def test_targets_can_be_set_by_the_caller():
    result = tss_train_removal(
        ["deep_sump_catch_basin", "extended_dry_detention_basin"],
        train_target_pct=60,
        pretreatment_target_pct=25,
    )
    assert result.meets_train_target and result.train_target_pct == 60
