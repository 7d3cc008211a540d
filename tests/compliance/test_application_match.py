"""The site file against its application: a review counts for the application only when the
site file describes the same project (docs/legal-readings.md, "A site file that disagrees with
its application")."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from outfall.compliance.application_match import (
    AGREES,
    DIFFERS,
    NAME_DIFFERS,
    ApplicationProject,
    site_against_application,
)
from outfall.compliance.sitefile import load_site
from outfall.law.s267_16_applicability import ProjectFacts

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "sites" / "maple-street-subdivision.yaml"
)
SITE = load_site(EXAMPLE)
AS_OF = dt.date(2026, 6, 1)
MAPLE = ProjectFacts(disturbance_acres=6.2, discharges_to_wetlands=True)


def compare(name="Maple Street subdivision", address="10 Maple Street", facts=MAPLE):
    return site_against_application(
        SITE, ApplicationProject(name, address, facts), as_of=AS_OF, town="norfolk"
    )


def differences(det) -> dict[str, tuple[str, str, bool]]:
    return {
        d["field"]: (d["site_file"], d["application"], d["blocks"])
        for d in det.details["differences"]
    }


def test_the_site_file_of_the_same_project_agrees_and_counts():
    det = compare()
    assert det.outcome == AGREES and det.details["differences"] == []


def test_a_six_acre_maple_street_file_for_a_three_acre_brook_farm_redevelopment_differs():
    """Each field that differs is named with both values in words and the section behind it."""
    det = compare(
        "Brook Farm",
        "12 Brook Farm Road",
        ProjectFacts(disturbance_acres=3.0, previously_developed=True),
    )
    assert det.outcome == DIFFERS
    assert differences(det) == {
        "disturbance_acres": ("6.2", "3", True),
        "previously_developed": ("no", "yes", True),
        "discharges_to_wetlands": ("yes", "no", True),
        "classification": ("new development", "redevelopment", True),
        "name": (
            "“Maple Street Subdivision (example)”",
            "“Brook Farm” at 12 Brook Farm Road",
            False,
        ),
    }
    cited = {r.citation for r in det.reasons}
    assert {"§ 267-16A", "§ 267-19B(4)(b)", "§ 267-19B(1)", "§ 267-19B(4)"} <= cited
    assert "is not the review of this application" in det.reasons[0].text


def test_areas_agree_to_the_thousandth_of_an_acre_the_application_records():
    assert (
        compare(facts=ProjectFacts(disturbance_acres=6.2004, discharges_to_wetlands=True)).outcome
        == AGREES
    )
    det = compare(facts=ProjectFacts(disturbance_acres=6.21, discharges_to_wetlands=True))
    assert differences(det) == {"disturbance_acres": ("6.2", "6.21", True)}


def test_only_a_different_name_warns_and_the_review_still_counts():
    det = compare("Oak Hill estates", "4 Oak Hill Road")
    assert det.outcome == NAME_DIFFERS
    assert [d["blocks"] for d in det.details["differences"]] == [False]


def test_the_street_of_the_address_is_the_same_name():
    assert compare("Lot 3 drainage", "10 Maple Street").outcome == AGREES
