"""The reviewer's report: one self-contained HTML document (and its PDF) for a site review.

What a DPW reviewer or a consultant reads and files: the verdict on every standard first, then the
numbers behind them (design-point hydrographs, ponds, subcatchments, water-quality and recharge
worksheets), the law's reasons with the parameter versions used, every assumption and data flag,
and the site file as loaded. Plots are inline SVG drawn here; nothing is fetched from elsewhere.
Every string that came from the user or from data is escaped.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import yaml

from outfall import __version__
from outfall.compliance.provenance import flag_note
from outfall.compliance.review import NodeResult, SiteReview, StandardResult
from outfall.eng.hydrograph import Hydrograph
from outfall.kernel.legal_style import legal_date, legal_dates_in
from outfall.law.determination import Determination

STATUS_LABEL = {
    "pass": "PASS",
    "fail": "FAIL",
    "needs_information": "NEEDS INFORMATION",
    "not_applicable": "NOT APPLICABLE",
}
STATUS_MEANING = {
    "pass": "every standard that applies is met",
    "fail": "at least one standard is not met",
    "needs_information": "no standard fails, but at least one needs information or the "
    "reviewer's judgement",
    "not_applicable": "the law does not apply this standard to the project",
}
_ICON_SHAPES = {
    "pass": '<circle cx="8" cy="8" r="7.5" fill="#1e7b34"/>'
    '<path d="M4.3 8.3l2.5 2.5 5-5.3" fill="none" stroke="#fff" stroke-width="2"/>',
    "fail": '<rect x="1" y="1" width="14" height="14" rx="1.5" fill="#b3261e"/>'
    '<path d="M5 5l6 6M11 5l-6 6" stroke="#fff" stroke-width="2"/>',
    "needs_information": '<path d="M8 0.8L15.6 14.6H0.4Z" fill="#8a5a00"/>'
    '<path d="M8 5.6v4.6" stroke="#fff" stroke-width="1.9"/>'
    '<circle cx="8" cy="12.4" r="1.1" fill="#fff"/>',
    "not_applicable": '<circle cx="8" cy="8" r="6.6" fill="none" stroke="#595959" '
    'stroke-width="1.8"/><path d="M4.6 8h6.8" stroke="#595959" stroke-width="1.8"/>',
    "unverified": '<path d="M8 0.5L15.5 8 8 15.5 0.5 8Z" fill="#8a5a00"/>'
    '<path d="M8 4.3v4.8" stroke="#fff" stroke-width="1.9"/>'
    '<circle cx="8" cy="11.6" r="1.1" fill="#fff"/>',
}
UNVERIFIED_RE = re.compile(r"unverified|not[_ ]found|placeholder|recalled|not retrieved", re.I)
CONDITION_LABEL = {"pre": "Pre-development", "post": "Post-development"}
_UNITS = {
    "pct": "%",
    "cf": "cf",
    "cfs": "cfs",
    "in": "in",
    "hr": "h",
    "ac": "ac",
    "acres": "ac",
    "sf": "sq ft",
    "ft": "ft",
    "yr": "yr",
    "years": "yr",
    "min": "min",
}
_WORDS = {
    "tss": "TSS",
    "tp": "TP",
    "om": "O&M",
    "hsg": "HSG",
    "cn": "CN",
    "tc": "Tc",
    "bmp": "BMP",
    "bmps": "BMPs",
    "lid": "LID",
    "huc12": "HUC12",
    "massdep": "MassDEP",
    "luhppl": "LUHPPL",
}
# Okabe-Ito colours (distinguishable with colour-vision deficiency), each with its own dash.
_STYLES = (
    ("#0072B2", "", "circle"),
    ("#D55E00", "9 5", "square"),
    ("#6A3D9A", "2 4", "diamond"),
    ("#007A5E", "12 4 3 4", "triangle"),
    ("#1B1B1B", "5 3", "circle"),
)
_CHART_W, _CHART_H = 720.0, 300.0
_PLOT_LEFT, _PLOT_RIGHT, _PLOT_TOP, _PLOT_BOTTOM = 64.0, 18.0, 44.0, 48.0


def review_html(review: SiteReview) -> str:
    """The report as one standalone HTML5 document (inline CSS and SVG, no scripts)."""
    ids = _Ids()
    site = review.site
    body = [
        _header(review),
        _verdicts(review),
        _design_points(review, ids),
        _ponds(review, ids),
        _subcatchments(review),
        _worksheets(review),
        _law(review),
        _flags_and_assumptions(review),
        _inputs(review),
    ]
    footer = (
        f"<footer><p>Prepared with outfall {_e(__version__)} under the {_e(review.town.name)} "
        f"parameter set, law as of {_e(legal_date(review.as_of))}. Rerunning the same site file "
        "with the same date and town reproduces every figure.</p></footer>"
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>Stormwater review: {_e(site.name)}</title>\n"
        f'<meta name="description" content="Stormwater standards review of {_e(site.name)}, '
        f'{_e(review.town.name)}, law as of {_e(legal_date(review.as_of))}">\n'
        f'<meta name="generator" content="outfall {_e(__version__)}">\n'
        f"<style>\n{CSS}</style>\n</head>\n<body>\n"
        '<a class="skip" href="#verdicts">Skip to the verdicts</a>\n'
        + "\n".join(body[:1])
        + '\n<main id="main">\n'
        + "\n".join(part for part in body[1:] if part)
        + "\n</main>\n"
        + footer
        + "\n</body>\n</html>\n"
    )


def review_pdf(review: SiteReview) -> bytes:
    """The same report rendered to PDF by WeasyPrint (US Letter, numbered pages), through the
    one renderer whose fetcher reads nothing outside the report and the package's files."""
    from outfall.compliance.pdf import render_pdf

    return render_pdf(review_html(review))


# ---------------------------------------------------------------- small helpers


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


class _Ids:
    """Element ids made from counters, never from user text."""

    def __init__(self) -> None:
        self.count = 0

    def new(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}-{self.count}"


def _num(value: Any, decimals: int | None = None) -> str:
    """A number for people: thousands separated; up to three decimals unless told."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if not isinstance(value, float):
        return str(value)
    if not math.isfinite(value):
        return str(value)
    if decimals is not None:
        return f"{value:,.{decimals}f}"
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    text = f"{value:,.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _label(key: str) -> tuple[str, str]:
    """A dictionary key as words and a unit: `tss_removal_pct` -> ("TSS removal", "%")."""
    words = str(key).split("_")
    unit = ""
    if len(words) > 1 and words[-1] in _UNITS:
        unit = _UNITS[words.pop()]
    text = " ".join(_WORDS.get(w, w) for w in words)
    return text[:1].upper() + text[1:], unit


def _words(value: str) -> str:
    return str(value).replace("_", " ")


def _is_unverified(text: str) -> bool:
    return bool(UNVERIFIED_RE.search(str(text)))


def _cite(citation: str) -> str:
    """A citation kept whole after the section sign, breakable only between its parts."""
    text = _e(citation).replace(" ", "\u00a0", 1).replace("(", "<wbr>(").replace("[", "<wbr>[")
    return f'<span class="cite">{text}</span>'


def _icon(kind: str) -> str:
    return (
        '<svg class="icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" '
        f'focusable="false">{_ICON_SHAPES[kind]}</svg>'
    )


def _badge(status: str) -> str:
    label = STATUS_LABEL.get(status, status.upper())
    return f'<span class="badge {_e(status)}">{_icon(status) if status in _ICON_SHAPES else ""}{_e(label)}</span>'


def _unverified_tag() -> str:
    return f'<span class="tag-unverified">{_icon("unverified")}UNVERIFIED</span>'


def _value(value: Any, unit: str = "") -> str:
    """Any JSON-like value as readable HTML (dicts as key: value lists)."""
    suffix = f"\u00a0{_e(unit)}" if unit else ""
    if value is None:
        return '<span class="muted">—</span>'
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return _e(_num(value)) + suffix
    if isinstance(value, str):
        return _e(value).replace("_", "_<wbr>")
    if isinstance(value, dict):
        return _kv_list(value)
    if isinstance(value, list | tuple):
        if all(not isinstance(v, dict | list | tuple) for v in value):
            return ", ".join(_value(v) for v in value) + (suffix if value else "")
        items = "".join(
            f"<li>{_inline_kv(v) if isinstance(v, dict) else _value(v)}</li>" for v in value
        )
        return f'<ul class="plain">{items}</ul>'
    return _e(value)


def _inline_kv(d: dict[str, Any]) -> str:
    """A small dict on one line: `Design point: DP1; Pre peak: 4.46 cfs; ...`."""
    parts = []
    for key, val in d.items():
        text, unit = _label(key)
        parts.append(f'<span class="k">{_e(text)}:</span>\u00a0{_value(val, unit)}')

    return "; ".join(parts)


def _kv_list(d: dict[str, Any]) -> str:
    if not d:
        return '<span class="muted">—</span>'
    items = []
    for key, val in d.items():
        text, unit = _label(key)
        items.append(f'<li><span class="k">{_e(text)}:</span> {_value(val, unit)}</li>')
    return '<ul class="kv">' + "".join(items) + "</ul>"


def _table(
    caption: str,
    head: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    numeric: Sequence[bool] | None = None,
    row_classes: Sequence[str] | None = None,
    cls: str = "",
    foot: Sequence[str] | None = None,
) -> str:
    """A data table: caption, column headers, the first cell of each row a row header.

    Cells are HTML already escaped by the caller; the caption is plain text, escaped here.
    """
    numeric = list(numeric or [False] * len(head))
    out = [
        f'{_wrap_open(caption, len(head))}<table class="{_e(cls)}">',
        f"<caption>{_e(caption)}</caption>",
        "<thead><tr>"
        + "".join(
            f'<th scope="col"{" class=num" if numeric[i] else ""}>{_e(h)}</th>'
            for i, h in enumerate(head)
        )
        + "</tr></thead><tbody>",
    ]
    for r, row in enumerate(rows):
        klass = row_classes[r] if row_classes and row_classes[r] else ""
        cells = []
        for i, cell in enumerate(row):
            num = ' class="num"' if numeric[i] else ""
            if i == 0:
                cells.append(f'<th scope="row"{num}>{cell}</th>')
            else:
                cells.append(f"<td{num}>{cell}</td>")
        out.append(f"<tr{f' class={klass}' if klass else ''}>" + "".join(cells) + "</tr>")
    out.append("</tbody>")
    if foot:
        out.append(
            "<tfoot><tr>"
            + "".join(
                f'<th scope="row">{c}</th>'
                if i == 0
                else f"<td{' class=num' if numeric[i] else ''}>{c}</td>"
                for i, c in enumerate(foot)
            )
            + "</tr></tfoot>"
        )
    out.append("</table></div>")
    return "".join(out)


def _wrap_open(caption: str, columns: int) -> str:
    """The scroll box around a table; wide ones are focusable so keyboards can scroll them."""
    if columns < 6:
        return '<div class="table-wrap">'
    return f'<div class="table-wrap" role="region" tabindex="0" aria-label="{_e(caption)}">'


def _list(items: Iterable[str], cls: str = "") -> str:
    inner = "".join(f"<li>{item}</li>" for item in items)
    return f'<ul class="{cls}">{inner}</ul>' if inner else ""


def _flag_items(flags: Iterable[str]) -> str:
    items = []
    for flag in flags:
        note = flag_note(flag)
        if note.unverified or (not note.status and _is_unverified(flag)):
            items.append(f'<li class="unverified">{_unverified_tag()} {_e(note.text)}</li>')
        else:
            items.append(f"<li>{_e(note.text)}</li>")
    return f'<ul class="flags">{"".join(items)}</ul>' if items else ""


def _flags_within(value: Any) -> list[str]:
    """Every string under a `flags` key anywhere in a standard's details."""
    found: list[str] = []
    if isinstance(value, dict):
        for key, val in value.items():
            if key == "flags" and isinstance(val, list | tuple):
                found.extend(str(v) for v in val)
            else:
                found.extend(_flags_within(val))
    elif isinstance(value, list | tuple):
        for val in value:
            found.extend(_flags_within(val))
    return found


def _storm_label(years: int, depth_in: float) -> str:
    return f"{years}-year 24-hour storm ({_num(depth_in, 2)} in)"


def _condition_label(name: str) -> str:
    return CONDITION_LABEL.get(name, name[:1].upper() + name[1:])


# ---------------------------------------------------------------- sections


def _header(review: SiteReview) -> str:
    site = review.site
    permit = review.permit.outcome
    unverified = [f for f in review.flags if _is_unverified(f)]
    placeholder_storms = [s for s in review.storms if _is_unverified(s.depth_source)]
    rows = [
        ("Town", _e(review.town.name)),
        (
            "Law as of",
            f'<time datetime="{review.as_of.isoformat()}">{_e(legal_date(review.as_of))}</time>',
        ),
        ("Classification", _e(_words(review.classification.outcome).capitalize())),
        ("Permit required", "Yes" if permit is True else "No" if permit is False else _e(permit)),
        (
            "Design storms",
            _e(
                ", ".join(
                    f"{s.return_period_yr}-yr {_num(s.depth_in, 2)} in" for s in review.storms
                )
            ),
        ),
        (
            "Overall verdict",
            f"{_badge(review.verdict)} <span class=muted>"
            f"({_e(STATUS_MEANING.get(review.verdict, ''))})</span>",
        ),
    ]
    summary = "".join(f"<div><dt>{_e(k)}</dt><dd>{v}</dd></div>" for k, v in rows)
    banner = ""
    if unverified or placeholder_storms:
        parts = []
        if unverified:
            parts.append(
                f"{len(unverified)} of the {len(review.flags)} data flags concern figures that are "
                "UNVERIFIED (recalled, not found or placeholder values)"
            )
        if placeholder_storms:
            years = [f"{s.return_period_yr}-year" for s in placeholder_storms]
            parts.append(
                f"the rainfall depth of the {', '.join(years)} storm is an UNVERIFIED placeholder"
                if len(years) == 1
                else f"the rainfall depths of the {', '.join(years)} storms are UNVERIFIED "
                "placeholders"
            )
        banner = (
            f'<div class="banner" role="note" aria-labelledby="banner-title">{_icon("unverified")}'
            '<div><p id="banner-title"><strong>Unverified data behind this review.</strong></p><p>'
            + _e("; ".join(parts)[:1].upper() + "; ".join(parts)[1:])
            + '. Confirm them before relying on the verdicts: see <a href="#flags">Data flags</a>.'
            "</p></div></div>"
        )
    toc = (
        '<nav class="toc" aria-label="Contents"><ol>'
        '<li><a href="#verdicts">Verdicts</a></li>'
        '<li><a href="#design-points">Design points</a></li>'
        '<li><a href="#ponds">Ponds</a></li>'
        '<li><a href="#subcatchments">Subcatchments</a></li>'
        '<li><a href="#worksheets">Worksheets</a></li>'
        '<li><a href="#law">The law</a></li>'
        '<li><a href="#flags">Flags and assumptions</a></li>'
        '<li><a href="#inputs">Inputs</a></li>'
        "</ol></nav>"
    )
    return (
        '<header class="report-head">'
        '<p class="kicker">Stormwater management review</p>'
        f'<h1><span class="site-name">{_e(site.name)}</span></h1>'
        f'<dl class="summary">{summary}</dl>{banner}{toc}</header>'
    )


def _verdicts(review: SiteReview) -> str:
    counts: dict[str, int] = {}
    for s in review.standards:
        counts[s.status] = counts.get(s.status, 0) + 1
    tally = ", ".join(
        f"{counts[k]} {STATUS_LABEL[k].lower()}" for k in STATUS_LABEL if counts.get(k)
    )
    storms_unverified = any(_is_unverified(s.depth_source) for s in review.storms)
    rows = []
    classes = []
    for s in review.standards:
        rows.append(
            [
                f'<span class="std-title">{_e(s.title)}</span><br><code>{_e(s.id)}</code>',
                _badge(s.status),
                _cite(s.citation),
                _requirement_cell(s),
                _provided_cell(s),
                _explanation_cell(s, storms_unverified),
            ]
        )
        classes.append(f"status-{s.status}")
    table = _table(
        "Every standard, its status and the figures behind it",
        ["Standard", "Status", "Citation", "Required", "Provided", "Explanation and notes"],
        rows,
        row_classes=classes,
        cls="verdicts",
    )
    return (
        '<section id="verdicts" aria-labelledby="verdicts-h">'
        '<h2 id="verdicts-h">Verdicts on the standards</h2>'
        f"<p>{len(review.standards)} standards: {_e(tally)}. Overall: {_badge(review.verdict)}</p>"
        f"{table}</section>"
    )


def _requirement_cell(s: StandardResult) -> str:
    mep = (
        '<p class="mep"><strong>To the maximum extent practicable.</strong></p>'
        if s.to_maximum_extent_practicable
        else ""
    )
    body = _value(s.required) if s.required is not None else '<span class="muted">—</span>'
    return mep + body


def _provided_cell(s: StandardResult) -> str:
    """What the site provides; peak-rate comparisons as one short line per design point."""
    provided = s.provided
    if provided is None:
        return '<span class="muted">—</span>'
    rows = provided.get("comparisons") if isinstance(provided, dict) else None
    keys = {"design_point", "return_period_yr", "pre_peak_cfs", "post_peak_cfs"}
    if (
        isinstance(rows, list)
        and rows
        and all(isinstance(r, dict) and keys <= set(r) for r in rows)
    ):
        lines = []
        for r in rows:
            ok = r.get("ok")
            verdict = "" if ok is None else (" within" if ok else " <strong>exceeds</strong>")
            lines.append(
                f"<li>{_e(r['design_point'])}, {_e(r['return_period_yr'])}-yr: post "
                f"{_num(r['post_peak_cfs'], 2)} vs pre {_num(r['pre_peak_cfs'], 2)} cfs"
                f"{verdict}</li>"
            )
        rest = {k: v for k, v in provided.items() if k != "comparisons"}
        return f'<ul class="plain">{"".join(lines)}</ul>' + (_kv_list(rest) if rest else "")
    return _value(provided)


def _explanation_cell(s: StandardResult, storms_unverified: bool) -> str:
    d = s.details or {}
    parts = []
    for key in ("explanation", "why"):
        if d.get(key):
            parts.append(f"<p>{_e(d[key])}</p>")
    if d.get("note"):
        parts.append(f'<p class="note"><span class="k">Note:</span> {_e(d["note"])}</p>')
    if d.get("practicability"):
        parts.append(f'<p class="mep">{_e(d["practicability"])}</p>')
    elif s.to_maximum_extent_practicable:
        parts.append(
            '<p class="mep">Required to the maximum extent practicable: where full compliance '
            "is not practicable the applicant shows why.</p>"
        )
    unverified = [f for f in _flags_within(d) if _is_unverified(f)]
    if s.id == "peak_rate" and storms_unverified:
        unverified.append("placeholder rainfall depth")
    if unverified:
        parts.append(
            f'<p class="rests">{_unverified_tag()} Rests on {len(unverified)} unverified '
            f'figure{"s" if len(unverified) != 1 else ""}: see <a href="#flags">Data flags</a>.</p>'
        )
    if any(k in d for k in ("tss", "tp", "worksheets", "drawdown", "required")):
        parts.append('<p><a href="#worksheets">Worksheet below</a>.</p>')
    return "".join(parts) or '<span class="muted">—</span>'


# ---------------------------------------------------------------- design points


def _design_points(review: SiteReview, ids: _Ids) -> str:
    out = [
        '<section id="design-points" aria-labelledby="dp-h"><h2 id="dp-h">Design points</h2>',
        "<p>Peak discharge, time of peak and runoff volume reaching each design point, before "
        "and after development, for every storm run.</p>",
    ]
    for dp in review.design_points():
        name = dp["name"]
        rows = []
        classes = []
        for storm in dp["storms"]:
            pre, post = storm["pre"], storm["post"]
            change = post["peak_cfs"] - pre["peak_cfs"]
            higher = round(post["peak_cfs"], 2) > round(pre["peak_cfs"], 2)
            source = storm["depth_source"]
            source_html = (
                _unverified_tag() + " " + _e(source.replace("(UNVERIFIED)", "").strip())
                if _is_unverified(source)
                else _e(source)
            )
            rows.append(
                [
                    f'<span class="nowrap">{storm["return_period_yr"]}-year</span>',
                    _num(storm["depth_in"], 2),
                    source_html,
                    _num(pre["peak_cfs"], 2),
                    _num(post["peak_cfs"], 2),
                    f"{change:+.2f}" + (" <strong>higher</strong>" if higher else ""),
                    _num(pre["time_of_peak_hr"], 2),
                    _num(post["time_of_peak_hr"], 2),
                    _num(pre["volume_cf"], 0),
                    _num(post["volume_cf"], 0),
                ]
            )
            classes.append("exceeds" if higher else "")
        out.append(f"<h3>{_e(name)}</h3>")
        out.append(
            _table(
                f"{name}: pre- and post-development peaks, times and volumes",
                [
                    "Storm",
                    "Rainfall (in)",
                    "Depth source",
                    "Pre peak (cfs)",
                    "Post peak (cfs)",
                    "Post − pre (cfs)",
                    "Pre time of peak (h)",
                    "Post time of peak (h)",
                    "Pre volume (cf)",
                    "Post volume (cf)",
                ],
                rows,
                numeric=[False, True, False, True, True, True, True, True, True, True],
                row_classes=classes,
                cls="dp",
            )
        )
        out.append(_hydrograph_figures(review, name, ids))
    out.append("</section>")
    return "".join(out)


def hydrograph_figures(review: SiteReview) -> str:
    """The pre- and post-development hydrograph of every design point and storm, drawn as the
    report draws them (inline SVG, no style attribute or script, each with its data table), for
    a page that shows them within its own layout (the web's site review page)."""
    ids = _Ids()
    return "".join(
        f"<h3>{_e(name)}</h3>" + _hydrograph_figures(review, name, ids)
        for name in review.site.conditions["post"].design_points
    )


def _hydrograph_figures(review: SiteReview, name: str, ids: _Ids) -> str:
    out = []
    for run in review.storms:
        pair = run.points.get(name, {})
        if "pre" not in pair or "post" not in pair:
            continue
        out.append(_hydrograph_figure(name, run.return_period_yr, run.depth_in, pair, ids))
    return "".join(out)


def _hydrograph_figure(
    point: str, years: int, depth_in: float, pair: dict[str, Hydrograph], ids: _Ids
) -> str:
    pre, post = pair["pre"], pair["post"]
    chart_id = ids.new("hydrograph")
    table_id = f"{chart_id}-data"
    series = [
        _Series("Pre-development", pre.times_hr, pre.q_cfs, *_STYLES[0]),
        _Series("Post-development", post.times_hr, post.q_cfs, *_STYLES[1]),
    ]
    title = f"{point}: {_storm_label(years, depth_in)} hydrographs"
    desc = (
        f"Flow in cfs against time in hours. Pre-development peak {_num(pre.peak_cfs, 2)} cfs at "
        f"{_num(pre.time_of_peak_hr, 2)} h, volume {_num(pre.volume_cf, 0)} cf; post-development "
        f"peak {_num(post.peak_cfs, 2)} cfs at {_num(post.time_of_peak_hr, 2)} h, volume "
        f"{_num(post.volume_cf, 0)} cf."
    )
    x_lo, x_hi = _active_window(series)
    y_hi = max(pre.peak_cfs, post.peak_cfs)
    svg = _line_chart(
        series,
        chart_id=chart_id,
        kind="hydrograph",
        title=title,
        desc=desc,
        x_label="Time (hours)",
        y_label="Flow (cfs)",
        x_range=(x_lo, x_hi),
        y_range=(0.0, y_hi if y_hi > 0 else 1.0),
        described_by=table_id,
    )
    table = _series_table(
        f"{point}, {years}-year storm: flow (cfs) by time",
        table_id,
        series,
        (x_lo, x_hi),
        peaks=True,
        decimals=2,
    )
    return (
        f'<figure class="chart-figure">{svg}<figcaption>{_e(title)}. {_e(desc)}</figcaption>'
        f"<details><summary>Data table for this plot</summary>{table}</details></figure>"
    )


@dataclass(frozen=True)
class _Series:
    label: str
    times: np.ndarray
    values: np.ndarray
    color: str
    dash: str
    marker: str


def _active_window(series: Sequence[_Series]) -> tuple[float, float]:
    """The span of time in which any series carries more than 0.5 % of the largest peak."""
    start = min(float(s.times[0]) for s in series if len(s.times))
    end = max(float(s.times[-1]) for s in series if len(s.times))
    peak = max((float(np.max(s.values)) for s in series if len(s.values)), default=0.0)
    if peak <= 0:
        return start, end
    lo, hi = end, start
    for s in series:
        active = s.times[s.values > 0.005 * peak]
        if len(active):
            lo = min(lo, float(active[0]))
            hi = max(hi, float(active[-1]))
    pad = 0.05 * max(hi - lo, 1e-9)
    step = _nice_step(hi - lo + 2 * pad, 8, HOUR_STEPS)
    lo = max(start, math.floor((lo - pad) / step) * step)
    hi = min(end, math.ceil((hi + pad) / step) * step)
    return (lo, hi) if hi > lo else (start, end)


HOUR_STEPS = (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 12.0, 24.0, 48.0)


def _nice_step(span: float, target: int, steps: Sequence[float] = ()) -> float:
    """The smallest round step that covers `span` in at most `target` intervals."""
    raw = span / max(target, 1)
    if raw <= 0 or not math.isfinite(raw):
        return 1.0
    for step in steps:
        if step >= raw:
            return step
    mag = 10 ** math.floor(math.log10(raw))
    for m in (1.0, 2.0, 2.5, 5.0, 10.0):
        if m * mag >= raw:
            return m * mag
    return 10 * mag


def _ticks(
    lo: float, hi: float, target: int = 6, steps: Sequence[float] = ()
) -> tuple[list[float], float, float]:
    """Round tick values covering [lo, hi], and the widened range they span."""
    if hi <= lo:
        hi = lo + (abs(lo) or 1.0)
    step = _nice_step(hi - lo, target, steps)
    first = math.floor(lo / step + 1e-9) * step
    last = math.ceil(hi / step - 1e-9) * step
    n = round((last - first) / step)
    return [first + i * step for i in range(n + 1)], first, last


def _tick_text(value: float, step: float) -> str:
    decimals = 0
    while decimals < 4 and abs(round(step, decimals) - step) > 1e-9:
        decimals += 1
    return f"{value:,.{decimals}f}"


def _line_chart(
    series: Sequence[_Series],
    *,
    chart_id: str,
    kind: str,
    title: str,
    desc: str,
    x_label: str,
    y_label: str,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    described_by: str,
    references: Sequence[tuple[float, str]] = (),
) -> str:
    """An SVG line chart: ticked and labelled axes, legend, dashes and markers per series."""
    width, height = _CHART_W, _CHART_H
    left, right, top, bottom = _PLOT_LEFT, width - _PLOT_RIGHT, _PLOT_TOP, height - _PLOT_BOTTOM
    x_ticks, x0, x1 = _ticks(*x_range, target=9, steps=HOUR_STEPS)
    x0, x1 = max(x0, x_range[0]), min(x1, x_range[1])
    x_ticks = [t for t in x_ticks if x0 - 1e-9 <= t <= x1 + 1e-9]
    y_ticks, y0, y1 = _ticks(*y_range, target=5)

    def px(t: np.ndarray | float) -> Any:
        return left + (np.asarray(t) - x0) / (x1 - x0) * (right - left)

    def py(v: np.ndarray | float) -> Any:
        return bottom - (np.asarray(v) - y0) / (y1 - y0) * (bottom - top)

    x_step = x_ticks[1] - x_ticks[0] if len(x_ticks) > 1 else 1.0
    y_step = y_ticks[1] - y_ticks[0] if len(y_ticks) > 1 else 1.0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart {_e(kind)}" data-chart="{_e(kind)}" '
        f'viewBox="0 0 {width:g} {height:g}" role="img" aria-label="{_e(title)}" '
        f'aria-describedby="{chart_id}-desc {described_by}" '
        'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">',
        f'<title id="{chart_id}-title">{_e(title)}</title>',
        f'<desc id="{chart_id}-desc">{_e(desc)}</desc>',
        f'<rect x="{left:g}" y="{top:g}" width="{right - left:g}" height="{bottom - top:g}" '
        'fill="#ffffff" stroke="#5c5c5c"/>',
    ]
    grid = []
    for t in y_ticks:
        y = float(py(t))
        grid.append(
            f'<line x1="{left:g}" x2="{right:g}" y1="{y:.1f}" y2="{y:.1f}" stroke="#d9d9d9"/>'
            f'<text x="{left - 6:g}" y="{y + 4:.1f}" text-anchor="end" fill="#1b1b1b">'
            f"{_tick_text(t, y_step)}</text>"
        )
    for t in x_ticks:
        x = float(px(t))
        grid.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top:g}" y2="{bottom:g}" stroke="#ececec"/>'
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{bottom:g}" y2="{bottom + 5:g}" stroke="#5c5c5c"/>'
            f'<text x="{x:.1f}" y="{bottom + 18:g}" text-anchor="middle" fill="#1b1b1b">'
            f"{_tick_text(t, x_step)}</text>"
        )
    parts.append('<g class="grid">' + "".join(grid) + "</g>")
    label_y: list[float] = []
    labels = []
    for elev, name in references:
        if not y0 <= elev <= y1:
            continue
        y = float(py(elev))
        text_y = y - 4
        while any(abs(text_y - other) < 12 for other in label_y):
            text_y -= 12
        label_y.append(text_y)
        label = f"{name} {_num(elev, 2)} ft"
        box_w = 6.2 * len(label) + 6
        parts.append(
            f'<line x1="{left:g}" x2="{right:g}" y1="{y:.1f}" y2="{y:.1f}" stroke="#4d4d4d" '
            'stroke-dasharray="1 3"/>'
        )
        labels.append(
            f'<rect x="{left + 2:g}" y="{text_y - 10:.1f}" width="{box_w:.1f}" height="13" '
            f'fill="#ffffff" fill-opacity="0.85"/><text x="{left + 5:g}" y="{text_y:.1f}" '
            f'font-size="10.5" fill="#333333">{_e(label)}</text>'
        )
    clip = f"{chart_id}-clip"
    parts.append(
        f'<clipPath id="{clip}"><rect x="{left:g}" y="{top - 2:g}" width="{right - left:g}" '
        f'height="{bottom - top + 4:g}"/></clipPath><g clip-path="url(#{clip})">'
    )
    for s in series:
        keep = (s.times >= x0 - 1e-9) & (s.times <= x1 + 1e-9)
        xs, ys = px(s.times[keep]), py(s.values[keep])
        if not len(xs):
            continue
        points = " ".join(f"{x:.1f},{y:.1f}" for x, y in zip(xs.tolist(), ys.tolist(), strict=True))
        dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{s.color}" stroke-width="2.2"'
            f'{dash} stroke-linejoin="round"/>'
        )
        i = int(np.argmax(s.values[keep]))
        parts.append(_marker(s.marker, float(xs[i]), float(ys[i]), s.color))
    parts.append("</g>" + "".join(labels))
    parts.append(
        f'<text x="{(left + right) / 2:g}" y="{height - 8:g}" text-anchor="middle" '
        f'fill="#1b1b1b">{_e(x_label)}</text>'
        f'<text transform="translate(16 {(top + bottom) / 2:g}) rotate(-90)" '
        f'text-anchor="middle" fill="#1b1b1b">{_e(y_label)}</text>'
    )
    legend = []
    x = left
    for s in series:
        dash = f' stroke-dasharray="{s.dash}"' if s.dash else ""
        legend.append(
            f'<line x1="{x:g}" x2="{x + 34:g}" y1="18" y2="18" stroke="{s.color}" '
            f'stroke-width="2.2"{dash}/>{_marker(s.marker, x + 17, 18, s.color)}'
            f'<text x="{x + 40:g}" y="22" fill="#1b1b1b">{_e(s.label)}</text>'
        )
        x += 40 + 7.2 * len(s.label) + 22
    parts.append('<g class="legend">' + "".join(legend) + "</g></svg>")
    return "".join(parts)


def _marker(shape: str, x: float, y: float, color: str) -> str:
    if shape == "square":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{color}"/>'
    if shape == "diamond":
        return (
            f'<path d="M{x:.1f} {y - 5:.1f}L{x + 5:.1f} {y:.1f}L{x:.1f} {y + 5:.1f}'
            f'L{x - 5:.1f} {y:.1f}Z" fill="{color}"/>'
        )
    if shape == "triangle":
        return (
            f'<path d="M{x:.1f} {y - 5:.1f}L{x + 5:.1f} {y + 4:.1f}L{x - 5:.1f} {y + 4:.1f}Z" '
            f'fill="{color}"/>'
        )
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.2" fill="{color}"/>'


def _series_table(
    caption: str,
    table_id: str,
    series: Sequence[_Series],
    window: tuple[float, float],
    *,
    peaks: bool,
    decimals: int,
) -> str:
    """The plotted series sampled at round times over the window, with each peak's own row."""
    lo, hi = window
    step = next(
        (c for c in (0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 6.0, 12.0) if (hi - lo) / c <= 30), 24.0
    )
    times = set(np.round(np.arange(math.ceil(lo / step) * step, hi + 1e-9, step), 4).tolist())
    peak_at: dict[int, float] = {}
    if peaks:
        for i, s in enumerate(series):
            if len(s.values):
                peak_at[i] = round(float(s.times[int(np.argmax(s.values))]), 4)
                times.add(peak_at[i])
    ordered = sorted(times)
    head = ["Time (h)", *[s.label for s in series]]
    rows = []
    for t in ordered:
        row = [_num(t, 2)]
        for i, s in enumerate(series):
            inside = len(s.times) and s.times[0] - 1e-9 <= t <= s.times[-1] + 1e-9
            if not inside:
                row.append('<span class="muted">—</span>')
                continue
            v = float(np.interp(t, s.times, s.values))
            row.append(_num(v, decimals) + (" (peak)" if peak_at.get(i) == t else ""))
        rows.append(row)
    return _table(caption, head, rows, numeric=[True] * len(head), cls="series").replace(
        '<table class="series">', f'<table class="series" id="{table_id}">', 1
    )


# ---------------------------------------------------------------- ponds


def _ponds(review: SiteReview, ids: _Ids) -> str:
    ponds: dict[tuple[str, str], list[NodeResult]] = {}
    for node in review.nodes:
        if node.kind == "pond":
            ponds.setdefault((node.condition, node.name), []).append(node)
    out = ['<section id="ponds" aria-labelledby="ponds-h"><h2 id="ponds-h">Ponds</h2>']
    if not ponds:
        out.append("<p>The site file routes no runoff through a pond.</p></section>")
        return "".join(out)
    depths = {s.return_period_yr: s.depth_in for s in review.storms}
    for (condition, name), runs in ponds.items():
        runs = sorted(runs, key=lambda n: n.return_period_yr)
        out.append(f"<h3>{_e(name)} ({_e(_condition_label(condition).lower())})</h3>")
        peak_rows, vol_rows, classes = [], [], []
        for n in runs:
            v = n.values
            freeboard = v["top_elev_ft"] - v["peak_elev_ft"]
            overtops = freeboard <= 1e-6
            storm = f'<span class="nowrap">{n.return_period_yr}-year</span>'
            peak_rows.append(
                [
                    storm,
                    _num(v["peak_inflow_cfs"], 2),
                    _num(v["peak_outflow_cfs"], 2),
                    _num(v["time_of_peak_outflow_hr"], 2),
                    _num(v["peak_discarded_cfs"], 3),
                    _num(v["peak_elev_ft"], 2),
                    _num(freeboard, 2) + (" <strong>at top of table</strong>" if overtops else ""),
                    _num(v["peak_storage_cf"], 0),
                ]
            )
            classes.append("exceeds" if overtops else "")
            remaining = v["inflow_volume_cf"] - v["outflow_volume_cf"] - v["discarded_volume_cf"]
            error = v["mass_balance_error_pct"]
            vol_rows.append(
                [
                    storm,
                    _num(v["inflow_volume_cf"], 0),
                    _num(v["outflow_volume_cf"], 0),
                    _num(v["discarded_volume_cf"], 0),
                    _num(remaining, 0),
                    f"{abs(error) if error == 0 else error:.3f}"
                    + (" <strong>over 0.5 %</strong>" if abs(error) > 0.5 else ""),
                ]
            )
        out.append(
            _table(
                f"{name}: peaks by storm (top of storage table {_num(runs[0].values['top_elev_ft'], 2)} ft)",
                [
                    "Storm",
                    "Peak inflow (cfs)",
                    "Peak outflow (cfs)",
                    "Time of peak outflow (h)",
                    "Peak discarded (cfs)",
                    "Peak elevation (ft)",
                    "Freeboard to top of table (ft)",
                    "Peak storage (cf)",
                ],
                peak_rows,
                numeric=[False] + [True] * 7,
                row_classes=classes,
            )
        )
        out.append(
            _table(
                f"{name}: volumes and mass balance by storm",
                [
                    "Storm",
                    "Inflow (cf)",
                    "Outflow (cf)",
                    "Discarded, e.g. exfiltration (cf)",
                    "In storage at end of run (cf)",
                    "Mass balance error (%)",
                ],
                vol_rows,
                numeric=[False] + [True] * 5,
            )
        )
        stage_runs = [n for n in runs if n.stage is not None and len(n.stage.q_cfs)]
        if stage_runs:
            out.append(_stage_figure(review, condition, name, stage_runs, depths, ids))
    out.append("</section>")
    return "".join(out)


def _pond_references(review: SiteReview, condition: str, name: str, top_ft: float) -> list:
    refs: list[tuple[float, str]] = []
    cond = review.site.conditions.get(condition)
    pond = next((p for p in cond.ponds if p.name == name), None) if cond else None
    if pond is not None:
        for outlet in pond.outlets:
            for key in ("crest_ft", "invert_ft"):
                value = outlet.get(key)
                if isinstance(value, int | float) and not isinstance(value, bool):
                    refs.append((float(value), str(outlet.get("name", outlet.get("type", "")))))
                    break
    refs.append((float(top_ft), "top of storage"))
    return sorted(refs, reverse=True)


def _stage_figure(
    review: SiteReview,
    condition: str,
    name: str,
    runs: list[NodeResult],
    depths: dict[int, float],
    ids: _Ids,
) -> str:
    chart_id = ids.new("stage")
    table_id = f"{chart_id}-data"
    series = []
    for i, n in enumerate(runs):
        stage = n.stage
        assert stage is not None
        series.append(
            _Series(f"{n.return_period_yr}-year", stage.times_hr, stage.q_cfs, *_STYLES[i % 5])
        )
    top = float(runs[0].values["top_elev_ft"])
    refs = _pond_references(review, condition, name, top)
    low = min(float(np.min(s.values)) for s in series)
    high = max(max(float(np.max(s.values)) for s in series), top)
    title = f"{name} ({_condition_label(condition).lower()}): water-surface elevation by storm"
    desc = "Elevation in feet against time in hours. " + "; ".join(
        f"{n.return_period_yr}-year storm ({_num(depths.get(n.return_period_yr), 2)} in) peaks at "
        f"{_num(n.values['peak_elev_ft'], 2)} ft"
        for n in runs
    )
    desc += f"; top of the storage table {_num(top, 2)} ft."
    window = (
        min(float(s.times[0]) for s in series),
        max(float(s.times[-1]) for s in series),
    )
    svg = _line_chart(
        series,
        chart_id=chart_id,
        kind="stage",
        title=title,
        desc=desc,
        x_label="Time (hours)",
        y_label="Elevation (ft)",
        x_range=window,
        y_range=(low, high + 0.02 * max(high - low, 0.1)),
        described_by=table_id,
        references=refs,
    )
    sampled = [_Series(s.label, s.times, s.values, s.color, s.dash, s.marker) for s in series]
    table = _series_table(
        f"{name}: water-surface elevation (ft) by time",
        table_id,
        sampled,
        window,
        peaks=True,
        decimals=2,
    )
    return (
        f'<figure class="chart-figure">{svg}<figcaption>{_e(title)}. {_e(desc)} Dotted lines '
        "mark outlet crests or inverts and the top of the storage table.</figcaption>"
        f"<details><summary>Data table for this plot</summary>{table}</details></figure>"
    )


# ---------------------------------------------------------------- subcatchments


def _subcatchments(review: SiteReview) -> str:
    out = ['<section id="subcatchments" aria-labelledby="sub-h"><h2 id="sub-h">Subcatchments</h2>']
    by_condition: dict[str, dict[str, list[NodeResult]]] = {}
    others: list[NodeResult] = []
    for node in review.nodes:
        if node.kind == "subcatchment":
            by_condition.setdefault(node.condition, {}).setdefault(node.name, []).append(node)
        elif node.kind in ("reach", "inflow"):
            others.append(node)
    for condition, subs in by_condition.items():
        label = _condition_label(condition)
        out.append(f"<h3>{_e(label)}</h3>")
        head = [
            "Subcatchment",
            "Area (ac)",
            "CN",
            "Tc (min)",
            "Storm",
            "Runoff depth (in)",
            "Runoff volume (cf)",
            "Peak (cfs)",
            "Time of peak (h)",
        ]
        numeric = [False, True, True, True, False, True, True, True, True]
        caption = (
            f"{label} subcatchments: area, weighted curve number, time of concentration and "
            "runoff by storm"
        )
        groups = []
        for name, runs in subs.items():
            runs = sorted(runs, key=lambda n: n.return_period_yr)
            first = runs[0].values
            span = len(runs)
            cn = first.get("cn")
            rows = []
            for k, n in enumerate(runs):
                v = n.values
                cells = []
                if k == 0:
                    cells += [
                        f'<th scope="rowgroup" rowspan="{span}">{_e(name)}</th>',
                        f'<td class="num" rowspan="{span}">{_num(first.get("area_ac"))}</td>',
                        f'<td class="num" rowspan="{span}">'
                        f"{_num(cn, 2) if cn is not None else '—'}</td>",
                        f'<td class="num" rowspan="{span}">{_num(first.get("tc_min"), 1)}</td>',
                    ]
                cells += [
                    f'<th scope="row" class="nowrap">{n.return_period_yr}-year</th>',
                    f'<td class="num">{_num(v.get("runoff_depth_in"), 2)}</td>',
                    f'<td class="num">{_num(v.get("volume_cf"), 0)}</td>',
                    f'<td class="num">{_num(v.get("peak_cfs"), 2)}</td>',
                    f'<td class="num">{_num(v.get("time_of_peak_hr"), 2)}</td>',
                ]
                rows.append("<tr>" + "".join(cells) + "</tr>")
            groups.append("<tbody>" + "".join(rows) + "</tbody>")
        body = "".join(groups)
        out.append(
            f"{_wrap_open(caption, len(head))}<table class=subcatchments>"
            f"<caption>{_e(caption)}</caption><thead><tr>"
            + "".join(
                f'<th scope="col"{" class=num" if numeric[i] else ""}>{_e(h)}</th>'
                for i, h in enumerate(head)
            )
            + f"</tr></thead>{body}</table></div>"
        )
    if others:
        rows2 = [
            [
                _e(n.name),
                _e(_words(n.kind)),
                _e(_condition_label(n.condition)),
                f"{n.return_period_yr}-year",
                _kv_list(n.values),
            ]
            for n in others
        ]
        out.append("<h3>Reaches and inflows</h3>")
        out.append(
            _table(
                "Reaches and inflows by storm",
                ["Node", "Kind", "Condition", "Storm", "Results"],
                rows2,
            )
        )
    out.append("</section>")
    return "".join(out)


# ---------------------------------------------------------------- worksheets


def _worksheets(review: SiteReview) -> str:
    out = [
        '<section id="worksheets" aria-labelledby="ws-h"><h2 id="ws-h">Worksheets</h2>',
        "<p>The computations behind the water-quality, pretreatment and recharge verdicts. Rows "
        "whose figures are not verified against their source are marked "
        f"{_unverified_tag()}.</p>",
    ]
    any_sheet = False
    for s in review.standards:
        d = s.details or {}
        if any(isinstance(d.get(k), dict) and "areas" in d[k] for k in ("tss", "tp")):
            out.append(_water_quality_sheet(s))
            any_sheet = True
        if d.get("worksheets"):
            out.append(_train_sheet(s))
            any_sheet = True
        if isinstance(d.get("required"), dict) and "by_hsg" in d["required"]:
            out.append(_recharge_sheet(s))
            any_sheet = True
    if not any_sheet:
        out.append("<p>No standard in this review produced a worksheet.</p>")
    out.append("</section>")
    return "".join(out)


def _sheet_head(s: StandardResult, what: str) -> str:
    return (
        f"<h3>{_e(what)} {_cite(s.citation)} {_badge(s.status)}</h3>"
        f'<p class="lead-in">{_e(s.title)}. {_e((s.details or {}).get("explanation", ""))}</p>'
    )


def _notes(part: dict[str, Any]) -> str:
    out = []
    if part.get("assumptions"):
        out.append('<p class="k">Assumptions</p>' + _list(_e(a) for a in part["assumptions"]))
    if part.get("flags"):
        out.append('<p class="k">Data flags</p>' + _flag_items(part["flags"]))
    if part.get("sources"):
        out.append('<p class="k">Sources</p>' + _list(_e(a) for a in part["sources"]))
    return f'<div class="notes">{"".join(out)}</div>' if out else ""


def _water_quality_sheet(s: StandardResult) -> str:
    out = [_sheet_head(s, "Water quality: TSS and total phosphorus")]
    req, prov = s.required or {}, s.provided or {}
    rows = []
    for key in ("tss_removal_pct", "tp_removal_pct"):
        if key in req:
            text, unit = _label(key)
            rows.append([_e(text), _value(req.get(key), unit), _value(prov.get(key), unit)])
    if "or_retention_cf" in req:
        rows.append(
            [
                "Or retention of runoff from the impervious area",
                _value(req["or_retention_cf"], "cf"),
                _value(prov.get("retention_cf"), "cf"),
            ]
        )
    if "post_impervious_ac" in prov:
        rows.append(
            ["Post-development impervious area", "", _value(prov["post_impervious_ac"], "ac")]
        )
    out.append(
        _table(
            "Required against provided (either route meets the standard)",
            ["Measure", "Required", "Provided"],
            rows,
            numeric=[False, True, True],
        )
    )
    for key in ("tss", "tp"):
        part = s.details.get(key)
        if not isinstance(part, dict):
            continue
        pollutant = part.get("pollutant", key.upper())
        out.append(f"<h4>{_e(pollutant)} removal by treated area</h4>")
        rows = [
            [
                _e(a.get("label", "")),
                _e(a.get("land_use", "")),
                _num(a.get("impervious_acres")),
                _num(a.get("load_weight")),
                _num(a.get("load_lb_yr")),
                _num(a.get("percent_removal"), 1),
                _num(a.get("removed_lb_yr")),
            ]
            for a in part.get("areas", [])
        ]
        foot = [
            "Site",
            "",
            _num(part.get("total_impervious_acres")),
            "",
            _num(part.get("total_load_lb_yr")),
            _num(part.get("percent_removal"), 1),
            _num(part.get("removed_lb_yr")),
        ]
        out.append(
            _table(
                f"{pollutant}: load basis {part.get('load_basis', 'not stated')}",
                [
                    "Area",
                    "Land use",
                    "Impervious (ac)",
                    "Load weight",
                    "Load (lb/yr)",
                    "Removal (%)",
                    "Removed (lb/yr)",
                ],
                rows,
                numeric=[False, False, True, True, True, True, True],
                foot=foot,
            )
        )
        out.append(_notes(part))
    return "".join(out)


def _train_sheet(s: StandardResult) -> str:
    out = [_sheet_head(s, "Pretreatment and the treatment train")]
    checks = (s.provided or {}).get("checks", []) if isinstance(s.provided, dict) else []
    for i, sheet in enumerate(s.details.get("worksheets") or []):
        if not isinstance(sheet, dict):
            continue
        bmp = checks[i].get("bmp") if i < len(checks) and isinstance(checks[i], dict) else None
        out.append(f"<h4>Train ending in {_e(bmp or f'infiltration practice {i + 1}')}</h4>")
        if sheet.get("rule"):
            out.append(f'<p class="rule"><span class="k">Rule:</span> {_e(sheet["rule"])}</p>')
        rows, classes = [], []
        for stage in sheet.get("stages", []):
            status = str(stage.get("check_status", ""))
            unverified = _is_unverified(status)
            rows.append(
                [
                    _e(stage.get("bmp_name") or stage.get("label", "")),
                    _e(stage.get("role", "")),
                    _num(stage.get("credit_pct"), 0),
                    _num(stage.get("load_in_fraction")),
                    _num(stage.get("removed_fraction")),
                    _num(stage.get("load_out_fraction")),
                    (_unverified_tag() + " " if unverified else "") + _e(_words(status)),
                    _e(stage.get("source", "")),
                ]
            )
            classes.append("unverified" if unverified else "")
        out.append(
            _table(
                "Stages from the most upgradient down (load as a fraction of what enters the train)",
                [
                    "BMP",
                    "Role",
                    "TSS credit (%)",
                    "Load in",
                    "Removed",
                    "Load out",
                    "Data status",
                    "Source",
                ],
                rows,
                numeric=[False, False, True, True, True, True, False, False],
                row_classes=classes,
                cls="train",
            )
        )
        total = sheet.get("total_removal_pct")
        target = sheet.get("train_target_pct")
        if total is not None:
            meets = sheet.get("meets_train_target")
            out.append(
                f"<p>Train TSS removal <strong>{_num(total, 1)} %</strong> against a target of "
                f"{_num(target, 0)} %: {'meets' if meets else 'does not meet'} the target.</p>"
            )
        checks_rows = [
            [
                _e(c.get("infiltration_bmp", "")),
                _e(", ".join(c.get("upstream_pretreatment_bmps") or []) or "none"),
                _num(c.get("upstream_removal_pct"), 1),
                _num(c.get("target_pct"), 0),
                "yes" if c.get("meets_target") else "<strong>no</strong>",
                _e(c.get("note") or ""),
            ]
            for c in sheet.get("pretreatment_checks", [])
        ]
        if checks_rows:
            out.append(
                _table(
                    "Pretreatment ahead of each infiltration practice",
                    [
                        "Infiltration practice",
                        "Pretreatment upstream",
                        "TSS removed upstream (%)",
                        "Target (%)",
                        "Meets",
                        "Note",
                    ],
                    checks_rows,
                    numeric=[False, False, True, True, False, False],
                )
            )
        out.append(_notes({k: v for k, v in sheet.items() if k in ("assumptions", "flags")}))
    return "".join(out)


def _recharge_sheet(s: StandardResult) -> str:
    d = s.details
    out = [_sheet_head(s, "Groundwater recharge")]
    required = d["required"]
    rows, classes = [], []
    for row in required.get("by_hsg", []):
        confidence = str(row.get("confidence", ""))
        unverified = _is_unverified(confidence)
        rows.append(
            [
                _e(row.get("hsg", "")),
                _num(row.get("impervious_area_sf"), 0),
                _num(row.get("target_depth_in")),
                _num(row.get("volume_cf"), 0),
                (_unverified_tag() + " " if unverified else "") + _e(_words(confidence)),
            ]
        )
        classes.append("unverified" if unverified else "")
    out.append(
        _table(
            "Required recharge volume by hydrologic soil group",
            [
                "HSG",
                "Impervious area (sq ft)",
                "Target depth F (in)",
                "Volume (cf)",
                "Data status",
            ],
            rows,
            numeric=[False, True, True, True, False],
            row_classes=classes,
            foot=["Total", "", "", _num(required.get("volume_cf"), 0), ""],
        )
    )
    out.append(_notes(required))
    steps = []
    adj = d.get("capture_adjustment")
    if isinstance(adj, dict):
        steps.append(
            (
                "Capture adjustment",
                f"{_num(adj.get('impervious_to_recharge_sf'), 0)} of "
                f"{_num(adj.get('total_impervious_sf'), 0)} sq ft of impervious area drains to "
                f"recharge ({_num(adj.get('capture_fraction'))}, minimum "
                f"{_num(adj.get('minimum_capture_fraction'))}: "
                f"{'met' if adj.get('meets_minimum_capture') else '<strong>not met</strong>'}); "
                f"volume adjusted from {_num(adj.get('required_volume_cf'), 0)} to "
                f"<strong>{_num(adj.get('adjusted_volume_cf'), 0)} cf</strong>.",
                adj,
            )
        )
    provided = d.get("provided")
    if isinstance(provided, dict):
        static = provided.get("static_storage_cf") or []
        steps.append(
            (
                "Recharge provided",
                f"<strong>{_num(provided.get('volume_cf'), 0)} cf</strong>"
                + (
                    f" of static storage ({_e(', '.join(_num(v, 0) for v in static))} cf)"
                    if static
                    else ""
                )
                + ".",
                provided,
            )
        )
    dd = d.get("drawdown")
    if isinstance(dd, dict):
        steps.append(
            (
                "Drawdown",
                f"{_num(dd.get('recharge_volume_cf'), 0)} cf over "
                f"{_num(dd.get('bottom_area_sf'), 0)} sq ft of bottom at "
                f"{_num(dd.get('infiltration_rate_in_hr'))} in/h ({_e(dd.get('rate_basis', ''))}) "
                f"drains in <strong>{_num(dd.get('drawdown_hr'), 1)} h</strong>, limit "
                f"{_num(dd.get('max_drawdown_hr'), 0)} h: "
                f"{'met' if dd.get('meets_limit') else '<strong>not met</strong>'}.",
                dd,
            )
        )
    if steps:
        items = "".join(
            f"<div><dt>{_e(name)}</dt><dd>{text}{_notes(part)}</dd></div>"
            for name, text, part in steps
        )
        out.append(f'<dl class="steps">{items}</dl>')
    out.append(
        f"<p>Required {_value((s.required or {}).get('recharge_volume_cf'), 'cf')}; provided "
        f"{_value((s.provided or {}).get('recharge_volume_cf'), 'cf')}.</p>"
    )
    return "".join(out)


# ---------------------------------------------------------------- law, flags, inputs


def _outcome_text(outcome: Any) -> str:
    if outcome is True:
        return "Yes"
    if outcome is False:
        return "No"
    if isinstance(outcome, list | tuple):
        parts = []
        for item in outcome:
            if hasattr(item, "id"):
                applies = getattr(item, "applies", True)
                name = getattr(item, "title", None) or _words(item.id)
                parts.append(f"{name}{'' if applies else ' (does not apply)'}")
            else:
                parts.append(str(item))
        return ", ".join(parts)
    return _words(outcome).capitalize() if isinstance(outcome, str) else str(outcome)


def _determination(det: Determination, heading: str) -> str:
    reasons = "".join(
        f"<li>{_cite(r.citation)} {_e(legal_dates_in(r.text))}</li>" for r in det.reasons
    )
    rows = [
        [
            f"<code>{_e(p.version)}</code>",
            _value(p.value),
            _e(legal_date(p.effective)),
            _e(p.amendment or "—"),
            _cite(p.citation),
        ]
        for p in det.parameters
    ]
    table = (
        _table(
            f"Parameter versions used ({det.town}, law as of {legal_date(det.as_of)})",
            ["Parameter version", "Value", "In force from", "Amendment", "Citation"],
            rows,
            cls="params",
        )
        if rows
        else "<p>No parameter was consulted.</p>"
    )
    return (
        f"<h3>{_e(heading)}</h3><p><span class=k>Question:</span> {_e(det.question)}<br>"
        f"<span class=k>Answer:</span> <strong>{_e(_outcome_text(det.outcome))}</strong></p>"
        f'<ol class="reasons">{reasons}</ol>{table}'
    )


def _law(review: SiteReview) -> str:
    return (
        '<section id="law" aria-labelledby="law-h"><h2 id="law-h">The law applied</h2>'
        f"<p>{_e(review.town.name)}, law in force on {_e(legal_date(review.as_of))}. Each answer "
        "lists its reasons in order, each with the section it rests on, and the version of every "
        "parameter used, so the review can be reproduced.</p>"
        + _determination(review.permit, "Is a permit required?")
        + _determination(review.classification, "What kind of project is it?")
        + _determination(review.standards_determination, "Which standards bind?")
        + "<h3>Every section relied on</h3>"
        + _list((_cite(c) for c in review.citations), "cites")
        + "</section>"
    )


def _flags_and_assumptions(review: SiteReview) -> str:
    unverified = [f for f in review.flags if _is_unverified(f)]
    other = [f for f in review.flags if not _is_unverified(f)]
    out = [
        '<section id="flags" aria-labelledby="flags-h">'
        '<h2 id="flags-h">Data flags and assumptions</h2>'
    ]
    out.append(f"<h3>Unverified data ({len(unverified)})</h3>")
    if unverified:
        out.append(
            '<div class="unverified-box"><p>These figures are recalled, placeholders or were not '
            "found in their source. Each verdict that rests on one is marked in the verdict "
            f"table.</p>{_flag_items(unverified)}</div>"
        )
    else:
        out.append("<p>No figure behind this review is flagged as unverified.</p>")
    confirmed = review.confirmed_data
    out.append(f"<h3>Figures confirmed by a reviewer ({len(confirmed)})</h3>")
    out.append(
        _list(
            _e(
                f"{c['what']}: {_num(c['value'])} {c['unit']} (the table held "
                f"{_num(c['table_value'])} {c['unit']}), from {c['layer']}, checked against "
                f"{c['source']} ({c['citation']})."
            )
            for c in confirmed
        )
        or "<p>None.</p>"
    )
    out.append(f"<h3>Other data notes ({len(other)})</h3>")
    out.append(_flag_items(other) or "<p>None.</p>")
    out.append(f'<h3 id="assumptions">Assumptions ({len(review.assumptions)})</h3>')
    out.append(
        '<ol class="assumptions">'
        + "".join(f"<li>{_e(a)}</li>" for a in review.assumptions)
        + "</ol>"
    )
    out.append("</section>")
    return "".join(out)


def _inputs(review: SiteReview) -> str:
    try:
        text = yaml.dump(
            review.site.raw,
            Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper),
            sort_keys=False,
            allow_unicode=True,
            default_flow_style=None,
            width=96,
        )
    except yaml.YAMLError:
        text = repr(review.site.raw)
    return (
        '<section id="inputs" aria-labelledby="inputs-h"><h2 id="inputs-h">Inputs</h2>'
        "<p>The site file as loaded, every field echoed (YAML).</p>"
        f'<pre class="inputs" tabindex="0" aria-label="Site file as loaded">{_e(text)}</pre>'
        "</section>"
    )


CSS = """
:root { color-scheme: light; }
* { box-sizing: border-box; }
html { font-size: 100%; -webkit-text-size-adjust: 100%; }
body {
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, "DejaVu Sans", sans-serif;
  color: #1b1b1b; background: #ffffff; line-height: 1.45;
  max-width: 72rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; overflow-wrap: break-word;
}
a { color: #0b4f8a; }
a:focus, pre:focus, .table-wrap:focus { outline: 3px solid #1a5fb4; outline-offset: 2px; }
.skip { position: absolute; left: -10000px; top: 0; }
.skip:focus { left: 1rem; background: #ffffff; padding: .5rem; z-index: 2; }
h1 { font-size: 1.75rem; margin: .1em 0 .5em; line-height: 1.2; }
h1 .site-name { string-set: sitename content(); }
h2 { font-size: 1.4rem; margin: 2.2rem 0 .6rem; padding-bottom: .2rem;
     border-bottom: 2px solid #1f3b57; color: #14273a; }
h3 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; color: #14273a; }
h4 { font-size: 1rem; margin: 1.2rem 0 .4rem; }
p { margin: .35rem 0 .6rem; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .85em; }
.kicker { text-transform: uppercase; letter-spacing: .06em; font-size: .85rem;
          color: #4a4a4a; margin: 0; }
.muted, .small { color: #4a4a4a; }
.small { font-size: .82em; }
.k { font-weight: 600; color: #333333; }
.cite { font-weight: 600; }
table.verdicts .cite { overflow-wrap: normal; }
dl.summary { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(15rem, 100%), 1fr));
             gap: .4rem 1.5rem; margin: 0 0 1rem; padding: .75rem 1rem;
             background: #f3f6f9; border: 1px solid #c9d3dd; }
dl.summary div { margin: 0; }
dl.summary dt { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: #4a4a4a; }
dl.summary dd { margin: 0; font-weight: 600; }
.badge { display: inline-block; font-weight: 700; padding: .05em .45em .1em; border-radius: .25em;
         border: 1px solid; white-space: nowrap; font-size: .92em; line-height: 1.35; }
.badge .icon, .tag-unverified .icon, .banner > .icon { vertical-align: -0.15em; margin-right: .3em; }
.icon { width: 1em; height: 1em; }
.badge.pass { color: #0f5323; background: #e3f1e6; border-color: #1e7b34; }
.badge.fail { color: #8a1116; background: #fbe4e5; border-color: #b3261e; }
.badge.needs_information { color: #6b4200; background: #fff1cc; border-color: #8a5a00; }
.badge.not_applicable { color: #3d3d3d; background: #eeeeee; border-color: #767676; }
.tag-unverified { display: inline-block; font-weight: 700; font-size: .85em; color: #6b4200;
                  background: #fff1cc; border: 1px solid #8a5a00; border-radius: .2em;
                  padding: 0 .35em; white-space: nowrap; }
.banner { display: flex; gap: .75rem; align-items: flex-start; margin: 0 0 1rem;
          padding: .7rem 1rem; background: #fff1cc; border: 2px solid #8a5a00;
          border-left-width: .6rem; color: #3b2600; }
.banner > .icon { width: 1.6rem; height: 1.6rem; flex: none; margin-top: .2rem; }
.banner p { margin: .1rem 0; }
.unverified-box { background: #fff8e1; border: 2px solid #8a5a00; padding: .5rem 1rem; }
nav.toc ol { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; list-style: none;
             padding: 0; margin: 0 0 .5rem; }
nav.toc a { display: inline-block; padding: .3rem 0; }
.table-wrap { overflow-x: auto; margin: .4rem 0 1rem; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: .25rem 0 .35rem;
          color: #14273a; }
th, td { border: 1px solid #b9b9b9; padding: .3rem .45rem; vertical-align: top; text-align: left; }
thead th { background: #e8eef4; }
tbody th { font-weight: 600; background: #fafbfc; }
tfoot th, tfoot td { font-weight: 700; background: #f3f6f9; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num, .nowrap { white-space: nowrap; }
tr.exceeds > * { background: #fbe4e5; }
tr.unverified > * { background: #fff6dc; }
table.verdicts td:last-child { min-width: 15rem; }
table.verdicts td:nth-child(2) .badge { white-space: nowrap; }
@media screen and (max-width: 60rem) { table.verdicts { font-size: .85rem; } }
table.verdicts td, table.verdicts th, table.params td { overflow-wrap: break-word; }
table.verdicts .badge { overflow-wrap: normal; }
tr.status-fail > th[scope=row] { border-left: 5px solid #b3261e; }
tr.status-needs_information > th[scope=row] { border-left: 5px solid #8a5a00; }
tr.status-pass > th[scope=row] { border-left: 5px solid #1e7b34; }
.std-title { font-weight: 600; }
ul.kv, ul.plain { list-style: none; margin: 0; padding: 0; }
ul.plain > li + li { margin-top: .2rem; }
p.mep { font-style: italic; margin: .2rem 0; }
p.note { margin: .2rem 0; }
p.rests { margin: .3rem 0; }
ul.flags { padding-left: 1.2rem; }
ul.flags li { margin: .25rem 0; overflow-wrap: anywhere; }
ul.flags li.unverified { font-weight: 600; }
.notes { font-size: .88rem; margin: .2rem 0 1rem; }
.notes ul { margin: .1rem 0 .4rem; }
dl.steps dt { font-weight: 700; margin-top: .6rem; }
dl.steps dd { margin: .1rem 0 .4rem 1rem; }
figure.chart-figure { margin: 1rem 0 1.5rem; }
svg.chart { width: 100%; height: auto; max-width: 54rem; display: block; }
figcaption { font-size: .9rem; color: #333333; margin-top: .25rem; }
details { margin: .3rem 0; }
summary { cursor: pointer; font-weight: 600; color: #0b4f8a; padding: .3rem 0; }
table.series { width: auto; min-width: 20rem; font-size: .85rem; }
ol.reasons li { margin: .2rem 0; }
table.params code { word-break: break-all; }
pre.inputs { background: #f6f7f9; border: 1px solid #c9d3dd; padding: .75rem 1rem;
             font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: .82rem;
             line-height: 1.35; white-space: pre-wrap; overflow-wrap: anywhere; }
footer { margin-top: 2.5rem; border-top: 1px solid #c9d3dd; font-size: .85rem; color: #4a4a4a; }
@media (max-width: 48rem) {
  body { padding: .75rem .75rem 2rem; }
  h1 { font-size: 1.45rem; }
  table { font-size: .85rem; }
}
@page {
  size: Letter;
  margin: 0.75in 0.6in 0.75in 0.6in;
  @top-left { content: string(sitename); font: 8pt Helvetica, Arial, "DejaVu Sans", sans-serif;
              color: #4a4a4a; }
  @top-right { content: "Stormwater management review";
               font: 8pt Helvetica, Arial, "DejaVu Sans", sans-serif; color: #4a4a4a; }
  @bottom-right { content: "Page " counter(page) " of " counter(pages);
                  font: 8pt Helvetica, Arial, "DejaVu Sans", sans-serif; color: #4a4a4a; }
}
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 9.5pt;
         font-family: Helvetica, Arial, "Liberation Sans", "DejaVu Sans", sans-serif; }
  h1 { font-size: 18pt; }
  h2 { font-size: 14pt; margin-top: 16pt; }
  h3 { font-size: 11.5pt; }
  h4 { font-size: 10pt; }
  h2, h3, h4, caption, p.lead-in { break-after: avoid; page-break-after: avoid; }
  nav.toc, .skip, summary { display: none; }
  table.verdicts td:nth-child(2) .badge { white-space: normal; }
  a { color: inherit; text-decoration: none; }
  .table-wrap { overflow: visible; }
  table { font-size: 8.5pt; }
  table.verdicts, table.params { table-layout: fixed; }
  table.verdicts td:last-child { min-width: 0; }
  table.verdicts thead th:nth-child(1) { width: 17%; }
  table.verdicts thead th:nth-child(2) { width: 13%; }
  table.verdicts thead th:nth-child(3) { width: 11%; }
  table.verdicts thead th:nth-child(4) { width: 17%; }
  table.verdicts thead th:nth-child(5) { width: 19%; }
  table.params thead th:nth-child(1) { width: 38%; }
  table.params thead th:nth-child(2) { width: 22%; }
  table.params thead th:nth-child(3) { width: 12%; }
  table.params thead th:nth-child(4) { width: 16%; }
  thead { display: table-header-group; }
  tr, figure, .banner, dl.summary, li { break-inside: avoid; page-break-inside: avoid; }
  figure.chart-figure { break-inside: avoid; }
  svg.chart { max-width: 100%; }
  dl.summary { display: block; }
  dl.summary div { display: inline-block; width: 32%; vertical-align: top; margin: 0 0 4pt; }
  dl.summary div:last-child { width: 100%; }
  details { columns: 3; column-gap: 12pt; }
  table.series { width: 100%; min-width: 0; font-size: 7pt; }
  table.series th, table.series td { padding: 1pt 3pt; }
  table.series caption { column-span: all; }
  section#inputs { break-before: page; }
  pre.inputs { font-size: 7.5pt; }
}
"""
