"""`outfall check SITE`: the review as text, JSON, or the reviewer's report in HTML or PDF."""

from __future__ import annotations

import json
from pathlib import Path

from outfall.cli.main import run

EXAMPLE = str(
    Path(__file__).resolve().parents[2] / "examples" / "sites" / "maple-street-subdivision.yaml"
)


def test_an_html_report_is_written_to_the_file_named_by_out(tmp_path):
    out = tmp_path / "review.html"
    status, stdout, err = run(["check", EXAMPLE, "--format", "html", "--out", str(out)])
    assert status == 0, err
    doc = out.read_text(encoding="utf-8")
    assert doc.startswith("<!DOCTYPE html>")
    assert "Maple Street Subdivision (example)" in doc
    assert str(out) in stdout


def test_a_pdf_report_is_written_and_json_names_the_file_and_the_verdict(tmp_path):
    out = tmp_path / "review.pdf"
    status, stdout, err = run(["check", EXAMPLE, "--format", "pdf", "--out", str(out), "--json"])
    assert status == 0, err
    assert out.read_bytes().startswith(b"%PDF")
    data = json.loads(stdout)
    assert data["format"] == "pdf" and data["report"] == str(out)
    assert data["verdict"] in {"pass", "fail", "needs_information"}
    assert "§ 267-19B(1)" in data["citations"]


def test_an_html_report_without_a_file_to_write_to_exits_2_with_one_line(tmp_path):
    status, stdout, err = run(["check", EXAMPLE, "--format", "html"])
    assert status == 2
    assert stdout == ""
    assert "--out" in err and len(err.strip().splitlines()) == 1


def test_a_pdf_report_without_a_file_to_write_to_exits_2(tmp_path):
    status, _, err = run(["check", EXAMPLE, "--format", "pdf"])
    assert status == 2 and "--out" in err
