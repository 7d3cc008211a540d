"""The screening rules on their own: thresholds, the dry-weather window, reasons for follow-up."""

from __future__ import annotations

import pytest

from outfall.kernel.errors import InputError
from outfall.web.apps.assets.screening import (
    DEFAULT_SETTINGS,
    DEFAULT_THRESHOLDS,
    DRY_WEATHER_HOURS,
    ResultSeen,
    Setting,
    Threshold,
    check_dry_weather,
    check_result_value,
    exceeds,
    follow_up_reasons,
)

AMMONIA = DEFAULT_THRESHOLDS["ammonia"]
WINDOW_48 = Setting(DRY_WEATHER_HOURS, 48, "h", "test window")


def test_ammonia_at_the_ms4_indicator_level_of_half_a_milligram_per_litre_calls_for_follow_up():
    assert AMMONIA.operator == ">=" and AMMONIA.value == 0.5
    assert exceeds(0.5, "mg/L", AMMONIA)
    assert not exceeds(0.49, "mg/L", AMMONIA)


def test_a_strict_threshold_is_not_crossed_by_a_result_equal_to_it():
    chlorine = DEFAULT_THRESHOLDS["chlorine"]
    assert not exceeds(chlorine.value, chlorine.unit, chlorine)
    assert exceeds(chlorine.value + 0.01, chlorine.unit, chlorine)


def test_a_lower_bound_threshold_is_crossed_from_below():
    low_ph = Threshold("ph", "<", 6.5, "SU", "test")
    assert exceeds(6.0, "SU", low_ph) and not exceeds(7.0, "SU", low_ph)


def test_a_result_in_another_unit_than_the_threshold_is_refused_rather_than_misread():
    with pytest.raises(InputError) as err:
        exceeds(600, "ug/L", AMMONIA)
    assert err.value.field == "unit" and "mg/L" in err.value.why


def test_units_compare_without_regard_to_case():
    assert exceeds(0.6, "MG/L", AMMONIA)


def test_a_parameter_without_a_threshold_never_exceeds():
    assert not exceeds(25.0, "°C", None)


def test_every_default_carries_its_source_and_is_flagged_as_to_be_confirmed():
    for item in [*DEFAULT_THRESHOLDS.values(), *DEFAULT_SETTINGS.values()]:
        assert item.source and item.to_be_confirmed
        assert "to be confirmed" in item.source


def test_a_dry_weather_visit_within_the_window_after_rain_is_refused_with_the_source():
    with pytest.raises(InputError) as err:
        check_dry_weather(47.5, WINDOW_48)
    assert err.value.field == "hours_since_rain"
    assert err.value.citation == "test window"
    assert "48" in err.value.why


def test_a_dry_weather_visit_just_at_the_end_of_the_window_is_accepted():
    check_dry_weather(48, WINDOW_48)


def test_a_dry_weather_visit_must_say_how_long_since_rain():
    with pytest.raises(InputError):
        check_dry_weather(None, WINDOW_48)


def test_negative_hours_since_rain_are_refused():
    with pytest.raises(InputError):
        check_dry_weather(-1, WINDOW_48)


def test_only_temperature_may_be_below_zero():
    check_result_value("temperature", -0.5)
    with pytest.raises(InputError):
        check_result_value("ammonia", -0.1)
    with pytest.raises(InputError):
        check_result_value("ammonia", float("nan"))


def test_flow_in_dry_weather_calls_for_follow_up_but_flow_in_wet_weather_does_not():
    assert follow_up_reasons("dry", "trickle", []) == ["Flowing in dry weather (trickle)."]
    assert follow_up_reasons("wet", "substantial", []) == []
    assert follow_up_reasons("dry", "none", []) == []


def test_each_exceedance_is_a_reason_naming_the_parameter_the_result_and_the_threshold():
    seen = [
        ResultSeen("ammonia", 0.8, "mg/L", True, AMMONIA.text),
        ResultSeen("temperature", 18, "°C", False),
    ]
    reasons = follow_up_reasons("dry", "none", seen)
    assert reasons == ["Ammonia (as N) 0.8 mg/L is at or above 0.5 mg/L."]
