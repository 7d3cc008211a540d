"""The IDDE priority of an outfall and its catchment (MA MS4 General Permit (2016), Part
2.3.4.7.a, recalled): a confirmed illicit discharge not yet eliminated makes a problem outfall;
a recorded exclusion stands otherwise; flow or a result over a threshold at the latest
dry-weather screening, or a sensitive receiving water, makes it high; the rest are low. Each
rank gives its reasons, each citing the Part it follows and flagged as recalled."""

from __future__ import annotations

import datetime as dt

from outfall.law import parameters as P
from outfall.law.ms4_priority import EXCLUDED, HIGH, LOW, PROBLEM, OutfallFacts, outfall_priority
from outfall.law.parameters import ParameterOverride

TODAY = dt.date(2026, 12, 4)
SCREENED = dt.date(2026, 10, 1)


def rank(**facts):
    return outfall_priority(OutfallFacts("OF-1", **facts), as_of=TODAY, town="norfolk")


def test_a_confirmed_illicit_discharge_not_yet_eliminated_makes_a_problem_outfall():
    det = rank(illicit_open=("INV-7",), screened_on=SCREENED)
    assert det.outcome == PROBLEM
    assert det.reasons[0].citation == "MA MS4 General Permit (2016), Part 2.3.4.7.a.i"
    assert "INV-7" in det.reasons[0].text and "recalled" in det.reasons[0].text


def test_an_open_illicit_discharge_sets_aside_the_departments_exclusion():
    det = rank(illicit_open=("INV-7",), excluded_reason="No buildings upstream.")
    assert det.outcome == PROBLEM
    assert any("set aside" in r.text for r in det.reasons)


def test_an_exclusion_recorded_with_its_reason_stands():
    det = rank(excluded_reason="Drains woodland only.", receiving_water="Charles River")
    assert det.outcome == EXCLUDED
    assert det.reasons[-1].citation.endswith("Part 2.3.4.7.a.iv")
    assert "Drains woodland only" in det.reasons[-1].text


def test_flow_in_dry_weather_makes_a_high_priority_outfall():
    det = rank(screened_on=SCREENED, flow="trickle")
    assert det.outcome == HIGH
    assert "Flowing in dry weather (trickle)" in det.reasons[0].text
    assert det.reasons[0].citation.endswith("Part 2.3.4.7.b.iii")


def test_a_result_over_the_threshold_makes_it_high_and_sewer_evidence_puts_it_first():
    over = rank(screened_on=SCREENED, exceeded=("e_coli",), findings=("E. coli 900 CFU/100 mL",))
    assert over.outcome == HIGH and not over.details["sewer_input"]
    sewer = rank(
        screened_on=SCREENED,
        exceeded=("ammonia", "surfactants", "chlorine"),
        findings=("Ammonia 1.4 mg/L", "Surfactants 0.6 mg/L", "Total chlorine 0.1 mg/L"),
    )
    assert sewer.outcome == HIGH and sewer.details["sewer_input"]
    assert "sewer input" in sewer.reasons[0].text
    # ammonia and surfactants alone, without bacteria or chlorine, are not the sewer evidence
    partial = rank(screened_on=SCREENED, exceeded=("ammonia", "surfactants"), findings=("x",))
    assert partial.outcome == HIGH and not partial.details["sewer_input"]


def test_the_charles_river_under_its_phosphorus_tmdl_makes_it_high_unscreened():
    det = rank(receiving_water="charles river")
    assert det.outcome == HIGH
    assert "phosphorus TMDL" in det.reasons[0].text
    assert det.reasons[0].citation.endswith("Part 2.3.4.7.a.ii")


def test_screened_clean_or_not_yet_screened_away_from_a_sensitive_water_is_low():
    clean = rank(screened_on=SCREENED, receiving_water="Stop River")
    assert clean.outcome == LOW and "October 1, 2026" in clean.reasons[0].text
    unscreened = rank(receiving_water="Stop River")
    assert unscreened.outcome == LOW and "Not yet screened" in unscreened.reasons[0].text


def test_an_eliminated_discharge_is_a_reason_but_the_rank_follows_what_else_is_known():
    det = rank(illicit_removed=("INV-3",), screened_on=SCREENED)
    assert det.outcome == LOW
    assert "eliminated (INV-3)" in det.reasons[0].text


def test_the_town_names_another_sensitive_water_through_the_override_layer():
    confirmed = P.town("norfolk").with_overrides(
        [
            ParameterOverride(
                name="ms4.priority.sensitive_waters",
                effective=dt.date(2026, 1, 1),
                value=[{"water": "Stop River", "why": "a tributary in the TMDL's watershed"}],
                citation="Town's reading of the TMDL (hypothetical, test)",
                layer="a value confirmed by a reviewer",
            )
        ]
    )
    facts = OutfallFacts("OF-1", receiving_water="Stop River", screened_on=SCREENED)
    det = outfall_priority(facts, as_of=TODAY, town=confirmed)
    assert det.outcome == HIGH and "tributary" in det.reasons[0].text
    assert outfall_priority(facts, as_of=dt.date(2025, 6, 1), town=confirmed).outcome == LOW
