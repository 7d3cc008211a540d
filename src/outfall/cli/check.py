"""`outfall check SITE`: review a site file against the § 267-19B standards.

Text for people (verdicts first), one JSON object for programs, or the reviewer's report as
HTML or PDF (`--format html|pdf --out FILE`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from outfall.cli.common import Result
from outfall.compliance.review import ReviewOptions, SiteReview, review_site
from outfall.compliance.sitefile import load_site
from outfall.kernel.errors import InputError

FORMATS = ("text", "json", "html", "pdf")
STATUS_LABEL = {
    "pass": "PASS",
    "fail": "FAIL",
    "not_applicable": "n/a",
    "needs_information": "NEEDS INFO",
}


def register(subparsers, parent) -> None:
    p = subparsers.add_parser(
        "check",
        parents=[parent],
        help="review a site file against the stormwater standards (§ 267-19B)",
        description="Review a site file: peak rate, recharge, TSS/TP removal and the other "
        "§ 267-19B standards, with every number behind each verdict.",
    )
    p.add_argument("site", help="the site file (YAML or JSON)")
    p.add_argument(
        "--format", choices=FORMATS, default=None, help="text (default), json, html, pdf"
    )
    p.add_argument("--out", default=None, help="write the report to this file")
    p.add_argument(
        "--interpolation",
        choices=("pchip", "linear"),
        default="pchip",
        help="how rainfall is read between tabulated ordinates (default pchip, as HydroCAD)",
    )
    p.add_argument("--round-cn", action="store_true", help="round weighted CN to whole numbers")
    p.set_defaults(handler=_check)


def _check(args: argparse.Namespace) -> Result:
    fmt = args.format or ("json" if args.json else "text")
    if fmt in ("html", "pdf") and not args.out:
        raise InputError("--out", None, f"a {fmt} report needs a file to write to")
    site = load_site(args.site)
    explicit_date = args.as_of_given
    review = review_site(
        site,
        as_of=args.as_of if explicit_date else None,
        town=args.town if args.town_given else None,
        options=ReviewOptions(interpolation=args.interpolation, round_cn=args.round_cn),
    )
    args.as_of = review.as_of
    args.town = review.town.slug
    payload = review.as_dict()
    text = render_text(review)
    if fmt in ("html", "pdf"):
        from outfall.compliance import report

        out = Path(args.out)
        if fmt == "html":
            out.write_text(report.review_html(review), encoding="utf-8")
        else:
            out.write_bytes(report.review_pdf(review))
        text = f"{STATUS_LABEL.get(review.verdict, review.verdict)}: report written to {out}"
        payload = {"verdict": review.verdict, "report": str(out), "format": fmt}
    elif fmt == "json":
        args.json = True
    if args.out and fmt in ("text", "json"):
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    return Result(payload, text, review.citations)


def render_text(review: SiteReview) -> str:
    """The review for people: verdicts first, then each design point, then flags."""
    site = review.site
    lines = [
        f"Site review: {site.name}",
        f"  {review.town.name}, law as of {review.as_of.isoformat()}",
        f"  Permit required: {'yes' if review.permit.outcome else 'no'}; "
        f"classification: {str(review.classification.outcome).replace('_', ' ')}",
        f"  Overall: {STATUS_LABEL.get(review.verdict, review.verdict)}",
        "",
        "Standards",
    ]
    for s in review.standards:
        mep = " (to the maximum extent practicable)" if s.to_maximum_extent_practicable else ""
        lines.append(f"  {STATUS_LABEL[s.status]:<10} {s.id:<22} [{s.citation}]{mep}")
        explanation = s.details.get("explanation") or s.details.get("why")
        if explanation:
            lines.append(f"  {'':<10} {explanation}")
    lines += ["", "Design points (peak cfs / time h / volume cf)"]
    for dp in review.design_points():
        lines.append(f"  {dp['name']}")
        for storm in dp["storms"]:
            pre, post = storm["pre"], storm["post"]
            lines.append(
                f"    {storm['return_period_yr']:>4}-yr {storm['depth_in']:.2f} in"
                f"  pre {pre['peak_cfs']:8.2f} @ {pre['time_of_peak_hr']:5.2f} {pre['volume_cf']:>10,.0f}"
                f"  post {post['peak_cfs']:8.2f} @ {post['time_of_peak_hr']:5.2f} {post['volume_cf']:>10,.0f}"
                + ("" if storm["depth_source"] == "site file" else f"  [{storm['depth_source']}]")
            )
    ponds = [n for n in review.nodes if n.kind == "pond"]
    if ponds:
        lines += ["", "Ponds (peak in / out / discarded cfs, peak elevation ft, storage cf)"]
        for n in ponds:
            v = n.values
            lines.append(
                f"  {n.name} {n.condition} {n.return_period_yr}-yr: {v['peak_inflow_cfs']:.2f} / "
                f"{v['peak_outflow_cfs']:.2f} / {v['peak_discarded_cfs']:.2f} cfs, "
                f"{v['peak_elev_ft']:.2f} ft, {v['peak_storage_cf']:,.0f} cf"
            )
    if review.flags:
        lines += ["", "Data flags and warnings"]
        lines += [f"  - {f}" for f in review.flags]
    return "\n".join(lines)
