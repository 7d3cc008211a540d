"""`outfall law ...`: what the law layer holds — coverage of Chapter 267 and the town's parameters.

`outfall law coverage [--summary]`: every anchor of the bylaw with the rules that formalise it
or why none does. `outfall law params [NAME]`: the values in force on --as-of, each with its
citation, effective date and amendment (vote and effective date apart). An unknown NAME, or a
NAME with no text in force or in our record on that date, exits 2 naming the error.
"""

from __future__ import annotations

import json
from typing import Any

from outfall.cli.common import Result
from outfall.law.coverage import coverage_report
from outfall.law.errors import LawDateError, NotInRecord, UnknownParameter
from outfall.law.parameters import Parameter, ParameterSet, ParamValue, as_parameter_set

VALUE_WIDTH = 48


def register(subparsers, parent) -> None:
    parser = subparsers.add_parser("law", help="the bylaw as code: coverage and parameters")
    commands = parser.add_subparsers(dest="law_command", metavar="WHAT", parser_class=type(parser))
    commands.required = True

    cov = commands.add_parser(
        "coverage",
        parents=[parent],
        help="every paragraph of Chapter 267 and the rule that formalises it, or why none does",
    )
    cov.add_argument("--summary", action="store_true", help="counts per section only")
    cov.set_defaults(handler=handle_coverage)

    params = commands.add_parser(
        "params",
        parents=[parent],
        help="parameter values in force on --as-of, with citation, amendment and effective date",
    )
    params.add_argument(
        "name", nargs="?", help="one parameter, e.g. s267_18.hearing.open_within_days"
    )
    params.set_defaults(handler=handle_params)


def _covered_by(p: dict[str, Any]) -> str:
    if p["covered"]:
        return ", ".join(r.removeprefix("outfall.law.") for r in p["rules"])
    return f"excused ({p['excused']}): {p['why']}"


def handle_coverage(args) -> Result:
    report = coverage_report(summary=args.summary)
    counts = report["counts"]
    lines = [
        f"Chapter 267 coverage: {counts['anchors']} anchors in {counts['sections']} sections, "
        f"{counts['covered']} formalised by {counts['rules']} rules, {counts['excused']} excused"
    ]
    if args.summary:
        lines.append(
            f"  {'section':<10} {'article':<8} {'anchors':>7} {'covered':>8} {'excused':>8}"
        )
        for s in report["sections"]:
            lines.append(
                f"  {s['section']:<10} {s['article']:<8} {s['anchors']:>7} "
                f"{s['covered']:>8} {s['excused']:>8}"
            )
        kinds = ", ".join(f"{k} {n}" for k, n in counts["excused_by_kind"].items())
        lines.append(f"  excused by kind: {kinds}")
    else:
        for s in report["sections"]:
            for p in s["provisions"]:
                amended = f" [amended {'; '.join(p['amended_by'])}]" if p["amended_by"] else ""
                lines.append(f"{p['citation']:<20} {p['paraphrase']}{amended}")
                lines.append(f"{'':<20}   -> {_covered_by(p)}")
                for t in p.get("terms", []):
                    lines.append(
                        f"{'':<20}   {t['term']}: {_covered_by({**t, 'covered': 'rules' in t})}"
                    )
    citations = [s["section"] for s in report["sections"]]
    return Result(payload=report, text="\n".join(lines), citations=citations)


def _amendment_fields(params: ParameterSet, pv: ParamValue) -> dict[str, Any] | None:
    if pv.amendment is None:
        return None
    amendment = params.amendments.get(pv.amendment)
    if amendment is None:
        return {"id": pv.amendment}
    return amendment.as_dict()


def _value_entry(params: ParameterSet, definition: Parameter, pv: ParamValue) -> dict[str, Any]:
    return {
        "name": definition.name,
        "description": definition.description,
        "unit": definition.unit,
        "status": "in_force",
        "value": pv.value,
        "effective": pv.effective.isoformat(),
        "citation": pv.citation,
        "amendment": _amendment_fields(params, pv),
        "note": pv.note,
        "version": pv.version,
    }


def _shown(value: Any, width: int | None = VALUE_WIDTH) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str, ensure_ascii=False)
    if width is not None and len(text) > width:
        return text[: width - 1] + "…"
    return text


def _amendment_text(amendment: dict[str, Any] | None) -> str:
    if not amendment:
        return ""
    if "vote_date" not in amendment:
        return f"; amendment {amendment['id']}"
    assumed = " (assumed)" if amendment["effective_date_assumed"] else ""
    return (
        f"; {amendment['id']}: voted {amendment['vote_date']}, "
        f"effective {amendment['effective_date']}{assumed}"
    )


def _one_parameter(args, params: ParameterSet) -> Result:
    try:
        definition = params.definition(args.name)
    except UnknownParameter as exc:
        raise UnknownParameter(f"UnknownParameter: {exc}") from None
    try:
        pv = definition.at(args.as_of)
    except LawDateError as exc:
        raise type(exc)(
            f"{type(exc).__name__}: {exc.name}", exc.as_of, exc.why, exc.citation
        ) from None
    entry = _value_entry(params, definition, pv)
    history = [
        {
            "effective": v.effective.isoformat(),
            "value": v.value,
            "citation": v.citation,
            "amendment": v.amendment,
            "not_in_record": v.not_in_record,
            "repealed": v.repealed,
        }
        for v in definition.values
    ]
    unit = f" {definition.unit}" if definition.unit else ""
    lines = [
        f"{definition.name} ({params.slug}, law as of {args.as_of.isoformat()})",
        f"  {definition.description}",
        f"  value      {_shown(pv.value, None)}{unit}",
        f"  citation   {pv.citation}",
        f"  effective  {pv.effective.isoformat()}{_amendment_text(entry['amendment'])}",
    ]
    if pv.note:
        lines.append(f"  note       {pv.note}")
    lines.append("  history:")
    for h in history:
        shown = (
            "not in our record"
            if h["not_in_record"]
            else "repealed"
            if h["repealed"]
            else _shown(h["value"])
        )
        amended = f" ({h['amendment']})" if h["amendment"] else ""
        lines.append(f"    from {h['effective']}  {shown}  [{h['citation']}]{amended}")
    payload = {"name": definition.name, "parameters": [{**entry, "history": history}]}
    return Result(payload=payload, text="\n".join(lines), citations=[pv.citation])


def handle_params(args) -> Result:
    params = as_parameter_set(args.town)
    if args.name:
        return _one_parameter(args, params)
    entries: list[dict[str, Any]] = []
    lines = [f"Parameters of {params.name} in force on {args.as_of.isoformat()}"]
    for name in params.names():
        definition = params.definition(name)
        try:
            pv = definition.at(args.as_of)
        except LawDateError as exc:
            entries.append(
                {
                    "name": name,
                    "description": definition.description,
                    "unit": definition.unit,
                    "status": "not_in_record" if isinstance(exc, NotInRecord) else "not_in_force",
                    "why": exc.why,
                    "citation": exc.citation,
                }
            )
            lines.append(f"  {name:<52} — {exc.why}  [{exc.citation}]")
            continue
        entry = _value_entry(params, definition, pv)
        entries.append(entry)
        unit = f" {definition.unit}" if definition.unit else ""
        amendment = entry["amendment"]
        made_by = ""
        if amendment:
            assumed = ", effective date assumed" if amendment.get("effective_date_assumed") else ""
            made_by = f" ({amendment['id']}{assumed})"
        lines.append(
            f"  {name:<52} {_shown(pv.value)}{unit}  [{pv.citation}] "
            f"from {pv.effective.isoformat()}{made_by}"
        )
    citations = [e["citation"] for e in entries if e.get("citation")]
    return Result(payload={"parameters": entries}, text="\n".join(lines), citations=citations)
