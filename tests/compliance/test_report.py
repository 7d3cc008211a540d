"""The reviewer's report: verdicts first, every number behind them, nothing hidden or unescaped."""

from __future__ import annotations

import copy
import html
import itertools
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from tests.pdf_papers import legal_style_problems, pdf_text, pdf_ua_problems

from outfall.compliance import report
from outfall.compliance.provenance import flag_note
from outfall.compliance.review import review_site
from outfall.compliance.sitefile import site_from_dict
from outfall.kernel.legal_style import legal_date

EXAMPLE = (
    Path(__file__).resolve().parents[2] / "examples" / "sites" / "maple-street-subdivision.yaml"
)


@pytest.fixture(scope="module")
def example() -> dict:
    return yaml.safe_load(EXAMPLE.read_text())


@pytest.fixture(scope="module")
def review(example):
    return review_site(site_from_dict(copy.deepcopy(example)))


@pytest.fixture(scope="module")
def doc(review) -> str:
    return report.review_html(review)


def _section(doc: str, section_id: str) -> str:
    start = doc.index(f'<section id="{section_id}"')
    return doc[start : doc.index("</section>", start)]


def _cited(section: str, citation: str) -> bool:
    """Whether the citation appears, however the report lets it break across lines."""
    return html.escape(citation) in section.replace("<wbr>", "").replace("\u00a0", " ")


def _pdf_text(pdf: bytes, tmp_path: Path) -> list[str]:
    """The text of each page, by poppler's pdftotext where installed, else pypdf."""
    if shutil.which("pdftotext"):
        path = tmp_path / "report.pdf"
        path.write_bytes(pdf)
        out = subprocess.run(
            ["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True, text=True
        ).stdout
        return [page for page in out.split("\f") if page.strip()]
    pypdf = pytest.importorskip("pypdf")
    import io

    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def test_the_report_is_one_standalone_html5_document_in_english(doc):
    assert doc.startswith("<!DOCTYPE html>")
    assert '<html lang="en">' in doc
    assert "<style>" in doc
    for outside in ("<script", "<link", "<img", "@import", "url(http"):
        assert outside not in doc
    assert not re.search(r'(?:src|href)="(?!#)', doc), "every link stays inside the document"


def test_the_verdicts_come_before_the_design_points(doc):
    assert doc.index('<section id="verdicts"') < doc.index('<section id="design-points"')
    assert doc.index('<section id="design-points"') < doc.index('<section id="inputs"')


def test_every_standard_is_in_the_verdict_table_with_its_status_in_words(doc, review):
    verdicts = _section(doc, "verdicts")
    for s in review.standards:
        assert f"<code>{html.escape(s.id)}</code>" in verdicts
        assert _cited(verdicts, s.citation)
        assert f'<span class="badge {s.status}">' in verdicts
    for status in {s.status for s in review.standards}:
        assert report.STATUS_LABEL[status] in verdicts


def test_a_status_is_told_by_a_word_and_an_icon_shape_not_by_colour_alone(doc):
    for badge in re.findall(r'<span class="badge [a-z_]+">.*?</span>', doc):
        assert '<svg class="icon"' in badge
        assert re.search(r"(PASS|FAIL|NEEDS INFORMATION|NOT APPLICABLE)</span>$", badge)


def test_the_overall_verdict_and_the_law_date_are_in_the_header(doc, review):
    header = doc[doc.index("<header") : doc.index("</header>")]
    assert report.STATUS_LABEL[review.verdict] in header
    assert f'datetime="{review.as_of.isoformat()}">{legal_date(review.as_of)}</time>' in header
    assert html.escape(review.town.name) in header


def test_each_design_point_has_one_hydrograph_plot_per_storm(doc, review):
    points = review.design_points()
    charts = re.findall(r'<svg [^>]*data-chart="hydrograph".*?</svg>', doc, flags=re.S)
    assert len(charts) == len(points) * len(review.storms)
    for chart in charts:
        assert "<title" in chart and "<desc" in chart and 'aria-label="' in chart
        assert "Time (hours)" in chart and "Flow (cfs)" in chart
        assert "Pre-development" in chart and "Post-development" in chart
        assert "stroke-dasharray" in chart, "the two series differ by dash as well as colour"


def test_each_plot_points_to_a_data_table_of_its_ordinates(doc):
    for chart in re.findall(r'<svg [^>]*class="chart [^"]*"[^>]*>', doc):
        table_id = re.search(r'aria-describedby="[^ "]+ ([^"]+)"', chart)[1]
        assert f'<table class="series" id="{table_id}">' in doc


def test_the_design_point_table_shows_each_storm_peak_time_and_volume(doc, review):
    section = _section(doc, "design-points")
    for point in review.design_points():
        for storm in point["storms"]:
            for side in ("pre", "post"):
                assert f"{storm[side]['peak_cfs']:,.2f}" in section
                assert f"{storm[side]['volume_cf']:,.0f}" in section


def test_a_plot_axis_ends_on_a_round_number_at_or_above_the_peak():
    ticks, low, high = report._ticks(0.0, 31.78)
    assert low == 0.0 and high >= 31.78
    assert all(t == round(t) for t in ticks)
    assert len(ticks) <= 8


def test_each_pond_has_its_peaks_mass_balance_and_a_stage_plot(doc, review):
    ponds = {(n.condition, n.name) for n in review.nodes if n.kind == "pond"}
    section = _section(doc, "ponds")
    assert section.count('data-chart="stage"') == len(ponds)
    assert "Mass balance error (%)" in section and "Peak elevation (ft)" in section
    for node in (n for n in review.nodes if n.kind == "pond"):
        assert f"{node.values['peak_elev_ft']:.2f}" in section
        assert f"{node.values['peak_storage_cf']:,.0f}" in section


def test_every_subcatchment_is_tabulated_with_its_curve_number_and_tc(doc, review):
    section = _section(doc, "subcatchments")
    for node in (n for n in review.nodes if n.kind == "subcatchment"):
        assert html.escape(node.name) in section
        assert f"{node.values['cn']:.2f}" in section
        assert f"{node.values['tc_min']:.1f}" in section


def test_the_worksheets_show_the_train_rule_and_the_recharge_arithmetic(doc, review):
    section = _section(doc, "worksheets")
    by_id = {s.id: s for s in review.standards}
    train = by_id["pretreatment"].details["worksheets"][0]
    assert html.escape(train["rule"]) in section
    recharge = by_id["recharge"]
    assert f"{recharge.details['required']['volume_cf']:,.0f}" in section
    assert f"{recharge.details['drawdown']['drawdown_hr']:.1f} h" in section
    assert "TSS removal by treated area" in section and "TP removal by treated area" in section


def test_the_law_section_lists_every_reason_and_parameter_version(doc, review):
    section = _section(doc, "law")
    for det in (review.permit, review.classification, review.standards_determination):
        for reason in det.reasons:
            assert html.escape(reason.text) in section
        for use in det.parameters:
            assert html.escape(use.version) in section


def test_every_flag_in_words_and_every_assumption_is_listed(doc, review):
    section = _section(doc, "flags")
    assert review.flags and review.assumptions
    for text in (*(flag_note(f).text for f in review.flags), *review.assumptions):
        assert html.escape(text) in section


def test_unverified_table_rows_are_marked_and_announced_at_the_top(doc, review):
    unverified = [f for f in review.flags if "UNVERIFIED" in f.upper()]
    assert unverified
    header = doc[doc.index("<header") : doc.index("</header>")]
    assert 'class="banner"' in header and "UNVERIFIED" in header
    box = _section(doc, "flags")
    for flag in unverified:
        marked = r'<li class="unverified"><span class="tag-unverified">.*?UNVERIFIED</span> '
        words = flag_note(flag).text
        assert re.search(marked + re.escape(html.escape(words)) + "</li>", box)


def test_placeholder_rainfall_is_flagged_unverified_wherever_it_is_used(example):
    data = copy.deepcopy(example)
    del data["rainfall"]["storms"]
    data["name"] = "Placeholder rainfall"
    review = review_site(site_from_dict(data))
    doc = report.review_html(review)
    placeholder_flags = [f for f in review.flags if "placeholder" in f]
    assert placeholder_flags
    for flag in placeholder_flags:
        assert html.escape(flag) in _section(doc, "flags")
    assert "are UNVERIFIED placeholders" in doc[: doc.index("</header>")]
    table = _section(doc, "design-points").split("</table>")[0]
    assert table.count('<span class="tag-unverified">') == len(review.storms)


def test_the_site_file_is_echoed_in_full(doc, example):
    inputs = _section(doc, "inputs")
    assert "<pre" in inputs
    echoed = yaml.safe_load(html.unescape(re.search(r"<pre[^>]*>(.*)</pre>", inputs, re.S)[1]))
    assert echoed == example


def test_every_table_has_a_caption_and_every_header_cell_a_scope(doc):
    assert doc.count("<table") == doc.count("<caption>")
    assert not re.search(r"<th(?=[\s>])(?![^>]*scope=)[^>]*>", doc)


def test_headings_descend_one_level_at_a_time(doc):
    levels = [int(n) for n in re.findall(r"<h([1-6])[ >]", doc)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b - a <= 1 for a, b in itertools.pairwise(levels))


def test_the_print_style_sets_letter_pages_with_numbers(doc):
    assert "size: Letter" in doc
    assert 'counter(page) " of " counter(pages)' in doc


def test_names_from_the_site_file_are_escaped_everywhere(example):
    data = copy.deepcopy(example)
    data["name"] = "<script>alert('site')</script> & Sons"
    data["conditions"]["pre"]["subcatchments"][1]["name"] = '<img src=x onerror="alert(1)">'
    doc = report.review_html(review_site(site_from_dict(data)))
    assert "<script" not in doc and "<img" not in doc
    assert "&lt;script&gt;alert(&#x27;site&#x27;)&lt;/script&gt; &amp; Sons" in doc
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in doc


@pytest.fixture(scope="module")
def failing_review(example):
    data = copy.deepcopy(example)
    data["project"]["om_plan_provided"] = False
    return review_site(site_from_dict(data))


def test_a_failing_standard_makes_the_report_read_fail(failing_review):
    doc = report.review_html(failing_review)
    assert failing_review.verdict == "fail"
    om = next(s for s in failing_review.standards if s.id == "om_plan")
    assert om.status == "fail"
    assert '<span class="badge fail">' in _section(doc, "verdicts")


def test_the_pdf_is_a_real_multi_page_pdf_with_the_site_and_its_verdicts(failing_review, tmp_path):
    pdf = report.review_pdf(failing_review)
    assert pdf.startswith(b"%PDF")
    pages = _pdf_text(pdf, tmp_path)
    assert len(pages) >= 2
    text = "\n".join(pages)
    assert failing_review.site.name in text
    assert "PASS" in text and "FAIL" in text
    assert "Page 1 of" in pages[0]


def test_the_pdf_is_tagged_pdf_ua_and_dates_the_law_in_legal_style(failing_review):
    """Filed with a case, the report is an accessible paper like the Board's: tagged PDF/UA with
    its language and title, every date written "November 9, 2021" (issue 11). The site file it
    echoes at the end is quoted as loaded, and a parameter's version names its date as an
    identifier (`name@2021-11-09`)."""
    pdf = report.review_pdf(failing_review)
    assert pdf_ua_problems(pdf) == []
    text = pdf_text(pdf)
    assert legal_date(failing_review.as_of) in text
    assert legal_style_problems(text[: text.rindex("The site file as loaded")]) == []
