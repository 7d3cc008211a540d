"""The site file against the application it was filed with: does it describe the same project?

A site review answers the § 267-16A and § 267-19B questions for the facts in the site file. It is
the review of an application only if those facts are the application's: a 6.2-acre site file
reviewed for a 3-acre application answers a different question. `site_against_application`
compares them field by field — the disturbed area, each classification fact, the kind of project
the law derives from them, and the project's name and address — and says what differs.

A difference in a fact the law turns on blocks: the review is kept and shown, but it does not
count as the review of the application until the site file or the application is corrected. A
difference only in the name or the address warns (free text, often abbreviated). The reading and
why: docs/legal-readings.md, "A site file that disagrees with its application".
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import asdict, dataclass

from outfall.compliance.review import project_facts
from outfall.compliance.sitefile import SiteFile
from outfall.law.determination import Determination, Reason
from outfall.law.parameters import ParameterSet
from outfall.law.s267_16_applicability import ProjectFacts
from outfall.law.s267_19_standards import CLASSIFICATION_LABELS, classify_project

QUESTION = "Does the site file describe the project of the application?"
AGREES = "agrees"
DIFFERS = "differs"
"""A fact the law turns on differs: the review does not count for the application."""
NAME_DIFFERS = "name_differs"
"""Only the name or the address differs: the review counts, with a warning."""

ACRES_PLACES = 3
"""Areas are compared to the thousandth of an acre, the precision the application records."""

FACTS = (
    ("disturbance_acres", "Area of land disturbed (acres)", "§ 267-16A"),
    ("common_plan_acres", "Area of the larger common plan (acres)", "§ 267-16A"),
    ("previously_developed", "Site previously developed (redevelopment)", "§ 267-19B(4)(b)"),
    ("roadway_maintenance_only", "Roadway maintenance only", "§ 267-19B(4)(c)"),
    ("widening_lanes", "Travel lanes added", "§ 267-19B(4)(c)"),
    ("critical_area", "Discharges to a critical area", "§ 267-19B(4)(c)"),
    ("luhppl", "Land use with higher potential pollutant loads", "§ 267-19B(4)(c)"),
    ("discharges_to_wetlands", "Discharges to wetlands or waters", "§ 267-19B(1)"),
)
"""Each project fact the law reads: its key, its label and the section that turns on it."""


@dataclass(frozen=True)
class Difference:
    """One field on which the site file and the application disagree, both values in words."""

    field: str
    label: str
    site_file: str
    application: str
    citation: str
    blocks: bool

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def sentence(self) -> str:
        return (
            f"{self.label}: the site file says {self.site_file}, the application {self.application}"
        )


@dataclass(frozen=True)
class ApplicationProject:
    """What the application says about its project (the web passes its record's fields)."""

    name: str
    site_address: str
    facts: ProjectFacts


def site_against_application(
    site: SiteFile,
    application: ApplicationProject,
    *,
    as_of: dt.date,
    town: str | ParameterSet,
) -> Determination:
    """Compare the site file with the application field by field (outcome AGREES, DIFFERS or
    NAME_DIFFERS; details["differences"] lists each as a dict of `Difference`)."""
    site_facts = project_facts(site)
    found: list[Difference] = []
    for key, label, citation in FACTS:
        ours, theirs = getattr(site_facts, key), getattr(application.facts, key)
        if _same(ours, theirs):
            continue
        found.append(Difference(key, label, _words(ours), _words(theirs), citation, True))
    kinds = [
        classify_project(facts, as_of=as_of, town=town).outcome
        for facts in (site_facts, application.facts)
    ]
    if kinds[0] != kinds[1]:
        found.append(
            Difference(
                "classification",
                "Kind of project",
                CLASSIFICATION_LABELS[kinds[0]].lower(),
                CLASSIFICATION_LABELS[kinds[1]].lower(),
                "§ 267-19B(4)",
                True,
            )
        )
    if not _names_agree(site.name, application):
        found.append(
            Difference(
                "name",
                "Project name",
                f"“{site.name}”",
                f"“{application.name}” at {application.site_address}",
                "§ 267-18A",
                False,
            )
        )
    if any(d.blocks for d in found):
        outcome = DIFFERS
        lead = Reason(
            "§ 267-19B",
            "the site file describes a different project from the application, so its review "
            "is not the review of this application until one of them is corrected",
        )
    elif found:
        outcome = NAME_DIFFERS
        lead = Reason(
            "§ 267-18A",
            "the site file's facts are the application's; only its name differs, so the review "
            "counts (check that the file is this project's)",
        )
    else:
        outcome = AGREES
        lead = Reason("§ 267-19B", "the site file's project facts are the application's")
    reasons = (lead, *(Reason(d.citation, d.sentence) for d in found))
    params_slug = town.slug if isinstance(town, ParameterSet) else town
    return Determination(
        question=QUESTION,
        outcome=outcome,
        reasons=reasons,
        as_of=as_of,
        town=params_slug,
        details={"differences": [d.as_dict() for d in found]},
    )


def _same(ours, theirs) -> bool:
    if isinstance(ours, bool) or isinstance(theirs, bool):
        return bool(ours) == bool(theirs)
    if ours is None or theirs is None:
        return (ours or 0) == (theirs or 0)
    return round(float(ours), ACRES_PLACES) == round(float(theirs), ACRES_PLACES)


def _words(value) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "not given"
    return f"{float(value):g}"


def _plain(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def _names_agree(site_name: str, application: ApplicationProject) -> bool:
    """The same name, ignoring case, punctuation and a trailing "(example)"-style note: one
    contains the other, or the site file names the application's street address."""
    ours = _plain(re.sub(r"\([^)]*\)", " ", site_name))
    theirs = _plain(application.name)
    address = _plain(application.site_address)
    street = _plain(re.sub(r"^\s*\d+[a-z]?\s+", "", application.site_address.lower()))
    if not ours or not theirs:
        return False
    return ours in theirs or theirs in ours or (bool(street) and street in ours) or ours in address
