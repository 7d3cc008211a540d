"""The priority ranking of an outfall (or interconnection) and its catchment for the IDDE
program of the town's MS4 permit: problem, high, low or excluded, with the reasons.

The criteria are the town's parameters (`parameters/<town>/ms4/priority.yaml`), recalled from
the 2016 Massachusetts Small MS4 General Permit (Part 2.3.4.7.a) and flagged until the town
confirms them. The facts are what the town's records hold (the web passes them in): the reason
the Department recorded for an exclusion, the confirmed illicit discharges in the catchment, and
what the latest dry-weather screening saw.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from outfall.kernel.legal_style import legal_date
from outfall.law.determination import Determination, Reasoning
from outfall.law.ms4_permit import UNCONFIRMED, Town
from outfall.law.parameters import as_parameter_set

PROBLEM, HIGH, LOW, EXCLUDED = "problem", "high", "low", "excluded"
RANKS = (PROBLEM, HIGH, LOW, EXCLUDED)
RANK_LABELS = {
    PROBLEM: "Problem",
    HIGH: "High priority",
    LOW: "Low priority",
    EXCLUDED: "Excluded",
}
PERMIT = "MA MS4 General Permit (2016)"


@dataclass(frozen=True)
class OutfallFacts:
    """What the records hold about one outfall and its catchment.

    `illicit_open`: the investigations of a confirmed illicit discharge in the catchment not yet
    eliminated; `illicit_removed`: those eliminated. `screened_on` is the latest dry-weather
    visit; `flow` its flow in words when it was flowing; `exceeded` the parameters over the
    town's threshold at that visit, `findings` those results in words.
    """

    outfall: str
    receiving_water: str = ""
    excluded_reason: str = ""
    illicit_open: tuple[str, ...] = ()
    illicit_removed: tuple[str, ...] = ()
    screened_on: dt.date | None = None
    flow: str = ""
    exceeded: tuple[str, ...] = ()
    findings: tuple[str, ...] = ()


def _parts(r: Reasoning) -> dict[str, str]:
    return {c["rank"]: f"{PERMIT}, {c['part']}" for c in r.param("ms4.priority.categories")}


def outfall_priority(facts: OutfallFacts, *, as_of: dt.date, town: Town = None) -> Determination:
    """The outfall's rank (one of RANKS) and every reason for it, each citing its Part.

    A confirmed illicit discharge not yet eliminated makes a problem outfall, even one the
    Department excluded; otherwise a recorded exclusion stands; otherwise evidence at the latest
    dry-weather screening (sewer input first) or a sensitive receiving water makes it high;
    otherwise it is low — on its screening when screened, else on the information held.
    """
    params = as_parameter_set(town)
    r = Reasoning(params, as_of, f"what is the IDDE priority of {facts.outfall}?")
    part = _parts(r)
    flag = UNCONFIRMED if params.get("ms4.priority.categories", as_of).assumed else ""
    removed = ", ".join(facts.illicit_removed)
    if facts.illicit_open:
        r.because(
            part[PROBLEM],
            f"A confirmed illicit discharge in the catchment is not yet eliminated "
            f"({', '.join(facts.illicit_open)}){flag}.",
        )
        if facts.excluded_reason:
            r.because(
                part[EXCLUDED],
                "The Department's exclusion is set aside while an illicit discharge is open.",
            )
        return r.conclude(PROBLEM, rank_order=RANKS.index(PROBLEM))
    if removed:
        r.because(
            part[PROBLEM],
            f"Illicit discharges found in the catchment were eliminated ({removed}); the outfall "
            f"is ranked on what else is known{flag}.",
        )
    if facts.excluded_reason:
        r.because(
            part[EXCLUDED],
            f"Excluded by the Department: {facts.excluded_reason.rstrip('.')}{flag}.",
        )
        return r.conclude(EXCLUDED, rank_order=RANKS.index(EXCLUDED))
    high = _high_reasons(r, facts)
    if high:
        for citation, text in high:
            r.because(citation, text + flag + ".")
        sewer = any("sewer input" in text for _, text in high)
        return r.conclude(HIGH, rank_order=RANKS.index(HIGH), sewer_input=sewer)
    if facts.screened_on is not None:
        r.because(
            part[LOW],
            f"Screened in dry weather on {legal_date(facts.screened_on)}: no flow and no result "
            f"over a threshold, and no sensitive receiving water{flag}.",
        )
    else:
        r.because(
            part[LOW],
            "Not yet screened; no known problem and no sensitive receiving water: ranked low on "
            f"the information held, to be ranked again after screening{flag}.",
        )
    return r.conclude(LOW, rank_order=RANKS.index(LOW))


def _high_reasons(r: Reasoning, facts: OutfallFacts) -> list[tuple[str, str]]:
    when = r.param("ms4.priority.high_when")
    screening = r.used("ms4.priority.high_when").citation
    out: list[tuple[str, str]] = []
    seen = set(facts.exceeded)
    sewer = when.get("sewer_input") or {}
    all_of, any_of = set(sewer.get("all_of") or ()), set(sewer.get("any_of") or ())
    if all_of and all_of <= seen and (not any_of or any_of & seen):
        out.append(
            (
                screening,
                f"Evidence of sewer input at the dry-weather screening of "
                f"{legal_date(facts.screened_on) if facts.screened_on else 'record'}: "
                f"{', '.join(sorted(all_of | (any_of & seen)))} over their thresholds; ranked "
                "first among the high-priority outfalls",
            )
        )
    if when.get("dry_weather_flow") and facts.flow:
        out.append((screening, f"Flowing in dry weather ({facts.flow})"))
    if when.get("threshold_exceeded") and facts.findings:
        out.append((screening, "Over the town's screening threshold: " + "; ".join(facts.findings)))
    waters = r.param("ms4.priority.sensitive_waters")
    citation = r.used("ms4.priority.sensitive_waters").citation
    here = facts.receiving_water.strip().lower()
    for w in waters:
        if here and here == str(w["water"]).strip().lower():
            out.append((citation, f"Discharges to the {w['water']}, {w['why']}"))
    return out
